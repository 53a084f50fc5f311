// Bank-conflict analysis: the closed form over GF(2) for linear layouts whose phases are cosets of
// one lane subspace, enumeration of every access otherwise. The per-phase detail of the first
// access is always enumerated, so the two engines meet in every report.
#include "layout/smem/bank_analysis.h"

#include "access_geometry.h"
#include "xor_basis.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <sstream>

namespace layout::smem {

using detail::combine;
using nlohmann::ordered_json;

namespace {

struct Touch {
  int lane = 0;
  uint64_t byte = 0;
  int bytes = 0;
};

struct PhaseCount {
  int ways = 1;
  int ideal = 1;
};

// Distinct words per bank, by enumeration. `detail` (optional) receives the touched banks.
PhaseCount countTouches(std::span<const Touch> touches, const BankInstruction& ins,
                        std::vector<BankUse>* detail) {
  std::vector<std::pair<uint64_t, int>> words; // (word, lane)
  for (const Touch& t : touches) {
    if (t.bytes <= 0) continue;
    uint64_t first = t.byte / ins.bankBytes, last = (t.byte + t.bytes - 1) / ins.bankBytes;
    for (uint64_t w = first; w <= last; ++w) words.emplace_back(w, t.lane);
  }
  std::sort(words.begin(), words.end());
  std::vector<int> perBank(static_cast<size_t>(ins.banks), 0);
  std::vector<BankUse> uses(detail ? ins.banks : 0);
  size_t distinct = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    int bank = static_cast<int>(words[i].first % ins.banks);
    bool newWord = i == 0 || words[i].first != words[i - 1].first;
    if (newWord) {
      ++distinct;
      ++perBank[bank];
    }
    if (detail) {
      if (newWord) uses[bank].words.push_back(words[i].first);
      uses[bank].lanes.push_back(words[i].second);
    }
  }
  PhaseCount c;
  c.ways = std::max(1, *std::max_element(perBank.begin(), perBank.end()));
  c.ideal = static_cast<int>(std::max<size_t>(1, (distinct + ins.banks - 1) / ins.banks));
  if (detail) {
    detail->clear();
    for (int b = 0; b < ins.banks; ++b) {
      if (uses[b].words.empty()) continue;
      auto& lanes = uses[b].lanes;
      std::sort(lanes.begin(), lanes.end());
      lanes.erase(std::unique(lanes.begin(), lanes.end()), lanes.end());
      uses[b].bank = b;
      detail->push_back(std::move(uses[b]));
    }
  }
  return c;
}

std::vector<int> banksOf(const Touch& t, const BankInstruction& ins) {
  std::vector<int> out;
  for (uint64_t w = t.byte / ins.bankBytes;
       t.bytes > 0 && w <= (t.byte + t.bytes - 1) / ins.bankBytes; ++w)
    out.push_back(static_cast<int>(w % ins.banks));
  return out;
}

PhaseReport phaseReport(int phase, std::span<const Touch> touches, const BankInstruction& ins) {
  PhaseReport r;
  r.phase = phase;
  PhaseCount c = countTouches(touches, ins, &r.banks);
  r.ways = c.ways;
  r.idealWays = c.ideal;
  for (const Touch& t : touches)
    r.lanes.push_back(LaneTouch{t.lane, t.byte, t.bytes, banksOf(t, ins)});
  return r;
}

class Analyzer {
public:
  Analyzer(const SharedAccess& a, const BankInstruction& ins, detail::AccessGeometry g,
           detail::IssuePlan plan)
      : a_(a), ins_(ins), g_(std::move(g)), plan_(std::move(plan)), elemBytes_(a.elemBits / 8) {}

  uint64_t byteAddress(uint64_t offset) const {
    return (a_.paddedAddress ? a_.paddedAddress(offset) : offset) * elemBytes_;
  }

  // The byte address of the aligned run of `elements` offsets around `offset`, checking that
  // padding does not split it.
  Expected<uint64_t> runStart(uint64_t offset, int elements) const {
    uint64_t start = offset & ~uint64_t(elements - 1);
    uint64_t first = byteAddress(start), last = byteAddress(start + elements - 1);
    if (last - first != uint64_t(elements - 1) * elemBytes_)
      return makeError("the padding of the shared layout splits the " +
                       std::to_string(elements * elemBytes_) + "-byte access at offset " +
                       std::to_string(start) + "; " + ins_.name + " needs it contiguous");
    return first;
  }

