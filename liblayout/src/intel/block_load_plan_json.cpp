// blockLoadPlanToJson: the JSON form of a block-load plan, shared by the batch op and the CLI.
#include "layout/intel/block_load_plan.h"
#include "layout/text/layout_json.h"

#include <nlohmann/json.hpp>

namespace layout::intel {

nlohmann::ordered_json blockLoadPlanToJson(const BlockLoadPlan& plan) {
  using nlohmann::ordered_json;
  ordered_json loads = ordered_json::array();
  for (const BlockLoad& l : plan.loads)
    loads.push_back({{"elemBits", l.elemBits},
                     {"tileWidth", l.tileWidth},
                     {"tileHeight", l.tileHeight},
                     {"numBlocks", l.numBlocks},
                     {"transpose", l.transpose},
                     {"vnni", l.vnni},
                     {"offset", l.offset}});
  ordered_json shuffles = ordered_json::array();
  for (const Shuffle& s : plan.shuffles)
    shuffles.push_back({{"iteration", s.iteration},
                        {"load", s.load},
                        {"dpas", s.dpas},
                        {"lane", s.lane ? ordered_json(*s.lane) : ordered_json("all")},
                        {"registers", s.registers}});
  return {{"tileLayout", layoutToJson(plan.tileLayout)},
          {"loads", std::move(loads)},
          {"shuffles", std::move(shuffles)},
          {"numLoads", plan.numLoads},
          {"numShuffledRegisters", plan.numShuffledRegisters},
          {"operandRegisterBits", plan.operandRegisterBits},
          {"subgroupOffset", layoutToJson(plan.subgroupOffset)}};
}

} // namespace layout::intel
