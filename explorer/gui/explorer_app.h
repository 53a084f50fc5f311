// The explorer's state and its ImGui panels: the layout inputs (A, B, shape, alias file), the
// algebra operation, the view, the canvas, the hover inspector and the exports. Everything the
// window shows is derived from the inputs by `rebuild()`; the views are Scenes (scene.h).
#pragma once

#include "kernel_ops.h"
#include "layout/views/bank_view.h"
#include "layout/views/conversion_trace.h"
#include "layout/views/layout_maps.h"
#include "layout/views/mma_operands.h"
#include "layout/views/scene.h"
#include "scene_canvas.h"

#include "layout/text/mlir_attribute.h"

#include <nlohmann/json.hpp>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace layout::views {

enum class ViewKind { Tensor, Hardware, Matrix, Banks, BlockLoad, Diff, Operands, Convert };
enum class AlgebraOp { None, Compose, Invert, InvertAndCompose, Product };
enum class Shown { A, B, Result };

const char* viewName(ViewKind v);
std::optional<ViewKind> viewFromName(const std::string& name);
const char* opName(AlgebraOp op);
std::optional<AlgebraOp> opFromName(const std::string& name);

struct ExplorerInputs {
  std::string layoutA, layoutB, shape = "16x16";
  std::string aliasFile;
  ViewKind view = ViewKind::Tensor;
  AlgebraOp op = AlgebraOp::None;
  std::string colorBy; // empty: lane (or the first in-dim)
  // Banks view: the access is layout A, over `shape`.
  std::string shared =
      "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>";
  std::string instruction = "nvidia.ld.b32";
  int elemBits = 16;
  // Block-load view: layout A is the DPAS operand (#ttg.dot_op of #ttig.dpas) or an XeGPU
  // layout over the load_nd's descriptor shape; for XeGPU, one load's block "RxC" (empty: the
  // layout's inst_data, else sg_data, else the shape) and its array_length.
  int workItem = 0;
  std::string block;
  int arrayLength = 1;
  // Operands view: layout A is an MMA encoding over M x N (the shape); A is M x k, B is k x N.
  int k = 32;
  // Start zoom: "labels" (the smallest zoom where labels show; a view of several grids that are
  // not all whole there opens framed on them instead), "fit" (every grid) or a number.
  std::string zoom = "labels";
  // Display: "light" or "dark"; the UI scale (0: the monitor's content scale, for HiDPI); the
  // side panel's width at scale 1 (it can be dragged wider or narrower).
  std::string theme = "light";
  float uiScale = 0;
  float panelWidth = 430;
};

class ExplorerApp {
public:
  explicit ExplorerApp(ExplorerInputs inputs);
  // The display options once ImGui exists: theme, UI scale (0: `contentScale`), panel width.
  void applyDisplay(float contentScale);

  // Recomputes layouts, maps and the scene from the inputs. Returns false (and keeps the
  // message for the panel) when an input is invalid.
  bool rebuild();
  // One frame of UI (call between ImGui::NewFrame and ImGui::Render).
  void frame();

  const Scene& scene() const { return scene_; }
  const SceneCanvas& canvas() const { return canvas_; }
  SceneCanvas& canvas() { return canvas_; }
  void setView(ViewKind v);
  // The first error of the inputs ("" when none).
  std::string error() const;
  // Why the colour-by dim of the inputs cannot colour the shown layout (it is not one of its
  // in-dims; the message lists them), or "" (no dim given, a valid one, or no layout shown).
  std::string colorByError() const;
  // Selection and counts, geometry of the grids in window pixels, frame times, exports.
  nlohmann::ordered_json report() const;
  // What the Export panel copies: the command line and state string that reopen this view, and
  // the shown layout as #ttg.linear text (or why it cannot be) and as layout JSON.
  struct Exports {
    std::string commandLine, state, linear, json;
  };
  Exports exports() const;
  // A pasted or --state session: its inputs (the start zoom stays) and its selection.
  void restoreState(const struct SessionState& state);
  void recordFrameTime(double ms) { frameMs_.push_back(ms); }

private:
  // The banks view's access picker: the inputs its accesses were listed for (new inputs reset
  // it to the worst), the access picked (-1: the worst), and what the last scene drew, for the
  // panel and the report (special_views.cpp).
  struct BankPicker {
    std::string inputs;
    int pick = -1;
    std::vector<BankAccess> accesses;
    std::vector<int> worstFirst;
    int shown = -1; // -1: no banks scene
    // "access 3: warp 0, issue 3, 8 wavefronts (ideal 4)", the picker's entry for access k.
    std::string name(int k) const;
  };
  BankPicker bankPicker_;
  // The drawn access and the list it was picked from, or null outside the banks view.
  nlohmann::ordered_json bankAccessReport() const;
  // Reads in_.aliasFile into aliases_ / aliasNames_, or sets aliasError_.
  void loadAliasFile();
  // What a tensor type as layout A says: the shape field follows it, and (once per type and view,
  // so that the fields stay editable) the element bits, and the operands view's K.
  void applyTensorTypes();
  void inputPanel();
  void kernelOpsPanel(); // the --input file's analysed ops; a click opens the op's view
  void algebraPanel();
  void viewPanel();
  void specialPanels();
  void inspectorPanel();
  void exportPanel();
  // The message, and under it the input line with a caret at `where` (the error's location).
  void errorBox(const std::string& message, const std::string& text,
                std::optional<layout::SourceLocation> where = std::nullopt);
  void handleClick(const CellHit& hit);
  void updateSelection();
  void buildScene();
  struct ShapedText {
    std::string text;
    layout::Expected<std::vector<int64_t>> shape;
  };
  ShapedText layoutAWithShape() const; // the encoding text of layout A and its tensor shape
  void buildSpecialScene();            // banks, blockload (special_views.cpp)
  void buildOperandsScene();           // operands (special_views.cpp)
  void buildConvertScene();            // convert (special_views.cpp)
  // The convert view's clicked element: its trace, marked in the scene (special_views.cpp).
  void applyConvertPick();
  void convertPlanPanel(); // the plan text, folded, under the inspector (special_views.cpp)
  // The operands view's clicked C element: its threads' A row and B column cells, marked.
  void applyOperandsPick();
  void clearSelection(); // the selected thread and the convert and operands views' clicked element
  const TensorMap* shownMap() const;

