// Text and JSON forms of a conversion plan (layout/conversion/conversion_plan.h).
#include "layout/conversion/conversion_plan.h"
#include "layout/text/internal/list_text.h"
#include "layout/text/layout_json.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace layout::conversion {

namespace {

using layout::detail::listText;

std::string kindTitle(ConversionKind k) {
  switch (k) {
  case ConversionKind::None:
    return "none (src and dst are the same layout)";
  case ConversionKind::RegisterPermutation:
    return "register permutation (no data leaves a lane)";
  case ConversionKind::WarpShuffle:
    return "intra-warp shuffles";
  case ConversionKind::SharedMemory:
    return "shared memory (store, then load)";
  }
  return "";
}

} // namespace

std::string conversionPlanText(const ConversionPlan& p) {
  std::ostringstream os;
  os << "conversion: " << kindTitle(p.kind) << "\n";
  os << p.numLanes << " lanes, " << p.numWarps << " warps, " << p.numBlocks << " blocks; "
     << p.srcRegisters << " src and " << p.dstRegisters << " dst registers per lane; " << p.elemBits
     << "-bit elements\n";
  os << "comp (dst location -> src location):" << p.comp.toString() << "\n";
  switch (p.kind) {
  case ConversionKind::None:
    break;
  case ConversionKind::RegisterPermutation:
    os << "\ndst register r <- src register [r]: " << listText(p.registerPermutation, " ") << "\n";
    break;
  case ConversionKind::WarpShuffle: {
    os << "\n"
       << p.rounds.size() << " rounds (" << p.shuffleRounds << " shuffles, "
       << (p.rounds.size() - p.shuffleRounds) << " local), lower bound " << p.roundsLowerBound
       << "; vectors of " << p.vectorElements << " element" << (p.vectorElements == 1 ? "" : "s")
       << " (" << p.vectorElements * p.elemBits << " bits)\n";
    os << "per round, per lane: send = src register put on the wire, read = lane read from, "
          "dst = dst register filled (first register of each vector)\n";
    for (size_t t = 0; t < p.rounds.size(); ++t) {
      const ShuffleRound& r = p.rounds[t];
      os << "round " << t << (r.local ? " (local)" : "") << ":\n"
         << "  send " << listText(r.sendRegister, " ") << "\n"
         << "  read " << listText(r.readLane, " ") << "\n"
         << "  dst  " << listText(r.dstRegister, " ") << "\n";
    }
    bool copies = false;
    for (size_t r = 0; r < p.registerCopies.size(); ++r)
      if (p.registerCopies[r] >= 0) {
        if (!copies) os << "then copies (dst broadcast):";
        copies = true;
        os << " " << r << "<-" << p.registerCopies[r];
      }
    if (copies) os << "\n";
    break;
  }
  case ConversionKind::SharedMemory:
    if (p.shared) os << "\n" << smem::swizzleResultText(*p.shared);
    break;
  }
  for (const std::string& n : p.notes) os << "note: " << n << "\n";
  return os.str();
}

nlohmann::ordered_json conversionPlanToJson(const ConversionPlan& p) {
  nlohmann::ordered_json j;
  j["kind"] = std::string(conversionKindName(p.kind));
  j["lanes"] = p.numLanes;
  j["warps"] = p.numWarps;
  j["blocks"] = p.numBlocks;
  j["srcRegisters"] = p.srcRegisters;
  j["dstRegisters"] = p.dstRegisters;
  j["elemBits"] = p.elemBits;
  j["comp"] = layoutToJson(p.comp);
  if (p.kind == ConversionKind::RegisterPermutation)
    j["registerPermutation"] = p.registerPermutation;
  if (p.kind == ConversionKind::WarpShuffle) {
    j["vectorElements"] = p.vectorElements;
    j["numRounds"] = p.rounds.size();
    j["shuffleRounds"] = p.shuffleRounds;
    j["roundsLowerBound"] = p.roundsLowerBound;
    nlohmann::ordered_json rounds = nlohmann::ordered_json::array();
    for (const ShuffleRound& r : p.rounds)
      rounds.push_back({{"sendRegister", r.sendRegister},
                        {"readLane", r.readLane},
                        {"dstRegister", r.dstRegister},
                        {"local", r.local}});
    j["rounds"] = std::move(rounds);
    j["registerCopies"] = p.registerCopies;
  }
  if (p.kind == ConversionKind::SharedMemory && p.shared)
    j["shared"] = smem::swizzleResultToJson(*p.shared);
  j["notes"] = p.notes;
  return j;
}

} // namespace layout::conversion
