// The `layoutctl batch` protocol (interchange §2): one response line per request line, errors per
// line, and hand-derived results for the ops the Triton vectors do not cover.
#include "layout/protocol/batch.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <sstream>

using nlohmann::json;

namespace {

// 16x16 layout of interchange §1.
const char* kSpecLayout =
    R"({"inDims":[{"name":"register","bases":[[0,1],[8,0]]},)"
    R"({"name":"lane","bases":[[0,2],[0,4],[1,0],[2,0],[4,0]]},{"name":"warp","bases":[]}],)"
    R"("outDims":[{"name":"dim0","size":16},{"name":"dim1","size":16}]})";

json run(const std::string& line) {
  layout::BatchProcessor batch;
  std::string out = batch.processLine(line);
  EXPECT_EQ(out.find('\n'), std::string::npos) << "a response must be one line";
  return json::parse(out);
}

json request(const std::string& op, const std::vector<std::string>& inputs,
             const std::string& args = "{}") {
  std::string in = "[";
  for (size_t i = 0; i < inputs.size(); ++i) in += (i ? "," : "") + inputs[i];
  return run(R"({"id": 7, "op": ")" + op + R"(", "inputs": )" + in + "], \"args\": " + args + "}");
}

json result(const json& response) {
  EXPECT_FALSE(response.contains("error")) << response.dump();
  EXPECT_EQ(response["id"], 7);
  return response.contains("result") ? response["result"] : json();
}

std::string errorOf(const json& response) {
  EXPECT_TRUE(response.contains("error")) << response.dump();
  EXPECT_FALSE(response.contains("result"));
  return response.value("error", "");
}

// A layout JSON with the given in-dims (JSON text) over the given out-dims.
std::string L(const std::string& ins, const std::string& outs) {
  return R"({"inDims":)" + ins + R"(,"outDims":)" + outs + "}";
}

json basesOf(const json& layout, const std::string& inDim) {
  for (const json& d : layout["inDims"])
    if (d["name"] == inDim) return d["bases"];
  return json();
}

TEST(BatchProtocol, StreamKeepsOrderAndContinuesAfterErrors) {
  std::string big(1 << 20, ' ');
  big = "{\"id\": \"big\", \"op\": \"identity1D\"" + big + "}"; // a 1 MB line, valid JSON
  std::stringstream in;
  in << R"({"id": 1, "op": "identity1D", "args": {"size": 4, "inDim": "lane", "outDim": "dim0"}})"
     << "\n"
     << "{not json\n"
     << R"({"id": 3, "op": "noSuchOp"})"
     << "\n"
     << R"({"id": 4, "op": "invert", "inputs": []})"
     << "\n"
     << R"({"id": 5, "op": "invert", "inputs": [{"inDims": [], "outDims": [{"name": "d", "size": 12}]}]})"
     << "\n"
     << std::string(1 << 20, '[') << "\n" // 1 MB of nesting
     << big << "\n"
     << "\n"
     << R"({"id": 9, "op": "isInvertible", "inputs": [)" << kSpecLayout << "]}\n";
  std::stringstream out;
  ASSERT_TRUE(layout::BatchProcessor().run(in, out));
  std::vector<json> lines;
  std::string line;
  while (std::getline(out, line)) lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 9u);
  EXPECT_EQ(lines[0]["id"], 1);
  EXPECT_EQ(basesOf(lines[0]["result"], "lane"), json::parse("[[1],[2]]"));
  EXPECT_TRUE(lines[1]["id"].is_null());
  EXPECT_NE(lines[1]["error"].get<std::string>().find("malformed JSON"), std::string::npos);
  EXPECT_EQ(lines[2]["id"], 3);
  EXPECT_NE(lines[2]["error"].get<std::string>().find("unknown op \"noSuchOp\""),
            std::string::npos);
  EXPECT_EQ(lines[3]["id"], 4);
  EXPECT_NE(lines[3]["error"].get<std::string>().find("takes 1 input layout(s), got 0"),
            std::string::npos);
  EXPECT_EQ(lines[4]["id"], 5);
  EXPECT_NE(lines[4]["error"].get<std::string>().find("outDims[0].size: 12 is not a power of two"),
            std::string::npos);
  EXPECT_TRUE(lines[5].contains("error"));
  EXPECT_EQ(lines[6]["id"], "big");
  EXPECT_NE(lines[6]["error"].get<std::string>().find("missing argument \"size\""),
            std::string::npos);
  EXPECT_TRUE(lines[7].contains("error")); // the empty line still gets its line
  EXPECT_EQ(lines[8]["id"], 9);
  EXPECT_EQ(lines[8]["result"], false); // 7 in bits, 8 out bits
}

