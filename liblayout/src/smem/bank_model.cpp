// Bank models of shared memory (NVIDIA), LDS (AMD CDNA3, CDNA4) and SLM (Intel Xe). The built-in
// targets are JSON text read by the same parser as user models, so both obey the same rules.
#include "layout/smem/bank_model.h"

#include "layout/target/hardware_target.h"

#include "layout/text/internal/json_fields.h"
#include "layout/text/internal/quoted_input.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cassert>
#include <charconv>
#include <mutex>

namespace layout::smem {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

using detail::describeJson;
using detail::findField;
using detail::joinPath;

// "a-b" or "a" (a lane range), or an integer lane.
Expected<void> readLanes(const json& v, const std::string& path, std::vector<int>& out) {
  if (v.is_number_integer()) {
    if (!v.is_number_unsigned() || v.get<uint64_t>() > 4095)
      return makeError(path + ": lane " + describeJson(v) + " is outside [0, 4095]");
    out.push_back(static_cast<int>(v.get<uint64_t>()));
    return {};
  }
  if (!v.is_string())
    return makeError(path + ": expected a lane or a range \"a-b\", got " + describeJson(v));
  std::string s = v.get<std::string>();
  auto dash = s.find('-');
  auto parse = [&](std::string_view t, int& x) {
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
    return ec == std::errc() && p == t.data() + t.size() && x >= 0 && x <= 4095;
  };
  int a = 0, b = 0;
  bool ok = dash == std::string::npos ? parse(s, a) && (b = a, true)
                                      : parse(std::string_view(s).substr(0, dash), a) &&
                                            parse(std::string_view(s).substr(dash + 1), b);
  if (!ok || b < a)
    return makeError(path + ": \"" + s + "\" is not a lane range \"a-b\" with 0 <= a <= b <= 4095");
  for (int l = a; l <= b; ++l) out.push_back(l);
  return {};
}

// A non-empty array of lane groups, each a non-empty array of lanes or "a-b" ranges.
Expected<void> readLaneGroups(const json& groups, const std::string& path,
                              std::vector<std::vector<int>>& out) {
  if (!groups.is_array() || groups.empty())
    return makeError(path + ": expected \"contiguous\" or a non-empty array of lane groups, got " +
                     describeJson(groups));
  for (size_t p = 0; p < groups.size(); ++p) {
    const json& g = groups[p];
    std::string gp = path + "[" + std::to_string(p) + "]";
    if (!g.is_array() || g.empty())
      return makeError(gp + ": expected a non-empty array of lanes or ranges, got " +
                       describeJson(g));
    out.emplace_back();
    for (size_t k = 0; k < g.size(); ++k)
      if (auto e = readLanes(g[k], gp + "[" + std::to_string(k) + "]", out.back()); !e) return e;
  }
  return {};
}

// `defaults`: the model whose laneCount, banks and bankBytes apply unless the instruction gives
// its own, at `defaultsPath` (for messages).
Expected<BankInstruction> readInstruction(const json& j, const std::string& path,
                                          const json* defaults, const std::string& defaultsPath,
                                          const std::string& prefix) {
  if (auto e = detail::checkObjectKeys(j, path,
                                       {"name", "direction", "laneCount", "banks", "bankBytes",
                                        "bytesPerLane", "matrices", "transposed", "phases",
                                        "pairMergedPhases", "basis"},
                                       "instruction");
      !e)
    return e.error();
  BankInstruction ins;
  const json* name = findField(j, "name");
  if (!name || !name->is_string() || name->get<std::string>().empty())
    return makeError(joinPath(path, "name") + ": expected a non-empty string");
  ins.name = prefix + name->get<std::string>();
  const json* dir = findField(j, "direction");
  if (!dir || !dir->is_string() ||
      (dir->get<std::string>() != "read" && dir->get<std::string>() != "write"))
    return makeError(joinPath(path, "direction") + ": expected \"read\" or \"write\"");
  ins.direction =
      dir->get<std::string>() == "read" ? AccessDirection::Read : AccessDirection::Write;
  // Per-instruction values override the target's.
  auto readDefaulted = [&](const char* key, int lo, int hi, int& out) -> Expected<void> {
    if (findField(j, key)) return detail::readIntField(j, path, key, lo, hi, out);
    if (defaults && findField(*defaults, key))
      return detail::readIntField(*defaults, defaultsPath, key, lo, hi, out);
    return makeError(joinPath(path, key) + ": missing field");
  };
  if (auto e = readDefaulted("laneCount", 1, 4096, ins.laneCount); !e) return e.error();
  if (auto e = readDefaulted("banks", 1, 4096, ins.banks); !e) return e.error();
  if (auto e = readDefaulted("bankBytes", 1, 64, ins.bankBytes); !e) return e.error();
  if (auto e = detail::readIntField(j, path, "bytesPerLane", 1, 256, ins.bytesPerLane); !e)
    return e.error();
  if (findField(j, "matrices"))
    if (auto e = detail::readIntField(j, path, "matrices", 1, 4, ins.matrices); !e)
      return e.error();
  if (const json* t = findField(j, "transposed")) {
    if (!t->is_boolean())
      return makeError(joinPath(path, "transposed") + ": expected true or false, got " +
                       describeJson(*t));
    ins.transposed = t->get<bool>();
  }
  if (const json* b = findField(j, "basis")) {
    if (!b->is_string()) return makeError(joinPath(path, "basis") + ": expected a string");
    ins.basis = b->get<std::string>();
  }
  const json* phases = findField(j, "phases");
  std::string pp = joinPath(path, "phases");
  if (!phases || (phases->is_string() && phases->get<std::string>() == "contiguous")) {
    int perPhase = std::max(1, ins.banks * ins.bankBytes / ins.bytesPerLane);
    if (ins.isMatrix()) perPhase = 8;
    perPhase = std::min(perPhase, ins.laneCount);
    int lanes = ins.isMatrix() ? 8 * ins.matrices : ins.laneCount;
    for (int l0 = 0; l0 < lanes; l0 += perPhase) {
      ins.phases.emplace_back();
      for (int l = l0; l < std::min(lanes, l0 + perPhase); ++l) ins.phases.back().push_back(l);
    }
    if (!phases && ins.basis.empty())
      ins.basis = "assumed: contiguous lane groups of one bank line each";
  } else if (auto e = readLaneGroups(*phases, pp, ins.phases); !e) {
    return e.error();
  }
  if (const json* merged = findField(j, "pairMergedPhases"))
    if (auto e = readLaneGroups(*merged, joinPath(path, "pairMergedPhases"), ins.pairMergedPhases);
        !e)
      return e.error();
  LAYOUT_TRY(verifyBankInstruction(ins));
  return ins;
}

struct BuiltinTables {
  std::vector<BankTarget> targets;
  std::string error; // empty: the embedded JSON is valid (a test checks it)
};

// A bank model's JSON object (name, description, defaults, instructions) as a BankTarget. `path`
// prefixes messages.
Expected<BankTarget> readBankModel(const json& tj, const std::string& path) {
  if (!tj.is_object()) return makeError(path + ": expected an object, got " + describeJson(tj));
  BankTarget target;
  const json* name = findField(tj, "name");
  if (!name || !name->is_string() || name->get<std::string>().empty())
    return makeError(joinPath(path, "name") + ": expected a non-empty string");
  target.name = name->get<std::string>();
  if (const json* d = findField(tj, "description"); d && d->is_string())
    target.description = d->get<std::string>();
  const json* list = findField(tj, "instructions");
  if (!list || !list->is_array() || list->empty())
    return makeError(joinPath(path, "instructions") + ": expected a non-empty array");
  for (size_t k = 0; k < list->size(); ++k) {
    LAYOUT_TRY_ASSIGN(
        ins, readInstruction((*list)[k], joinPath(path, "instructions[" + std::to_string(k) + "]"),
                             &tj, path, target.name + "."));
    target.instructions.push_back(std::move(ins));
  }
  return target;
}

// The built-in bank models (layout/target's table), read once.
const BuiltinTables& builtins() {
  static const BuiltinTables tables = [] {
    BuiltinTables t;
    for (const auto& model : target::builtinBankModels()) {
      const std::string name = (*model)["name"].get<std::string>();
      auto read = readBankModel(*model, name);
      if (!read) {
        t.error = read.error().message;
        break;
      }
      t.targets.push_back(std::move(*read));
    }
    return t;
  }();
  return tables;
}

// The target layer's check of a user description's "bankModel" section (hardware_target.h): the
// rules bankTarget reads, so `layoutctl targets @FILE` refuses what banks would.
Expected<void> checkBankModelSection(const target::HardwareTarget& hw) {
  if (!hw.bankModel) return {};
  for (const auto& model : target::builtinBankModels())
    if (model == hw.bankModel) return {};
  auto t = readBankModel(*hw.bankModel, "bankModel");
  if (!t) return t.error();
  return {};
}

[[maybe_unused]] const bool kBankModelCheckRegistered =
    (target::registerSectionCheck(checkBankModelSection), true);

} // namespace

