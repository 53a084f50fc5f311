// The block-load probe: what it expects each lane to receive, against the documented lane order
// of the transposed d32 load (docs/reference/intel-xe.md §3.1: lane l, element e =
// M((e % 2) * 16 + l, e / 2), rows l and l + 16 alternating), and the check's report.
#include "layout/codegen/block_load_probe.h"
#include "layout/codegen/gemm_kernel_builder.h"

#include <gtest/gtest.h>

#include <cstring>

namespace layout::codegen {
namespace {

const intel::BlockShape kTransposeD32{32, 8, 32, 1, true, false};

std::vector<uint8_t> outputOf(const std::vector<std::vector<uint32_t>>& lanes) {
  std::vector<uint8_t> out;
  for (const auto& lane : lanes)
    for (uint32_t v : lane) {
      uint8_t b[4];
      std::memcpy(b, &v, 4);
      out.insert(out.end(), b, b + 4);
    }
  return out;
}

TEST(BlockLoadProbe, TransposedD32FollowsTheDocumentedLaneOrder) {
  auto pvc = intel::blockIoTarget("pvc");
  ASSERT_TRUE(pvc);
  auto probe = buildBlockLoadProbe(kTransposeD32, *pvc);
  ASSERT_TRUE(probe) << probe.error().message;
  EXPECT_EQ(probe->kernelName, "layout_probe_transpose_32b_32r8x1c");
  ASSERT_EQ(probe->unitsPerLane, 16);
  ASSERT_EQ(probe->expected.size(), 16u);
  // Element (row, column) of the surface holds row << 16 | column; the block starts at (x, y).
  std::vector<std::vector<uint32_t>> documented(16, std::vector<uint32_t>(16));
  for (uint32_t l = 0; l < 16; ++l)
    for (uint32_t e = 0; e < 16; ++e) {
      const uint32_t row = uint32_t(probe->y) + (e % 2) * 16 + l;
      const uint32_t column = uint32_t(probe->x) + e / 2;
      documented[l][e] = row << 16 | column;
    }
  EXPECT_EQ(probe->expected, documented);
  EXPECT_TRUE(checkBlockLoadProbe(*probe, outputOf(documented)));

  // The literal reading of the generic SPIR-V prose (rows 2l and 2l + 1) is what the probe is
  // there to tell apart.
  auto misread = documented;
  for (uint32_t l = 0; l < 16; ++l)
    for (uint32_t e = 0; e < 16; ++e)
      misread[l][e] = (uint32_t(probe->y) + 2 * l + e % 2) << 16 | (uint32_t(probe->x) + e / 2);
  auto bad = checkBlockLoadProbe(*probe, outputOf(misread));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "probe layout_probe_transpose_32b_32r8x1c: the device's transpose_32b_32r8x1c load "
            "disagrees with the lane order the kernels assume: lane 0, register 1: got element "
            "(row 4, column 2), expected element (row 19, column 2)");
  auto shortOutput = outputOf(documented);
  shortOutput.pop_back();
  EXPECT_FALSE(checkBlockLoadProbe(*probe, shortOutput));
  // The source is the one-message kernel with the builtin's prototype.
  EXPECT_NE(probe->source.find("intel_sub_group_2d_block_read_transpose_32b_32r8x1c(source, "
                               "width, height, pitch, (int2)(2, 3), v);"),
            std::string::npos)
      << probe->source;
}

TEST(BlockLoadProbe, PlainLoadsPackElementsIntoUnits) {
  auto pvc = intel::blockIoTarget("pvc");
  ASSERT_TRUE(pvc);
  // 8-bit, 32 wide: lane l gets columns 2l and 2l + 1 of each row packed in a ushort (§3.1),
  // widened to a 32-bit word by the probe kernel.
  auto probe = buildBlockLoadProbe({8, 32, 4, 1, false, false}, *pvc);
  ASSERT_TRUE(probe) << probe.error().message;
  ASSERT_EQ(probe->unitsPerLane, 4);
  auto code = [&](int64_t r, int64_t c) { return uint32_t((r * 251 + c + 1) & 0xFF); };
  for (int64_t l = 0; l < 16; ++l)
    for (int64_t r = 0; r < 4; ++r)
      EXPECT_EQ(probe->expected[l][r], code(probe->y + r, probe->x + 2 * l) |
                                           code(probe->y + r, probe->x + 2 * l + 1) << 8)
          << "lane " << l << " row " << r;
}

TEST(BlockLoadProbe, RefusesWhatIsNotAProbeableLoad) {
  auto pvc = intel::blockIoTarget("pvc");
  ASSERT_TRUE(pvc);
  auto wide = buildBlockLoadProbe({32, 16, 8, 4, false, false}, *pvc); // 256 bytes per row
  ASSERT_FALSE(wide);
  EXPECT_NE(wide.error().message.find("is not a load with a cl_intel_subgroup_2d_block_io"),
            std::string::npos)
      << wide.error().message;
}

TEST(BlockLoadProbe, TransposeBKernelsProbeTheirTransposedLoad) {
  GemmConfig c;
  c.transposeB = true;
  auto k = buildGemmKernel(c);
  ASSERT_TRUE(k) << k.error().message;
  const auto shapes = kernelProbeShapes(*k);
  ASSERT_EQ(shapes.size(), 1u);
  EXPECT_EQ(intel::blockShapeName(shapes[0]), "transpose_32b_32r8x1c");
  c.transposeB = false;
  k = buildGemmKernel(c);
  ASSERT_TRUE(k) << k.error().message;
  EXPECT_TRUE(kernelProbeShapes(*k).empty());
}

} // namespace
} // namespace layout::codegen
