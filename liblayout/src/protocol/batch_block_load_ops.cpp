// Batch op blockLoad.plan (interchange §2): the 2D block loads and shuffle vectors that feed a
// DPAS operand (layout/intel/block_load_plan.h).
#include "layout/intel/block_load_plan.h"
#include "layout/protocol/batch.h"
#include "layout/protocol/op_args.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace layout {

using nlohmann::ordered_json;

namespace {

Expected<ordered_json> planOp(const BatchRequest& r) {
  LAYOUT_TRY_ASSIGN(text, r.stringArg("encoding"));
  LAYOUT_TRY_ASSIGN(shape, r.shapeArg());
  LAYOUT_TRY_ASSIGN(bitsArg, r.uintArg("elemBits"));
  LAYOUT_TRY_ASSIGN(elemBits, opargs::elementBits(int64_t(std::min<uint64_t>(bitsArg, 1u << 30)),
                                                  opargs::kBlockLoadElementBits, "args.elemBits"));
  bool transposed = false;
  if (auto it = r.args.find("transposedInMemory"); it != r.args.end()) {
    if (!it->is_boolean()) return makeError("args.transposedInMemory: expected true or false");
    transposed = it->get<bool>();
  }
  std::string targetName = "pvc";
  if (r.args.contains("target")) {
    LAYOUT_TRY_ASSIGN(t, r.stringArg("target"));
    targetName = t;
  }
  auto target = intel::blockIoTarget(targetName);
  if (!target) return withContext(target.error(), "args.target");
  auto enc = triton::parseEncoding(text);
  if (!enc) return withContext(enc.error(), "args.encoding");
  LAYOUT_TRY_ASSIGN(plan, intel::planBlockLoads(*enc, shape, int(elemBits), transposed, *target));
  return intel::blockLoadPlanToJson(plan);
}

} // namespace

void registerBlockLoadOps(BatchProcessor& p) {
  p.registerOp(
      "blockLoad.plan",
      BatchOp{
          0,
          "args {encoding (dot_op of a #ttig.dpas), shape, elemBits, "
          "transposedInMemory, target (with 2D block I/O, default pvc)} -> 2D block loads and DPAS "
          "shuffles",
          planOp,
          {"encoding", "shape", "elemBits", "transposedInMemory", "target"}});
}

} // namespace layout
