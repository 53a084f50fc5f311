// layoutctl propagate OP: the op xegpu.propagate (layout::xegpu::propagate) on the command line.
#include "op_command.h"

#include "layout/xegpu/propagation.h"

namespace layoutctl {

namespace {

std::string opNames() {
  std::string ops;
  for (const auto& op : layout::xegpu::propagationOps()) ops += (ops.empty() ? "" : ", ") + op;
  return ops;
}

} // namespace

void addPropagateCommand(std::vector<Command>& commands) {
  addOpCommand(
      commands,
      {"propagate",
       "xegpu.propagate",
       "propagate OP [--result ATTR] [op options] [--format text|json]",
       "The layouts an op's operands need, given its result's XeGPU layout (backward "
       "propagation, XeGPU RFC and upstream rules). Ops and their options:\n"
       "  dpas             --shape-a MxK --shape-b KxN --element-type bf16|f16|tf32|i8|si8|ui8 "
       "--target pvc|bmg|arc|@FILE (a target with DPAS)  -> a, b, c\n"
       "  multi_reduction  --reduction-dims D,..  (the result is the slice)  -> source\n"
       "  multi_reduction  --level subgroup|inst|lane --source-shape --reduction-dims D,.. "
       "[--result CONSUMER] [--num-subgroups N] [--max-reduce-vector-size N] [--target T]  -> "
       "result, source, acc (upstream's setup)\n"
       "  broadcast        --source-shape --result-shape [--broadcast-dims D,..]  -> source\n"
       "  shape_cast       --source-shape --result-shape  -> source\n"
       "  transpose        --permutation P,..  -> source\n"
       "  bitcast          --source-element-bits N --result-element-bits N  -> source\n"
       "  dpas             --num-subgroups N --shape-a --shape-b --element-type [--result "
       "CONSUMER]  -> a, b, c sg layouts picked together\n"
       "  extract          --source-shape --result-shape  -> source\n"
       "  interleave, deinterleave  -> source\n"
       "  insert_strided_slice  --source-shape --result-shape [--level lane]  -> dest, source "
       "[, result]\n"
       "  compatible       --input ATTR --shape AxB --level subgroup|inst|lane "
       "[--partial-subgroup]  -> compatible\n"
       "  sg_layout_candidates  --num-subgroups N --shape AxB --inst-data AxB "
       "[--broadcast-dims D]  -> candidates\n"
       "  load_nd          --element-bits N [--transpose 1,0] [--transpose-bit-width 32] "
       "[--packed]  -> tensor_desc\n"
       "  convert_layout   --input ATTR --shape AxB (--result is the target)  -> "
       "needsDataMovement, movement (none|registers|lanes|subgroups)\n\n"
       "more examples:\n"
       "  layoutctl propagate dpas --result '#xegpu.sg_map<wi_layout = [1, 8], wi_data = [1, 1]>' "
       "--shape-a 8x32 --shape-b 32x8 --element-type ui8 --target arc\n"
       "  layoutctl propagate shape_cast --result '#xegpu.layout<sg_layout = [8, 1, 4], sg_data = "
       "[1, 32, 32], order = [2, 1, 0]>' --source-shape 256x128 --result-shape 8x32x128",
       "layoutctl propagate transpose --result '#xegpu.layout<sg_layout = [4, 8], sg_data = [32, "
       "64], lane_layout = [1, 16], lane_data = [1, 1], order = [1, 0]>' --permutation 1,0",
       {},
       {},
       false,
       opNames()});
}

} // namespace layoutctl
