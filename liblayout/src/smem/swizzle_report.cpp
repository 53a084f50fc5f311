// The report of a swizzle synthesis: its text and its JSON (layout/smem/swizzle_synthesis.h).
#include "layout/smem/swizzle_synthesis.h"

#include "layout/text/layout_json.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace layout::smem {

using nlohmann::ordered_json;

std::string swizzleResultText(const SwizzleResult& r) {
  std::ostringstream os;
  os << "shared layout (offset -> coordinates):\n" << r.shared.toString() << "\n";
  os << "lower bound   store " << r.lowerBound.store.wavefronts << " wavefronts ("
     << r.lowerBound.store.waysPerPhase << " per phase), load " << r.lowerBound.load.wavefronts
     << " (" << r.lowerBound.load.waysPerPhase
     << " per phase): " << (r.lowerBound.met ? "met" : "NOT met") << "\n";
  for (const auto& e : r.explanation) os << "  " << e << "\n";
  os << "\n== store ==\n" << bankReportText(r.store);
  os << "\n== load ==\n" << bankReportText(r.load);
  for (const auto& c : r.families) {
    os << "\n== family " << c.family << ": " << c.parameters << " ==\n";
    os << "  " << c.encoding << "\n";
    os << "  store " << c.store.wavefronts << " wavefronts (" << c.store.maxWays() << "-way), load "
       << c.load.wavefronts << " (" << c.load.maxWays() << "-way)\n";
    for (const auto& e : c.explanation) os << "  " << e << "\n";
  }
  return os.str();
}

ordered_json swizzleResultToJson(const SwizzleResult& r) {
  ordered_json j;
  j["shared"] = layoutToJson(r.shared);
  j["store"] = bankReportToJson(r.store);
  j["load"] = bankReportToJson(r.load);
  j["lowerBound"] = {{"store",
                      {{"waysPerPhase", r.lowerBound.store.waysPerPhase},
                       {"wavefronts", r.lowerBound.store.wavefronts}}},
                     {"load",
                      {{"waysPerPhase", r.lowerBound.load.waysPerPhase},
                       {"wavefronts", r.lowerBound.load.wavefronts}}},
                     {"met", r.lowerBound.met}};
  ordered_json fam = ordered_json::array();
  for (const auto& c : r.families)
    fam.push_back({{"family", c.family},
                   {"parameters", c.parameters},
                   {"encoding", c.encoding},
                   {"storeWavefronts", c.store.wavefronts},
                   {"loadWavefronts", c.load.wavefronts},
                   {"storeMaxWays", c.store.maxWays()},
                   {"loadMaxWays", c.load.maxWays()},
                   {"explanation", c.explanation}});
  j["families"] = fam;
  j["explanation"] = r.explanation;
  return j;
}

} // namespace layout::smem
