// Issue 15: every input and output is bounded. Each test here failed before the limits existed
// (a crash, an unbounded allocation, a silent success or a wrong answer); the expected messages
// name the limit and how to raise it (docs/limits.md).
#include "layout/core/resource_limits.h"
#include "layout/protocol/batch.h"
#include "layout/text/file_io.h"
#include "layout/text/layout_json.h"
#include "layout/text/mlir_attribute.h"
#include "layout/triton/encoding.h"
#include "layout/triton/layout_views.h"

#include "support/scoped_limits.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using layout::test::ScopedResourceLimits;
using nlohmann::json;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const char* kBlocked = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                       "warpsPerCTA = [4, 1], order = [1, 0]}>";

// ---- Element counts ----------------------------------------------------------------------------

TEST(ResourceLimits, ElementCountOverflowIsAnErrorNotAWrap) {
  // 2^32 * 2^32 wraps to 0 in 64 bits: the count must say "2^64 or more".
  const int64_t shape[] = {int64_t{1} << 32, int64_t{1} << 32};
  auto n = layout::boundedElementCount(shape, uint64_t{1} << 22, "the tensor", "raise it");
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error().message,
            "the tensor has 2^64 or more elements; the limit is 2^22 (4194304) (raise it)");
  const int64_t ok[] = {2048, 2048};
  auto m = layout::boundedElementCount(ok, uint64_t{1} << 22, "the tensor", "raise it");
  ASSERT_TRUE(m);
  EXPECT_EQ(*m, uint64_t{1} << 22);
  const int64_t over[] = {2048, 2049};
  EXPECT_FALSE(layout::boundedElementCount(over, uint64_t{1} << 22, "t", "r"));
}

TEST(ResourceLimits, EnvironmentVariablesRaiseLimitsAndBadValuesAreNamed) {
  setenv("LAYOUT_MAX_VIEW_CELLS", "123", 1);
  auto limits = layout::resourceLimitsFromEnvironment();
  ASSERT_TRUE(limits) << limits.error().message;
  EXPECT_EQ(limits->maxViewCells, 123u);
  EXPECT_EQ(limits->maxInputBytes, layout::ResourceLimits{}.maxInputBytes);
  setenv("LAYOUT_MAX_VIEW_CELLS", "12x", 1);
  auto bad = layout::resourceLimitsFromEnvironment();
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "LAYOUT_MAX_VIEW_CELLS: expected a positive decimal integer, got '12x'");
  setenv("LAYOUT_MAX_VIEW_CELLS", "0", 1);
  EXPECT_FALSE(layout::resourceLimitsFromEnvironment());
  unsetenv("LAYOUT_MAX_VIEW_CELLS");
}

// ---- 1, 2: text views --------------------------------------------------------------------------

std::string viewError(const std::string& text, std::vector<int64_t> shape, bool hw) {
  auto enc = layout::triton::parseEncoding(text);
  EXPECT_TRUE(enc) << enc.error().message;
  if (!enc) return "";
  auto ll = layout::triton::toLinearLayout(*enc, shape);
  EXPECT_TRUE(ll) << ll.error().message;
  if (!ll) return "";
  auto view = layout::triton::layoutStr(*enc, *ll, shape, hw);
  EXPECT_FALSE(view) << "a view of this size must be refused";
  return view ? "" : view.error().message;
}

TEST(ResourceLimits, TensorViewOf2To64CellsIsRefused) {
  // Crashed (exit 139): the shape product wrapped to 0 and the view wrote into an empty vector.
  for (bool hw : {false, true}) {
    const std::string err = viewError(kBlocked, {int64_t{1} << 32, int64_t{1} << 32}, hw);
    EXPECT_TRUE(contains(err, "the tensor 4294967296x4294967296 has 2^64 or more elements; the "
                              "limit is 2^22 (4194304)"))
        << err;
    EXPECT_TRUE(contains(err, "LAYOUT_MAX_VIEW_CELLS")) << err;
  }
}