  int phaseCount() const {
    return ins_.isMatrix() ? ins_.matrices : static_cast<int>(ins_.phases.size());
  }

  // The touches of phase p of the access with register base `base` (warp and issue offsets).
  Expected<std::vector<Touch>> touches(uint64_t base, int p) const {
    std::vector<Touch> out;
    if (!ins_.isMatrix()) {
      for (int lane : ins_.phases[p]) {
        LAYOUT_TRY_ASSIGN(start,
                          runStart(base ^ combine(g_.lane, uint64_t(lane)), plan_.vectorElements));
        out.push_back(Touch{lane, start, ins_.bytesPerLane});
      }
      return out;
    }
    uint64_t m = base;
    for (size_t i = 0; i < plan_.matrixRegisters.size(); ++i)
      if (p >> i & 1) m ^= combine(g_.reg, plan_.matrixRegisters[i]);
    uint64_t pair = combine(g_.reg, plan_.phaseRegisters[0]);
    for (int row = 0; row < 8; ++row) {
      // Non-transposed: lanes 4row..4row+3 hold row `row`; transposed: lane row/2 holds it, the
      // pair register choosing which of its two rows.
      uint64_t off = ins_.transposed
                         ? m ^ combine(g_.lane, uint64_t(row >> 1)) ^ ((row & 1) ? pair : 0)
                         : m ^ combine(g_.lane, uint64_t(4 * row));
      LAYOUT_TRY_ASSIGN(start, runStart(off, 8));
      out.push_back(Touch{8 * p + row, start, 16});
    }
    return out;
  }

  uint64_t baseOf(uint64_t warp, uint64_t issue) const {
    uint64_t base = combine(g_.warp, warp);
    for (size_t i = 0; i < plan_.issueRegisters.size(); ++i)
      if (issue >> i & 1) base ^= combine(g_.reg, plan_.issueRegisters[i]);
    return base;
  }

  // ways of every phase from ranks; nullopt when the closed form does not apply.
  std::optional<PhaseCount> closedForm() const {
    if (a_.paddedAddress) return std::nullopt;
    std::vector<uint64_t> span; // element offsets spanned by one phase
    if (ins_.isMatrix()) {
      span = g_.lane;
      span.push_back(combine(g_.reg, plan_.phaseRegisters[0]));
    } else {
      auto lanes = detail::phaseLaneSubspace(ins_);
      if (!lanes) return std::nullopt;
      for (uint64_t d : *lanes) span.push_back(combine(g_.lane, d));
      for (uint64_t r : plan_.phaseRegisters) span.push_back(combine(g_.reg, r));
    }
    int e = std::countr_zero(static_cast<unsigned>(elemBytes_));
    int wordShift = std::countr_zero(static_cast<unsigned>(ins_.bankBytes));
    uint64_t bankMask = uint64_t(ins_.banks) - 1;
    std::vector<uint64_t> words, banks;
    auto addByteVector = [&](uint64_t v) {
      words.push_back(v >> wordShift);
      banks.push_back((v >> wordShift) & bankMask);
    };
    for (uint64_t o : span) addByteVector(o << e);
    for (int b = 0; b < e; ++b) addByteVector(uint64_t{1} << b);
    int rw = detail::xorRank(words), rb = detail::xorRank(banks);
    int bankBits = std::countr_zero(static_cast<unsigned>(ins_.banks));
    return PhaseCount{1 << (rw - rb), 1 << std::max(0, rw - bankBits)};
  }

