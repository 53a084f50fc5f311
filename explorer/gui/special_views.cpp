// The banks and block-load views of the app: their inputs in the side panel and their scenes
// (explorer/bank_view.h, explorer/block_load_view.h, explorer/xegpu_block_load_view.h). Both
// read layout A as text.
#include "explorer_app.h"

#include "layout/smem/bank_model.h"
#include "layout/views/bank_view.h"
#include "layout/views/block_load_view.h"
#include "layout/views/conversion_view.h"
#include "layout/views/layout_input.h"
#include "layout/views/mma_operands.h"
#include "layout/views/views.h"
#include "layout/views/xegpu_block_load_view.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <map>

namespace layout::views {

namespace {

// The block-load view of an XeGPU layout: its scene and notes, or the error ("" when drawn).
std::string xegpuBlockLoadScene(const ExplorerInputs& in, const std::string& text,
                                const std::vector<int64_t>& shape,
                                const layout::AttrAliases& aliases, Scene& scene,
                                std::vector<std::string>& notes) {
  XegpuBlockLoadOptions opt;
  opt.aliases = &aliases;
  opt.arrayLength = in.arrayLength;
  if (!in.block.empty()) {
    auto block = parseBlockText(in.block);
    if (!block) return block.error().message;
    opt.block = *block;
  }
  auto v = xegpuBlockLoadView(text, shape, in.elemBits, in.workItem, opt);
  if (!v) return v.error().message;
  scene = std::move(v->scene);
  const std::string block = std::to_string(v->block[0]) + "x" + std::to_string(v->block[1]);
  notes.push_back("XeGPU: " + std::to_string(v->numLoads) + " block load(s) of " + v->instruction +
                  " per subgroup; block " + block + " from " +
                  (v->blockRule == "given" ? std::string("the block field") : v->blockRule) +
                  (v->arrayLength > 1 ? ", array_length " + std::to_string(v->arrayLength) : "") +
                  (v->packed ? ", packed (VNNI)" : ""));
  notes.push_back("work-item " + std::to_string(in.workItem) + " holds " +
                  std::to_string(v->workItemElements) +
                  " elements; its load results: " + std::to_string(v->workItemRegisters) + " " +
                  std::to_string(v->registerBits) + "-bit registers");
  std::string tiles =
      std::to_string(v->numSubgroups) + (v->numSubgroups == 1 ? " subgroup" : " subgroups");
  if (v->numSubgroupTiles != v->numSubgroups)
    tiles += " in " + std::to_string(v->numSubgroupTiles) +
             " tiles (subgroups of one tile load the same elements: broadcast)";
  notes.push_back(tiles + (v->unloadedCells == 0 ? "; their loads cover every drawn element"
                                                 : "; " + std::to_string(v->unloadedCells) +
                                                       " drawn elements are loaded by none"));
  return "";
}

} // namespace

std::string ExplorerApp::BankPicker::name(int k) const {
  const BankAccess& a = accesses[size_t(k)];
  return "access " + std::to_string(k) + ": warp " + std::to_string(a.warp) + ", issue " +
         std::to_string(a.issue) + ", " + std::to_string(a.wavefronts) + " wavefronts (ideal " +
         std::to_string(a.idealWavefronts) + ")";
}

nlohmann::ordered_json ExplorerApp::bankAccessReport() const {
  if (bankPicker_.shown < 0) return nullptr;
  const auto& p = bankPicker_;
  const BankAccess& a = p.accesses[size_t(p.shown)];
  nlohmann::ordered_json wavefronts = nlohmann::ordered_json::array();
  for (const BankAccess& x : p.accesses) wavefronts.push_back(x.wavefronts);
  return {{"index", p.shown},
          {"count", p.accesses.size()},
          {"warp", a.warp},
          {"issue", a.issue},
          {"wavefronts", a.wavefronts},
          {"idealWavefronts", a.idealWavefronts},
          {"ways", a.ways},
          {"worst", p.worstFirst.front()},
          {"picked", p.pick >= 0},
          {"wavefrontsByAccess", wavefronts}};
}

ExplorerApp::ShapedText ExplorerApp::layoutAWithShape() const {
  // Layout A's own shape when it has one (a tensor type, layout JSON), as the tensor view takes;
  // the encoding text without its tensor type.
  ShapedText t{in_.layoutA, ownShape_.empty() ? parseShapeText(in_.shape)
                                              : layout::Expected<std::vector<int64_t>>(ownShape_)};
  if (auto typed = splitTensorType(t.text)) t.text = typed->encoding;
  return t;
}

void ExplorerApp::buildSpecialScene() {
  auto [access, shape] = layoutAWithShape();
  if (!shape) {
    errView_ = shape.error().message;
    return;
  }
  if (in_.view == ViewKind::Banks) {
    auto& picker = bankPicker_;
    std::string inputs =
        access + '\n' + in_.shared + '\n' + in_.instruction + '\n' + std::to_string(in_.elemBits);
    for (int64_t d : *shape) inputs += "x" + std::to_string(d);
    if (picker.inputs != inputs) {
      picker = BankPicker{};
      picker.inputs = inputs;
    }
    picker.shown = -1;
    BankViewOptions opt;
    opt.colorBy = in_.colorBy;
    opt.access = picker.pick;
    auto v = bankView(access, in_.shared, *shape, in_.elemBits, in_.instruction, opt);
    if (!v && v.error().message.rfind("colorBy: ", 0) == 0) {
      // An unknown colouring is --color-by's error (colorByError); drawn with the default.
      opt.colorBy.clear();
      v = bankView(access, in_.shared, *shape, in_.elemBits, in_.instruction, opt);
    }
    if (!v) {
      errView_ = "banks: " + v.error().message;
      return;
    }
    picker.accesses = v->accesses;
    picker.worstFirst = v->worstFirst;
    picker.shown = v->shownAccess;
    scene_ = std::move(v->scene);
    viewNotes_.push_back("as given: " + std::to_string(v->current.wavefronts) +
                         " wavefronts (ideal " + std::to_string(v->current.idealWavefronts) +
                         "), " + v->current.method + " analysis");
    if (v->swizzled)
      viewNotes_.push_back("synthesized swizzle: " + std::to_string(v->swizzled->wavefronts) +
                           " wavefronts (ideal " + std::to_string(v->swizzled->idealWavefronts) +
                           ")");
    if (!v->swizzleNote.empty()) viewNotes_.push_back(v->swizzleNote);
    swizzledShared_ = v->swizzledText;
    bankElements_ = std::move(v->elements);
    if (!swizzledShared_.empty()) viewNotes_.push_back("synthesized: " + swizzledShared_);
    return;
  }
  if (isXegpuLayoutText(access, aliases_)) {
    if (std::string e = xegpuBlockLoadScene(in_, access, *shape, aliases_, scene_, viewNotes_);
        !e.empty())
      errView_ = "blockload: " + e;
    return;
  }
  if (!in_.block.empty() || in_.arrayLength != 1) {
    errView_ = "blockload: block and array length apply to XeGPU layouts; a DPAS operand's loads "
               "come from the block-load planner (clear them)";
    return;
  }
  // Every subgroup's loads over the workgroup tile, not only the selected subgroup's.
  BlockLoadViewOptions opt;
  opt.allSubgroups = true;
  auto v = blockLoadView(access, *shape, in_.elemBits, in_.workItem, opt);
  if (!v) {
    errView_ = "blockload: " + v.error().message;
    return;
  }
  scene_ = std::move(v->scene);
  viewNotes_.push_back(std::to_string(v->numLoads) + " block load(s) per subgroup; work-item " +
                       std::to_string(in_.workItem) + " holds " +
                       std::to_string(v->workItemElements) + " elements in " +
                       std::to_string(v->workItemRegisters) + " DPAS operand registers");
  std::string tiles = std::to_string(v->numSubgroups) + " subgroups";
  if (v->numSubgroupTiles != v->numSubgroups)
    tiles += " in " + std::to_string(v->numSubgroupTiles) +
             " tiles (subgroups of one tile load the same elements: the operand is broadcast "
             "across them)";
  viewNotes_.push_back(tiles + (v->unloadedCells == 0 ? "; their loads cover every drawn element"
                                                      : "; " + std::to_string(v->unloadedCells) +
                                                            " drawn elements are loaded by none"));
}

void ExplorerApp::buildOperandsScene() {
  auto [text, shape] = layoutAWithShape();
  if (!shape || shape->size() != 2) {
    errView_ = "operands: the shape must be M x N (the accumulator's)";
    return;
  }
  auto enc = layout::triton::parseEncoding(text, aliases_);
  if (!enc) {
    errView_ = "operands: " + enc.error().message;
    return;
  }
  auto ops = mmaOperands(*enc, in_.elemBits);
  if (!ops) {
    errView_ = ops.error().message;
    return;
  }
  int64_t m = (*shape)[0], n = (*shape)[1];
  const int64_t k = in_.k;
  // A dot operand's type is M x K (A) or K x N (B): M x N is the accumulator's, from the file's
  // dot that takes the operand; without one, the operand's other dim is taken for the missing one.
  if (auto facts = tensorTypeFacts(in_.layoutA, aliases_); facts && facts->opIdx) {
    const KernelOp* dot = dotWithType(kernelOps_, in_.layoutA);
    std::optional<std::vector<int64_t>> mn;
    if (dot)
      if (auto accShape = parseShapeText(dot->shape); accShape && accShape->size() == 2)
        mn = *accShape;
    const bool isA = *facts->opIdx == 0;
    if (mn) {
      m = (*mn)[0], n = (*mn)[1];
      viewNotes_.push_back("M x N = " + dot->shape + ": the accumulator of the " + dot->op +
                           " at line " + std::to_string(dot->line));
    } else {
      m = isA ? (*shape)[0] : (*shape)[1], n = m;
      viewNotes_.push_back(std::string("no dot of the file takes this operand: ") +
                           (isA ? "N = M = " : "M = N = ") + std::to_string(m));
    }
  }
  auto mapOf = [&](const layout::triton::Encoding& e, int64_t rows,
                   int64_t cols) -> layout::Expected<TensorMap> {
    const int64_t dims[] = {rows, cols};
    LAYOUT_TRY_ASSIGN(ll, layout::triton::toLinearLayout(e, dims));
    return TensorMap::build(ll);
  };
  auto a = mapOf(ops->a, m, k);
  auto c = mapOf(ops->c, m, n);
  std::optional<layout::Expected<TensorMap>> b;
  if (ops->b) b = mapOf(*ops->b, k, n);
  for (const auto* r : {&a, &c, b ? &*b : nullptr})
    if (r && !*r) {
      errView_ = "operands: " + (*r).error().message;
      return;
    }
  auto size = [](int64_t r, int64_t c) { return std::to_string(r) + "x" + std::to_string(c); };
  MmaOperandMaps maps{std::move(*a), std::nullopt, std::move(*c), "", "", "", ops->noteB};
  if (b) maps.b = std::move(**b);
  maps.titleA = "A " + size(m, k) + ": dot operand 0 of C, kWidth " + std::to_string(ops->kWidthA);
  maps.titleB = "B " + size(k, n) + ": dot operand 1 of C, kWidth " + std::to_string(ops->kWidthB);
  maps.titleC = "C " + size(m, n) + ": " + ops->c.text();
  ViewOptions opt;
  opt.colorBy = defaultColorBy(maps.c);
  opt.intelTerms = intelTerms_;
  scene_ = mmaOperandsScene(maps, opt);
  viewNotes_.push_back("A = " + ops->a.text());
  if (ops->b) viewNotes_.push_back("B = " + ops->b->text());
  if (!ops->noteB.empty()) viewNotes_.push_back(ops->noteB);
}

void ExplorerApp::buildConvertScene() {
  if (!mapA_ || !mapB_) {
    errView_ = "convert: needs layout A (the source) and layout B (the destination)";
    return;
  }
  // The bank-model target of the shared-memory round trip: the instruction's vendor prefix.
  const std::string target = in_.instruction.substr(0, in_.instruction.find('.'));
  auto plan =
      layout::conversion::planConversion(mapA_->layout(), mapB_->layout(), in_.elemBits, target);
  if (!plan) {
    errView_ = "convert: " + plan.error().message;
    return;
  }
  ViewOptions opt;
  opt.colorBy = defaultColorBy(*mapA_);
  opt.intelTerms = intelTerms_;
  scene_ = conversionScene(*mapA_, *mapB_, *plan, opt);
  std::string text = layout::conversion::conversionPlanText(*plan);
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    if (end > start) viewNotes_.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  convertPlan_ = std::move(*plan);
  applyConvertPick(); // the clicked element, if it is still in the tensor
}

void ExplorerApp::applyConvertPick() {
  convertTrace_.reset();
  if (convertPick_ && convertPlan_ && mapA_ && mapB_) {
    auto t = traceElement(*convertPlan_, *mapA_, *mapB_, convertPick_->row, convertPick_->col,
                          convertPick_->dst ? TraceSide::Destination : TraceSide::Source);
    if (t)
      convertTrace_ = std::move(*t);
    else
      convertPick_.reset(); // e.g. a smaller tensor now
  }
  markTrace(scene_, convertTrace_ ? &*convertTrace_ : nullptr,
            convertPlan_ ? &*convertPlan_ : nullptr);
  ++sceneVersion_; // the fills changed: cached grid textures are stale
}

void ExplorerApp::convertPlanPanel() {
  if (viewNotes_.empty()) return;
  // Folded when long (a shuffle plan lists every round), so the panels under it stay in reach.
  const std::string title = "Plan text (" + std::to_string(viewNotes_.size()) +
                            " lines): " + viewNotes_.front() + "###plan text";
  if (!ImGui::CollapsingHeader(title.c_str(),
                               viewNotes_.size() <= 40 ? ImGuiTreeNodeFlags_DefaultOpen : 0))
    return;
  for (const auto& n : viewNotes_) ImGui::TextWrapped("%s", n.c_str());
}

void ExplorerApp::specialPanels() {
  bool changed = false, layoutBChanged = false;
  if (in_.view == ViewKind::Banks) {
    ImGui::TextUnformatted("access = layout A; shared layout (empty: row-major):");
    changed |= ImGui::InputTextMultiline("##shared", &in_.shared, ImVec2(-1, 50));
    if (!swizzledShared_.empty() && in_.shared != swizzledShared_ &&
        ImGui::Button("use the synthesized swizzle as the shared layout")) {
      in_.shared = swizzledShared_;
      changed = true;
    }
    // The built-in instructions of one target (bank model) at a time; the text field below
    // also takes a model as JSON.
    const auto& targets = layout::smem::builtinBankTargets();
    const std::string vendor = in_.instruction.substr(0, in_.instruction.find('.'));
    ImGui::SetNextItemWidth(100);
    if (ImGui::BeginCombo("##target", vendor.c_str())) {
      for (const auto& t : targets)
        if (ImGui::Selectable(t.name.c_str(), t.name == vendor) && !t.instructions.empty()) {
          in_.instruction = t.instructions.front().name;
          changed = true;
        }
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(200);
    if (ImGui::BeginCombo("##instruction", in_.instruction.c_str())) {
      for (const auto& t : targets)
        if (t.name == vendor)
          for (const auto& ins : t.instructions)
            if (ImGui::Selectable(ins.name.c_str(), ins.name == in_.instruction)) {
              in_.instruction = ins.name;
              changed = true;
            }
      ImGui::EndCombo();
    }
    ImGui::SetNextItemWidth(200);
    changed |= ImGui::InputText("instruction", &in_.instruction);
    ImGui::SetNextItemWidth(120);
    changed |= ImGui::InputInt("element bits", &in_.elemBits);
    // The access whose phases the heat maps draw, worst first.
    auto& picker = bankPicker_;
    if (picker.shown >= 0 && picker.accesses.size() > 1) {
      ImGui::SetNextItemWidth(-1);
      if (ImGui::BeginCombo("##access", ("drawn: " + picker.name(picker.shown)).c_str())) {
        ImGuiListClipper clipper; // thousands of accesses in a large tile
        clipper.Begin(int(picker.worstFirst.size()));
        while (clipper.Step())
          for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const int k = picker.worstFirst[size_t(i)];
            if (ImGui::Selectable(picker.name(k).c_str(), k == picker.shown)) {
              picker.pick = k;
              changed = true;
            }
          }
        ImGui::EndCombo();
      }
    }
    // What colours the shared layout under the heat maps (also --color-by).
    ImGui::TextUnformatted("shared layout by:");
    for (const char* c : {"bank", "phase", "vector", "lane"}) {
      ImGui::SameLine();
      const bool on = in_.colorBy == c || (in_.colorBy.empty() && std::string(c) == "lane");
      if (ImGui::RadioButton(c, on) && !on) {
        in_.colorBy = c;
        changed = true;
      }
    }
  } else if (in_.view == ViewKind::BlockLoad) {
    ImGui::TextUnformatted("operand = layout A (#ttg.dot_op of #ttig.dpas, or an #xegpu.layout");
    ImGui::TextUnformatted("of a load_nd's tensor descriptor over the shape)");
    ImGui::SetNextItemWidth(120);
    changed |= ImGui::InputInt("element bits", &in_.elemBits);
    ImGui::SetNextItemWidth(120);
    changed |= ImGui::InputInt("work-item", &in_.workItem);
    in_.workItem = std::max(0, in_.workItem);
    // XeGPU only: the block one load moves (empty: inst_data, else sg_data, else the shape).
    ImGui::SetNextItemWidth(120);
    changed |= ImGui::InputTextWithHint("block", "RxC, XeGPU", &in_.block);
    ImGui::SetNextItemWidth(120);
    changed |= ImGui::InputInt("array length", &in_.arrayLength);
    in_.arrayLength = std::clamp(in_.arrayLength, 1, 64);
  } else if (in_.view == ViewKind::Operands) {
    ImGui::TextUnformatted("C = layout A (an MMA encoding) over M x N");
    ImGui::SetNextItemWidth(120);
    changed |= ImGui::InputInt("K", &in_.k);
    in_.k = std::clamp(in_.k, 1, 1 << 16);
    ImGui::SetNextItemWidth(120);
    changed |= ImGui::InputInt("element bits", &in_.elemBits);
  } else if (in_.view == ViewKind::Convert) {
    ImGui::TextUnformatted("source = layout A (above)");
    ImGui::TextUnformatted("Layout B, the destination (encoding text, #xegpu, JSON or #alias)");
    layoutBChanged = ImGui::InputTextMultiline("##convert B", &in_.layoutB, ImVec2(-1, 60));
    errorBox(errB_, in_.layoutB, whereB_);
    // The shared-memory round trip's bank model: the instruction's vendor prefix.
    const std::string vendor = in_.instruction.substr(0, in_.instruction.find('.'));
    ImGui::SetNextItemWidth(120);
    if (ImGui::BeginCombo("shared-memory target", vendor.c_str())) {
      for (const auto& t : layout::smem::builtinBankTargets())
        if (ImGui::Selectable(t.name.c_str(), t.name == vendor) && !t.instructions.empty()) {
          in_.instruction = t.instructions.front().name;
          changed = true;
        }
      ImGui::EndCombo();
    }
    ImGui::SetNextItemWidth(120);
    changed |= ImGui::InputInt("element bits", &in_.elemBits);
  }
  if (layoutBChanged) {
    in_.elemBits = std::clamp(in_.elemBits, 1, 64);
    refit_ = true;
    rebuild(); // layout B is parsed again, then the view rebuilt
  } else if (changed) {
    in_.elemBits = std::clamp(in_.elemBits, 1, 64);
    buildScene();
  }
  // The convert view's inspector sits above its plan text (hundreds of lines for shuffles).
  if (in_.view == ViewKind::Convert) {
    inspectorPanel();
    convertPlanPanel();
  }
}

} // namespace layout::views
