// Replays test vectors computed by real Triton 3.6.0 (tests/data/triton_algebra_vectors.jsonl, made
// by tests/triton_oracle/gen_algebra_vectors.py on a machine with Triton) through the batch
// protocol and compares every result with Triton's.
#include "layout/protocol/batch.h"
#include "layout/text/layout_json.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>

using nlohmann::json;

namespace {

// Records where Triton 3.6 and the Triton main branch that our reference describes disagree: in
// invertAndCompose, Triton 3.6 takes an in-dim as an "identity dim" only when the out-dim sizes
// of A and B also match; main (since triton-lang/triton#10116) compares the bases ignoring out
// sizes, and so do we. For these records we check the defining property instead of the bytes.
const std::set<int64_t> kTriton36IdentityDimRecords = {841,  856,  859,  917,  922,  928,
                                                       941,  971,  983,  1017, 1064, 1081,
                                                       1086, 1092, 1097, 1098, 1102, 1146};

std::vector<json> loadRecords() {
  std::ifstream in(std::string(LAYOUT_TEST_DATA_DIR) + "/triton_algebra_vectors.jsonl");
  std::vector<json> records;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) records.push_back(json::parse(line));
  return records;
}

// Checks A(x) == B(C(x)) on every input basis vector (enough, as all three maps are linear) and
// that each in-dim whose bases agree in A and B (ignoring out sizes) maps to itself.
void expectInvertAndComposeSolution(const json& request, const json& result) {
  auto A = layout::layoutFromJson(request["inputs"][0]);
  auto B = layout::layoutFromJson(request["inputs"][1]);
  auto C = layout::layoutFromJson(result);
  ASSERT_TRUE(A && B && C);
  for (int d = 0; d < A->numInDims(); ++d) {
    for (int i = 0; i < A->inDimSizeLog2(d); ++i) {
      std::vector<std::pair<layout::DimName, uint64_t>> x;
      for (int e = 0; e < A->numInDims(); ++e)
        x.push_back({A->inDimName(e), e == d ? uint64_t{1} << i : 0});
      auto a = A->apply(x);
      auto c = C->apply(x);
      ASSERT_TRUE(a && c);
      auto bc = B->apply(*c);
      ASSERT_TRUE(bc);
      std::map<std::string, uint64_t> lhs, rhs;
      for (auto& [n, v] : *a) lhs[std::string(n.str())] = v;
      for (auto& [n, v] : *bc) rhs[std::string(n.str())] = v;
      EXPECT_EQ(lhs, rhs) << "in-dim " << A->inDimName(d).str() << " bit " << i;
    }
  }
}

TEST(TritonVectors, EveryRecordMatchesTriton) {
  std::vector<json> records = loadRecords();
  ASSERT_EQ(records.size(), 3600u) << "test data missing or truncated";
  layout::BatchProcessor batch;
  std::map<std::string, int> checkedPerOp;
  for (const json& record : records) {
    const json& request = record["request"];
    const int64_t id = request["id"].get<int64_t>();
    SCOPED_TRACE("record id " + std::to_string(id) + " op " + request["op"].get<std::string>());
    json response = json::parse(batch.processLine(request.dump()));
    ASSERT_EQ(response["id"], request["id"]);
    ASSERT_FALSE(response.contains("error")) << response["error"];
    ASSERT_TRUE(response.contains("result"));
    if (kTriton36IdentityDimRecords.count(id)) {
      expectInvertAndComposeSolution(request, response["result"]);
    } else {
      EXPECT_EQ(response["result"], record["expected"]["result"]) << "request: " << request.dump();
    }
    ++checkedPerOp[request["op"].get<std::string>()];
  }
  // Every op the generator covers was exercised.
  for (const char* op :
       {"identity1D", "strided1D", "zeros1D", "compose", "invertAndCompose", "invert",
        "pseudoinvert", "product", "apply", "equals", "toString", "isSurjective", "isInjective",
        "isInvertible", "getInDimNames", "getOutDimNames"})
    EXPECT_GE(checkedPerOp[op], 100) << op;
}

} // namespace
