// layoutctl convert: how a tensor moves from one distributed layout to another
// (layout::conversion::planConversion; the same result as the batch op convert.plan).
#include "commands.h"

#include "layout/protocol/op_args.h"

#include "layout/conversion/conversion_plan.h"
#include "layout/triton/layout_operand.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace layoutctl {

namespace {

namespace conversion = layout::conversion;

// --src / --dst: encoding text, inline layout JSON, or @file holding either.
layout::LinearLayout operandArg(const Args& args, const std::string& name,
                                const std::vector<int64_t>& shape) {
  auto text = args.option(name);
  if (!text)
    throw CliExit{kUsage, "give the " + name + " layout: --" + name + " '#ttg.blocked<{...}>'"};
  auto op = layout::parseLayoutOperand(readTextArg(*text, "--" + name), shape,
                                       layout::OperandKind::Distributed, "--" + name);
  if (!op) throw CliExit{kInvalidInput, op.error().message};
  return std::move(op->layout);
}

int runConvert(const Args& args) {
  if (!args.positionals().empty()) throw CliExit{kUsage, "convert takes no positional arguments"};
  std::vector<int64_t> shape;
  if (auto text = args.option("shape")) shape = parseShape(*text, "shape");
  const int elemBits = elementBitsOption(args, layout::opargs::kElementBits, nullptr);
  const layout::LinearLayout src = operandArg(args, "src", shape);
  const layout::LinearLayout dst = operandArg(args, "dst", shape);
  const std::string target = targetOption(args, "target", "nvidia");
  auto plan = conversion::planConversion(src, dst, elemBits, target);
  if (!plan) throw CliExit{kInvalidInput, plan.error().message};
  if (args.json())
    std::cout << conversion::conversionPlanToJson(*plan).dump() << "\n";
  else
    std::cout << conversion::conversionPlanText(*plan);
  return kOk;
}

} // namespace

void addConvertCommand(std::vector<Command>& commands) {
  commands.push_back(
      {"convert",
       "convert --src ENC|JSON|@FILE --dst ENC|JSON|@FILE [--shape MxN] --elem-bits 8|16|32|64 "
       "[--target " +
           targetChoices() + "] [--format text|json]",
       "Plans a layout conversion (Triton's convert_layout) between two distributed layouts "
       "over the same tensor: none, a register permutation, intra-warp shuffle rounds (per round "
       "each lane sends one register vector, reads one lane and fills one register), or a "
       "shared-memory store and load through a synthesized XOR swizzle with both sides' bank "
       "reports for the bank model of --target (default nvidia). --src/--dst take TritonGPU "
       "encoding text "
       "(converted over --shape: 32x32 or tensor<32x32xf16>), inline layout JSON, or @file "
       "holding either.",
       "layoutctl convert --src '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
       "warpsPerCTA = [4, 1], order = [1, 0]}>' --dst '#ttg.blocked<{sizePerThread = [2, 2], "
       "threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>' --shape 32x32 "
       "--elem-bits 16",
       {"src", "dst", "shape", "elem-bits", "target"},
       {},
       runConvert});
}

} // namespace layoutctl
