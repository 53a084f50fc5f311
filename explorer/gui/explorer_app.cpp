#include "explorer_app.h"

#include "explorer_examples.h"
#include "png_image.h"
#include "session_state.h"

#include "layout/text/file_io.h"
#include "layout/text/layout_json.h"
#include "layout/triton/linear_encoding_of.h"
#include "layout/views/bank_view.h"
#include "layout/views/layout_input.h"
#include "layout/views/svg_export.h"
#include "layout/views/views.h"

#include <nlohmann/json.hpp>

#include <imgui.h>
#include <imgui_stdlib.h>

#include <GLFW/glfw3.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace layout::views {

using layout::LinearLayout;

namespace {

const ImVec4 kErrorColor{0.85f, 0.1f, 0.1f, 1};

const char* kViewNames[] = {"tensor",    "hw",   "matrix",   "banks",
                            "blockload", "diff", "operands", "convert"};
constexpr int kViews = 8;
const char* kOpNames[] = {"none", "compose", "invert", "invert-and-compose", "product"};
constexpr int kOps = 5;

// The part of the last item that the enclosing window's scrolling leaves on screen, in window
// pixels (x, y, width, height); none when it is scrolled out.
std::optional<std::array<float, 4>> visibleItemRect() {
  const ImVec2 clipLo = ImGui::GetWindowDrawList()->GetClipRectMin(),
               clipHi = ImGui::GetWindowDrawList()->GetClipRectMax();
  const ImVec2 itemLo = ImGui::GetItemRectMin(), itemHi = ImGui::GetItemRectMax();
  const ImVec2 lo{std::max(itemLo.x, clipLo.x), std::max(itemLo.y, clipLo.y)},
      hi{std::min(itemHi.x, clipHi.x), std::min(itemHi.y, clipHi.y)};
  if (lo.x >= hi.x || lo.y >= hi.y) return std::nullopt;
  return std::array<float, 4>{lo.x, lo.y, hi.x - lo.x, hi.y - lo.y};
}

// A traced element in the inspector: its summary, then each dst location's step (a few).
void showTrace(const ElementTrace& t, const char* what) {
  ImGui::TextWrapped("%s element (%d, %d): %s", what, t.row, t.col, t.summary.c_str());
  for (size_t k = 0; k < t.moves.size() && k < 4; ++k)
    ImGui::TextWrapped("  dst %s <- src %s: %s", t.moves[k].to.label.c_str(),
                       t.moves[k].from.label.c_str(), t.moves[k].step.text.c_str());
  if (t.moves.size() > 4) ImGui::Text("  ... %zu more dst locations", t.moves.size() - 4);
}

std::string readFile(const std::string& path, std::string* error) {
  auto text = layout::readInputFile(path, "--input");
  if (!text) {
    *error = text.error().message;
    return {};
  }
  return std::move(*text);
}

// The lane and warp bits that `text` (the shown layout's input) leaves free at every tensor size:
// its free variables over a tensor grown far past its tile (each dim times 2^16). A dot operand
// is copied across the warps along the other dim of the dot, a slice across its sliced dim,
// whatever the shape. Empty when the text has no shape to grow (layout JSON) or does not read.
std::map<std::string, uint64_t> inherentFreeMasks(const std::string& text, const LinearLayout& ll,
                                                  const layout::AttrAliases& aliases) {
  std::string encoding = text;
  if (auto typed = splitTensorType(text)) encoding = typed->encoding;
  std::vector<int64_t> grown;
  for (int o = 0; o < ll.numOutDims(); ++o) {
    if (ll.outDimSize(o) > (uint64_t{1} << 40)) return {};
    grown.push_back(int64_t(ll.outDimSize(o)) << 16);
  }
  auto big = parseLayoutInput(encoding, grown, aliases);
  if (!big || big->layout.numOutDims() != ll.numOutDims()) return {};
  for (int o = 0; o < ll.numOutDims(); ++o)
    if (int64_t(big->layout.outDimSize(o)) != grown[size_t(o)]) return {};
  std::map<std::string, uint64_t> masks;
  for (const auto& [name, mask] : big->layout.freeVariableMasks())
    masks[std::string(name.str())] = mask;
  return masks;
}

} // namespace

const char* viewName(ViewKind v) {
  return kViewNames[int(v)];
}

std::optional<ViewKind> viewFromName(const std::string& name) {
  for (int i = 0; i < kViews; ++i)
    if (name == kViewNames[i]) return ViewKind(i);
  return std::nullopt;
}

const char* opName(AlgebraOp op) {
  return kOpNames[int(op)];
}

std::optional<AlgebraOp> opFromName(const std::string& name) {
  for (int i = 0; i < kOps; ++i)
    if (name == kOpNames[i]) return AlgebraOp(i);
  return std::nullopt;
}

void ExplorerApp::applyDisplay(float contentScale) {
  const bool dark = in_.theme == "dark";
  if (dark)
    ImGui::StyleColorsDark();
  else
    ImGui::StyleColorsLight();
  canvas_.setDark(dark);
  const float scale = in_.uiScale > 0 ? in_.uiScale : std::clamp(contentScale, 1.f, 4.f);
  uiScale_ = scale;
  ImGui::GetStyle().ScaleAllSizes(scale);
  ImGui::GetIO().FontGlobalScale = scale;
  panelWidth_ = in_.panelWidth * scale;
}

ExplorerApp::ExplorerApp(ExplorerInputs inputs) : in_(std::move(inputs)) {
  if (!in_.aliasFile.empty()) loadAliasFile();
  if (in_.op != AlgebraOp::None) shown_ = Shown::Result;
  if (in_.zoom == "fit")
    canvas_.setStart(true, std::nullopt);
  else if (in_.zoom != "labels")
    canvas_.setStart(false, std::stof(in_.zoom)); // checked by the command line
  rebuild();
}