TEST(ResourceLimits, HardwarePositionsAreBoundedBeforeEnumeration) {
  // warpsPerCTA = 2^31 never finished: 2^38 hardware positions.
  const std::string err = viewError(
      "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2147483648, "
      "1], order = [1, 0]}>",
      {16, 16}, false);
  EXPECT_TRUE(contains(err, "the layout has 2^38 hardware positions to print; the limit is 2^22"))
      << err;
  // An invertible 64-bit layout (JSON, out-dims 2^32 x 2^32) in the hw view.
  std::string bases;
  for (int i = 0; i < 32; ++i)
    bases += (i ? "," : "") + std::string("[") + std::to_string(1ull << i) + ",0]";
  std::string basesHigh;
  for (int i = 0; i < 32; ++i)
    basesHigh += (i ? "," : "") + std::string("[0,") + std::to_string(1ull << i) + "]";
  auto l = layout::parseLayoutJson(R"({"inDims":[{"name":"register","bases":[)" + bases +
                                   R"(]},{"name":"lane","bases":[)" + basesHigh +
                                   R"(]}],"outDims":[{"name":"dim0","size":4294967296},)"
                                   R"({"name":"dim1","size":4294967296}]})");
  ASSERT_TRUE(l) << l.error().message;
  const int64_t shape[] = {int64_t{1} << 32, int64_t{1} << 32};
  for (bool hw : {false, true}) {
    auto view = layout::triton::distributedLayoutStr(*l, shape, hw);
    ASSERT_FALSE(view);
    EXPECT_TRUE(contains(view.error().message, "2^64 or more elements")) << view.error().message;
  }
}

TEST(ResourceLimits, ViewLimitCanBeRaisedAndLowered) {
  auto enc = layout::triton::parseEncoding(kBlocked);
  ASSERT_TRUE(enc);
  const int64_t shape[] = {32, 32};
  auto ll = layout::triton::toLinearLayout(*enc, shape);
  ASSERT_TRUE(ll);
  EXPECT_TRUE(layout::triton::layoutStr(*enc, *ll, shape, false));
  ScopedResourceLimits limits;
  limits->maxViewCells = 1000;
  auto refused = layout::triton::layoutStr(*enc, *ll, shape, false);
  ASSERT_FALSE(refused);
  EXPECT_TRUE(contains(refused.error().message, "has 1024 elements; the limit is 1000"))
      << refused.error().message;
}

// ---- 3: alias expansion ------------------------------------------------------------------------

TEST(ResourceLimits, AliasesThatDoubleAreRefusedBeforeExpanding) {
  // 41 aliases, each using the previous one twice: 2^41 values once expanded (4 GiB in seconds).
  std::string file = std::string("#a0 = ") + kBlocked + "\n";
  for (int i = 1; i <= 41; ++i)
    file += "#a" + std::to_string(i) + " = #xegpu.slice<#a" + std::to_string(i - 1) +
            ", dims = [#a" + std::to_string(i - 1) + "]>\n";
  auto defs = layout::parseAliasFile(file);
  ASSERT_FALSE(defs);
  EXPECT_TRUE(contains(defs.error().message, "expands to more than 2^18 (262144) values"))
      << defs.error().message;
  EXPECT_TRUE(contains(defs.error().message, "LAYOUT_MAX_ATTR_VALUES")) << defs.error().message;
  // The same through parseAttribute with the aliases known so far.
  auto first = layout::parseAliasFile(file.substr(0, file.find("#a12 =")));
  ASSERT_TRUE(first) << first.error().message;
  layout::AttrAliases aliases;
  for (const auto& d : *first) aliases[d.name] = d.value;
  ScopedResourceLimits limits;
  limits->maxAttrValues = 1000;
  auto one = layout::parseAttribute("#xegpu.slice<#a11, dims = [#a11]>", aliases);
  ASSERT_FALSE(one);
  EXPECT_TRUE(contains(one.error().message, "expands to more than 1000 values"))
      << one.error().message;
}

TEST(ResourceLimits, AliasChainsAreBoundedInDepth) {
  // 2,000 aliases each nesting the previous one (1.3 GB before).
  std::string file = std::string("#a0 = ") + kBlocked + "\n";
  for (int i = 1; i <= 2000; ++i)
    file += "#a" + std::to_string(i) + " = #ttg.slice<{dim = 0, parent = #a" +
            std::to_string(i - 1) + "}>\n";
  auto defs = layout::parseAliasFile(file);
  ASSERT_FALSE(defs);
  EXPECT_TRUE(contains(defs.error().message, "nested more than 200 levels deep once alias"))
      << defs.error().message;
}

TEST(ResourceLimits, OrdinaryAliasFilesStillWork) {
  const std::string file = std::string("#blocked = ") + kBlocked +
                           "\n#slice = #ttg.slice<{dim = 1, parent = #blocked}>\n"
                           "#slice2 = #ttg.slice<{dim = 0, parent = #blocked}>\n";
  auto defs = layout::parseAliasFile(file);
  ASSERT_TRUE(defs) << defs.error().message;
  EXPECT_EQ(defs->size(), 3u);
}

