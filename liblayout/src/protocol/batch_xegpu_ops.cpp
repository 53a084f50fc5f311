// Batch ops over MLIR XeGPU layouts: xegpu.toLinearLayout, xegpu.subgroupTiles,
// xegpu.delinearize, xegpu.laneCoords, xegpu.distributedShape (interchange §2).
#include "layout/protocol/batch.h"
#include "layout/text/layout_json.h"
#include "layout/xegpu/xegpu_layout.h"

#include <nlohmann/json.hpp>

namespace layout {

using nlohmann::ordered_json;

namespace {

Expected<xegpu::XeLayout> layoutArg(const BatchRequest& r) {
  LAYOUT_TRY_ASSIGN(text, r.stringArg("layout"));
  auto l = xegpu::parseXegpuAttr(text);
  if (!l) return withContext(l.error(), r.argPath("layout"));
  return std::move(*l);
}

// Ids are bounded so that no product with them overflows.
Expected<int64_t> idArg(const BatchRequest& r, const char* name) {
  LAYOUT_TRY_ASSIGN(v, r.uintArg(name));
  if (v > (uint64_t{1} << 40))
    return makeError(r.argPath(name) + ": " + std::to_string(v) + " exceeds 2^40");
  return int64_t(v);
}

ordered_json listJson(const std::vector<int64_t>& v) {
  ordered_json out = ordered_json::array();
  for (int64_t x : v) out.push_back(x);
  return out;
}

ordered_json listsJson(const std::vector<std::vector<int64_t>>& v) {
  ordered_json out = ordered_json::array();
  for (const auto& x : v) out.push_back(listJson(x));
  return out;
}

} // namespace

void registerXegpuOps(BatchProcessor& p) {
  // The batch gets the layout's JSON, a front end the layout (BatchOp::layout).
  auto toLayout = [](const BatchRequest& r) -> Expected<LinearLayout> {
    LAYOUT_TRY_ASSIGN(l, layoutArg(r));
    LAYOUT_TRY_ASSIGN(shape, r.shapeArg());
    return xegpu::toLinearLayout(l, shape);
  };
  BatchOp toLinearLayout{0, "args {layout (#xegpu attribute text), shape} -> layout",
                         [toLayout](const BatchRequest& r) -> Expected<ordered_json> {
                           LAYOUT_TRY_ASSIGN(ll, toLayout(r));
                           return layoutToJson(ll);
                         }};
  toLinearLayout.layout = toLayout;
  p.registerOp("xegpu.toLinearLayout", std::move(toLinearLayout));
  p.registerOp("xegpu.subgroupTiles",
               BatchOp{0, "args {layout, shape, subgroupId} -> {tileShape, tileOffsets}",
                       [](const BatchRequest& r) -> Expected<ordered_json> {
                         LAYOUT_TRY_ASSIGN(l, layoutArg(r));
                         LAYOUT_TRY_ASSIGN(shape, r.shapeArg());
                         LAYOUT_TRY_ASSIGN(sg, idArg(r, "subgroupId"));
                         LAYOUT_TRY(xegpu::checkIdInRange(l, sg, xegpu::Level::Subgroup,
                                                          r.argPath("subgroupId")));
                         LAYOUT_TRY_ASSIGN(t, xegpu::subgroupTiles(l, shape, sg));
                         ordered_json out;
                         out["tileShape"] = listJson(t.tileShape);
                         out["tileOffsets"] = listsJson(t.tileOffsets);
                         return out;
                       }});
  p.registerOp("xegpu.delinearize",
               BatchOp{0, "args {layout, id, level: subgroup|lane} -> id per root dim",
                       [](const BatchRequest& r) -> Expected<ordered_json> {
                         LAYOUT_TRY_ASSIGN(l, layoutArg(r));
                         LAYOUT_TRY_ASSIGN(id, idArg(r, "id"));
                         LAYOUT_TRY_ASSIGN(level, r.stringArg("level"));
                         if (level != "subgroup" && level != "lane")
                           return makeError(r.argPath("level") +
                                            ": expected \"subgroup\" or \"lane\", not \"" + level +
                                            "\"");
                         const xegpu::Level lv =
                             level == "subgroup" ? xegpu::Level::Subgroup : xegpu::Level::Lane;
                         LAYOUT_TRY(xegpu::checkIdInRange(l, id, lv, r.argPath("id")));
                         LAYOUT_TRY_ASSIGN(ids, xegpu::delinearize(l, id, lv));
                         return listJson(ids);
                       }});
  p.registerOp(
      "xegpu.laneCoords",
      BatchOp{0,
              "args {layout, shape, laneId, subgroupId (workgroup layouts)} -> "
              "coordinate per register",
              [](const BatchRequest& r) -> Expected<ordered_json> {
                LAYOUT_TRY_ASSIGN(l, layoutArg(r));
                LAYOUT_TRY_ASSIGN(shape, r.shapeArg());
                LAYOUT_TRY_ASSIGN(lane, idArg(r, "laneId"));
                LAYOUT_TRY(xegpu::checkIdInRange(l, lane, xegpu::Level::Lane, r.argPath("laneId")));
                std::optional<int64_t> sg;
                if (r.args.contains("subgroupId")) {
                  LAYOUT_TRY_ASSIGN(s, idArg(r, "subgroupId"));
                  LAYOUT_TRY(
                      xegpu::checkIdInRange(l, s, xegpu::Level::Subgroup, r.argPath("subgroupId")));
                  sg = s;
                }
                LAYOUT_TRY_ASSIGN(coords, xegpu::laneCoords(l, shape, lane, sg));
                return listsJson(coords);
              }});
  p.registerOp("xegpu.distributedShape",
               BatchOp{0, "args {layout, shape} -> per-lane vector shape",
                       [](const BatchRequest& r) -> Expected<ordered_json> {
                         LAYOUT_TRY_ASSIGN(l, layoutArg(r));
                         LAYOUT_TRY_ASSIGN(shape, r.shapeArg());
                         LAYOUT_TRY_ASSIGN(s, xegpu::distributedShape(l, shape));
                         return listJson(s);
                       }});
  // Spelled as `layoutctl xegpu` spells them (--layout or -l, --subgroup, --lane).
  const OpArg layout = OpArg("layout").alsoSpelled("l");
  const OpArg subgroup = OpArg("subgroupId").spelled("subgroup");
  p.declareArgs({{"xegpu.toLinearLayout", {layout, "shape"}},
                 {"xegpu.subgroupTiles", {layout, "shape", subgroup}},
                 {"xegpu.delinearize", {layout, "id", "level"}},
                 {"xegpu.laneCoords", {layout, "shape", OpArg("laneId").spelled("lane"), subgroup}},
                 {"xegpu.distributedShape", {layout, "shape"}}});
}

} // namespace layout
