// layoutctl blockload: the op blockLoad.plan (layout::intel::planBlockLoads) on the command line.
#include "op_command.h"

namespace layoutctl {

void addBlockLoadCommand(std::vector<Command>& commands) {
  addOpCommand(
      commands,
      {"blockload", "blockLoad.plan",
       "blockload --encoding '<dot_op text>' --shape MxN --element-bits 8|16|32 [--transposed] "
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
       "warpsPerCTA = [8, 4], repCluster = [4, 2]}>, kWidth = 1}>' --shape 256x32 --element-bits "
       "16"});
}

} // namespace layoutctl