  Expected<BankReport> run(bool phaseTables) const {
    BankReport r;
    r.instruction = ins_;
    r.elemBits = a_.elemBits;
    r.vectorElements = plan_.vectorElements;
    r.warps = 1 << g_.warp.size();
    r.accessesPerWarp = 1 << plan_.issueRegisters.size();
    int phases = phaseCount();
    for (int p = 0; p < phases && phaseTables; ++p) {
      LAYOUT_TRY_ASSIGN(t, touches(baseOf(0, 0), p));
      r.phases.push_back(phaseReport(p, t, ins_));
    }
    uint64_t perWarpPhases = uint64_t(r.accessesPerWarp) * phases;
    if (auto c = closedForm()) {
      r.method = "linear";
      r.perPhaseMaxWays.assign(phases, c->ways);
      r.wavefronts = uint64_t(r.warps) * perWarpPhases * c->ways;
      r.idealWavefronts = uint64_t(r.warps) * perWarpPhases * c->ideal;
    } else {
      r.method = "enumerated";
      if (uint64_t(r.warps) * perWarpPhases * ins_.laneCount > (uint64_t{1} << 26))
        return makeError("the tile needs " + std::to_string(uint64_t(r.warps) * perWarpPhases) +
                         " phases enumerated (padded layout or phases that are not cosets of a "
                         "lane subspace); at most 2^26 lane accesses are enumerated");
      r.perPhaseMaxWays.assign(phases, 1);
      for (uint64_t w = 0; w < uint64_t(r.warps); ++w)
        for (uint64_t i = 0; i < uint64_t(r.accessesPerWarp); ++i)
          for (int p = 0; p < phases; ++p) {
            LAYOUT_TRY_ASSIGN(t, touches(baseOf(w, i), p));
            PhaseCount c = countTouches(t, ins_, nullptr);
            r.perPhaseMaxWays[p] = std::max(r.perPhaseMaxWays[p], c.ways);
            r.wavefronts += c.ways;
            r.idealWavefronts += c.ideal;
          }
    }
    notes(r);
    return r;
  }

private:
  void notes(BankReport& r) const {
    r.notes.push_back("phase groups of " + ins_.name + ": " + ins_.basis);
    if (detail::xorRank(g_.warp) < static_cast<int>(g_.warp.size()))
      r.notes.push_back("some warps hold the same elements (broadcast); each still issues its own "
                        "accesses, and they are counted");
    if (detail::xorRank(g_.reg) < static_cast<int>(g_.reg.size()))
      r.notes.push_back("some registers of a lane repeat elements; every register is accessed as "
                        "the layout states");
    if (r.method == "linear")
      r.notes.push_back("ways from the closed form 2^dim(P ∩ S) (P: offsets of one phase, S: "
                        "offsets above one bank line); the phase tables are enumerated");
  }

