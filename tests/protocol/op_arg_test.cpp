// Declared op arguments (layout/protocol/op_arg.h): one rule for `layoutctl batch` and the CLI
// subcommands bound to an op, named as each front end spells the argument. The expected values
// are written from docs/interchange.md §2 (argument names and forms) and the CLI's documented
// spellings (`layoutctl convert --help`), not from the code's output.
#include "layout/protocol/batch.h"
#include "layout/protocol/op_arg.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

constexpr auto kBatch = layout::ArgSpelling::Batch;
constexpr auto kCli = layout::ArgSpelling::CommandLine;

const layout::BatchOp& op(const std::string& name) {
  static const layout::BatchProcessor registry;
  return registry.ops().at(name);
}

const layout::OpArg& arg(const std::string& opName, const std::string& name) {
  for (const layout::OpArg& a : op(opName).args)
    if (a.name == name) return a;
  ADD_FAILURE() << opName << " has no argument " << name;
  static const layout::OpArg none("none");
  return none;
}

std::string message(const layout::Expected<void>& r) {
  return r ? "ok" : r.error().message;
}

TEST(OpArg, SpellingsOfTheCommandLine) {
  EXPECT_EQ(layout::kebabCase("elemBits"), "elem-bits");
  EXPECT_EQ(layout::kebabCase("transposeBitWidth"), "transpose-bit-width");
  EXPECT_EQ(layout::argPath(arg("convert.plan", "elemBits"), kBatch), "args.elemBits");
  // One spelling per concept: a width in bits is --element-bits (--elem-bits, --source-bits and
  // --result-bits, the first spellings, are aliases that still work).
  for (const char* op : {"convert.plan", "blockLoad.plan", "banks.analyze", "banks.swizzle"}) {
    SCOPED_TRACE(op);
    EXPECT_EQ(layout::argPath(arg(op, "elemBits"), kCli), "--element-bits");
    EXPECT_EQ(arg(op, "elemBits").cliAliases, std::vector<std::string>{"elem-bits"});
  }
  EXPECT_EQ(layout::argPath(arg("xegpu.propagate", "elementBits"), kCli), "--element-bits");
  EXPECT_EQ(layout::argPath(arg("xegpu.propagate", "sourceBits"), kCli), "--source-element-bits");
  EXPECT_EQ(arg("xegpu.propagate", "sourceBits").cliAliases,
            std::vector<std::string>{"source-bits"});
  EXPECT_EQ(layout::argPath(arg("xegpu.propagate", "resultBits"), kCli), "--result-element-bits");
  EXPECT_EQ(arg("xegpu.propagate", "resultBits").cliAliases,
            std::vector<std::string>{"result-bits"});
  // Spelled as the CLI always did: --transposed and --addresses.
  EXPECT_EQ(layout::argPath(arg("blockLoad.plan", "transposedInMemory"), kCli), "--transposed");
  EXPECT_EQ(layout::argPath(arg("banks.analyze", "byteAddresses"), kCli), "--addresses");
}

// The CLI forms of interchange's values: 64x32 and tensor<...> shapes, LANE:BYTE lists, 1,0 and
// 256x128 integer lists; each becomes the JSON a batch request would send.
TEST(OpArg, CommandLineTextBecomesTheBatchValue) {
  auto shape = layout::opArgFromText(arg("convert.plan", "shape"), "tensor<64x32xf16>", kCli);
  ASSERT_TRUE(shape) << shape.error().message;
  EXPECT_EQ(*shape, json::parse("[64, 32]"));
  auto addresses = layout::opArgFromText(arg("banks.analyze", "byteAddresses"), "0:0,1:144", kCli);
  ASSERT_TRUE(addresses) << addresses.error().message;
  EXPECT_EQ(*addresses, json::parse("[[0, 0], [1, 144]]"));
  for (const char* text : {"1,0", "256x128"}) {
    auto list = layout::opArgFromText(arg("xegpu.propagate", "permutation"), text, kCli);
    ASSERT_TRUE(list) << list.error().message;
    EXPECT_EQ(list->size(), 2u);
  }
  auto model = layout::opArgFromText(arg("banks.analyze", "instruction"),
                                     R"({"name": "m", "banks": 8})", kCli);
  ASSERT_TRUE(model);
  EXPECT_TRUE(model->is_object());
  auto bad = layout::opArgFromText(arg("convert.plan", "shape"), "64xq", kCli);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "--shape: 'q' is not a dim size (use 16x32)");
}