// ---- 4: bounded reads --------------------------------------------------------------------------

TEST(ResourceLimits, DevicesAndDirectoriesAreRefusedByName) {
  auto zero = layout::readInputFile("/dev/zero", "--input");
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().message, "--input: '/dev/zero' is a character device, not a file");
  auto dir = layout::readInputFile("/", "--config");
  ASSERT_FALSE(dir);
  EXPECT_EQ(dir.error().message, "--config: '/' is a directory, not a file");
  auto missing = layout::readInputFile("/no/such/file", "layout");
  ASSERT_FALSE(missing);
  EXPECT_TRUE(contains(missing.error().message, "layout: cannot read file '/no/such/file'"));
}

TEST(ResourceLimits, FilesAndStreamsOverTheLimitAreRefused) {
  const std::string path = testing::TempDir() + "/limits_big.txt";
  {
    std::ofstream f(path);
    f << std::string(5000, 'x');
  }
  ScopedResourceLimits limits;
  limits->maxInputBytes = 4096;
  auto big = layout::readInputFile(path, "--layout");
  ASSERT_FALSE(big);
  EXPECT_TRUE(contains(big.error().message, "has 5000 bytes, more than the limit of 4 KiB "
                                            "(raise it with LAYOUT_MAX_INPUT_BYTES)"))
      << big.error().message;
  std::istringstream in(std::string(5000, 'y'));
  auto stream = layout::readInputStream(in, "layout");
  ASSERT_FALSE(stream);
  EXPECT_EQ(stream.error().message, "layout: standard input is larger than the limit of 4 KiB "
                                    "(raise it with LAYOUT_MAX_INPUT_BYTES)");
  std::istringstream small("abc");
  auto ok = layout::readInputStream(small, "layout");
  ASSERT_TRUE(ok);
  EXPECT_EQ(*ok, "abc");
  std::filesystem::remove(path);
}

// ---- 5: batch lines ----------------------------------------------------------------------------

std::vector<json> runBatch(const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out;
  EXPECT_TRUE(layout::BatchProcessor().run(in, out));
  std::vector<json> lines;
  std::istringstream read(out.str());
  for (std::string line; std::getline(read, line);) lines.push_back(json::parse(line));
  return lines;
}

TEST(ResourceLimits, BatchAnswersEveryLineAroundBadOnes) {
  ScopedResourceLimits limits;
  limits->maxLineBytes = 1024;
  const std::string ok = R"({"id": 1, "op": "identity1D", "args": {"size": 4, "inDim": "lane", )"
                         R"("outDim": "dim0"}})";
  const std::string huge =
      R"({"id": "huge", "op": "identity1D", "pad": ")" + std::string(5000, 'a') + "\"}";
  const std::string crashProne = R"({"id": 3, "op": "layoutStr", "args": {"encoding": ")" +
                                 std::string(kBlocked) +
                                 R"(", "shape": [4294967296, 4294967296], "view": "tensor"}})";
  std::string garbage;
  for (int i = 0; i < 600; ++i) garbage += char(128 + (i * 37) % 128);
  const std::string zeros(2000, '\0'); // /dev/zero content, longer than a line may be
  const std::string input = ok + "\n" + huge + "\n" + ok + "\n" + crashProne + "\n" + ok + "\n" +
                            garbage + "\n" + ok + "\n" + zeros + "\n" + ok + "\n";
  std::vector<json> lines = runBatch(input);
  ASSERT_EQ(lines.size(), 9u);
  for (size_t i : {0u, 2u, 4u, 6u, 8u}) {
    EXPECT_EQ(lines[i]["id"], 1) << lines[i].dump();
    EXPECT_TRUE(lines[i].contains("result")) << lines[i].dump();
  }
  EXPECT_EQ(lines[1]["id"], "huge"); // read from the line's first bytes
  EXPECT_EQ(lines[1]["error"], "request: the line is longer than the limit of 1 KiB (raise it "
                               "with LAYOUT_MAX_LINE_BYTES)");
  EXPECT_EQ(lines[3]["id"], 3);
  EXPECT_TRUE(contains(lines[3]["error"], "has 2^64 or more elements")) << lines[3].dump();
  EXPECT_TRUE(lines[5]["id"].is_null());
  EXPECT_TRUE(contains(lines[5]["error"], "malformed JSON")) << lines[5].dump();
  EXPECT_TRUE(lines[7]["id"].is_null());
  EXPECT_TRUE(contains(lines[7]["error"], "longer than the limit")) << lines[7].dump();
}

