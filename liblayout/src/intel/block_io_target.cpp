// 2D block I/O target descriptions: the built-in ones are JSON text read by the same parser as
// user-supplied targets, so both paths enforce the same field rules.
#include "layout/intel/block_io.h"

#include "layout/text/json_fields.h"

#include <algorithm>
#include <bit>
#include <initializer_list>

namespace layout::intel {

using nlohmann::json;

namespace {

// Limits from docs/reference/intel-xe.md §2.2 (Triton's TritonGEN verifier and runtime asserts)
// and §3.1 (SPIR-V / OpenCL restrictions). PVC and BMG share them: the sources give no difference
// (256-byte prefetch rows exist only where a module reports support_prefetch_256b; the part is not
// named, so both keep 64). 32-bit prefetch keeps 2 blocks, as the OpenCL shape table lists.
// One description serves both: kSameLimits names the targets that are copies of "pvc".
constexpr const char* kBuiltinTargets = R"json([
{
  "name": "pvc", "subgroupSize": 16, "grfBytes": 64,
  "maxTileHeight": {"load": 32, "store": 8, "prefetch": 32},
  "maxRowBytes": {"load": 64, "store": 64, "prefetch": 64},
  "elements": [
    {"elemBits": 8, "minTileWidth": 4, "maxTileWidth": 64,
     "maxBlocks": {"load": 4, "store": 1, "prefetch": 4}, "vnni": {"minTileHeight": 4}},
    {"elemBits": 16, "minTileWidth": 2, "maxTileWidth": 32,
     "maxBlocks": {"load": 4, "store": 1, "prefetch": 4}, "vnni": {"minTileHeight": 2}},
    {"elemBits": 32, "minTileWidth": 1, "maxTileWidth": 16,
     "maxBlocks": {"load": 2, "store": 1, "prefetch": 2},
     "transpose": {"maxTileWidth": 8, "maxBlocks": 1}},
    {"elemBits": 64, "minTileWidth": 1, "maxTileWidth": 8,
     "maxBlocks": {"load": 1, "store": 1, "prefetch": 1},
     "transpose": {"maxTileWidth": 4, "requiredTileHeight": 8, "maxBlocks": 1}}
  ],
  "surface": {"minWidthBytes": 64, "maxWidthBytes": 16777216, "widthMultipleBytes": 4,
              "maxHeight": 16777216, "minPitchBytes": 64, "maxPitchBytes": 16777216,
              "pitchMultipleBytes": 16, "baseAlignmentBytes": 64, "xMultipleBytes": 4}
}
])json";

constexpr std::array<const char*, 1> kSameLimits = {"bmg"};

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
  if (out.elemBits != 8 && out.elemBits != 16 && out.elemBits != 32 && out.elemBits != 64)
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

const std::vector<BlockIoTarget>& builtinTargets() {
  static const std::vector<BlockIoTarget> targets = [] {
    std::vector<BlockIoTarget> out;
    for (const json& j : json::parse(kBuiltinTargets)) {
      auto t = blockIoTargetFromJson(j);
      assert(t && "built-in block I/O target must parse");
      out.push_back(std::move(*t));
    }
    for (const char* name : kSameLimits) {
      BlockIoTarget copy = out.front();
      copy.name = name;
      out.push_back(std::move(copy));
    }
    return out;
  }();
  return targets;
}

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

Expected<BlockIoTarget> blockIoTarget(std::string_view name) {
  std::string known;
  for (const BlockIoTarget& t : builtinTargets()) {
    if (t.name == name) return t;
    known += (known.empty() ? "" : ", ") + t.name;
  }
  return makeError("unknown block I/O target '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> blockIoTargetNames() {
  std::vector<std::string> out;
  for (const BlockIoTarget& t : builtinTargets()) out.push_back(t.name);
  return out;
}

} // namespace layout::intel
