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
// Every warp issues the instruction several times (accesses); each access of the tile is listed
// with its wavefronts (`accesses`), and one is drawn: the worst (most wavefronts) unless
// `BankViewOptions::access` picks another. Each of its phases is a grid of rows = wavefronts,
// cols = banks: cell (w, b) is the w-th distinct 4-byte word bank b serves, labelled with the
// lanes that read or write it ("5", "5,9", "5+3" = lane 5 and three more). The fill is
// palette::heat(words of that bank, heatMax), the same scale on both sides; banks serving more
// than one word carry kMarkConflict. Grid ids: "banks" (first phase), "banks.<p>" (the others),
// and "swizzled.banks", "swizzled.banks.<p>" for the synthesized layout (the same access).
//
// Under them, "banks.tensor" is the shared layout over the tensor, coloured by `colorBy`: "bank"
// (the bank of the element's first byte under the instruction's model, labelled with it),
// "phase" (the phase of the access that moves the element, "p1"), "vector" (the slot of the bank
// line that the lane's vector holding the element fills, "v3"), or an in-dim of the access
// layout (lane, register, warp: the tensor view's colouring). Cells the drawn access moves are
// outlined (kMarkOutline).
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
#include <vector>

namespace layout::views {

struct BankViewOptions {
  bool synthesize = true; // also draw the synthesized conflict-free swizzle
  int maxPhases = 16;     // phases drawn per side; the rest are summarised in a note
  float cellSize = 0;     // cell width; 0: from the longest label (at least 24)
  // What colours "banks.tensor": one of bankColorings(); empty: the access layout's lane.
  std::string colorBy;
  // The access drawn, an index into BankViewResult::accesses; -1 (or out of range): the worst.
  int access = -1;
};

// One access (instruction issue) of one warp and what it costs.
struct BankAccess {
  int warp = 0, issue = 0;
  uint64_t wavefronts = 0, idealWavefronts = 0;
  int ways = 1; // its worst phase
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
  // Every access of the tile, warp-major (index = warp * accessesPerWarp + issue), with its
  // wavefronts as the shared layout given serves it; `worstFirst` orders their indices by
  // wavefronts, most first (ties by index). `shownAccess` is the one drawn. When the accesses
  // cannot be listed (`accessNote` says why) there is one entry: the first issue of warp 0.
  std::vector<BankAccess> accesses;
  std::vector<int> worstFirst;
  int shownAccess = 0;
  std::string accessNote;
  std::string colorBy; // what coloured "banks.tensor"
};

// What can colour the banks view's "banks.tensor": bank, phase, vector, then the in-dims of the
// access layout (none when it is null).
std::vector<std::string> bankColorings(const layout::LinearLayout* access);
// "" when `colorBy` is empty or one of bankColorings(access); else why not, naming them.
std::string bankColorByError(std::string_view colorBy, const layout::LinearLayout* access);

// A bank report's phases (the first issue of warp 0) as heat-map grids "<prefix>banks" (phase 0)
// and "<prefix>banks.<p>", stacked from (x, y) under their titles, drawn as in bankView (rows:
// wavefronts, cols: banks, cells: the lanes on each word, fill palette::heat(ways, heatMax)).
// At most `maxPhases` are drawn, the rest summarised. Returns the y under the last one.
float appendBankPhases(Scene& s, const layout::smem::BankReport& r, const std::string& prefix,
                       float x, float y, int heatMax, int maxPhases = 16);
// The heat scale's legend (idle, 1-way .. heatMax-way, conflict) in the scene's legend at (x, y).
void appendBankLegend(Scene& s, float x, float y, int heatMax);

// `accessText`: distributed encoding text or layout JSON; `sharedText`: shared encoding text
// (#ttg.padded_shared included) or layout JSON, empty for the row-major tile; `shape` may be
// empty for layout JSON; `instruction`: a name such as "cdna4.ds_read_b128" or a bank model as
// JSON. Errors name the field: "access: ...", "shared: ...", "instruction: ...", "elemBits: ...",
// "colorBy: ...".
layout::Expected<BankViewResult> bankView(std::string_view accessText, std::string_view sharedText,
                                          std::span<const int64_t> shape, int elemBits,
                                          std::string_view instruction,
                                          const BankViewOptions& opt = {});

} // namespace layout::views
