// The banks and block-load views of the app: their inputs in the side panel and their scenes
// (explorer/bank_view.h, explorer/block_load_view.h). Both read layout A as text.
#include "explorer_app.h"

#include "layout/smem/bank_model.h"
#include "layout/views/bank_view.h"
#include "layout/views/block_load_view.h"
#include "layout/views/conversion_view.h"
#include "layout/views/layout_input.h"
#include "layout/views/mma_operands.h"
#include "layout/views/views.h"

#include <imgui.h>
#include <imgui_stdlib.h>

namespace layout::views {

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
    auto v = bankView(access, in_.shared, *shape, in_.elemBits, in_.instruction);
    if (!v) {
      errView_ = "banks: " + v.error().message;
      return;
    }
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
  auto v = blockLoadView(access, *shape, in_.elemBits, in_.workItem);
  if (!v) {
    errView_ = "blockload: " + v.error().message;
    return;
  }
  scene_ = std::move(v->scene);
  viewNotes_.push_back(std::to_string(v->numLoads) + " block load(s) per subgroup; work-item " +
                       std::to_string(in_.workItem) + " holds " +
                       std::to_string(v->workItemElements) + " elements in " +
                       std::to_string(v->workItemRegisters) + " DPAS operand registers");
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
  const int64_t m = (*shape)[0], n = (*shape)[1], k = in_.k;
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
}

void ExplorerApp::specialPanels() {
  bool changed = false;
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
  } else if (in_.view == ViewKind::BlockLoad) {
    ImGui::TextUnformatted("operand = layout A (#ttg.dot_op of #ttig.dpas)");
    ImGui::SetNextItemWidth(120);
    changed |= ImGui::InputInt("element bits", &in_.elemBits);
    ImGui::SetNextItemWidth(120);
    changed |= ImGui::InputInt("work-item", &in_.workItem);
    in_.workItem = std::max(0, in_.workItem);
  } else if (in_.view == ViewKind::Operands) {
    ImGui::TextUnformatted("C = layout A (an MMA encoding) over M x N");
    ImGui::SetNextItemWidth(120);
    changed |= ImGui::InputInt("K", &in_.k);
    in_.k = std::clamp(in_.k, 1, 1 << 16);
    ImGui::SetNextItemWidth(120);
    changed |= ImGui::InputInt("element bits", &in_.elemBits);
  }
  if (changed) {
    in_.elemBits = std::clamp(in_.elemBits, 1, 64);
    buildScene();
  }
}

} // namespace layout::views
