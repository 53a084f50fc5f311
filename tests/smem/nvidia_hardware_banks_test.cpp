// The NVIDIA bank model against the hardware: 577 single-instruction warps (ld.shared and
// st.shared of 4, 8 and 16 bytes, ldmatrix.x4, at chosen byte addresses: strides, broadcasts,
// random windows, XOR swizzles, repeated lanes) whose wavefronts and bank conflicts Nsight Compute
// counted on an H100 (sm_90; tests/hw_oracle/README.md says how). Every count must match.
#include "layout/smem/bank_analysis.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <string>

namespace {

using namespace layout::smem;

TEST(NvidiaHardwareBanks, EveryMeasuredWarpMatches) {
  std::ifstream in(std::string(LAYOUT_TEST_DATA_DIR) + "/nvidia_h100_bank_measurements.jsonl");
  ASSERT_TRUE(in) << "missing tests/data/nvidia_h100_bank_measurements.jsonl";
  const std::map<std::string, std::string> names = {
      {"ld.b32", "nvidia.ld.b32"},   {"ld.b64", "nvidia.ld.b64"},
      {"ld.b128", "nvidia.ld.b128"}, {"ldmatrix.x4", "nvidia.ldmatrix.x4"},
      {"st.b32", "nvidia.st.b32"},   {"st.b64", "nvidia.st.b64"},
      {"st.b128", "nvidia.st.b128"}};
  std::map<std::string, int> perKind;
  int records = 0, conflicted = 0;
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line);
    const std::string kind = j["kind"];
    auto ins = bankInstruction(names.at(kind));
    ASSERT_TRUE(ins.ok());
    std::vector<LaneAddress> a;
    for (size_t l = 0; l < j["addresses"].size(); ++l)
      a.push_back({int(l), j["addresses"][l].get<uint64_t>()});
    auto r = analyzeByteAddresses(a, ins->bytesPerLane, *ins);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->wavefronts, j["wavefronts"].get<uint64_t>())
        << "launch " << j["launch"] << " (" << kind << ", " << j["family"].get<std::string>()
        << ")";
    // Nsight's bank conflicts are the wavefronts beyond the conflict-free count.
    EXPECT_EQ(r->conflictWavefronts(), j["bankConflicts"].get<uint64_t>())
        << "launch " << j["launch"] << " (" << kind << ", " << j["family"].get<std::string>()
        << ")";
    ++perKind[kind];
    ++records;
    conflicted += j["bankConflicts"].get<uint64_t>() > 0;
  }
  EXPECT_EQ(records, 577);
  EXPECT_GE(perKind["st.b128"], 80);
  EXPECT_GE(perKind["ldmatrix.x4"], 50);
  EXPECT_GE(conflicted, 300);
}

} // namespace