void ExplorerApp::loadAliasFile() {
  aliases_.clear();
  aliasNames_.clear();
  aliasError_.clear();
  tensorTypes_.clear();
  kernelOps_.clear();
  kernelOp_.reset();
  kernelOpRects_.clear();
  kernelError_.clear();
  kernelErrorRect_.reset();
  std::string err;
  std::string text = readFile(in_.aliasFile, &err);
  if (!err.empty()) {
    aliasError_ = err;
    return;
  }
  tensorTypes_ = tensorTypesIn(text);
  auto kernel = readKernelFile(text);
  if (kernel) {
    kernelOps_ = kernel->ops;
    kernelError_ = kernel->error;
  }
  auto defs = layout::parseAliasFile(text);
  // A compiler's dump has location aliases (`#loc = loc(...)`) the alias-file reader refuses;
  // the MLIR reader skips them. A dump whose target the report does not know is still one.
  if (!defs && kernel && (!kernel->ops.empty() || !kernel->error.empty())) defs = kernel->aliases;
  if (!defs) {
    aliasError_ = in_.aliasFile + ": " + defs.error().message;
    return;
  }
  for (const auto& d : *defs) {
    aliases_[d.name] = d.value;
    aliasNames_.push_back(d.name);
  }
}

std::string ExplorerApp::error() const {
  for (const auto* e : {&aliasError_, &errShape_, &errA_, &errB_, &errOp_, &errView_})
    if (!e->empty()) return *e;
  return "";
}

std::string ExplorerApp::colorByError() const {
  const TensorMap* map = shownMap();
  // The banks view also colours by bank, phase and vector group (bank_view.h).
  if (in_.view == ViewKind::Banks)
    return bankColorByError(in_.colorBy, map ? &map->layout() : nullptr);
  if (in_.colorBy.empty() || !map || map->inDimIndex(in_.colorBy) >= 0) return "";
  std::string dims;
  for (int i = 0; i < map->layout().numInDims(); ++i)
    dims += (i ? ", " : "") + std::string(map->layout().inDimName(i).str());
  const char* shown = shown_ == Shown::A   ? "layout A"
                      : shown_ == Shown::B ? "layout B"
                                           : "the result";
  return "'" + in_.colorBy + "' is not an in-dim of " + shown + "; colour by one of " + dims;
}

const TensorMap* ExplorerApp::shownMap() const {
  switch (shown_) {
  case Shown::A:
    return mapA_ ? &*mapA_ : nullptr;
  case Shown::B:
    return mapB_ ? &*mapB_ : nullptr;
  case Shown::Result:
    return mapResult_ ? &*mapResult_ : nullptr;
  }
  return nullptr;
}

void ExplorerApp::applyTensorTypes() {
  auto facts = tensorTypeFacts(in_.layoutA, aliases_);
  if (!facts) {
    typeApplied_.clear();
    return;
  }
  in_.shape = facts->shapeText; // the shape every view of the type uses
  const std::string key = in_.layoutA + "\n" + viewName(in_.view);
  if (key == typeApplied_) return;
  typeApplied_ = key;
  if (in_.view != ViewKind::Operands) {
    if (facts->elemBits > 0) in_.elemBits = std::clamp(facts->elemBits, 1, 64);
    return;
  }
  // The operands view: a dot operand's type gives K and the operands' element bits; a result's
  // (C's own element type says nothing of A and B), those of the file's dot that gives it.
  if (facts->opIdx && facts->shape.size() == 2) {
    in_.k = int(std::clamp<int64_t>(facts->shape[*facts->opIdx == 0 ? 1 : 0], 1, 1 << 16));
    if (facts->elemBits > 0) in_.elemBits = std::clamp(facts->elemBits, 1, 64);
  } else if (const KernelOp* dot = dotWithType(kernelOps_, in_.layoutA)) {
    if (dot->k) in_.k = *dot->k;
    if (dot->elemBits) in_.elemBits = *dot->elemBits;
  }
}

bool ExplorerApp::rebuild() {
  applyTensorTypes();
  errA_.clear(), errB_.clear(), errShape_.clear(), errOp_.clear();
  whereA_.reset(), whereB_.reset();
  a_.reset(), b_.reset(), result_.reset();
  mapA_.reset(), mapB_.reset(), mapResult_.reset();
  auto shape = parseShapeText(in_.shape);
  std::vector<int64_t> dims;
  if (!shape)
    errShape_ = shape.error().message;
  else
    dims = *shape;
  ownShape_.clear();
  auto parse = [&](const std::string& text, std::optional<LinearLayout>* out,
                   std::optional<TensorMap>* map, std::string* err,
                   std::optional<layout::SourceLocation>* where, const char* what) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return;
    auto l = parseLayoutInput(text, dims, aliases_);
    if (!l) {
      *err = l.error().message;
      *where = l.error().location;
      return;
    }
    // A's own shape (a tensor type's, or layout JSON's out-dims) is the shape of every view,
    // layout B's included.
    if (out == &a_) {
      intelTerms_ = l->kind.rfind("#xegpu", 0) == 0 || l->kind.find("ttig.") != std::string::npos;
      if (!l->shape.empty()) {
        ownShape_ = l->shape;
      } else if (l->kind == "layout JSON") {
        for (int o = 0; o < l->layout.numOutDims(); ++o)
          ownShape_.push_back(int64_t(l->layout.outDimSize(o)));
      }
      if (!l->shape.empty()) dims = l->shape;
    }
    *out = std::move(l->layout);
    auto m = TensorMap::build(**out);
    if (!m)
      *err = std::string(what) + ": " + m.error().message;
    else
      *map = std::move(*m);
  };
  if (errShape_.empty()) {
    parse(in_.layoutA, &a_, &mapA_, &errA_, &whereA_, "A");
    parse(in_.layoutB, &b_, &mapB_, &errB_, &whereB_, "B");
    if (!a_ && errA_.empty()) errA_ = "A: enter a layout";
  }
  if (in_.op != AlgebraOp::None && a_) {
    layout::Expected<LinearLayout> r = layout::makeError("");
    bool needsB = in_.op != AlgebraOp::Invert;
    if (needsB && !b_) {
      errOp_ = std::string(opName(in_.op)) + ": needs layout B";
    } else {
      switch (in_.op) {
      case AlgebraOp::Compose:
        r = a_->compose(*b_);
        break;
      case AlgebraOp::Invert:
        r = a_->invert();
        break;
      case AlgebraOp::InvertAndCompose:
        r = a_->invertAndCompose(*b_);
        break;
      case AlgebraOp::Product:
        r = layout::product(*a_, *b_);
        break;
      case AlgebraOp::None:
        break;
      }
      if (!r) {
        errOp_ = std::string(opName(in_.op)) + ": " + r.error().message;
      } else {
        result_ = *r;
        auto m = TensorMap::build(*result_);
        if (!m)
          errOp_ = "result: " + m.error().message;
        else
          mapResult_ = std::move(*m);
      }
    }
  }
  if (shown_ == Shown::Result && !mapResult_ && in_.op == AlgebraOp::None) shown_ = Shown::A;
  buildScene();
  return error().empty();
}