  const SharedAccess& a_;
  const BankInstruction& ins_;
  detail::AccessGeometry g_;
  detail::IssuePlan plan_;
  int elemBytes_;
};

std::string laneRanges(const std::vector<int>& lanes) {
  std::string s;
  for (size_t i = 0; i < lanes.size();) {
    size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    if (!s.empty()) s += ", ";
    s += std::to_string(lanes[i]);
    if (j > i) s += "-" + std::to_string(lanes[j]);
    i = j + 1;
  }
  return s;
}

std::string joined(const std::vector<int>& v, const char* sep = " ") {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

} // namespace

int BankReport::maxWays() const {
  int m = 1;
  for (int w : perPhaseMaxWays) m = std::max(m, w);
  return m;
}

namespace {

// The instruction with the phases the hardware uses for this request (pairMergedPhases when
// lanes n and n ^ 1, or n and n ^ 2, always read the same address).
BankInstruction servedAs(const BankInstruction& ins, bool sameAsPartner) {
  BankInstruction out = ins;
  out.phases = effectivePhases(ins, sameAsPartner);
  out.pairMergedPhases.clear();
  return out;
}

const char* kMergedNote = "lanes n and n^1 (or n^2) read the same addresses: the hardware serves "
                          "the request in fewer phases (pairMergedPhases)";

} // namespace

Expected<BankReport> analyzeBanks(const SharedAccess& access, const BankInstruction& insIn,
                                  bool phaseTables) {
  LAYOUT_TRY(verifyBankInstruction(insIn));
  LAYOUT_TRY_ASSIGN(g, detail::accessGeometry(access.access, access.shared));
  const bool merged = !insIn.pairMergedPhases.empty() && ((g.lane.size() > 0 && g.lane[0] == 0) ||
                                                          (g.lane.size() > 1 && g.lane[1] == 0));
  const BankInstruction ins = servedAs(insIn, merged);
  LAYOUT_TRY_ASSIGN(plan, detail::planIssues(g, ins, access.elemBits));
  Analyzer a(access, ins, std::move(g), std::move(plan));
  LAYOUT_TRY_ASSIGN(report, a.run(phaseTables));
  if (merged) report.notes.push_back(kMergedNote);
  return report;
}

Expected<int> maxVectorElements(const LinearLayout& access, const LinearLayout& shared) {
  LAYOUT_TRY_ASSIGN(g, detail::accessGeometry(access, shared));
  return detail::contiguousRegisterElements(g.reg);
}

Expected<BankReport> analyzeByteAddresses(std::span<const LaneAddress> addresses, int bytesPerLane,
                                          const BankInstruction& insIn) {
  LAYOUT_TRY(verifyBankInstruction(insIn));
  const BankInstruction& ins = insIn;
  if (bytesPerLane < 1 || bytesPerLane > 256)
    return makeError("bytesPerLane: " + std::to_string(bytesPerLane) + " is outside [1, 256]");
  int lanes = ins.isMatrix() ? 8 * ins.matrices : ins.laneCount;
  std::vector<int64_t> at(static_cast<size_t>(lanes), -1);
  for (size_t i = 0; i < addresses.size(); ++i) {
    const LaneAddress& la = addresses[i];
    if (la.lane < 0 || la.lane >= lanes)
      return makeError("byteAddresses[" + std::to_string(i) + "]: lane " + std::to_string(la.lane) +
                       " is outside [0, " + std::to_string(lanes - 1) + "] of " + ins.name);
    if (la.byteAddress > kMaxByteAddress)
      return makeError("byteAddresses[" + std::to_string(i) + "]: byte address " +
                       std::to_string(la.byteAddress) + " is above 2^48");
    if (at[la.lane] >= 0)
      return makeError("byteAddresses[" + std::to_string(i) + "]: lane " + std::to_string(la.lane) +
                       " already has an address (byteAddresses[" + std::to_string(at[la.lane]) +
                       "])");
    at[la.lane] = static_cast<int64_t>(i);
  }
  // Every lane active and reading what its partner lane ^ x reads.
  auto partnersAgree = [&](int x) {
    for (int l = 0; l < lanes; ++l)
      if (at[l] < 0 || (l ^ x) >= lanes || at[l ^ x] < 0 ||
          addresses[at[l]].byteAddress != addresses[at[l ^ x]].byteAddress)
        return false;
    return true;
  };
  const bool merged = !ins.pairMergedPhases.empty() && (partnersAgree(1) || partnersAgree(2));
  const BankInstruction served = servedAs(ins, merged);
  BankReport r;
  r.instruction = served;
  r.method = "enumerated";
  r.vectorElements = 0;
  for (size_t p = 0; p < served.phases.size(); ++p) {
    std::vector<Touch> t;
    for (int lane : served.phases[p])
      if (at[lane] >= 0) t.push_back(Touch{lane, addresses[at[lane]].byteAddress, bytesPerLane});
    PhaseReport pr = phaseReport(static_cast<int>(p), t, ins);
    r.perPhaseMaxWays.push_back(pr.ways);
    r.wavefronts += pr.ways;
    r.idealWavefronts += pr.idealWays;
    r.phases.push_back(std::move(pr));
  }
  r.notes.push_back("phase groups of " + ins.name + ": " + ins.basis);
  if (merged) r.notes.push_back(kMergedNote);
  return r;
}

std::string bankReportText(const BankReport& r) {
  std::ostringstream os;
  const BankInstruction& ins = r.instruction;
  os << "instruction   " << ins.name << " ("
     << (ins.direction == AccessDirection::Read ? "read" : "write") << "): " << ins.banks
     << " banks x " << ins.bankBytes << " B, " << ins.phases.size() << " phase"
     << (ins.phases.size() == 1 ? "" : "s") << ", " << ins.bytesPerLane << " B per lane"
     << (ins.isMatrix() ? " row" : "") << "\n";
  if (r.vectorElements > 0)
    os << "access        " << r.vectorElements << " x " << r.elemBits << "-bit elements per lane"
       << (ins.isMatrix() ? " per matrix" : "") << ", " << r.accessesPerWarp << " access"
       << (r.accessesPerWarp == 1 ? "" : "es") << " per warp, " << r.warps << " warp"
       << (r.warps == 1 ? "" : "s") << "\n";
  os << "wavefronts    " << r.wavefronts << " (ideal " << r.idealWavefronts << ", "
     << r.conflictWavefronts() << " from conflicts)\n";
  os << "ways/phase    " << joined(r.perPhaseMaxWays) << "   (worst over every access)\n";
  os << "method        " << r.method << "\n";
  for (const auto& n : r.notes) os << "note          " << n << "\n";
  for (const PhaseReport& p : r.phases) {
    std::vector<int> lanes;
    for (const auto& t : p.lanes) lanes.push_back(t.lane);
    std::sort(lanes.begin(), lanes.end());
    os << "\nphase " << p.phase << " (" << (ins.isMatrix() ? "address lanes " : "lanes ")
       << laneRanges(lanes) << "): " << p.ways << "-way, ideal " << p.idealWays << "\n";
    os << "  lane      byte  banks\n";
    for (const auto& t : p.lanes) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "  %4d %9llu  ", t.lane,
                    static_cast<unsigned long long>(t.byteAddress));
      os << buf << laneRanges(t.banks) << "\n";
    }
    os << "  bank  words (byte address / bank width)  lanes\n";
    for (const auto& b : p.banks) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "  %4d  ", b.bank);
      std::string words;
      for (uint64_t w : b.words) words += (words.empty() ? "" : " ") + std::to_string(w);
      if (words.size() < 37) words.append(37 - words.size(), ' ');
      os << buf << words << "  " << laneRanges(b.lanes)
         << (b.words.size() > 1 ? "   <- " + std::to_string(b.words.size()) + " words" : "")
         << "\n";
    }
  }
  return os.str();
}