// One rule, two names: the same bad value fails with the same words after the name.
TEST(OpArg, BothFrontEndsApplyTheSameRule) {
  const struct {
    std::string op, name;
    json value;
    std::string rule;
  } cases[] = {
      {"convert.plan", "elemBits", 12, ": 12 is not 8, 16, 32 or 64"},
      {"blockLoad.plan", "elemBits", 64, ": 64 is not 8, 16 or 32"},
      {"convert.plan", "shape", json::parse("[0, 4]"), "[0]: expected a positive integer"},
      {"convert.plan", "src", 5, ": expected encoding text or a layout JSON object"},
      {"banks.analyze", "bytesPerLane", 512, ": 512 is outside [1, 256]"},
      {"banks.analyze", "swizzleUnit", 0, ": 0 is outside [1, 2^20]"},
      {"blockLoad.plan", "transposedInMemory", "yes", ": expected true or false"},
      {"blockLoad.plan", "target", "nvidia",
       ": target 'nvidia' has no 2D block I/O (targets with it: pvc, bmg)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.op + " " + c.name);
    const layout::OpArg& a = arg(c.op, c.name);
    EXPECT_EQ(message(layout::checkOpArg(a, c.value, kBatch)), "args." + c.name + c.rule);
    EXPECT_EQ(message(layout::checkOpArg(a, c.value, kCli)), "--" + a.cliOption + c.rule);
  }
  auto unknown = layout::checkOpArg(arg("convert.plan", "target"), "gfx0", kCli);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().message.rfind("--target: unknown target 'gfx0'", 0), 0u)
      << unknown.error().message;
}

TEST(OpArg, PrepareFillsDefaultsAndChecksCombinations) {
  json args = {{"src", "x"}, {"dst", "y"}, {"elemBits", 16u}};
  ASSERT_TRUE(layout::BatchProcessor::prepareArgs("convert.plan", op("convert.plan"), args, kCli));
  EXPECT_EQ(args["target"], "nvidia"); // interchange §2: convert.plan's target defaults to nvidia

  json missing = {{"dst", "y"}, {"elemBits", 16u}};
  EXPECT_EQ(message(layout::BatchProcessor::prepareArgs("convert.plan", op("convert.plan"), missing,
                                                        kCli)),
            "--src: missing (encoding text or layout JSON)");
  EXPECT_EQ(message(layout::BatchProcessor::prepareArgs("convert.plan", op("convert.plan"), missing,
                                                        kBatch)),
            "args.src: missing (encoding text or layout JSON)");

  json phase = {{"instruction", "nvidia.ld.b32"}, {"maxPhase", 8u}};
  EXPECT_EQ(message(layout::BatchProcessor::prepareArgs("banks.analyze", op("banks.analyze"), phase,
                                                        kCli)),
            "--max-phase: needs --swizzle-unit");
  json both = {{"store", "x"},
               {"load", "y"},
               {"elemBits", 16u},
               {"target", "nvidia"},
               {"storeInstruction", "nvidia.st.b32"},
               {"loadInstruction", "nvidia.ld.b32"}};
  EXPECT_EQ(message(layout::BatchProcessor::prepareArgs("banks.swizzle", op("banks.swizzle"), both,
                                                        kBatch)),
            "args.storeInstruction: give either it or args.target, not both");
}

// Every op bound to a CLI subcommand: one option per argument, defaults that pass their own
// rule, and a printer.
TEST(OpArg, EveryBoundOpDeclaresUsableArguments) {
  static const layout::BatchProcessor registry;
  int bound = 0;
  for (const auto& [name, o] : registry.ops()) {
    if (!o.render) continue;
    SCOPED_TRACE(name);
    ++bound;
    std::set<std::string> options;
    for (const layout::OpArg& a : o.args) {
      EXPECT_NE(a.kind, layout::OpArgKind::Any) << a.name << " has no kind";
      EXPECT_TRUE(options.insert(a.cliOption).second) << "two arguments spelled --" << a.cliOption;
      for (const std::string& alias : a.cliAliases)
        EXPECT_TRUE(options.insert(alias).second) << "two arguments spelled --" << alias;
      if (!a.defaultText) continue;
      auto value = layout::opArgFromText(a, *a.defaultText, kBatch);
      ASSERT_TRUE(value) << value.error().message;
      EXPECT_TRUE(layout::checkOpArg(a, *value, kBatch)) << a.name;
    }
  }
  // convert.plan, blockLoad.plan, banks.analyze, banks.swizzle, xegpu.propagate, report.kernel
  EXPECT_EQ(bound, 6);
}

} // namespace
