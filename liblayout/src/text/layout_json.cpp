#include "layout/text/layout_json.h"

#include "layout/text/internal/json_fields.h"
#include "layout/text/internal/json_text.h"

#include "layout/core/resource_limits.h"
#include "layout/text/internal/quoted_input.h"

#include <nlohmann/json.hpp>

#include <bit>

namespace layout {

using nlohmann::json;

namespace {

std::string describe(const json& j) {
  return detail::describeJson(j, detail::NumberStyle::Sign);
}

// A non-negative integer that fits in 64 bits (nlohmann stores larger ones as floats).
Expected<void> readUnsigned(const json& j, const std::string& path, uint64_t& out) {
  if (!j.is_number_integer() || (j.is_number_integer() && !j.is_number_unsigned()))
    return makeError(path + ": expected a non-negative integer, got " + describe(j));
  out = j.get<uint64_t>();
  return {};
}

Expected<void> readName(const json& obj, const std::string& path, std::string& out) {
  auto it = obj.find("name");
  if (it == obj.end()) return makeError(path + ": missing field \"name\"");
  if (!it->is_string()) return makeError(path + ".name: expected a string, got " + describe(*it));
  out = it->get<std::string>();
  if (out.empty()) return makeError(path + ".name: a dim name must not be empty");
  return {};
}

} // namespace

Expected<LinearLayout> layoutFromJson(const json& j) {
  if (!j.is_object()) return makeError("expected a layout JSON object, got " + describe(j));
  auto ins = j.find("inDims"), outs = j.find("outDims");
  if (ins == j.end()) return makeError("missing field \"inDims\"");
  if (outs == j.end()) return makeError("missing field \"outDims\"");
  if (!ins->is_array()) return makeError("inDims: expected an array, got " + describe(*ins));
  if (!outs->is_array()) return makeError("outDims: expected an array, got " + describe(*outs));
  const uint64_t maxDims = resourceLimits().maxDims;
  if (ins->size() + outs->size() > maxDims)
    return makeError("the layout has " + std::to_string(ins->size()) + " in-dims and " +
                     std::to_string(outs->size()) + " out-dims; the limit is " +
                     std::to_string(maxDims) + " dims in all (raise it with LAYOUT_MAX_DIMS)");
  DimNameSet seenOut, seenIn; // linear in the number of dims

  std::vector<DimSize> outDims;
  for (size_t i = 0; i < outs->size(); ++i) {
    const json& o = (*outs)[i];
    std::string path = "outDims[" + std::to_string(i) + "]";
    if (!o.is_object()) return makeError(path + ": expected an object, got " + describe(o));
    std::string name;
    if (auto err = readName(o, path, name); !err) return err.error();
    auto size = o.find("size");
    if (size == o.end()) return makeError(path + ": missing field \"size\"");
    uint64_t s = 0;
    if (auto err = readUnsigned(*size, path + ".size", s); !err) return err.error();
    if (!std::has_single_bit(s))
      return makeError(path + ".size: " + std::to_string(s) + " is not a power of two");
    DimName dn(name);
    if (!seenOut.insert(dn))
      return makeError(path + ".name: duplicate out-dim " + layout::detail::quoteInput(name));
    outDims.push_back({dn, s});
  }

  std::vector<InDimBases> inDims;
  for (size_t i = 0; i < ins->size(); ++i) {
    const json& d = (*ins)[i];
    std::string path = "inDims[" + std::to_string(i) + "]";
    if (!d.is_object()) return makeError(path + ": expected an object, got " + describe(d));
    std::string name;
    if (auto err = readName(d, path, name); !err) return err.error();
    DimName dn(name);
    if (!seenIn.insert(dn))
      return makeError(path + ".name: duplicate in-dim " + layout::detail::quoteInput(name));
    auto bases = d.find("bases");
    if (bases == d.end()) return makeError(path + ": missing field \"bases\"");
    if (!bases->is_array())
      return makeError(path + ".bases: expected an array, got " + describe(*bases));
    if (bases->size() > size_t(LinearLayout::kMaxDimSizeLog2))
      return makeError(path + ".bases: " + std::to_string(bases->size()) +
                       " bases exceed the limit of 63 (a dim holds at most 2^63 elements)");
    InDimBases in{dn, {}};
    for (size_t b = 0; b < bases->size(); ++b) {
      const json& basis = (*bases)[b];
      std::string bpath = path + ".bases[" + std::to_string(b) + "]";
      if (!basis.is_array())
        return makeError(bpath + ": expected an array of components, got " + describe(basis));
      if (basis.size() != outDims.size())
        return makeError(bpath + ": has " + std::to_string(basis.size()) +
                         " components; expected one per out-dim (" +
                         std::to_string(outDims.size()) + ")");
      std::vector<uint64_t> comps;
      for (size_t c = 0; c < basis.size(); ++c) {
        uint64_t v = 0;
        std::string cpath = bpath + "[" + std::to_string(c) + "]";
        if (auto err = readUnsigned(basis[c], cpath, v); !err) return err.error();
        if (v >= outDims[c].size)
          return makeError(cpath + ": component " + std::to_string(v) +
                           " must be less than the size " + std::to_string(outDims[c].size) +
                           " of out-dim " +
                           layout::detail::quoteInput(std::string(outDims[c].name.str())));
        comps.push_back(v);
      }
      in.bases.push_back(std::move(comps));
    }
    inDims.push_back(std::move(in));
  }
  return LinearLayout::create(inDims, outDims);
}

Expected<LinearLayout> parseLayoutJson(std::string_view text) {
  LAYOUT_TRY_ASSIGN(j, detail::parseJsonText(text));
  return layoutFromJson(j);
}

nlohmann::ordered_json layoutToJson(const LinearLayout& l) {
  nlohmann::ordered_json ins = nlohmann::ordered_json::array();
  for (const InDimBases& d : l.inDims()) {
    nlohmann::ordered_json bases = nlohmann::ordered_json::array();
    for (const auto& b : d.bases) bases.push_back(b);
    ins.push_back({{"name", std::string(d.name.str())}, {"bases", std::move(bases)}});
  }
  nlohmann::ordered_json outs = nlohmann::ordered_json::array();
  for (const DimSize& o : l.outDims())
    outs.push_back({{"name", std::string(o.name.str())}, {"size", o.size}});
  nlohmann::ordered_json j;
  j["inDims"] = std::move(ins);
  j["outDims"] = std::move(outs);
  j["surjective"] = l.isSurjective();
  return j;
}

uint64_t layoutJsonValueCount(const LinearLayout& l) {
  // The root, "inDims", "outDims", "surjective"; per in-dim its object, name and bases list, and
  // per basis its list and one number per out-dim; per out-dim its object, name and size.
  const uint64_t outs = uint64_t(l.numOutDims());
  uint64_t values = 4 + 3 * outs;
  for (int d = 0; d < l.numInDims(); ++d) values += 3 + uint64_t(l.inDimSizeLog2(d)) * (1 + outs);
  return values;
}

Expected<void> checkLayoutJsonSize(const LinearLayout& l) {
  const uint64_t limit = resourceLimits().maxJsonValues;
  if (const uint64_t values = layoutJsonValueCount(l); values > limit)
    return makeError("the resulting layout (" + std::to_string(l.totalInDimSizeLog2()) +
                     " in bits, " + std::to_string(l.numOutDims()) + " out-dims) takes " +
                     std::to_string(values) + " JSON values; the limit is " + describeLimit(limit) +
                     ", as for any JSON input (raise it with " + "LAYOUT_MAX_JSON_VALUES)");
  return {};
}

std::string printLayoutJson(const LinearLayout& l, int indent) {
  return layoutToJson(l).dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

} // namespace layout