const std::vector<BankTarget>& builtinBankTargets() {
  assert(builtins().error.empty() && "the embedded bank models must be valid");
  return builtins().targets;
}

Expected<BankTarget> bankTarget(std::string_view name) {
  if (!builtins().error.empty())
    return makeError("internal: the built-in bank models are invalid: " + builtins().error);
  // A bank model's own name (it prefixes the instruction names), then a hardware target's.
  for (const auto& t : builtinBankTargets())
    if (t.name == name) return t;
  auto hw = target::hardwareTarget(name);
  if (!hw) return hw.error();
  return bankTarget(*hw);
}

Expected<BankTarget> bankTarget(const target::HardwareTarget& hw) {
  if (!hw.bankModel) return makeError("target '" + hw.name + "' has no bank model");
  // A built-in model is shared by pointer; a user's own model is read here.
  const auto& models = target::builtinBankModels();
  for (size_t i = 0; i < models.size(); ++i)
    if (models[i] == hw.bankModel) return builtinBankTargets()[i];
  auto t = readBankModel(*hw.bankModel, "bankModel");
  if (!t) return t.error();
  return t;
}

Expected<BankInstruction> bankInstruction(std::string_view name) {
  auto dot = name.find('.');
  std::string targetName(name.substr(0, dot));
  auto target = bankTarget(targetName);
  if (!target)
    return makeError("unknown instruction " + layout::detail::quoteInput(std::string(name)) +
                     ": names are <target>.<instruction> with target nvidia, cdna3, cdna4 or xe");
  std::string names;
  for (const auto& ins : target->instructions) {
    if (ins.name == name) return ins;
    names += (names.empty() ? "" : ", ") + ins.name;
  }
  return makeError("unknown instruction " + layout::detail::quoteInput(std::string(name)) + " (" +
                   targetName + " has: " + names + ")");
}

