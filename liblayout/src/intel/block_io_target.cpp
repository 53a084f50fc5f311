// 2D block I/O target descriptions: the built-in ones are the "blockIo" sections of the hardware
// targets (layout/target/hardware_target.h), read by the same parser as user-supplied rules, so
// both paths enforce the same field rules.
#include "layout/intel/block_io.h"

#include "layout/core/element_bits.h"
#include "layout/target/hardware_target.h"

#include "layout/text/internal/json_fields.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <initializer_list>

namespace layout::intel {

using nlohmann::json;

namespace {

constexpr std::array<BlockOp, 3> kOps = {BlockOp::Load, BlockOp::Store, BlockOp::Prefetch};

using detail::describeJson;
using detail::findField;
using detail::joinPath;

Expected<void> checkObject(const json& j, const std::string& path,
                           std::initializer_list<std::string_view> known) {
  return detail::checkObjectKeys(j, path, known, "target");
}

template <typename Int>
Expected<void> readInt(const json& obj, const std::string& path, std::string_view key, int64_t lo,
                       int64_t hi, Int& out) {
  return detail::readIntField(obj, path, key, lo, hi, out);
}

Expected<void> requirePow2(int64_t v, const std::string& path) {
  return detail::requirePowerOfTwo(v, path);
}

// {"load": n, "store": n, "prefetch": n}
Expected<void> readPerOp(const json& obj, const std::string& path, std::string_view key, int64_t hi,
                         std::array<int, 3>& out) {
  const json* v = findField(obj, key);
  std::string p = joinPath(path, key);
  if (!v) return makeError(p + ": missing field");
  if (auto e = checkObject(*v, p, {"load", "store", "prefetch"}); !e) return e;
  for (BlockOp op : kOps)
    if (auto e = readInt(*v, p, blockOpName(op), 1, hi, out[static_cast<int>(op)]); !e) return e;
  return {};
}

// Far above any hardware's rows / columns / blocks, and small enough that a GRF image of the
// largest legal shape stays a few megabytes.
constexpr int64_t kMaxShapeField = 256;
constexpr int64_t kMaxRowBytes = 4096;

Expected<void> readElement(const json& j, const std::string& path, BlockElementRule& out) {
  if (auto e = checkObject(
          j, path, {"elemBits", "minTileWidth", "maxTileWidth", "maxBlocks", "transpose", "vnni"});
      !e)
    return e;
  if (auto e = readInt(j, path, "elemBits", 8, 64, out.elemBits); !e) return e;
  if (!isElementBits(out.elemBits))
    return makeError(joinPath(path, "elemBits") + ": " + std::to_string(out.elemBits) +
                     " is not one of 8, 16, 32, 64");
  if (auto e = readInt(j, path, "minTileWidth", 1, kMaxShapeField, out.minTileWidth); !e) return e;
  if (auto e = readInt(j, path, "maxTileWidth", 1, kMaxShapeField, out.maxTileWidth); !e) return e;
  if (out.maxTileWidth < out.minTileWidth)
    return makeError(joinPath(path, "maxTileWidth") + ": " + std::to_string(out.maxTileWidth) +
                     " is below minTileWidth " + std::to_string(out.minTileWidth));
  if (auto e = readPerOp(j, path, "maxBlocks", kMaxShapeField, out.maxBlocks); !e) return e;
  if (const json* t = findField(j, "transpose")) {
    std::string p = joinPath(path, "transpose");
    if (auto e = checkObject(*t, p, {"maxTileWidth", "requiredTileHeight", "maxBlocks"}); !e)
      return e;
    BlockTransposeRule rule;
    if (auto e = readInt(*t, p, "maxTileWidth", 1, kMaxShapeField, rule.maxTileWidth); !e) return e;
    if (findField(*t, "requiredTileHeight")) {
      if (auto e = readInt(*t, p, "requiredTileHeight", 1, kMaxShapeField, rule.requiredTileHeight);
          !e)
        return e;
      if (auto e = requirePow2(rule.requiredTileHeight, joinPath(p, "requiredTileHeight")); !e)
        return e;
    }
    if (auto e = readInt(*t, p, "maxBlocks", 1, kMaxShapeField, rule.maxBlocks); !e) return e;
    out.transpose = rule;
  }
  if (const json* v = findField(j, "vnni")) {
    std::string p = joinPath(path, "vnni");
    if (auto e = checkObject(*v, p, {"minTileHeight"}); !e) return e;
    if (out.elemBits >= 32)
      return makeError(p + ": VNNI packs 8- or 16-bit elements into dwords, not " +
                       std::to_string(out.elemBits) + "-bit ones");
    BlockVnniRule rule;
    if (auto e = readInt(*v, p, "minTileHeight", 1, kMaxShapeField, rule.minTileHeight); !e)
      return e;
    // Rows shorter than one dword group would need padding the executors do not model.
    if (rule.minTileHeight < 32 / out.elemBits)
      return makeError(joinPath(p, "minTileHeight") + ": " + std::to_string(rule.minTileHeight) +
                       " is below the " + std::to_string(32 / out.elemBits) +
                       " rows of one dword of " + std::to_string(out.elemBits) + "-bit elements");
    out.vnni = rule;
  }
  return {};
}

Expected<void> readSurface(const json& j, const std::string& path, BlockSurfaceRule& out) {
  if (auto e = checkObject(j, path,
                           {"minWidthBytes", "maxWidthBytes", "widthMultipleBytes", "maxHeight",
                            "minPitchBytes", "maxPitchBytes", "pitchMultipleBytes",
                            "baseAlignmentBytes", "xMultipleBytes"});
      !e)
    return e;
  // Row * pitch must not overflow 64 bits in the executors.
  constexpr int64_t kHi = int64_t{1} << 31;
  if (auto e = readInt(j, path, "minWidthBytes", 1, kHi, out.minWidthBytes); !e) return e;
  if (auto e = readInt(j, path, "maxWidthBytes", 1, kHi, out.maxWidthBytes); !e) return e;
  if (auto e = readInt(j, path, "widthMultipleBytes", 1, kHi, out.widthMultipleBytes); !e) return e;
  if (auto e = readInt(j, path, "maxHeight", 1, kHi, out.maxHeight); !e) return e;
  if (auto e = readInt(j, path, "minPitchBytes", 1, kHi, out.minPitchBytes); !e) return e;
  if (auto e = readInt(j, path, "maxPitchBytes", 1, kHi, out.maxPitchBytes); !e) return e;
  if (auto e = readInt(j, path, "pitchMultipleBytes", 1, kHi, out.pitchMultipleBytes); !e) return e;
  if (auto e = readInt(j, path, "baseAlignmentBytes", 1, kHi, out.baseAlignmentBytes); !e) return e;
  if (auto e = readInt(j, path, "xMultipleBytes", 1, kHi, out.xMultipleBytes); !e) return e;
  if (out.maxWidthBytes < out.minWidthBytes)
    return makeError(joinPath(path, "maxWidthBytes") + ": below minWidthBytes");
  if (out.maxPitchBytes < out.minPitchBytes)
    return makeError(joinPath(path, "maxPitchBytes") + ": below minPitchBytes");
  return {};
}

// The rules of a hardware target: its "blockIo" section with the target's name, subgroup size and
// register size.
Expected<BlockIoTarget> rulesOf(const target::HardwareTarget& hw) {
  if (!hw.blockIo)
    return makeError("target '" + hw.name + "' has no 2D block I/O (targets with it: " + [] {
      std::string s;
      for (const std::string& name : blockIoTargetNames()) s += (s.empty() ? "" : ", ") + name;
      return s;
    }() + ")");
  json j = *hw.blockIo;
  if (!j.is_object()) return makeError("blockIo: expected an object, got " + describeJson(j));
  for (const char* key : {"name", "subgroupSize", "grfBytes"})
    if (j.contains(key))
      return makeError(std::string("blockIo.") + key +
                       ": given by the target, not by its blockIo " + "section");
  j["name"] = hw.name;
  j["subgroupSize"] = hw.subgroupSize;
  j["grfBytes"] = hw.registers.registerBytes;
  auto t = blockIoTargetFromJson(j);
  if (!t) return withContext(t.error(), "blockIo");
  return t;
}

// The target layer's check of a user description's "blockIo" section (hardware_target.h): the
// rules rulesOf reads, so `layoutctl targets @FILE` refuses what blockload would.
Expected<void> checkBlockIoSection(const target::HardwareTarget& hw) {
  if (!hw.blockIo) return {};
  auto t = rulesOf(hw);
  if (!t) return t.error();
  return {};
}

[[maybe_unused]] const bool kBlockIoCheckRegistered =
    (target::registerSectionCheck(checkBlockIoSection), true);

} // namespace

std::string_view blockOpName(BlockOp op) {
  switch (op) {
  case BlockOp::Load:
    return "load";
  case BlockOp::Store:
    return "store";
  case BlockOp::Prefetch:
    return "prefetch";
  }
  return "?";
}

const BlockElementRule* BlockIoTarget::element(int elemBits) const {
  for (const BlockElementRule& e : elements)
    if (e.elemBits == elemBits) return &e;
  return nullptr;
}

Expected<BlockIoTarget> blockIoTarget(std::string_view name) {
  // The built-in targets' rules are read once: planners and the simulator look them up per call.
  static const std::vector<BlockIoTarget> builtin = [] {
    std::vector<BlockIoTarget> out;
    for (const auto& hw : target::builtinTargets())
      if (auto t = rulesOf(hw)) out.push_back(std::move(*t));
    return out;
  }();
  for (const BlockIoTarget& t : builtin)
    if (t.name == name) return t;
  LAYOUT_TRY_ASSIGN(hw, target::hardwareTarget(name));
  return blockIoTarget(hw);
}

Expected<BlockIoTarget> blockIoTarget(const target::HardwareTarget& hw) {
  return rulesOf(hw);
}

std::vector<std::string> blockIoTargetNames() {
  std::vector<std::string> names;
  for (const auto& t : target::builtinTargets())
    if (t.blockIo) names.push_back(t.name);
  return names;
}

Expected<BlockIoTarget> blockIoTargetFromJson(const json& j) {
  if (auto e = checkObject(j, "",
                           {"name", "subgroupSize", "grfBytes", "maxTileHeight", "maxRowBytes",
                            "elements", "surface"});
      !e)
    return e.error();
  BlockIoTarget t;
  const json* name = findField(j, "name");
  if (!name) return makeError("name: missing field");
  if (!name->is_string()) return makeError("name: expected a string, got " + describeJson(*name));
  t.name = name->get<std::string>();
  if (t.name.empty()) return makeError("name: must not be empty");
  if (auto e = readInt(j, "", "subgroupSize", 1, 1024, t.subgroupSize); !e) return e.error();
  if (auto e = requirePow2(t.subgroupSize, "subgroupSize"); !e) return e.error();
  if (auto e = readInt(j, "", "grfBytes", 8, 4096, t.grfBytes); !e) return e.error();
  if (auto e = requirePow2(t.grfBytes, "grfBytes"); !e) return e.error();
  if (auto e = readPerOp(j, "", "maxTileHeight", kMaxShapeField, t.maxTileHeight); !e)
    return e.error();
  if (auto e = readPerOp(j, "", "maxRowBytes", kMaxRowBytes, t.maxRowBytes); !e) return e.error();

  const json* elements = findField(j, "elements");
  if (!elements) return makeError("elements: missing field");
  if (!elements->is_array() || elements->empty())
    return makeError("elements: expected a non-empty array, got " + describeJson(*elements));
  for (size_t i = 0; i < elements->size(); ++i) {
    std::string path = "elements[" + std::to_string(i) + "]";
    BlockElementRule rule;
    if (auto e = readElement((*elements)[i], path, rule); !e) return e.error();
    if (!t.elements.empty() && t.elements.back().elemBits >= rule.elemBits)
      return makeError(path + ".elemBits: " + std::to_string(rule.elemBits) +
                       " must be greater than the previous entry's " +
                       std::to_string(t.elements.back().elemBits) + " (ascending, no repeats)");
    t.elements.push_back(rule);
  }

  const json* surface = findField(j, "surface");
  if (!surface) return makeError("surface: missing field");
  if (auto e = readSurface(*surface, "surface", t.surface); !e) return e.error();
  return t;
}

nlohmann::ordered_json blockIoTargetToJson(const BlockIoTarget& t) {
  using oj = nlohmann::ordered_json;
  auto perOp = [](const std::array<int, 3>& v) {
    oj o = oj::object();
    for (BlockOp op : kOps) o[std::string(blockOpName(op))] = v[static_cast<int>(op)];
    return o;
  };
  oj out = oj::object();
  out["name"] = t.name;
  out["subgroupSize"] = t.subgroupSize;
  out["grfBytes"] = t.grfBytes;
  out["maxTileHeight"] = perOp(t.maxTileHeight);
  out["maxRowBytes"] = perOp(t.maxRowBytes);
  oj elements = oj::array();
  for (const BlockElementRule& e : t.elements) {
    oj o = oj::object();
    o["elemBits"] = e.elemBits;
    o["minTileWidth"] = e.minTileWidth;
    o["maxTileWidth"] = e.maxTileWidth;
    o["maxBlocks"] = perOp(e.maxBlocks);
    if (e.transpose) {
      oj tr = oj::object();
      tr["maxTileWidth"] = e.transpose->maxTileWidth;
      if (e.transpose->requiredTileHeight)
        tr["requiredTileHeight"] = e.transpose->requiredTileHeight;
      tr["maxBlocks"] = e.transpose->maxBlocks;
      o["transpose"] = tr;
    }
    if (e.vnni) o["vnni"] = oj{{"minTileHeight", e.vnni->minTileHeight}};
    elements.push_back(o);
  }
  out["elements"] = elements;
  const BlockSurfaceRule& s = t.surface;
  out["surface"] =
      oj{{"minWidthBytes", s.minWidthBytes},           {"maxWidthBytes", s.maxWidthBytes},
         {"widthMultipleBytes", s.widthMultipleBytes}, {"maxHeight", s.maxHeight},
         {"minPitchBytes", s.minPitchBytes},           {"maxPitchBytes", s.maxPitchBytes},
         {"pitchMultipleBytes", s.pitchMultipleBytes}, {"baseAlignmentBytes", s.baseAlignmentBytes},
         {"xMultipleBytes", s.xMultipleBytes}};
  return out;
}

} // namespace layout::intel
