// Batch op blockLoad.plan (interchange §2), also `layoutctl blockload`: the 2D block loads and
// shuffle vectors that feed a DPAS operand (layout/intel/block_load_plan.h).
#include "layout/intel/block_load_plan.h"
#include "layout/protocol/op_args.h"
#include "typed_op.h"

#include <nlohmann/json.hpp>

namespace layout {

namespace {

// The target has 2D block I/O (blockIoTarget names the targets that do).
Expected<void> withBlockIo(const nlohmann::json& target) {
  auto t = intel::blockIoTarget(target.get<std::string>());
  if (!t) return t.error();
  return {};
}

Expected<intel::BlockLoadPlan> plan(const BatchRequest& r) {
  LAYOUT_TRY_ASSIGN(text, r.stringArg("encoding"));
  LAYOUT_TRY_ASSIGN(shape, r.shapeArg());
  LAYOUT_TRY_ASSIGN(elemBits, r.uintArg("elemBits"));
  const bool transposed = r.args.value("transposedInMemory", false);
  LAYOUT_TRY_ASSIGN(targetName, r.stringArg("target"));
  LAYOUT_TRY_ASSIGN(target, intel::blockIoTarget(targetName));
  auto enc = triton::parseEncoding(text);
  if (!enc) return withContext(enc.error(), r.argPath("encoding"));
  return intel::planBlockLoads(*enc, shape, int(elemBits), transposed, target);
}

} // namespace

void registerBlockLoadOps(BatchProcessor& p) {
  p.registerOp(
      "blockLoad.plan",
      typedOp<intel::BlockLoadPlan>(
          "args {encoding (dot_op of a #ttig.dpas), shape, elemBits, transposedInMemory, target "
          "(with 2D block I/O, default pvc)} -> 2D block loads and DPAS shuffles",
          {OpArg("encoding", OpArgKind::String).needed(), OpArg("shape", OpArgKind::Shape).needed(),
           opargs::elementBitsArg(opargs::kBlockLoadElementBits).needed(),
           OpArg("transposedInMemory", OpArgKind::Flag).spelled("transposed"),
           OpArg("target", OpArgKind::Target).defaultsTo("pvc").satisfying(withBlockIo)},
          plan, intel::blockLoadPlanToJson, intel::blockLoadPlanText));
}

} // namespace layout