TEST(BatchProtocol, LayoutReaderErrorsNameTheField) {
  struct Case {
    std::string layout, message;
  };
  const Case cases[] = {
      {L(R"([{"name":"x","bases":[[4]]}])", R"([{"name":"d","size":4}])"),
       "inputs[0]: inDims[0].bases[0][0]: component 4 must be less than the size 4 of out-dim 'd'"},
      {L(R"([{"name":"x","bases":[[1,0]]}])", R"([{"name":"d","size":4}])"),
       "inputs[0]: inDims[0].bases[0]: has 2 components; expected one per out-dim (1)"},
      {L(R"([{"name":"x","bases":[]},{"name":"x","bases":[]}])", R"([])"),
       "inputs[0]: inDims[1].name: duplicate in-dim 'x'"},
      {L(R"([])", R"([{"name":"d","size":2},{"name":"d","size":2}])"),
       "inputs[0]: outDims[1].name: duplicate out-dim 'd'"},
      {L(R"([{"name":"x","bases":[[-1]]}])", R"([{"name":"d","size":4}])"),
       "inputs[0]: inDims[0].bases[0][0]: expected a non-negative integer, got a negative number"},
      {L(R"([{"name":"x","bases":[[1.5]]}])", R"([{"name":"d","size":4}])"),
       "inputs[0]: inDims[0].bases[0][0]: expected a non-negative integer, got a non-integer "
       "number"},
      {L(R"([])", R"([{"name":"d","size":0}])"),
       "inputs[0]: outDims[0].size: 0 is not a power of two"},
      {L(R"([])", R"([{"name":"d"}])"), "inputs[0]: outDims[0]: missing field \"size\""},
      {R"({"inDims":[]})", "inputs[0]: missing field \"outDims\""},
      {L(R"([{"name":3,"bases":[]}])", "[]"),
       "inputs[0]: inDims[0].name: expected a string, got a number"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.layout);
    EXPECT_EQ(errorOf(request("isSurjective", {c.layout})), "isSurjective: " + c.message);
  }
}

TEST(BatchProtocol, ApplyOnSpecLayout) {
  // register=3 -> (0,1)^(8,0) = (8,1); lane=5 -> (0,2)^(1,0) = (1,2); total (9, 3).
  json r = result(
      request("apply", {kSpecLayout}, R"({"ins": [["warp", 0], ["lane", 5], ["register", 3]]})"));
  EXPECT_EQ(r, json::parse(R"([["dim0", 9], ["dim1", 3]])"));
  EXPECT_NE(errorOf(request("apply", {kSpecLayout}, R"({"ins": [["lane", 1]]})"))
                .find("no value for in-dim 'register'"),
            std::string::npos);
}

TEST(BatchProtocol, TransposeReshapeFlatten) {
  json t =
      result(request("transposeOuts", {kSpecLayout}, R"({"newOutDimOrder": ["dim1", "dim0"]})"));
  EXPECT_EQ(basesOf(t, "register"), json::parse("[[1,0],[0,8]]"));
  EXPECT_EQ(t["outDims"][0]["name"], "dim1");
  json ti = result(
      request("transposeIns", {kSpecLayout}, R"({"newInDimOrder": ["warp", "lane", "register"]})"));
  EXPECT_EQ(ti["inDims"][0]["name"], "warp");
  EXPECT_EQ(basesOf(ti, "register"), json::parse("[[0,1],[8,0]]"));
  // reshapeOuts: flatten (dim0 + 16 * dim1), then split into 256 x 1.
  json ro =
      result(request("reshapeOuts", {kSpecLayout}, R"({"newOutDims": [["x", 256], ["y", 1]]})"));
  EXPECT_EQ(basesOf(ro, "register"), json::parse("[[16,0],[8,0]]"));
  EXPECT_EQ(basesOf(ro, "lane"), json::parse("[[32,0],[64,0],[1,0],[2,0],[4,0]]"));
  // reshapeIns: all 7 bases regrouped as a (4) and b (32).
  json ri = result(request("reshapeIns", {kSpecLayout}, R"({"newInDims": [["a", 4], ["b", 32]]})"));
  EXPECT_EQ(basesOf(ri, "a"), json::parse("[[0,1],[8,0]]"));
  EXPECT_EQ(basesOf(ri, "b"), json::parse("[[0,2],[0,4],[1,0],[2,0],[4,0]]"));
  json fo = result(request("flattenOuts", {kSpecLayout}));
  EXPECT_EQ(fo["outDims"], json::parse(R"([{"name":"dim0","size":256}])"));
  json fi = result(request("flattenIns", {kSpecLayout}));
  EXPECT_EQ(fi["inDims"].size(), 1u);
  EXPECT_EQ(fi["inDims"][0]["name"], "register");
  EXPECT_NE(errorOf(request("reshapeIns", {kSpecLayout}, R"({"newInDims": [["a", 4]]})"))
                .find("hold 2^2 elements but the layout's in-dims hold 2^7"),
            std::string::npos);
}