ordered_json bankReportToJson(const BankReport& r) {
  ordered_json j;
  j["instruction"] = r.instruction.name;
  j["banks"] = r.instruction.banks;
  j["bankBytes"] = r.instruction.bankBytes;
  j["method"] = r.method;
  if (r.vectorElements > 0) {
    j["elemBits"] = r.elemBits;
    j["vectorElements"] = r.vectorElements;
    j["warps"] = r.warps;
    j["accessesPerWarp"] = r.accessesPerWarp;
  }
  j["perPhaseMaxWays"] = r.perPhaseMaxWays;
  j["wavefronts"] = r.wavefronts;
  j["idealWavefronts"] = r.idealWavefronts;
  j["conflictWavefronts"] = r.conflictWavefronts();
  ordered_json phases = ordered_json::array();
  for (const PhaseReport& p : r.phases) {
    ordered_json pj;
    pj["phase"] = p.phase;
    pj["ways"] = p.ways;
    pj["idealWays"] = p.idealWays;
    ordered_json lanes = ordered_json::array();
    for (const auto& t : p.lanes)
      lanes.push_back(
          {{"lane", t.lane}, {"byte", t.byteAddress}, {"bytes", t.bytes}, {"banks", t.banks}});
    pj["lanes"] = lanes;
    ordered_json banks = ordered_json::array();
    for (const auto& b : p.banks)
      banks.push_back({{"bank", b.bank}, {"words", b.words}, {"lanes", b.lanes}});
    pj["banks"] = banks;
    phases.push_back(pj);
  }
  j["phases"] = phases;
  j["notes"] = r.notes;
  return j;
}

std::string bankReportCsv(const BankReport& r) {
  std::ostringstream os;
  os << "phase,lane,byte_address,bytes,banks,phase_ways,phase_ideal_ways\n";
  for (const PhaseReport& p : r.phases)
    for (const auto& t : p.lanes)
      os << p.phase << "," << t.lane << "," << t.byteAddress << "," << t.bytes << ","
         << joined(t.banks, " ") << "," << p.ways << "," << p.idealWays << "\n";
  return os.str();
}

} // namespace layout::smem