void ExplorerApp::setView(ViewKind v) {
  if (in_.view == v) return;
  in_.view = v;
  applyTensorTypes(); // K and the element bits depend on the view
  refit_ = true;
  buildScene();
}

void ExplorerApp::buildScene() {
  errView_.clear();
  viewNotes_.clear();
  scene_ = Scene{};
  bankElements_.clear();
  bankClick_.reset();
  convertPlan_.reset();
  convertTrace_.reset();
  ++sceneVersion_;
  const TensorMap* map = shownMap();
  ViewOptions opt;
  if (map) {
    opt.colorBy = in_.colorBy.empty() || map->inDimIndex(in_.colorBy) < 0 ? defaultColorBy(*map)
                                                                          : in_.colorBy;
    if (selectedThread_ && map->isDistributed() && *selectedThread_ < map->numInputs())
      opt.selectedThread = selectedThread_;
    opt.intelTerms = intelTerms_;
  }
  switch (in_.view) {
  case ViewKind::Tensor:
    if (map) scene_ = tensorScene(*map, opt);
    break;
  case ViewKind::Hardware:
    if (map) scene_ = hardwareScene(*map, opt);
    break;
  case ViewKind::Matrix:
    if (map) scene_ = matrixScene(map->layout());
    break;
  case ViewKind::Diff:
    if (mapA_ && mapB_) {
      uint64_t n = 0;
      auto s = diffScene(*mapA_, *mapB_, &n);
      if (!s)
        errView_ = s.error().message;
      else
        scene_ = std::move(*s);
    } else {
      errView_ = "diff: needs layouts A and B";
    }
    break;
  case ViewKind::Banks:
  case ViewKind::BlockLoad:
    buildSpecialScene();
    break;
  case ViewKind::Operands:
    buildOperandsScene();
    applyOperandsPick(); // the clicked C element, if it is still in the accumulator
    break;
  case ViewKind::Convert:
    buildConvertScene();
    break;
  }
  // A tensor smaller than the layout's tile: some lanes or warps hold copies of the same elements.
  // Copies the encoding makes at every size (a dot operand's, a slice's) are not that: only the
  // bits a larger tensor would use count.
  if (map && map->isDistributed()) {
    const std::string* text = shown_ == Shown::A   ? &in_.layoutA
                              : shown_ == Shown::B ? &in_.layoutB
                                                   : nullptr;
    const auto inherent = text ? inherentFreeMasks(*text, map->layout(), aliases_)
                               : std::map<std::string, uint64_t>{};
    std::string copies;
    for (const auto& [name, free] : map->layout().freeVariableMasks()) {
      const auto it = inherent.find(std::string(name.str()));
      const uint64_t mask = free & ~(it == inherent.end() ? uint64_t{0} : it->second);
      if (mask && (name.str() == "lane" || name.str() == "warp"))
        copies += std::string(copies.empty() ? "" : ", ") + std::string(name.str()) + " bits " +
                  binaryText(mask, map->layout().inDimSizeLog2(map->layout().inDimIndex(name)));
    }
    if (!copies.empty())
      viewNotes_.push_back("the tensor is smaller than the layout's tile: " + copies +
                           " are free variables (Triton's getFreeVariableMasks), so threads "
                           "hold copies of the same elements");
  }
  // The SVG's title: what is shown, so a saved picture says which layout it is.
  scene_.title = std::string(viewName(in_.view)) + " view of " + in_.layoutA;
  if (ownShape_.empty()) scene_.title += " over " + in_.shape;
  if (in_.op != AlgebraOp::None || in_.view == ViewKind::Diff || in_.view == ViewKind::Convert)
    scene_.title += "; layout B " + in_.layoutB;
}

void ExplorerApp::handleClick(const CellHit& hit) {
  // A bank cell: its word's elements highlighted in the tensor under the heat maps (a second click
  // on the same cell clears them).
  if (auto it = bankElements_.find(hit.grid); it != bankElements_.end()) {
    const CellGrid* bankGrid = scene_.grid(hit.grid);
    for (CellGrid& t : scene_.grids)
      if (t.id == "banks.tensor" && bankGrid) {
        const size_t i = size_t(bankGrid->index(hit.row, hit.col));
        const bool again = bankClick_ && *bankClick_ == std::pair{hit.grid, i};
        bankClick_.reset();
        if (!again && i < it->second.size()) bankClick_ = std::pair{hit.grid, i};
        markCells(t, bankClick_ ? std::span<const uint64_t>(it->second[i])
                                : std::span<const uint64_t>());
        ++sceneVersion_;
      }
    return;
  }
  // A convert view cell: its element followed through the plan (a second click clears it).
  if ((hit.grid == "convert.src" || hit.grid == "convert.dst") && convertPlan_) {
    const ConvertPick pick{hit.grid == "convert.dst", hit.row, hit.col};
    if (convertPick_ == pick)
      convertPick_.reset();
    else
      convertPick_ = pick;
    applyConvertPick();
    return;
  }
  // An accumulator cell of the operands view: its threads and the A and B cells they hold for it
  // (a second click clears them).
  if (hit.grid == "mma.C" && in_.view == ViewKind::Operands) {
    const std::pair<int, int> click{hit.row, hit.col};
    if (operandsClick_ == click)
      operandsClick_.reset();
    else
      operandsClick_ = click;
    applyOperandsPick();
    return;
  }
  const TensorMap* map = shownMap();
  if (!map || !map->isDistributed()) return;
  const CellGrid* g = scene_.grid(hit.grid);
  if (!g) return;
  std::optional<uint64_t> input;
  size_t idx = size_t(g->index(hit.row, hit.col));
  if (hit.grid == "tensor") {
    auto owners = map->owners(hit.row, hit.col);
    if (!owners.empty()) input = owners[0];
  } else if (hit.grid.rfind("hw", 0) == 0 && idx < g->keys.size()) {
    input = g->keys[idx];
  }
  if (!input) return;
  uint64_t thread = map->threadOf(*input);
  if (selectedThread_ == thread)
    selectedThread_.reset();
  else
    selectedThread_ = thread;
  updateSelection();
}

