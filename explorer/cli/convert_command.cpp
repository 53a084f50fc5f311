// layoutctl convert: the op convert.plan (layout::conversion::planConversion) on the command line.
#include "op_command.h"

namespace layoutctl {

void addConvertCommand(std::vector<Command>& commands) {
  addOpCommand(
      commands,
      {"convert", "convert.plan",
       "convert --src ENC|JSON|@FILE --dst ENC|JSON|@FILE [--shape MxN] --element-bits 8|16|32|64 "
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
       "--element-bits 16"});
}

} // namespace layoutctl
