// Does this shared tile have bank conflicts, and which swizzle removes them? Seed 004's MI350
// (CDNA4) example (docs/seeds.md#seed-004): a 32x64 f16 tile written to LDS by gather_to_lds in
// 4-byte pieces and read back with ds_read_b128 for a 16x16x32 MFMA. Prints the bank report of
// the plain row-major tile, of the seed's XOR swizzle (swizzle unit 8, max phase 8), and the
// swizzle that synthesis finds for both sides, with its proof against the lower bound.
//
//   ./build/examples/bank_report_swizzle
#include "layout/smem/bank_analysis.h"
#include "layout/smem/bank_model.h"
#include "layout/smem/swizzle_synthesis.h"

#include <iostream>
#include <string>
#include <vector>

using namespace layout;

namespace {

// register / lane / warp bases -> (dim0, dim1) of the 32x64 tile.
LinearLayout tile(std::vector<std::vector<uint64_t>> regs, std::vector<std::vector<uint64_t>> lanes,
                  std::vector<std::vector<uint64_t>> warps) {
  return *LinearLayout::create(
      {{DimName("register"), regs}, {DimName("lane"), lanes}, {DimName("warp"), warps}},
      {{DimName("dim0"), 32}, {DimName("dim1"), 64}});
}

void summary(const std::string& what, const smem::BankReport& r) {
  std::cout << "summary: " << what << ": " << r.maxWays() << "-way, " << r.wavefronts
            << " wavefronts (ideal " << r.idealWavefronts << "), " << r.conflictWavefronts()
            << " conflict wavefronts\n";
}

} // namespace

int main() {
  // The MFMA reads (the seed's Wave kernel): lane l reads 8 f16 of row l % 16 at column
  // 8 * (l / 16); a second read takes the other k half (+32 columns); waves 2-3 read rows 16-31.
  const LinearLayout reads =
      tile({{0, 1}, {0, 2}, {0, 4}, {0, 32}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}, {0, 16}},
           {{0, 0}, {0, 0}, {16, 0}});
  // The gather_to_lds writes: each wave's 64 lanes write 2 f16 each, two 64-wide rows in order.
  const LinearLayout writes =
      tile({{0, 1}, {16, 0}}, {{0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 0}},
           {{2, 0}, {4, 0}, {8, 0}});
  const int64_t shape[] = {32, 64};
  auto readIns = smem::bankInstruction("cdna4.ds_read_b128");
  auto writeIns = smem::bankInstruction("cdna4.ds_write_b32");
  if (!readIns || !writeIns) return 1;

  // 1. The plain row-major tile: every phase serializes on 4 words of the same banks.
  auto plain = smem::analyzeBanks({reads, *smem::rowMajorShared(shape), 16, {}}, *readIns);
  if (!plain) {
    std::cerr << "error: " << plain.error().message << "\n";
    return 1;
  }
  std::cout << "== row-major 32x64 f16, read with " << readIns->name << "\n"
            << smem::bankReportText(*plain) << "\n";

  // 2. The seed's swizzle: column chunk of 8 elements XOR (row % 8).
  auto seedShared = smem::xorSwizzleShared(shape, 8, 8);
  if (!seedShared) return 1;
  auto seedReport = smem::analyzeBanks({reads, *seedShared, 16, {}}, *readIns);
  if (!seedReport) return 1;
  // Its per-lane table says where each lane's 16 bytes landed (the first access of warp 0).
  std::cout << "== seed 004's swizzle (swizzle unit 8, max phase 8), read with " << readIns->name
            << ": " << seedReport->wavefronts << " wavefronts (ideal "
            << seedReport->idealWavefronts << ")\n";
  for (const smem::PhaseReport& phase : seedReport->phases)
    for (const smem::LaneTouch& t : phase.lanes)
      if (t.lane < 4) {
        std::cout << "phase " << phase.phase << ", lane " << t.lane << ": byte " << t.byteAddress
                  << ", banks";
        for (int b : t.banks) std::cout << " " << b;
        std::cout << "\n";
      }
  std::cout << "\n";

  // 3. Synthesis: an XOR swizzle that keeps both sides' vectors and reaches the lower bound.
  auto synth = smem::synthesizeSwizzle({writes, reads, 16, *writeIns, *readIns});
  if (!synth) {
    std::cerr << "error: " << synth.error().message << "\n";
    return 1;
  }
  std::cout << "== synthesized swizzle (" << writeIns->name << " stores, " << readIns->name
            << " loads)\n"
            << smem::swizzleResultText(*synth) << "\n";

  summary("row-major load", *plain);
  summary("seed swizzle load", *seedReport);
  summary("synthesized store", synth->store);
  summary("synthesized load", synth->load);
  std::cout << "summary: synthesized lower bound met: " << (synth->lowerBound.met ? "yes" : "no")
            << "\n";
  return 0;
}