void ExplorerApp::updateSelection() {
  // The tensor and hardware views change the selection in place (markSelection); the scene is
  // rebuilt only for the views that draw it otherwise.
  const TensorMap* map = shownMap();
  if (map && (in_.view == ViewKind::Tensor || in_.view == ViewKind::Hardware)) {
    markSelection(*map, scene_, selectedThread_);
    ++sceneVersion_; // the fills changed: cached grid textures are stale
    return;
  }
  buildScene();
}

void ExplorerApp::applyOperandsPick() {
  operandsPick_.reset();
  const CellGrid *a = scene_.grid("mma.A"), *c = scene_.grid("mma.C");
  if (operandsClick_ && a && c) {
    // The grids give M, N and K as the scene drew them (a dot operand type's included).
    auto enc = layout::triton::parseEncoding(layoutAWithShape().text, aliases_);
    if (enc)
      if (auto ops = mmaOperands(*enc, in_.elemBits))
        if (auto pick = pickOperands(*ops, c->rows, c->cols, a->cols, operandsClick_->first,
                                     operandsClick_->second))
          operandsPick_ = std::move(*pick);
    if (!operandsPick_) operandsClick_.reset(); // e.g. a smaller accumulator now
  }
  const std::vector<uint64_t> none;
  for (CellGrid& g : scene_.grids) {
    const std::vector<uint64_t>* cells = !operandsPick_    ? &none
                                         : g.id == "mma.A" ? &operandsPick_->aCells
                                         : g.id == "mma.B" ? &operandsPick_->bCells
                                         : g.id == "mma.C" ? &operandsPick_->cCells
                                                           : nullptr;
    if (cells) markCells(g, *cells);
  }
  ++sceneVersion_; // the fills changed: cached grid textures are stale
}

void ExplorerApp::clearSelection() {
  if (convertPick_) {
    convertPick_.reset();
    applyConvertPick();
  }
  if (operandsClick_) {
    operandsClick_.reset();
    applyOperandsPick();
  }
  if (selectedThread_) {
    selectedThread_.reset();
    updateSelection();
  }
}

void ExplorerApp::errorBox(const std::string& message, const std::string& text,
                           std::optional<layout::SourceLocation> where) {
  if (message.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
  ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x);
  ImGui::TextUnformatted(("error: " + message).c_str());
  ImGui::PopTextWrapPos();
  // Point at the column: the offending line, and a caret under the column (the default font
  // is monospaced).
  if (const auto& loc = where) {
    std::istringstream lines(text);
    std::string line;
    for (int i = 0; i < loc->line && std::getline(lines, line); ++i) {
    }
    int col = std::max(1, loc->column);
    int from = std::max(0, col - 40);
    std::string shown = line.substr(std::min<size_t>(size_t(from), line.size()), 56);
    ImGui::TextUnformatted(shown.c_str());
    ImGui::TextUnformatted((std::string(size_t(col - 1 - from), ' ') + "^").c_str());
  }
  ImGui::PopStyleColor();
}

void ExplorerApp::inputPanel() {
  bool changed = false;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##examples", "examples: open a layout users ask about")) {
    for (const Example& e : examples())
      if (ImGui::Selectable((e.name + ": " + e.description).c_str())) {
        const std::string zoom = in_.zoom, aliasFile = in_.aliasFile;
        in_ = e.inputs;
        in_.zoom = zoom;
        in_.aliasFile = aliasFile;
        shown_ = Shown::A;
        changed = true;
      }
    ImGui::EndCombo();
  }
  ImGui::TextUnformatted("Layout A (encoding text, #xegpu attribute, layout JSON or #alias)");
  changed |= ImGui::InputTextMultiline("##A", &in_.layoutA, ImVec2(-1, 90));
  errorBox(errA_, in_.layoutA, whereA_);
  ImGui::SetNextItemWidth(160);
  changed |= ImGui::InputText("shape", &in_.shape);
  errorBox(errShape_, in_.shape);
  ImGui::SetNextItemWidth(260);
  ImGui::InputText("alias file", &in_.aliasFile);
  ImGui::SameLine();
  if (ImGui::Button("Open")) {
    loadAliasFile();
    changed = true;
  }
  errorBox(aliasError_, "");
  if (!aliasNames_.empty()) {
    ImGui::SetNextItemWidth(260);
    if (ImGui::BeginCombo("alias", "pick an alias for A")) {
      for (const auto& n : aliasNames_)
        if (ImGui::Selectable(("#" + n).c_str())) {
          in_.layoutA = "#" + n;
          changed = true;
        }
      ImGui::EndCombo();
    }
  }
  if (!tensorTypes_.empty()) {
    // A TTGIR file's tensor types: each carries its shape and its encoding (an alias of the file).
    ImGui::SetNextItemWidth(260);
    if (ImGui::BeginCombo("tensor type", "pick a tensor type for A")) {
      for (const auto& t : tensorTypes_)
        if (ImGui::Selectable(t.c_str())) {
          in_.layoutA = t;
          changed = true;
        }
      ImGui::EndCombo();
    }
  }
  if (changed) {
    selectedThread_.reset();
    refit_ = true;
    rebuild();
  }
}