TEST(BatchProtocol, SublayoutQueries) {
  json s =
      result(request("sublayout", {kSpecLayout}, R"({"inDims": ["lane"], "outDims": ["dim1"]})"));
  EXPECT_EQ(s["inDims"].size(), 1u);
  EXPECT_EQ(basesOf(s, "lane"), json::parse("[[2],[4],[0],[0],[0]]"));
  EXPECT_EQ(s["outDims"], json::parse(R"([{"name":"dim1","size":16}])"));
  EXPECT_EQ(result(request("sublayoutIsZero", {kSpecLayout},
                           R"({"inDims": ["warp", "register"], "outDims": ["dim1"]})")),
            false);
  EXPECT_EQ(result(request("sublayoutIsZero", {kSpecLayout},
                           R"({"inDims": ["warp"], "outDims": ["dim0", "dim1"]})")),
            true);
  // Square identity over {a}: a=1->1, a=2->2 with a and dim a of equal size.
  std::string sq = L(R"([{"name":"a","bases":[[1,0],[2,0]]},{"name":"b","bases":[[0,1]]}])",
                     R"([{"name":"a","size":4},{"name":"c","size":2}])");
  EXPECT_EQ(result(request("squareSublayoutIsIdentity", {sq}, R"({"dims": ["a"]})")), true);
  EXPECT_EQ(result(request("squareSublayoutIsIdentity", {kSpecLayout}, R"({"dims": []})")), true);
  EXPECT_NE(errorOf(request("squareSublayoutIsIdentity", {sq}, R"({"dims": ["b"]})"))
                .find("out-dim 'b' is not in the layout's out-dims"),
            std::string::npos);
  // quotient over a: a is trivial (identity, no cross terms) -> the b -> c part remains.
  json q = result(request("quotient", {sq}, R"({"dims": ["a"]})"));
  EXPECT_EQ(q["inDims"], json::parse(R"([{"name":"b","bases":[[1]]}])"));
  EXPECT_EQ(q["outDims"], json::parse(R"([{"name":"c","size":2}])"));
  std::string cross = L(R"([{"name":"a","bases":[[1,1],[2,0]]},{"name":"b","bases":[[0,1]]}])",
                        R"([{"name":"a","size":4},{"name":"c","size":2}])");
  EXPECT_TRUE(result(request("quotient", {cross}, R"({"dims": ["a"]})")).is_null());
}

TEST(BatchProtocol, ConcatAndDivide) {
  std::string a = L(R"([{"name":"r","bases":[[1],[2]]}])", R"([{"name":"d","size":8}])");
  std::string b =
      L(R"([{"name":"l","bases":[[4]]},{"name":"r","bases":[[0]]}])", R"([{"name":"d","size":8}])");
  // concatIns keeps a's bases for the shared name r and appends l.
  json ci = result(request("concatIns", {a, b}));
  EXPECT_EQ(ci["inDims"],
            json::parse(R"([{"name":"r","bases":[[1],[2]]},{"name":"l","bases":[[4]]}])"));
  std::string c = L(R"([{"name":"r","bases":[[3],[0]]}])", R"([{"name":"e","size":4}])");
  json co = result(request("concatOuts", {a, c}));
  EXPECT_EQ(basesOf(co, "r"), json::parse("[[1,3],[2,0]]"));
  // divideLeft: A = identity1D(4,r,d) * identity1D(2,r,d) (r bases 1,2,4 into d of 8);
  // B = identity1D(4,r,d) -> C = identity1D(2,r,d).
  std::string A = L(R"([{"name":"r","bases":[[1],[2],[4]]}])", R"([{"name":"d","size":8}])");
  std::string B = L(R"([{"name":"r","bases":[[1],[2]]}])", R"([{"name":"d","size":4}])");
  json dl = result(request("divideLeft", {A, B}));
  EXPECT_EQ(dl["inDims"], json::parse(R"([{"name":"r","bases":[[1]]}])"));
  EXPECT_EQ(dl["outDims"], json::parse(R"([{"name":"d","size":2}])"));
  // divideRight with B = identity1D(2,r,d): A == C * B with C = identity1D(4,r,d).
  std::string B2 = L(R"([{"name":"r","bases":[[1]]}])", R"([{"name":"d","size":2}])");
  json dr = result(request("divideRight", {A, B2}));
  EXPECT_EQ(dr["inDims"], json::parse(R"([{"name":"r","bases":[[1],[2]]}])"));
  // B = (r: 2) does not divide A on the left: A's first basis is 1.
  std::string B3 = L(R"([{"name":"r","bases":[[1]]}])", R"([{"name":"d","size":4}])");
  EXPECT_TRUE(result(request("divideLeft", {A, B3})).is_null());
}

