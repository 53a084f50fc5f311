// The banks and block-load views of the app: their inputs in the side panel and their scenes
// (explorer/bank_view.h, explorer/block_load_view.h). Both read layout A as text.
#include "explorer_app.h"

#include "explorer/bank_view.h"
#include "explorer/block_load_view.h"
#include "explorer/layout_input.h"

#include <imgui.h>
#include <imgui_stdlib.h>

namespace explorer {

void ExplorerApp::buildSpecialScene() {
  // Layout A's own shape when it has one (a tensor type, layout JSON), as the tensor view takes.
  auto shape = ownShape_.empty() ? parseShapeText(in_.shape)
                                 : layout::Expected<std::vector<int64_t>>(ownShape_);
  if (!shape) {
    errView_ = shape.error().message;
    return;
  }
  std::string access = in_.layoutA;
  if (auto typed = splitTensorType(access)) access = typed->encoding;
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

void ExplorerApp::specialPanels() {
  bool changed = false;
  if (in_.view == ViewKind::Banks) {
    ImGui::TextUnformatted("access = layout A; shared layout (empty: row-major):");
    changed |= ImGui::InputTextMultiline("##shared", &in_.shared, ImVec2(-1, 50));
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
  }
  if (changed) {
    in_.elemBits = std::clamp(in_.elemBits, 1, 64);
    buildScene();
  }
}

} // namespace explorer