TEST(ResourceLimits, BatchEchoesIdsExactlyAsSent) {
  layout::BatchProcessor batch;
  for (const std::string id : {"123456789012345678901234567890", "1.50", "-0.0", "1e400x"}) {
    const std::string out = batch.processLine(R"({"id": )" + id + R"(, "op": "nope"})");
    if (id == "1e400x") {
      EXPECT_TRUE(contains(out, R"({"id":null,"error":"request: malformed JSON)")) << out;
      continue;
    }
    EXPECT_EQ(out.rfind(R"({"id":)" + id + ",", 0), 0u) << out;
  }
  EXPECT_EQ(batch.processLine(R"({"id": "a\u0041", "op": "nope"})").rfind(R"({"id":"aA",)", 0), 0u);
}

TEST(ResourceLimits, BatchApplyRejectsNegativeInputs) {
  layout::BatchProcessor batch;
  json out = json::parse(batch.processLine(
      R"({"id": 1, "op": "apply", "inputs": [{"inDims": [{"name": "lane", "bases": [[1]]}], )"
      R"("outDims": [{"name": "dim0", "size": 2}]}], "args": {"ins": [["lane", -1]]}})"));
  EXPECT_EQ(out["error"], "apply: args.ins[0][1]: expected a non-negative integer");
}

// ---- 7: failed writes --------------------------------------------------------------------------

TEST(ResourceLimits, FailedWritesAreErrors) {
  auto full = layout::writeOutputFile("/dev/full", std::string(100000, 'x'), "--output");
  ASSERT_FALSE(full);
  EXPECT_EQ(full.error().message, "--output: writing '/dev/full' failed (No space left on device)");
  auto dir = layout::writeOutputFile("/no/such/dir/out.txt", "x", "--svg");
  ASSERT_FALSE(dir);
  EXPECT_TRUE(contains(dir.error().message, "--svg: cannot write '/no/such/dir/out.txt'"));
  const std::string path = testing::TempDir() + "/limits_out.txt";
  EXPECT_TRUE(layout::writeOutputFile(path, "hello", "--output"));
  std::ifstream f(path);
  std::string text;
  std::getline(f, text);
  EXPECT_EQ(text, "hello");
  std::filesystem::remove(path);
  // A batch whose output cannot be written reports it.
  std::ofstream sink("/dev/full");
  std::istringstream in(R"({"id": 1, "op": "identity1D", "args": {"size": 4, "inDim": "lane", )"
                        R"("outDim": "dim0"}})"
                        "\n");
  EXPECT_FALSE(layout::BatchProcessor().run(in, sink));
}

// ---- 8: many dims ------------------------------------------------------------------------------

std::string manyDims(int ins, int outs) {
  std::string s = R"({"inDims":[)";
  for (int i = 0; i < ins; ++i)
    s += (i ? "," : "") + std::string(R"({"name":"i)") + std::to_string(i) + R"(","bases":[]})";
  s += R"(],"outDims":[)";
  for (int i = 0; i < outs; ++i)
    s += (i ? "," : "") + std::string(R"({"name":"o)") + std::to_string(i) + R"(","size":1})";
  return s + "]}";
}

TEST(ResourceLimits, LayoutJsonBoundsTheNumberOfDims) {
  auto over = layout::parseLayoutJson(manyDims(4000, 100));
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().message, "the layout has 4000 in-dims and 100 out-dims; the limit is "
                                  "4096 dims in all (raise it with LAYOUT_MAX_DIMS)");
  auto at = layout::parseLayoutJson(manyDims(4000, 96));
  ASSERT_TRUE(at) << at.error().message;
  EXPECT_EQ(at->numInDims(), 4000);
  // Duplicates are still found among many dims.
  std::string dup = manyDims(100, 1);
  dup.replace(dup.find(R"("i57")"), 5, R"("i3")");
  auto d = layout::parseLayoutJson(dup);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().message, "inDims[57].name: duplicate in-dim 'i3'");
}

// ---- 9: messages -------------------------------------------------------------------------------

TEST(ResourceLimits, LayoutJsonMessagesHaveNoDoubledPrefix) {
  auto l = layout::parseLayoutJson(R"({"outDims": []})");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().message, "missing field \"inDims\"");
}

} // namespace