TEST(BatchProtocol, FreeVariablesAndConsecutive) {
  // register bases (1),(0),(1),(2): bit 1 is zero, bit 2 repeats bit 0 -> free mask 0b0110.
  std::string l =
      L(R"([{"name":"register","bases":[[1],[0],[1],[2]]},{"name":"lane","bases":[[2],[4]]}])",
        R"([{"name":"d","size":8}])");
  EXPECT_EQ(result(request("getFreeVariableMasks", {l})),
            json::parse(R"([["register", 6], ["lane", 1]])"));
  // First in-dim starts (1),(0): one consecutive; others touch bit 0 -> ctz(1|2|4)=0 -> 1.
  EXPECT_EQ(result(request("getNumConsecutiveInOut", {l})), 1);
  // register 1,2 then lane 4: 4 consecutive (ctz(4) = 2).
  std::string v = L(R"([{"name":"register","bases":[[1],[2]]},{"name":"lane","bases":[[4]]}])",
                    R"([{"name":"d","size":8}])");
  EXPECT_EQ(result(request("getNumConsecutiveInOut", {v})), 4);
}

TEST(BatchProtocol, SizeQueriesAndEquality) {
  EXPECT_EQ(result(request("getInDimSizeLog2", {kSpecLayout}, R"({"inDim": "lane"})")), 5);
  EXPECT_EQ(result(request("getOutDimSizeLog2", {kSpecLayout}, R"({"outDim": "dim1"})")), 4);
  EXPECT_EQ(result(request("getTotalOutDimSize", {kSpecLayout})), 256);
  EXPECT_NE(errorOf(request("getInDimSizeLog2", {kSpecLayout}, R"({"inDim": "nope"})"))
                .find("'nope' is not an in-dim"),
            std::string::npos);
  std::string small = L(R"([{"name":"x","bases":[[1]]}])", R"([{"name":"d","size":2}])");
  std::string large = L(R"([{"name":"x","bases":[[1]]}])", R"([{"name":"d","size":8}])");
  EXPECT_EQ(result(request("equals", {small, large})), false);
  EXPECT_EQ(result(request("equalIgnoringOutDimSizes", {small, large})), true);
}

TEST(BatchProtocol, EncodingOps) {
  // 4 lanes along dim0 on a tensor of 8: the extra factor 2 repeats in a register (basis 4).
  const std::string enc = R"("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], )"
                          R"(warpsPerCTA = [1], order = [0]}>")";
  json l = run(R"({"id": 1, "op": "toLinearLayout", "args": {"encoding": )" + enc +
               R"(, "shape": [8]}})");
  ASSERT_TRUE(l.contains("result")) << l.dump();
  EXPECT_EQ(l["result"]["inDims"],
            json::parse(R"([{"name":"register","bases":[[4]]},{"name":"lane","bases":[[1],[2]]},)"
                        R"({"name":"warp","bases":[]},{"name":"block","bases":[]}])"));
  json v = run(R"({"id": 2, "op": "layoutStr", "args": {"encoding": )" + enc +
               R"(, "shape": [8], "view": "tensor"}})");
  EXPECT_EQ(v["result"], "[T0:0, T1:0, T2:0, T3:0, T0:1, T1:1, T2:1, T3:1]\n");
  json hw = run(R"({"id": 3, "op": "layoutStr", "args": {"encoding": )" + enc +
                R"(, "shape": [8], "view": "hw"}})");
  EXPECT_EQ(hw["result"], "Warp0:\n(0), (1), (2), (3)\n(4), (5), (6), (7)\n");
  EXPECT_EQ(run(R"({"id": 4, "op": "verify", "args": {"encoding": )" + enc +
                R"(, "shape": [8]}})")["result"],
            json::parse(R"({"ok": true})"));
  json bad = run(R"({"id": 5, "op": "verify", "args": {"encoding": "#ttg.blocked<{sizePerThread )"
                 R"(= [1, 1], threadsPerWarp = [4], warpsPerCTA = [1], order = [0]}>", )"
                 R"("shape": [8]}})");
  EXPECT_EQ(bad["error"], "verify: args.encoding: line 1, column 31: 'sizePerThread' has rank 2 "
                          "but 'order' has rank 1; all must agree");
  json shape = run(R"({"id": 6, "op": "toLinearLayout", "args": {"encoding": )" + enc +
                   R"(, "shape": [12]}})");
  EXPECT_EQ(shape["error"], "toLinearLayout: shape: dim 0 has size 12; linear layouts need powers "
                            "of two (at most 2^40 here)");
}

