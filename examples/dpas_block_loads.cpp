// How are a DPAS operand's registers loaded? Plans the Intel 2D block loads and the shuffle
// vectors for the A and B operands of seed 002's AxB GEMM (docs/seeds.md#seed-002, "Using Linear
// Layout for Intel 2D Block Loads") on PVC, with layout::intel::planBlockLoads: the block-load tile
// layout (offset, iteration, load), each load's shape and offset, the registers every DPAS
// instruction takes from the loads, and where each subgroup's tile starts.
//
//   ./build/examples/dpas_block_loads
#include "layout/intel/block_load_plan.h"
#include "layout/triton/encoding.h"
#include "layout/triton/intel_dpas.h"

#include <iostream>
#include <string>
#include <vector>

using namespace layout;

namespace {

// The seed's DPAS parent, as the seed prints it (the older #triton_intel_gpu. prefix is read as
// #ttig.; A, B, C are the per-warp operand shapes, checked against the other parameters).
const char* kParent = "#triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize "
                      "= 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], "
                      "repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>";

std::string list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

int plan(const std::string& operand, std::vector<int64_t> shape) {
  auto enc = triton::parseEncoding(operand);
  if (!enc) {
    std::cerr << "error: " << enc.error().message << "\n";
    return 1;
  }
  auto opIdx = triton::dotOperandIndex(*enc);
  auto dpas = triton::intelDpasParams(*enc);
  if (!opIdx || !dpas) {
    std::cerr << "error: not a DPAS operand\n";
    return 1;
  }
  std::cout << "== operand " << (*opIdx == 0 ? "A" : "B") << ": tensor<" << shape[0] << "x"
            << shape[1] << "xf16, " << enc->text() << ">\n";
  std::cout << "DPAS " << dpas->repeatCount << "x" << dpas->executionSize << "x"
            << dpas->systolicDepth * dpas->opsPerChan << ", repCluster " << list(dpas->repCluster)
            << ", warpsPerCTA " << list(dpas->warpsPerCTA) << "\n\n";

  auto pvc = intel::blockIoTarget("pvc");
  if (!pvc) return 1;
  // f16 (16-bit elements), row-major in memory (the AxB kernel; AxBT would pass true).
  auto p = intel::planBlockLoads(*enc, shape, 16, /*transposedInMemory=*/false, *pvc);
  if (!p) {
    std::cerr << "error: " << p.error().message << "\n";
    return 1;
  }
  // The seed's stages end with this listing; its out dims count load slots (VNNI dword rows for B).
  std::cout << "Block load tile layout after adding loads:" << p->tileLayout.toString() << "\n\n";

  std::cout << p->numLoads << " block load(s) per subgroup, offsets [row, col] in elements:\n";
  for (size_t i = 0; i < p->loads.size(); ++i) {
    const intel::BlockLoad& l = p->loads[i];
    std::cout << "  load " << i << ": "
              << intel::blockShapeName(
                     {l.elemBits, l.tileWidth, l.tileHeight, l.numBlocks, l.transpose, l.vnni})
              << " at " << list(l.offset) << "\n";
  }
  // Each shuffle vector picks one DPAS instruction's operand registers out of a load's result.
  std::cout << "\n"
            << p->shuffles.size() << " shuffle vectors (" << p->operandRegisterBits
            << "-bit operand registers, indices into the load's registers):\n";
  for (const intel::Shuffle& s : p->shuffles)
    std::cout << "  dpas " << s.dpas << " <- load " << s.load << " iteration " << s.iteration
              << (s.lane ? " lane " + std::to_string(*s.lane) : std::string(" all lanes")) << ": "
              << list(s.registers) << "\n";
  // Subgroups differ only in where their tile starts: warp id -> [row, col] of the tile origin.
  std::cout << "\nsubgroup origin (warp -> [row, col]):" << p->subgroupOffset.toString() << "\n\n";
  return 0;
}

} // namespace

int main() {
  const std::string parent = kParent;
  // Seed line 18: operand A is tensor<256x32xf16> with kWidth 1; seed line 200: B is
  // tensor<32x256xf16> with kWidth 2.
  if (int rc = plan("#ttg.dot_op<{opIdx = 0, parent = " + parent + ", kWidth = 1}>", {256, 32}))
    return rc;
  return plan("#ttg.dot_op<{opIdx = 1, parent = " + parent + ", kWidth = 2}>", {32, 256});
}
