// The bank heat map: how one shared-memory access spreads over the banks, phase by phase, for
// the shared layout as given (left) and for the conflict-free swizzle the library synthesizes
// for the same access and instruction (right). Numbers come from layout::smem::analyzeBanks.
//
//   int64_t shape[] = {32, 64};
//   auto v = layout::views::bankView(accessText, /*sharedText=*/"", shape, 16, "cdna4.ds_read_b128");
//   if (!v) std::cerr << v.error().message << "\n";   // "access: ...", "instruction: ..."
//   v->current.maxWays();                               // 4 (seed 004's row-major tile)
//   std::string svg = layout::views::sceneToSvg(v->scene);
//
// Each phase (the first issue of warp 0, as the report lists them) is a grid of rows =
// wavefronts, cols = banks: cell (w, b) is the w-th distinct 4-byte word bank b serves, labelled
// with the lanes that read or write it ("5", "5,9", "5+3" = lane 5 and three more). The fill is
// palette::heat(words of that bank, heatMax), the same scale on both sides; banks serving more
// than one word carry kMarkConflict. Grid ids: "banks" (first phase), "banks.<p>" (the others),
// and "swizzled.banks", "swizzled.banks.<p>" for the synthesized layout.
#pragma once

#include "layout/core/linear_layout.h"
#include "layout/smem/bank_analysis.h"
#include "layout/views/scene.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace layout::views {

struct BankViewOptions {
  bool synthesize = true; // also draw the synthesized conflict-free swizzle
  int maxPhases = 16;     // phases drawn per side; the rest are summarised in a note
  float cellSize = 0;     // cell width; 0: from the longest label (at least 24)
};

struct BankViewResult {
  Scene scene;
  layout::smem::BankReport current; // the shared layout as given
  // The synthesized swizzle and its report for the same access and instruction; empty when the
  // synthesis was not asked for or failed (`swizzleNote` then says why).
  std::optional<layout::LinearLayout> swizzledShared;
  // The swizzle as #ttg.shared_linear text, to use as the shared layout; empty without one.
  std::string swizzledText;
  std::optional<layout::smem::BankReport> swizzled;
  std::string swizzleNote;
  int heatMax = 1; // ways drawn in full red on both sides
  // Per heat-map grid id, per cell: the tensor cells (row-major) whose bytes lanes read on that
  // word; the grid "banks.tensor" shows the tensor they index.
  std::map<std::string, std::vector<std::vector<uint64_t>>> elements;
};

// `accessText`: distributed encoding text or layout JSON; `sharedText`: shared encoding text
// (#ttg.padded_shared included) or layout JSON, empty for the row-major tile; `shape` may be
// empty for layout JSON; `instruction`: a name such as "cdna4.ds_read_b128" or a bank model as
// JSON. Errors name the field: "access: ...", "shared: ...", "instruction: ...", "elemBits: ...".
layout::Expected<BankViewResult> bankView(std::string_view accessText, std::string_view sharedText,
                                          std::span<const int64_t> shape, int elemBits,
                                          std::string_view instruction,
                                          const BankViewOptions& opt = {});

} // namespace layout::views