void ExplorerApp::kernelOpsPanel() {
  kernelOpRects_.assign(kernelOps_.size(), std::nullopt);
  kernelErrorRect_.reset();
  if (kernelOps_.empty() && kernelError_.empty()) return;
  const std::string title = "Kernel ops (" + std::to_string(kernelOps_.size()) + ")";
  if (!ImGui::CollapsingHeader(title.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (!kernelError_.empty()) {
    // The report refused the module: say why the list is empty rather than show nothing.
    ImGui::BeginGroup();
    errorBox(kernelError_, "");
    ImGui::EndGroup();
    kernelErrorRect_ = visibleItemRect();
    return;
  }
  ImGui::TextDisabled("MLIR line, op, cost; click a row to open its view");
  // A scrolling list of at most 8 rows keeps the panels under it in reach.
  const float rowH = ImGui::GetTextLineHeightWithSpacing();
  const float rows = float(std::min<size_t>(kernelOps_.size(), 8));
  ImGui::BeginChild("kernel ops", ImVec2(-1, rows * rowH + 2 * ImGui::GetStyle().WindowPadding.y),
                    true, ImGuiWindowFlags_HorizontalScrollbar);
  for (size_t i = 0; i < kernelOps_.size(); ++i) {
    const KernelOp& op = kernelOps_[i];
    const std::string id = op.label + "##kernel op " + std::to_string(i);
    const bool clicked = ImGui::Selectable(id.c_str(), kernelOp_ == i);
    kernelOpRects_[i] = visibleItemRect(); // a click lands there
    if (clicked) {
      // The input panel's path: new inputs, then rebuild() (which also builds the view).
      applyKernelOp(op, in_);
      kernelOp_ = i;
      shown_ = Shown::A;
      selectedThread_.reset();
      refit_ = true;
      rebuild();
    }
  }
  ImGui::EndChild();
}

void ExplorerApp::algebraPanel() {
  if (!ImGui::CollapsingHeader(
          "Algebra: layout B, operation, diff",
          in_.op != AlgebraOp::None || !in_.layoutB.empty() ? ImGuiTreeNodeFlags_DefaultOpen : 0))
    return;
  bool changed = ImGui::InputTextMultiline("##B", &in_.layoutB, ImVec2(-1, 60));
  errorBox(errB_, in_.layoutB, whereB_);
  int op = int(in_.op);
  ImGui::SetNextItemWidth(200);
  if (ImGui::Combo("operation", &op, kOpNames, kOps)) {
    in_.op = AlgebraOp(op);
    shown_ = in_.op == AlgebraOp::None ? Shown::A : Shown::Result;
    changed = true;
  }
  ImGui::TextDisabled("compose: A then B; invert-and-compose: C with B(C(x)) = A(x)");
  errorBox(errOp_, "");
  int shown = int(shown_);
  ImGui::TextUnformatted("show:");
  ImGui::SameLine();
  bool showChanged = ImGui::RadioButton("A", &shown, 0);
  ImGui::SameLine();
  showChanged |= ImGui::RadioButton("B", &shown, 1);
  ImGui::SameLine();
  showChanged |= ImGui::RadioButton("result", &shown, 2);
  if (showChanged) {
    shown_ = Shown(shown);
    selectedThread_.reset();
    refit_ = true;
    buildScene();
  }
  if (changed) {
    refit_ = true;
    rebuild();
  }
}

void ExplorerApp::viewPanel() {
  int v = int(in_.view);
  ImGui::TextUnformatted("view:");
  for (int i = 0; i < kViews; ++i) {
    if (i != 3 && i != 6) ImGui::SameLine();
    if (i == 3) ImGui::Indent(ImGui::CalcTextSize("view: ").x);
    if (ImGui::RadioButton(kViewNames[i], &v, i)) setView(ViewKind(i));
  }
  ImGui::Unindent(ImGui::CalcTextSize("view: ").x);
  if (const TensorMap* map = shownMap()) {
    const LinearLayout& ll = map->layout();
    std::string current = in_.colorBy.empty() ? defaultColorBy(*map) : in_.colorBy;
    ImGui::SetNextItemWidth(160);
    if (ImGui::BeginCombo("colour by", current.c_str())) {
      for (int i = 0; i < ll.numInDims(); ++i) {
        std::string n(ll.inDimName(i).str());
        if (ImGui::Selectable(n.c_str(), n == current)) {
          in_.colorBy = n;
          buildScene();
        }
      }
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    if (selectedThread_ || convertPick_ || operandsClick_) {
      if (ImGui::Button("clear selection")) clearSelection();
    } else {
      ImGui::TextDisabled(in_.view == ViewKind::Convert    ? "click a cell to follow its element"
                          : in_.view == ViewKind::Operands ? "click a C cell to see its A and B"
                                                           : "click a cell to select its lane");
    }
  }
  errorBox(errView_, "");
  // The convert view's notes are its plan text: folded under the inspector (convertPlanPanel).
  if (in_.view != ViewKind::Convert)
    for (const auto& n : viewNotes_) ImGui::TextWrapped("%s", n.c_str());
}

void ExplorerApp::inspectorPanel() {
  if (!ImGui::CollapsingHeader("Inspector", ImGuiTreeNodeFlags_DefaultOpen)) return;
  // The convert view's clicked element stays listed whatever is hovered.
  if (in_.view == ViewKind::Convert && convertTrace_) {
    showTrace(*convertTrace_, "clicked");
    ImGui::Separator();
  }
  const auto& hit = canvas_.hovered();
  const TensorMap* map = shownMap();
  if (!hit) {
    ImGui::TextDisabled("hover a cell");
    return;
  }
  const CellGrid* g = scene_.grid(hit->grid);
  if (!g) return;
  size_t idx = size_t(g->index(hit->row, hit->col));
  // Hardware terms of the shown layout: Intel's for XeGPU and Intel DPAS layouts.
  const char* warpWord = intelTerms_ ? "subgroup" : "warp";
  const char* laneWord = intelTerms_ ? "work-item" : "lane";
  if (map && map->isDistributed() && hit->grid.rfind("hw", 0) == 0 && idx < g->keys.size()) {
    const uint64_t in = g->keys[idx];
    ImGui::Text("%s %llu, register %d, %s %d", warpWord,
                (unsigned long long)map->inValue(in, "warp"), hit->row, laneWord, hit->col);
  } else {
    ImGui::Text("%s cell (row %d, col %d)", hit->grid.c_str(), hit->row, hit->col);
  }
  auto describeInput = [&](uint64_t in) {
    const LinearLayout& ll = map->layout();
    auto vals = map->unpack(in);
    ImGui::Text("  %s", map->label(in).c_str());
    for (int i = 0; i < ll.numInDims(); ++i)
      ImGui::Text("    %-8s %4llu  %s", std::string(ll.inDimName(i).str()).c_str(),
                  (unsigned long long)vals[i], binaryText(vals[i], ll.inDimSizeLog2(i)).c_str());
    std::string bases;
    for (const auto& [dim, b] : basesOf(ll, in)) {
      auto v = ll.basis(ll.inDimIndex(layout::DimName(dim)), b);
      std::string vt = "(";
      for (size_t k = 0; k < v.size(); ++k) vt += (k ? "," : "") + std::to_string(v[k]);
      bases += (bases.empty() ? "" : " ^ ") + dim + "[" + std::to_string(b) + "]=" + vt + ")";
    }
    ImGui::TextWrapped("    bases: %s", bases.empty() ? "none (the zero input)" : bases.c_str());
  };
  auto describeCoord = [&](uint64_t cell) {
    const LinearLayout& ll = map->layout();
    auto c = map->coordinate(cell);
    for (int d = 0; d < ll.numOutDims(); ++d)
      ImGui::Text("  %-6s %4llu  %s", std::string(ll.outDimName(d).str()).c_str(),
                  (unsigned long long)c[size_t(d)],
                  binaryText(c[size_t(d)], ll.outDimSizeLog2(d)).c_str());
  };
  if ((hit->grid == "convert.src" || hit->grid == "convert.dst" || hit->grid == "diff") && mapA_ &&
      mapB_) {
    // Both owners, whichever side is hovered: where the element is and where it goes.
    const uint64_t cell = uint64_t(hit->row) * uint64_t(mapA_->cols()) + uint64_t(hit->col);
    // How the plan moves the hovered element, then both sides' owners in full.
    if (hit->grid != "diff" && convertPlan_)
      if (auto t =
              traceElement(*convertPlan_, *mapA_, *mapB_, hit->row, hit->col,
                           hit->grid == "convert.dst" ? TraceSide::Destination : TraceSide::Source))
        showTrace(*t, "hovered");
    for (const auto* side : {&*mapA_, &*mapB_}) {
      map = side;
      const bool diff = hit->grid == "diff";
      ImGui::TextUnformatted(side == &*mapA_ ? (diff ? "A owners:" : "source (A) owners:")
                                             : (diff ? "B owners:" : "destination (B) owners:"));
      auto owners = side->owners(cell);
      for (size_t k = 0; k < owners.size() && k < 4; ++k) describeInput(owners[k]);
      if (owners.size() > 4) ImGui::Text("  ... %zu more", owners.size() - 4);
    }
    return;
  }
  if (map && (hit->grid == "tensor" || hit->grid == "diff")) {
    uint64_t cell = uint64_t(hit->row) * uint64_t(map->cols()) + uint64_t(hit->col);
    describeCoord(cell);
    auto owners = map->owners(cell);
    ImGui::Text("owners: %zu%s", owners.size(), owners.size() > 1 ? " (broadcast)" : "");
    if (auto summary = broadcastSummary(*map, cell)) {
      // All owners are the first with every value of the free bits: one line, not one each.
      describeInput(owners[0]);
      ImGui::TextWrapped("  %s", summary->c_str());
    } else {
      for (size_t k = 0; k < owners.size() && k < 8; ++k) describeInput(owners[k]);
      if (owners.size() > 8) ImGui::Text("  ... %zu more", owners.size() - 8);
    }
  } else if (map && hit->grid.rfind("hw", 0) == 0 && idx < g->keys.size()) {
    describeInput(g->keys[idx]);
    ImGui::TextUnformatted("holds element:");
    describeCoord(map->cellOf(g->keys[idx]));
  } else if (map && hit->grid == "matrix") {
    ImGui::Text(
        "input bit %s, output bit %s: %s",
        g->colHeaders.size() > size_t(hit->col) ? g->colHeaders[size_t(hit->col)].c_str() : "?",
        g->rowHeaders.size() > size_t(hit->row) ? g->rowHeaders[size_t(hit->row)].c_str() : "?",
        idx < g->labels.size() && !g->labels[idx].empty() ? "1" : "0");
  } else if (idx < g->details.size() && !g->details[idx].empty()) {
    ImGui::TextUnformatted(g->details[idx].c_str());
  } else if (idx < g->labels.size()) {
    ImGui::TextWrapped("%s", g->labels[idx].c_str());
  }
}

ExplorerApp::Exports ExplorerApp::exports() const {
  Exports e;
  e.commandLine = commandLineOf(in_);
  e.state = encodeSessionState({in_, selectedThread_});
  if (const TensorMap* map = shownMap()) {
    auto linear = layout::triton::linearEncodingOf(map->layout());
    e.linear = linear ? linear->text() : "error: " + linear.error().message;
    e.json = layout::printLayoutJson(map->layout());
  }
  return e;
}

void ExplorerApp::restoreState(const SessionState& state) {
  const std::string zoom = in_.zoom;
  in_ = state.inputs;
  in_.zoom = zoom;
  if (!in_.aliasFile.empty()) loadAliasFile();
  shown_ = in_.op != AlgebraOp::None ? Shown::Result : Shown::A;
  selectedThread_.reset();
  refit_ = true;
  rebuild();
  const TensorMap* map = shownMap();
  if (state.selected && map && map->isDistributed() && *state.selected < map->numInputs()) {
    selectedThread_ = map->threadOf(*state.selected);
    buildScene();
  }
}

void ExplorerApp::exportPanel() {
  if (!ImGui::CollapsingHeader("Export")) return;
  ImGui::SetNextItemWidth(240);
  ImGui::InputText("##svg", &svgPath_);
  ImGui::SameLine();
  if (ImGui::Button("Save SVG")) {
    auto written =
        layout::writeOutputFile(svgPath_, sceneToSvg(scene_, svgOptionsWithPng()), "Save SVG");
    status_ = written ? "wrote " + svgPath_ : written.error().message;
  }
  ImGui::SetNextItemWidth(240);
  ImGui::InputText("##png", &pngPath_);
  ImGui::SameLine();
  if (ImGui::Button("Save PNG")) pendingPng = pngPath_;
  // Copies to the clipboard: what reopens this view, and the shown layout as text (built on the
  // click only: the #ttg.linear and JSON texts cost a conversion each).
  ImGui::TextUnformatted("copy:");
  auto copy = [&](const char* label, std::string Exports::*text, const char* what) {
    ImGui::SameLine();
    if (ImGui::SmallButton(label)) {
      ImGui::SetClipboardText((exports().*text).c_str());
      status_ = std::string("copied ") + what;
    }
  };
  copy("command", &Exports::commandLine, "the command line");
  copy("state", &Exports::state, "the state string (--state, or paste it below)");
  copy("#ttg.linear", &Exports::linear, "the layout as #ttg.linear");
  copy("JSON", &Exports::json, "the layout JSON");
  ImGui::SetNextItemWidth(240);
  ImGui::InputTextWithHint("##state", "paste a state string", &pastedState_);
  ImGui::SameLine();
  if (ImGui::Button("Restore")) {
    auto state = decodeSessionState(pastedState_);
    if (state) restoreState(*state);
    status_ = state ? "restored the state" : state.error().message;
  }
  if (!status_.empty()) ImGui::TextWrapped("%s", status_.c_str());
}

void ExplorerApp::frame() {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::Begin("layout explorer", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBackground);
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::GetStyleColorVec4(ImGuiCol_WindowBg));
  ImGui::BeginChild("panel", ImVec2(panelWidth_, 0), true);
  ImGui::PopStyleColor();
  inputPanel();
  kernelOpsPanel();
  ImGui::Separator();
  viewPanel();
  specialPanels(); // the convert view's: its inputs, the inspector, then the plan text
  algebraPanel();
  if (in_.view != ViewKind::Convert) inspectorPanel();
  exportPanel();
  ImGui::EndChild();
  ImGui::SameLine(0, 0);
  // The splitter: drag it to widen or narrow the panel.
  ImGui::InvisibleButton("splitter", ImVec2(8, std::max(1.f, ImGui::GetContentRegionAvail().y)));
  if (ImGui::IsItemHovered() || ImGui::IsItemActive())
    ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
  if (ImGui::IsItemActive() && ImGui::GetIO().MouseDelta.x != 0) {
    panelWidth_ = std::clamp(panelWidth_ + ImGui::GetIO().MouseDelta.x, 200.f,
                             std::max(200.f, vp->WorkSize.x - 300));
  }
  ImGui::SameLine(0, 0);
  ImGui::BeginGroup();
  canvas_.draw(scene_, refit_, sceneVersion_);
  refit_ = false;
  ImGui::EndGroup();
  ImGui::End();
  if (canvas_.clicked()) handleClick(*canvas_.clicked());
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)) &&
      (selectedThread_ || convertPick_ || operandsClick_))
    clearSelection();
}