Expected<BankInstruction> bankInstructionFromJson(const json& j) {
  return readInstruction(j, "", nullptr, "", "");
}

ordered_json bankInstructionToJson(const BankInstruction& ins) {
  ordered_json j;
  j["name"] = ins.name;
  j["direction"] = ins.direction == AccessDirection::Read ? "read" : "write";
  j["laneCount"] = ins.laneCount;
  j["banks"] = ins.banks;
  j["bankBytes"] = ins.bankBytes;
  j["bytesPerLane"] = ins.bytesPerLane;
  if (ins.isMatrix()) {
    j["matrices"] = ins.matrices;
    j["transposed"] = ins.transposed;
  }
  j["phases"] = ins.phases;
  if (!ins.pairMergedPhases.empty()) j["pairMergedPhases"] = ins.pairMergedPhases;
  j["basis"] = ins.basis;
  return j;
}

const std::vector<std::vector<int>>& effectivePhases(const BankInstruction& ins,
                                                     bool sameAsPartner) {
  return sameAsPartner && !ins.pairMergedPhases.empty() ? ins.pairMergedPhases : ins.phases;
}

Expected<void> verifyBankInstruction(const BankInstruction& ins) {
  const std::string& n = ins.name;
  auto pow2 = [](int v) { return v > 0 && std::has_single_bit(static_cast<unsigned>(v)); };
  if (!pow2(ins.laneCount))
    return makeError(n + ": laneCount " + std::to_string(ins.laneCount) + " is not a power of two");
  if (!pow2(ins.banks))
    return makeError(n + ": banks " + std::to_string(ins.banks) + " is not a power of two");
  if (!pow2(ins.bankBytes))
    return makeError(n + ": bankBytes " + std::to_string(ins.bankBytes) + " is not a power of two");
  if (ins.isMatrix()) {
    if (ins.matrices != 1 && ins.matrices != 2 && ins.matrices != 4)
      return makeError(n + ": matrices " + std::to_string(ins.matrices) + " is not 1, 2 or 4");
    if (ins.bytesPerLane != 16)
      return makeError(n + ": bytesPerLane of a matrix instruction is one 16-byte row, not " +
                       std::to_string(ins.bytesPerLane));
    if (ins.laneCount != 32)
      return makeError(n + ": matrix instructions need 32 lanes, not " +
                       std::to_string(ins.laneCount));
  }
  int lanes = ins.isMatrix() ? 8 * ins.matrices : ins.laneCount;
  // Both groupings must partition the lanes.
  auto partition = [&](const std::vector<std::vector<int>>& groups,
                       const char* field) -> Expected<void> {
    std::vector<int> seen(static_cast<size_t>(ins.laneCount), -1);
    int count = 0;
    for (size_t p = 0; p < groups.size(); ++p)
      for (int l : groups[p]) {
        std::string at =
            n + ": " + field + "[" + std::to_string(p) + "]: lane " + std::to_string(l);
        if (l < 0 || l >= ins.laneCount)
          return makeError(at + " is outside [0, " + std::to_string(ins.laneCount - 1) + "]");
        if (seen[l] >= 0)
          return makeError(at + " is already in " + field + "[" + std::to_string(seen[l]) +
                           "] (phases must be disjoint)");
        seen[l] = static_cast<int>(p);
        ++count;
      }
    if (count != lanes)
      return makeError(n + ": " + field + " cover " + std::to_string(count) +
                       " lanes, but the instruction has " + std::to_string(lanes) +
                       " (every lane must be in exactly one phase)");
    return {};
  };
  if (auto e = partition(ins.phases, "phases"); !e) return e.error();
  if (!ins.pairMergedPhases.empty()) {
    if (ins.isMatrix())
      return makeError(n + ": pairMergedPhases apply to plain loads and stores, not matrices");
    if (auto e = partition(ins.pairMergedPhases, "pairMergedPhases"); !e) return e.error();
  }
  return {};
}

} // namespace layout::smem