TEST(BatchProtocol, WideLayoutsBeyond64Bits) {
  // 3 in-dims of 40 bits each, identity into 3 out-dims: 120 in and out bits.
  std::string ins = "[", outs = "[";
  for (int d = 0; d < 3; ++d) {
    ins += std::string(d ? "," : "") + R"({"name":"i)" + std::to_string(d) + R"(","bases":[)";
    for (int b = 0; b < 40; ++b) {
      ins += b ? "," : "";
      ins += "[";
      for (int o = 0; o < 3; ++o)
        ins += std::string(o ? "," : "") + (o == d ? std::to_string(1ULL << b) : "0");
      ins += "]";
    }
    ins += "]}";
    outs += std::string(d ? "," : "") + R"({"name":"o)" + std::to_string(d) +
            R"(","size":1099511627776})";
  }
  std::string wide = L(ins + "]", outs + "]");
  EXPECT_EQ(result(request("isInvertible", {wide})), true);
  json inv = result(request("invert", {wide}));
  EXPECT_EQ(inv["inDims"][2]["name"], "o2");
  EXPECT_EQ(basesOf(inv, "o1")[39], json::parse("[0, 549755813888, 0]"));
  json applied =
      result(request("apply", {wide}, R"({"ins": [["i0", 1099511627775], ["i1", 5], ["i2", 0]]})"));
  EXPECT_EQ(applied, json::parse(R"([["o0", 1099511627775], ["o1", 5], ["o2", 0]])"));
  // 2^120 exactly, as a decimal string (it does not fit a JSON integer of 64 bits).
  EXPECT_EQ(result(request("getTotalOutDimSize", {wide})), "1329227995784915872903807060280344576");
  EXPECT_EQ(result(request("getTotalInDimSize", {wide})), "1329227995784915872903807060280344576");
  EXPECT_EQ(result(request("getTotalOutDimSize", {kSpecLayout})), 256);
}

} // namespace

namespace {

// Generated from the registry: every op names an argument it does not take (issue 16). Before,
// zeros1D silently ignored a misspelt `outDimsize`.
TEST(BatchProtocol, EveryOpRejectsAnUnknownArgument) {
  layout::BatchProcessor batch;
  ASSERT_GT(batch.ops().size(), 50u);
  for (const auto& [name, op] : batch.ops()) {
    SCOPED_TRACE(name);
    std::string inputs;
    for (int i = 0; i < op.arity; ++i) inputs += (i ? "," : "") + std::string(kSpecLayout);
    json out = run(R"({"id": 1, "op": ")" + name + R"(", "inputs": [)" + inputs +
                   R"(], "args": {"bogusArgument": 1}})");
    ASSERT_TRUE(out.contains("error")) << out.dump();
    const std::string err = out["error"];
    EXPECT_EQ(err.rfind(name + ": args.bogusArgument: unknown argument", 0), 0u) << err;
  }
  json typo = run(R"({"id": 1, "op": "zeros1D", "args": {"size": 4, "inDim": "lane", )"
                  R"("outDim": "dim0", "outDimsize": 8}})");
  EXPECT_EQ(typo["error"], "zeros1D: args.outDimsize: unknown argument (zeros1D takes size, "
                           "inDim, outDim, outDimSize)");
}

} // namespace