nlohmann::ordered_json ExplorerApp::report() const {
  nlohmann::ordered_json j;
  j["view"] = viewName(in_.view);
  j["shown"] = shown_ == Shown::A ? "A" : shown_ == Shown::B ? "B" : "result";
  j["error"] = error();
  const TensorMap* map = shownMap();
  if (in_.view == ViewKind::Convert && convertPick_ && convertTrace_) {
    // The clicked element's first owner on the clicked side, and where the plan moves it.
    const ElementTrace& t = *convertTrace_;
    const TraceLocation* owner = convertPick_->dst
                                     ? (t.moves.empty() ? nullptr : &t.moves.front().to)
                                     : (t.sources.empty() ? nullptr : &t.sources.front());
    nlohmann::ordered_json sel = {{"grid", convertPick_->dst ? "convert.dst" : "convert.src"},
                                  {"row", t.row},
                                  {"col", t.col}};
    if (owner) {
      sel["label"] = owner->label;
      sel["lane"] = owner->lane;
      sel["warp"] = owner->warp;
      sel["block"] = owner->block;
    }
    j["selected"] = sel;
  } else if (in_.view == ViewKind::Operands && operandsPick_ && !operandsPick_->threads.empty()) {
    // The clicked accumulator element and its first owner thread.
    const auto& t = operandsPick_->threads.front();
    j["selected"] = {{"grid", "mma.C"},
                     {"row", operandsPick_->row},
                     {"col", operandsPick_->col},
                     {"lane", t[0]},
                     {"warp", t[1]},
                     {"block", t[2]}};
  } else if (selectedThread_ && map) {
    nlohmann::ordered_json sel;
    sel["label"] = map->label(*selectedThread_);
    sel["lane"] = map->inValue(*selectedThread_, "lane");
    sel["warp"] = map->inValue(*selectedThread_, "warp");
    sel["block"] = map->inValue(*selectedThread_, "block");
    j["selected"] = sel;
  } else {
    j["selected"] = nullptr;
  }
  j["trace"] = convertTrace_ ? nlohmann::ordered_json(traceToJson(*convertTrace_))
                             : nlohmann::ordered_json(nullptr);
  j["bankAccess"] = in_.view == ViewKind::Banks ? bankAccessReport() : nullptr;
  if (in_.view == ViewKind::Operands && operandsPick_) {
    nlohmann::ordered_json threads = nlohmann::ordered_json::array();
    for (const auto& t : operandsPick_->threads)
      threads.push_back({{"lane", t[0]}, {"warp", t[1]}, {"block", t[2]}});
    // The A and B cells as [row, col] elements too: a few per thread, for a reader to check.
    const CellGrid *ga = scene_.grid("mma.A"), *gb = scene_.grid("mma.B");
    auto elements = [](const std::vector<uint64_t>& cells, const CellGrid* g) {
      nlohmann::ordered_json list = nlohmann::ordered_json::array();
      for (uint64_t cell : cells)
        if (g) list.push_back({cell / uint64_t(g->cols), cell % uint64_t(g->cols)});
      return list;
    };
    j["operandsPick"] = {{"row", operandsPick_->row},
                         {"col", operandsPick_->col},
                         {"threads", threads},
                         {"aCells", operandsPick_->aCells.size()},
                         {"bCells", operandsPick_->bCells.size()},
                         {"cCells", operandsPick_->cCells.size()},
                         {"aElements", elements(operandsPick_->aCells, ga)},
                         {"bElements", elements(operandsPick_->bCells, gb)}};
  } else {
    j["operandsPick"] = nullptr;
  }
  nlohmann::ordered_json grids = nlohmann::ordered_json::object();
  int hwHighlighted = 0;
  for (const auto& g : scene_.grids) {
    nlohmann::ordered_json gj;
    gj["rows"] = g.rows;
    gj["cols"] = g.cols;
    gj["highlighted"] = countMarked(g, kMarkHighlight);
    gj["conflict"] = countMarked(g, kMarkConflict);
    gj["labels"] = canvas_.labelsDrawn(g.id); // drawn in the last frame
    // Visible labels left undrawn (too small, or past the glyph budget): the hint says zoom in.
    gj["labelsHidden"] = canvas_.labelsHidden(g.id);
    if (auto r = canvas_.gridRect(scene_, g.id)) gj["screen"] = {r->x, r->y, r->z, r->w};
    if (auto r = canvas_.visibleGridRect(scene_, g.id)) gj["visible"] = {r->x, r->y, r->z, r->w};
    grids[g.id] = gj;
  }
  j["grids"] = grids;
  // What the hardware view highlights for the selection, whichever view is shown.
  if (map && selectedThread_ && map->isDistributed()) {
    ViewOptions opt;
    opt.colorBy = defaultColorBy(*map);
    opt.selectedThread = selectedThread_;
    for (const auto& g : hardwareScene(*map, opt).grids)
      hwHighlighted += countMarked(g, kMarkHighlight);
  }
  j["hwHighlighted"] = hwHighlighted;
  j["zoom"] = canvas_.zoom();
  j["display"] = {{"theme", in_.theme}, {"uiScale", uiScale_}, {"panelWidth", panelWidth_}};
  j["labelPx"] = canvas_.labelPixels();
  // How the view started ("labels", "fit" or "zoom") and the canvas's hint ("" when none).
  j["start"] = canvas_.startedAs();
  j["labelHint"] = canvas_.labelHint();
  j["labelGlyphs"] = canvas_.glyphsDrawn(); // in the last frame, all grids together
  if (const auto& h = canvas_.hovered()) {
    j["hovered"] = {{"grid", h->grid}, {"row", h->row}, {"col", h->col}};
    if (const CellGrid* g = scene_.grid(h->grid)) {
      const size_t i = size_t(g->index(h->row, h->col));
      if (i < g->details.size()) j["hovered"]["details"] = g->details[i];
    }
    // The owners the inspector lists: both layouts' for the diff and convert grids.
    auto owners = [&](const TensorMap& m) {
      std::vector<std::string> labels;
      const uint64_t cell = uint64_t(h->row) * uint64_t(m.cols()) + uint64_t(h->col);
      if (cell < m.numElements())
        for (uint64_t in : m.owners(cell)) labels.push_back(m.label(in));
      return labels;
    };
    const bool twoSided =
        h->grid == "diff" || h->grid.rfind("convert.s", 0) == 0 || h->grid == "convert.dst";
    if (twoSided && mapA_ && mapB_) {
      j["hovered"]["ownersA"] = owners(*mapA_);
      j["hovered"]["ownersB"] = owners(*mapB_);
    } else if (h->grid == "tensor" && shownMap()) {
      j["hovered"]["owners"] = owners(*shownMap());
    }
  } else {
    j["hovered"] = nullptr;
  }
  if (auto c = canvas_.canvasRect()) j["canvas"] = {c->x, c->y, c->z, c->w};
  if (!frameMs_.empty()) {
    // Skip the first frames (font atlas upload, first layout).
    std::vector<double> t(frameMs_.begin() + std::min<size_t>(3, frameMs_.size() - 1),
                          frameMs_.end());
    std::sort(t.begin(), t.end());
    double sum = 0;
    for (double v : t) sum += v;
    j["frameMs"] = {{"frames", t.size()},
                    {"mean", sum / double(t.size())},
                    {"median", t[t.size() / 2]},
                    {"p95", t[std::min(t.size() - 1, t.size() * 95 / 100)]},
                    {"max", t.back()}};
  }
  if (map) {
    j["layout"] = {{"inputs", map->numInputs()}, {"elements", map->numElements()}};
  }
  j["notes"] = viewNotes_;
  j["tensorTypes"] = tensorTypes_;
  // The kernel ops list: each row and where it was drawn (visible rows only), and the row
  // clicked last.
  nlohmann::ordered_json ops = nlohmann::ordered_json::array();
  for (size_t i = 0; i < kernelOps_.size(); ++i) {
    nlohmann::ordered_json o = {{"line", kernelOps_[i].line},
                                {"op", kernelOps_[i].op},
                                {"label", kernelOps_[i].label},
                                {"view", viewName(kernelOps_[i].view)}};
    if (i < kernelOpRects_.size() && kernelOpRects_[i]) o["screen"] = *kernelOpRects_[i];
    ops.push_back(o);
  }
  j["kernelOps"] = ops;
  j["kernelOp"] = kernelOp_ ? nlohmann::ordered_json(kernelOps_[*kernelOp_].line) : nullptr;
  // Why there are no rows ("" when the file was analysed), and where the panel showed it.
  j["kernelOpsError"] = kernelError_;
  j["kernelOpsErrorScreen"] =
      kernelErrorRect_ ? nlohmann::ordered_json(*kernelErrorRect_) : nullptr;
  const Exports e = exports();
  j["exports"] = {
      {"commandLine", e.commandLine}, {"state", e.state}, {"linear", e.linear}, {"json", e.json}};
  return j;
}

} // namespace layout::views