  ExplorerInputs in_;
  layout::AttrAliases aliases_;
  std::vector<std::string> aliasNames_;
  std::vector<std::string> tensorTypes_; // the alias file's tensor types (a TTGIR file)
  std::string typeApplied_;              // the type and view applyTensorTypes() last applied
  std::string aliasError_;
  // The alias file's analysed ops (an MLIR file, layout/report), the row last clicked, and each
  // row's rectangle in window pixels when it was drawn in the last frame (for the report).
  std::vector<KernelOp> kernelOps_;
  std::optional<size_t> kernelOp_;
  std::vector<std::optional<std::array<float, 4>>> kernelOpRects_;
  // Why the report did not analyse the file's module (an unknown ttg.target), shown in the
  // kernel ops panel in place of the rows, and where it was drawn in the last frame.
  std::string kernelError_;
  std::optional<std::array<float, 4>> kernelErrorRect_;
  // Parsed state.
  std::optional<layout::LinearLayout> a_, b_, result_;
  std::optional<TensorMap> mapA_, mapB_, mapResult_;
  std::string errA_, errB_, errShape_, errOp_, errView_;
  std::optional<layout::SourceLocation> whereA_, whereB_;
  Shown shown_ = Shown::A;
  std::optional<uint64_t> selectedThread_;
  Scene scene_;
  // The shape layout A gave itself (tensor type, layout JSON); empty: the shape field's.
  std::vector<int64_t> ownShape_;
  bool intelTerms_ = false;    // layout A is an XeGPU or Intel DPAS layout
  std::string swizzledShared_; // the banks view's synthesized swizzle as encoding text
  // The banks view's tensor cells per heat-map cell (bank_view.h), for clicks.
  std::map<std::string, std::vector<std::vector<uint64_t>>> bankElements_;
  std::optional<std::pair<std::string, size_t>> bankClick_; // the clicked heat-map cell
  // The convert view: its plan (of mapA_ to mapB_), the clicked element and its trace.
  struct ConvertPick {
    bool dst = false; // clicked in "convert.dst"
    int row = 0, col = 0;
    friend bool operator==(const ConvertPick&, const ConvertPick&) = default;
  };
  std::optional<layout::conversion::ConversionPlan> convertPlan_;
  std::optional<ConvertPick> convertPick_;
  std::optional<ElementTrace> convertTrace_;
  // The operands view's clicked mma.C element (row, col) and what it marks in A, B and C.
  std::optional<std::pair<int, int>> operandsClick_;
  std::optional<OperandsPick> operandsPick_;
  uint64_t sceneVersion_ = 0; // bumped by buildScene (the canvas caches textures per version)
  bool refit_ = true;
  float panelWidth_ = 430; // pixels, after the UI scale
  float uiScale_ = 1;
  SceneCanvas canvas_;
  std::string status_;
  std::string svgPath_ = "layout.svg", pngPath_ = "layout.png", pastedState_;
  std::vector<double> frameMs_;
  // Summary lines for the special views (bank reports, block-load plan).
  std::vector<std::string> viewNotes_;

public:
  // Set by the export panel; the main loop writes the PNG after rendering the frame.
  std::string pendingPng;
};

} // namespace layout::views
