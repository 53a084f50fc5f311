// Hardware target descriptions (layout/target/hardware_target.h): the reader shared by built-in
// and user descriptions, the built-in table and the lookup by name.
#include "layout/target/hardware_target.h"

#include "builtin_targets.h"
#include "layout/text/file_io.h"
#include "layout/text/internal/json_fields.h"
#include "layout/text/internal/json_text.h"
#include "layout/text/internal/quoted_input.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cassert>

namespace layout::target {

using nlohmann::json;
using nlohmann::ordered_json;
using namespace layout::detail;

namespace {

constexpr std::array<std::pair<Vendor, std::string_view>, 4> kVendors = {
    {{Vendor::Intel, "intel"},
     {Vendor::Nvidia, "nvidia"},
     {Vendor::Amd, "amd"},
     {Vendor::Other, "other"}}};

Expected<std::string> readString(const json& obj, const std::string& path, std::string_view key,
                                 bool required) {
  const json* v = findField(obj, key);
  if (!v) {
    if (required) return makeError(joinPath(path, key) + ": missing field");
    return std::string();
  }
  if (!v->is_string())
    return makeError(joinPath(path, key) + ": expected a string, got " + describeJson(*v));
  return v->get<std::string>();
}

Expected<RegisterFile> readRegisterFile(const json& j, const std::string& path) {
  LAYOUT_TRY(checkObjectKeys(j, path, {"registerBytes", "registersPerThread"}, path));
  RegisterFile r;
  LAYOUT_TRY(readIntField(j, path, "registerBytes", 1, 4096, r.registerBytes));
  const json* counts = findField(j, "registersPerThread");
  const std::string cp = joinPath(path, "registersPerThread");
  if (!counts) return makeError(cp + ": missing field");
  if (!counts->is_array() || counts->empty() || counts->size() > 8)
    return makeError(cp + ": expected an array of 1 to 8 integers, got " + describeJson(*counts));
  for (size_t i = 0; i < counts->size(); ++i) {
    const std::string ip = cp + "[" + std::to_string(i) + "]";
    const json& c = (*counts)[i];
    if (!c.is_number_integer() || c.get<int64_t>() < 1 || c.get<int64_t>() > 65536)
      return makeError(ip + ": expected an integer in [1, 65536], got " + describeJson(c));
    const int n = c.get<int>();
    if (!r.registersPerThread.empty() && n <= r.registersPerThread.back())
      return makeError(ip + ": " + std::to_string(n) + " must be greater than the previous " +
                       "entry (ascending, no repeats)");
    r.registersPerThread.push_back(n);
  }
  return r;
}

Expected<DpasUnit> readDpas(const json& j, const std::string& path) {
  LAYOUT_TRY(checkObjectKeys(j, path, {"executionSize", "systolicDepth", "maxRepeatCount", "types"},
                             path));
  DpasUnit d;
  LAYOUT_TRY(readIntField(j, path, "executionSize", 1, 64, d.executionSize));
  LAYOUT_TRY(requirePowerOfTwo(d.executionSize, joinPath(path, "executionSize")));
  LAYOUT_TRY(readIntField(j, path, "systolicDepth", 1, 64, d.systolicDepth));
  LAYOUT_TRY(requirePowerOfTwo(d.systolicDepth, joinPath(path, "systolicDepth")));
  LAYOUT_TRY(readIntField(j, path, "maxRepeatCount", 1, 64, d.maxRepeatCount));
  const json* types = findField(j, "types");
  const std::string tp = joinPath(path, "types");
  if (!types) return makeError(tp + ": missing field");
  if (!types->is_array() || types->empty())
    return makeError(tp + ": expected a non-empty array of f16, bf16, tf32, int8");
  for (size_t i = 0; i < types->size(); ++i) {
    const json& t = (*types)[i];
    const std::string name = t.is_string() ? t.get<std::string>() : "";
    if (name != "f16" && name != "bf16" && name != "tf32" && name != "int8")
      return makeError(tp + "[" + std::to_string(i) + "]: expected f16, bf16, tf32 or int8, got " +
                       (t.is_string() ? layout::detail::quoteInput(name) : describeJson(t)));
    if (std::find(d.types.begin(), d.types.end(), name) != d.types.end())
      return makeError(tp + "[" + std::to_string(i) + "]: " + layout::detail::quoteInput(name) +
                       " is listed twice");
    d.types.push_back(name);
  }
  return d;
}

struct Builtins {
  std::vector<std::shared_ptr<const json>> bankModels;
  std::vector<HardwareTarget> targets;
  std::string error; // non-empty only if the embedded text is broken (a test catches it)
};

// The bank model `name` names: a built-in model ("nvidia", "xe", ...) or a known target's.
Expected<std::shared_ptr<const json>> namedBankModel(const std::string& name, const Builtins& b) {
  for (const auto& m : b.bankModels)
    if ((*m)["name"] == name) return m;
  for (const HardwareTarget& k : b.targets)
    if (k.name == name && k.bankModel) return k.bankModel;
  std::string names;
  for (const auto& m : b.bankModels)
    names += (names.empty() ? "" : ", ") + (*m)["name"].get<std::string>();
  return makeError("bankModel: " + layout::detail::quoteInput(name) +
                   " is not a bank model (known: " + names + ", or a target's name)");
}

// Reads one description. `known`: the bank models and the targets read before it (a section may
// name one of them).
Expected<HardwareTarget> readTarget(const json& j, const Builtins& known) {
  LAYOUT_TRY(checkObjectKeys(j, "",
                             {"name", "vendor", "description", "subgroupSize", "registerFile",
                              "dpas", "blockIo", "bankModel"},
                             "target"));
  HardwareTarget t;
  LAYOUT_TRY_ASSIGN(name, readString(j, "", "name", true));
  if (name.empty() || name.size() > 64 || name.front() == '@')
    return makeError("name: must be 1 to 64 characters and not start with '@'");
  t.name = name;
  LAYOUT_TRY_ASSIGN(vendor, readString(j, "", "vendor", true));
  auto v = std::find_if(kVendors.begin(), kVendors.end(),
                        [&](const auto& p) { return p.second == vendor; });
  if (v == kVendors.end())
    return makeError("vendor: expected intel, nvidia, amd or other, got " +
                     layout::detail::quoteInput(vendor));
  t.vendor = v->first;
  LAYOUT_TRY_ASSIGN(description, readString(j, "", "description", false));
  t.description = description;
  LAYOUT_TRY(readIntField(j, "", "subgroupSize", 1, 1024, t.subgroupSize));
  LAYOUT_TRY(requirePowerOfTwo(t.subgroupSize, "subgroupSize"));
  if (const json* r = findField(j, "registerFile")) {
    LAYOUT_TRY_ASSIGN(regs, readRegisterFile(*r, "registerFile"));
    t.registers = std::move(regs);
  }
  if (const json* d = findField(j, "dpas")) {
    LAYOUT_TRY_ASSIGN(dpas, readDpas(*d, "dpas"));
    t.dpas = std::move(dpas);
  }
  if (const json* b = findField(j, "blockIo")) {
    if (b->is_string()) {
      const std::string other = b->get<std::string>();
      auto it = std::find_if(known.targets.begin(), known.targets.end(),
                             [&](const HardwareTarget& k) { return k.name == other; });
      if (it == known.targets.end() || !it->blockIo) {
        std::string names;
        for (const auto& k : known.targets)
          if (k.blockIo) names += (names.empty() ? "" : ", ") + k.name;
        return makeError("blockIo: " + layout::detail::quoteInput(other) +
                         " is not a target with 2D block I/O (known: " + names + ")");
      }
      t.blockIo = it->blockIo;
    } else if (b->is_object()) {
      t.blockIo = std::make_shared<const json>(*b);
    } else {
      return makeError("blockIo: expected an object or a target's name, got " + describeJson(*b));
    }
  }
  if (const json* m = findField(j, "bankModel")) {
    if (m->is_string()) {
      LAYOUT_TRY_ASSIGN(model, namedBankModel(m->get<std::string>(), known));
      t.bankModel = std::move(model);
    } else if (m->is_object()) {
      if (!m->contains("name") || !(*m)["name"].is_string())
        return makeError("bankModel.name: missing (a bank model names its instructions)");
      t.bankModel = std::make_shared<const json>(*m);
    } else {
      return makeError("bankModel: expected an object or a bank model's name, got " +
                       describeJson(*m));
    }
  }
  return t;
}

std::vector<SectionCheck>& sectionChecks() {
  static std::vector<SectionCheck> checks;
  return checks;
}

const Builtins& builtins() {
  static const Builtins b = [] {
    Builtins out;
    try {
      for (const json& m : json::parse(detail::builtinBankModelsJson()))
        out.bankModels.push_back(std::make_shared<const json>(m));
      for (const json& j : json::parse(detail::builtinTargetsJson())) {
        auto t = readTarget(j, out);
        if (!t) {
          out.error = t.error().message;
          break;
        }
        out.targets.push_back(std::move(*t));
      }
    } catch (const json::exception& e) {
      out.error = e.what();
    }
    return out;
  }();
  return b;
}

} // namespace

std::string_view vendorName(Vendor v) {
  for (const auto& [vendor, name] : kVendors)
    if (vendor == v) return name;
  return "other";
}

bool DpasUnit::supports(std::string_view type) const {
  return std::find(types.begin(), types.end(), type) != types.end();
}

std::string HardwareTarget::bankModelName() const {
  return bankModel ? (*bankModel)["name"].get<std::string>() : std::string();
}

const std::vector<HardwareTarget>& builtinTargets() {
  assert(builtins().error.empty() && "the built-in target descriptions must be valid");
  return builtins().targets;
}

const std::vector<std::shared_ptr<const json>>& builtinBankModels() {
  assert(builtins().error.empty() && "the built-in target descriptions must be valid");
  return builtins().bankModels;
}

std::string builtinTargetNames() {
  std::string names;
  for (const HardwareTarget& t : builtins().targets) names += (names.empty() ? "" : ", ") + t.name;
  return names;
}

Expected<HardwareTarget> hardwareTarget(std::string_view spec) {
  if (!builtins().error.empty())
    return makeError("internal: the built-in targets are invalid: " + builtins().error);
  if (!spec.empty() && spec.front() == '@') {
    const std::string path(spec.substr(1));
    LAYOUT_TRY_ASSIGN(text, readInputFile(path, "target"));
    auto j = layout::detail::parseJsonText(text);
    if (!j) return withContext(j.error(), "target: '" + path + "' is not valid JSON");
    auto t = hardwareTargetFromJson(*j);
    if (!t) return withContext(t.error(), "target '" + path + "'");
    return t;
  }
  // "xe" named the Intel SLM bank model before targets existed; it stays an alias of pvc.
  const std::string_view name = spec == "xe" ? std::string_view("pvc") : spec;
  for (const HardwareTarget& t : builtins().targets)
    if (t.name == name) return t;
  return makeError("unknown target " + layout::detail::quoteInput(std::string(spec)) +
                   " (known: " + builtinTargetNames() + ", or @file.json)");
}

void registerSectionCheck(SectionCheck check) {
  auto& checks = sectionChecks();
  if (check && std::find(checks.begin(), checks.end(), check) == checks.end())
    checks.push_back(check);
}

Expected<HardwareTarget> hardwareTargetFromJson(const json& j) {
  if (!builtins().error.empty())
    return makeError("internal: the built-in targets are invalid: " + builtins().error);
  LAYOUT_TRY_ASSIGN(t, readTarget(j, builtins()));
  // The sections' own rules (layout/intel's blockIo, layout/smem's bankModel): what reads here is
  // what the tools that use the sections accept.
  for (SectionCheck check : sectionChecks()) LAYOUT_TRY(check(t));
  return t;
}

ordered_json hardwareTargetToJson(const HardwareTarget& t) {
  ordered_json out = ordered_json::object();
  out["name"] = t.name;
  out["vendor"] = std::string(vendorName(t.vendor));
  if (!t.description.empty()) out["description"] = t.description;
  out["subgroupSize"] = t.subgroupSize;
  if (t.registers.registerBytes > 0)
    out["registerFile"] = {{"registerBytes", t.registers.registerBytes},
                           {"registersPerThread", t.registers.registersPerThread}};
  if (t.dpas)
    out["dpas"] = {{"executionSize", t.dpas->executionSize},
                   {"systolicDepth", t.dpas->systolicDepth},
                   {"maxRepeatCount", t.dpas->maxRepeatCount},
                   {"types", t.dpas->types}};
  if (t.blockIo) out["blockIo"] = ordered_json::parse(t.blockIo->dump());
  if (t.bankModel) out["bankModel"] = ordered_json::parse(t.bankModel->dump());
  return out;
}

} // namespace layout::target
