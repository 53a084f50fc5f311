// layoutctl blockload: the 2D block loads and shuffle vectors that feed a DPAS operand
// (layout::intel::planBlockLoads; the same result as the batch op blockLoad.plan).
#include "commands.h"

#include "layout/protocol/op_args.h"

#include "layout/intel/block_load_plan.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

namespace layoutctl {

namespace {

namespace intel = layout::intel;

std::string listText(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

void printText(const intel::BlockLoadPlan& plan) {
  std::cout << "Block load tile layout (memory coordinates in load slots):"
            << plan.tileLayout.toString() << "\n\n";
  std::cout << plan.numLoads << (plan.numLoads == 1 ? " load" : " loads")
            << " per subgroup (offsets in elements, [row, col] of the memory matrix):\n";
  std::cout << "  " << pad("load", 6) << pad("shape", 26) << pad("elemBits", 10)
            << pad("W x H x blocks", 16) << "offset\n";
  for (size_t i = 0; i < plan.loads.size(); ++i) {
    const intel::BlockLoad& l = plan.loads[i];
    const std::string name = intel::blockShapeName(
        {l.elemBits, l.tileWidth, l.tileHeight, l.numBlocks, l.transpose, l.vnni});
    std::cout << "  " << pad(std::to_string(i), 6) << pad(name, 26)
              << pad(std::to_string(l.elemBits), 10)
              << pad(std::to_string(l.tileWidth) + " x " + std::to_string(l.tileHeight) + " x " +
                         std::to_string(l.numBlocks),
                     16)
              << "(" << listText(l.offset) << ")\n";
  }
  std::cout << "\n"
            << plan.shuffles.size() << " shuffle vectors, " << plan.numShuffledRegisters
            << " registers per work-item (" << plan.operandRegisterBits
            << "-bit DPAS registers, indices into the load's result):\n";
  std::cout << "  " << pad("load", 6) << pad("iteration", 11) << pad("dpas", 6) << pad("lane", 6)
            << "registers\n";
  for (const intel::Shuffle& s : plan.shuffles)
    std::cout << "  " << pad(std::to_string(s.load), 6) << pad(std::to_string(s.iteration), 11)
              << pad(std::to_string(s.dpas), 6) << pad(s.lane ? std::to_string(*s.lane) : "all", 6)
              << "[" << listText(s.registers) << "]\n";
  std::cout << "\nSubgroup offsets (warp -> memory [row, col]):" << plan.subgroupOffset.toString()
            << "\n";
}

int runBlockLoad(const Args& args) {
  if (!args.positionals().empty()) throw CliExit{kUsage, "blockload takes no positional arguments"};
  auto encoding = args.option("encoding");
  if (!encoding) throw CliExit{kUsage, "give the operand: --encoding '#ttg.dot_op<{...}>'"};
  const std::string text = readTextArg(*encoding, "--encoding");
  const std::vector<int64_t> shape = requiredShape(args, "256x32");
  const int elemBits =
      elementBitsOption(args, layout::opargs::kBlockLoadElementBits, /*fallback=*/nullptr);
  auto target = intel::blockIoTarget(targetOption(args, "target", "pvc"));
  if (!target) throw CliExit{kUsage, "--target: " + target.error().message};
  auto enc = layout::triton::parseEncoding(text);
  if (!enc) throw CliExit{kInvalidInput, "encoding: " + enc.error().message};
  auto plan = intel::planBlockLoads(*enc, shape, elemBits, args.flag("transposed"), *target);
  if (!plan) throw CliExit{kInvalidInput, plan.error().message};
  if (args.json())
    std::cout << intel::blockLoadPlanToJson(*plan).dump() << "\n";
  else
    printText(*plan);
  return kOk;
}

} // namespace

void addBlockLoadCommand(std::vector<Command>& commands) {
  commands.push_back(
      {"blockload",
       "blockload --encoding '<dot_op text>' --shape MxN --elem-bits 8|16|32 [--transposed] "
       "[--target " +
           targetChoices() + "] [--format text|json]",
       "Plans the Intel 2D block loads of a DPAS operand (#ttg.dot_op whose parent is a "
       "#ttig.dpas / #triton_intel_gpu.dpas) for one subgroup: the tile layout (offset, "
       "iteration, load -> memory coordinates), the largest legal loads and their offsets, and the "
       "shuffle vectors that pick each DPAS instruction's registers out of the load results. "
       "--transposed: the operand is stored transposed (column-major) in memory. --encoding also "
       "takes @file. --target (default pvc) needs 2D block I/O: pvc, bmg, or a target file with "
       "a blockIo section.",
       "layoutctl blockload --encoding '#ttg.dot_op<{opIdx = 0, parent = #ttig.dpas<{repeatCount "
       "= 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, "
       "warpsPerCTA = [8, 4], repCluster = [4, 2]}>, kWidth = 1}>' --shape 256x32 --elem-bits 16",
       {"encoding", "shape", "elem-bits", "target"},
       {"transposed"},
       runBlockLoad});
}

} // namespace layoutctl
