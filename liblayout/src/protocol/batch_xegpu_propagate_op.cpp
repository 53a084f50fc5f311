// Batch op xegpu.propagate: backward layout propagation through one op (interchange §2).
#include "layout/protocol/batch.h"
#include "layout/xegpu/propagation_json.h"

#include <nlohmann/json.hpp>

namespace layout {

void registerXegpuPropagateOp(BatchProcessor& p) {
  p.registerOp("xegpu.propagate",
               BatchOp{0,
                       "args {op, result, ...op args (see layoutctl propagate --help)} -> "
                       "{operand: layout text}",
                       [](const BatchRequest& r) -> Expected<nlohmann::ordered_json> {
                         LAYOUT_TRY_ASSIGN(req, propagationRequestFromJson(r.args));
                         LAYOUT_TRY_ASSIGN(out, xegpu::propagate(req));
                         return propagationResultToJson(out);
                       },
                       {},
                       /*checksOwnArgs=*/true});
}

} // namespace layout
