// Intel Xe 2D block I/O: targets, validation, JSON, and the reference executors. Expected values
// are transcribed by hand from docs/reference/intel-xe.md (§2.2 limits, §3.1 semantics and
// worked examples, §2.4 emitter examples); the random tests compare loadPerWorkItem with an
// element-by-element model written from the §3.1 prose.
#include "layout/intel/block_io.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace layout::intel;

#define ASSERT_OK(e) ASSERT_TRUE((e).ok()) << (e).error().message

BlockIoTarget target(const char* name) {
  auto t = blockIoTarget(name);
  EXPECT_TRUE(t.ok());
  return *t;
}

BlockShape shape(int bits, int w, int h, int nb = 1, bool transpose = false, bool vnni = false) {
  return BlockShape{bits, w, h, nb, transpose, vnni};
}

Surface surface(int64_t widthBytes, int64_t height, int64_t pitchBytes, uint64_t base = 0) {
  return Surface{base, widthBytes, height, pitchBytes};
}

// Error message of a shape check, "" when legal.
std::string shapeError(const BlockIoTarget& t, BlockOp op, const BlockShape& s) {
  auto e = validateBlockShape(t, op, s);
  return e ? "" : e.error().message;
}

std::string requestError(const BlockIoTarget& t, const BlockIoRequest& r) {
  auto e = validateBlockIo(t, r);
  return e ? "" : e.error().message;
}

// A host buffer holding one surface, with little-endian element access in surface coordinates.
struct Memory {
  Surface s;
  int bits;
  std::vector<uint8_t> bytes;

  Memory(Surface s_, int bits_, uint64_t slack = 64) : s(s_), bits(bits_) {
    bytes.resize(s.baseAddress + static_cast<uint64_t>(s.height * s.pitchBytes) + slack);
  }
  uint64_t addr(int64_t r, int64_t c) const {
    return s.baseAddress + static_cast<uint64_t>(r * s.pitchBytes + c * (bits / 8));
  }
  uint64_t get(int64_t r, int64_t c) const {
    uint64_t v = 0;
    for (int i = 0; i < bits / 8; ++i) v |= uint64_t{bytes[addr(r, c) + i]} << (8 * i);
    return v;
  }
  void set(int64_t r, int64_t c, uint64_t v) {
    for (int i = 0; i < bits / 8; ++i) bytes[addr(r, c) + i] = static_cast<uint8_t>(v >> (8 * i));
  }
  // Every in-surface element gets a value that names it (row, col), truncated to the element.
  void fillCoords() {
    for (int64_t r = 0; r < s.height; ++r)
      for (int64_t c = 0; c < s.widthBytes / (bits / 8); ++c) set(r, c, mark(r, c));
  }
  uint64_t mark(int64_t r, int64_t c) const {
    uint64_t v = (uint64_t(r) << 8 | uint64_t(c)) ^ 0x5a00;
    if (bits == 8) v = (uint64_t(r) * 131 + uint64_t(c) * 7 + 1) & 0xff;
    if (bits >= 32) v |= uint64_t(0xabc) << 20;
    return bits == 64 ? v : v & ((uint64_t{1} << bits) - 1);
  }
  void fillRandom(std::mt19937_64& rng) {
    for (auto& b : bytes) b = static_cast<uint8_t>(rng());
  }
};

BlockIoRequest load(BlockShape s, Surface surf, int64_t x = 0, int64_t y = 0) {
  return BlockIoRequest{BlockOp::Load, s, surf, x, y};
}

std::vector<std::vector<uint64_t>> lanesOf(const BlockIoTarget& t, const BlockIoRequest& r,
                                           const Memory& m) {
  auto lanes = loadPerWorkItem(t, r, m.bytes);
  EXPECT_TRUE(lanes.ok()) << (lanes.ok() ? "" : lanes.error().message);
  return lanes.ok() ? *lanes : std::vector<std::vector<uint64_t>>{};
}

// =================================================================================================
// Targets and their data (§2.2, §4.4)

TEST(BlockIoTarget, BuiltinTargetsCarryTheReferenceLimits) {
  for (const char* name : {"pvc", "bmg"}) {
    SCOPED_TRACE(name);
    BlockIoTarget t = target(name);
    EXPECT_EQ(t.name, name);
    EXPECT_EQ(t.subgroupSize, 16);
    EXPECT_EQ(t.grfBytes, 64);
    ASSERT_EQ(t.elements.size(), 4u);
    EXPECT_EQ(t.maxTileHeight[int(BlockOp::Load)], 32);
    EXPECT_EQ(t.maxTileHeight[int(BlockOp::Store)], 8);
    EXPECT_EQ(t.maxTileHeight[int(BlockOp::Prefetch)], 32);
    for (int op = 0; op < 3; ++op) EXPECT_EQ(t.maxRowBytes[op], 64);
    ASSERT_NE(t.element(8), nullptr);
    EXPECT_EQ(t.element(8)->minTileWidth, 4);
    EXPECT_EQ(t.element(16)->minTileWidth, 2);
    EXPECT_EQ(t.element(8)->maxTileWidth, 64);
    EXPECT_EQ(t.element(16)->maxTileWidth, 32);
    EXPECT_EQ(t.element(32)->maxTileWidth, 16);
    EXPECT_EQ(t.element(64)->maxTileWidth, 8);
    EXPECT_EQ(t.element(32)->maxBlocks[int(BlockOp::Load)], 2);
    EXPECT_EQ(t.element(64)->maxBlocks[int(BlockOp::Load)], 1);
    EXPECT_EQ(t.element(16)->maxBlocks[int(BlockOp::Store)], 1);
    EXPECT_FALSE(t.element(8)->transpose.has_value());
    EXPECT_FALSE(t.element(16)->transpose.has_value());
    EXPECT_EQ(t.element(32)->transpose->maxTileWidth, 8);
    EXPECT_EQ(t.element(64)->transpose->maxTileWidth, 4);
    EXPECT_EQ(t.element(64)->transpose->requiredTileHeight, 8);
    EXPECT_EQ(t.element(8)->vnni->minTileHeight, 4);
    EXPECT_EQ(t.element(16)->vnni->minTileHeight, 2);
    EXPECT_FALSE(t.element(32)->vnni.has_value());
    EXPECT_EQ(t.element(12), nullptr);
    EXPECT_EQ(t.surface.baseAlignmentBytes, 64);
    EXPECT_EQ(t.surface.minWidthBytes, 64);
    EXPECT_EQ(t.surface.maxWidthBytes, 1 << 24);
    EXPECT_EQ(t.surface.maxHeight, 1 << 24);
    EXPECT_EQ(t.surface.pitchMultipleBytes, 16);
  }
  EXPECT_EQ(blockIoTargetNames(), (std::vector<std::string>{"pvc", "bmg"}));
}

TEST(BlockIoTarget, UnknownNameIsAnError) {
  auto t = blockIoTarget("dg3");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message,
            "unknown target 'dg3' (known: pvc, bmg, arc, nvidia, cdna3, cdna4, or @file.json)");
  // A hardware target without 2D block I/O (DG2 has none, docs/reference/intel-xe.md §4.4).
  auto arc = blockIoTarget("arc");
  ASSERT_FALSE(arc.ok());
  EXPECT_EQ(arc.error().message, "target 'arc' has no 2D block I/O (targets with it: pvc, bmg)");
}

// =================================================================================================
// JSON

TEST(BlockIoJson, RoundTripOfEveryBuiltinTarget) {
  for (const std::string& name : blockIoTargetNames()) {
    BlockIoTarget t = target(name.c_str());
    auto j = blockIoTargetToJson(t);
    auto back = blockIoTargetFromJson(nlohmann::json::parse(j.dump()));
    ASSERT_OK(back);
    EXPECT_EQ(blockIoTargetToJson(*back), j);
  }
}

TEST(BlockIoJson, ACustomTargetChangesTheRules) {
  auto j = nlohmann::json::parse(blockIoTargetToJson(target("pvc")).dump());
  j["name"] = "xe-256b-prefetch";
  j["maxRowBytes"]["prefetch"] = 256;
  auto t = blockIoTargetFromJson(j);
  ASSERT_OK(t);
  EXPECT_EQ(t->name, "xe-256b-prefetch");
  // 8-bit 64 wide x 4 blocks = 256 bytes per row.
  EXPECT_EQ(shapeError(*t, BlockOp::Prefetch, shape(8, 64, 8, 4)), "");
  EXPECT_EQ(shapeError(target("pvc"), BlockOp::Prefetch, shape(8, 64, 8, 4)),
            "tileWidth 64 x numBlocks 4 x 8-bit = 256 bytes exceeds the 64-byte row limit of a "
            "prefetch");
}

TEST(BlockIoJson, ErrorsNameThePath) {
  auto base = nlohmann::json::parse(blockIoTargetToJson(target("pvc")).dump());
  auto err = [&](auto edit) {
    nlohmann::json j = base;
    edit(j);
    auto t = blockIoTargetFromJson(j);
    return t.ok() ? std::string() : t.error().message;
  };
  EXPECT_EQ(err([](auto&) {}), "");
  EXPECT_EQ(blockIoTargetFromJson(nlohmann::json::array()).error().message,
            "target: expected an object, got an array");
  EXPECT_EQ(err([](auto& j) { j.erase("name"); }), "name: missing field");
  EXPECT_EQ(err([](auto& j) { j["name"] = 3; }), "name: expected a string, got 3");
  EXPECT_EQ(err([](auto& j) { j["name"] = ""; }), "name: must not be empty");
  EXPECT_EQ(err([](auto& j) { j["subgroupSize"] = 12; }), "subgroupSize: 12 is not a power of two");
  EXPECT_EQ(err([](auto& j) { j["subgroupSize"] = "16"; }),
            "subgroupSize: expected an integer, got a string");
  EXPECT_EQ(err([](auto& j) { j["grfBytes"] = 0; }), "grfBytes: 0 is outside [8, 4096]");
  EXPECT_EQ(err([](auto& j) { j["colour"] = 1; }), "colour: unknown field");
  EXPECT_EQ(err([](auto& j) { j["maxTileHeight"].erase("store"); }),
            "maxTileHeight.store: missing field");
  EXPECT_EQ(err([](auto& j) { j["maxRowBytes"]["load"] = -64; }),
            "maxRowBytes.load: -64 is outside [1, 4096]");
  EXPECT_EQ(err([](auto& j) { j["elements"] = nlohmann::json::array(); }),
            "elements: expected a non-empty array, got an array");
  EXPECT_EQ(err([](auto& j) { j["elements"][1]["maxBlocks"]["store"] = 1.5; }),
            "elements[1].maxBlocks.store: expected an integer, got a non-integer number");
  EXPECT_EQ(err([](auto& j) { j["elements"][2]["elemBits"] = 24; }),
            "elements[2].elemBits: 24 is not one of 8, 16, 32, 64");
  EXPECT_EQ(err([](auto& j) { j["elements"][2]["elemBits"] = 16; }),
            "elements[2].elemBits: 16 must be greater than the previous entry's 16 (ascending, no "
            "repeats)");
  EXPECT_EQ(err([](auto& j) { j["elements"][0]["maxTileWidth"] = 2; }),
            "elements[0].maxTileWidth: 2 is below minTileWidth 4");
  EXPECT_EQ(err([](auto& j) {
              j["elements"][2]["vnni"] = {{"minTileHeight", 1}};
            }),
            "elements[2].vnni: VNNI packs 8- or 16-bit elements into dwords, not 32-bit ones");
  EXPECT_EQ(err([](auto& j) { j["elements"][0]["vnni"]["minTileHeight"] = 2; }),
            "elements[0].vnni.minTileHeight: 2 is below the 4 rows of one dword of 8-bit "
            "elements");
  EXPECT_EQ(err([](auto& j) { j["elements"][3]["transpose"]["requiredTileHeight"] = 6; }),
            "elements[3].transpose.requiredTileHeight: 6 is not a power of two");
  EXPECT_EQ(err([](auto& j) { j["elements"][3]["transpose"]["flip"] = true; }),
            "elements[3].transpose.flip: unknown field");
  EXPECT_EQ(err([](auto& j) { j["surface"].erase("pitchMultipleBytes"); }),
            "surface.pitchMultipleBytes: missing field");
  EXPECT_EQ(err([](auto& j) { j["surface"]["maxWidthBytes"] = 32; }),
            "surface.maxWidthBytes: below minWidthBytes");
  EXPECT_EQ(err([](auto& j) { j["surface"] = 5; }), "surface: expected an object, got 5");
}

// =================================================================================================
// Validation: the shapes of the reference's tables are legal, each rule has its message.

TEST(BlockIoValidate, EveryShapeOfTheOpenClTableIsLegal) {
  // §3.1 "Supported shapes (O, SPIR-V environment table; SG16)".
  struct Row {
    BlockOp op;
    int bits;
    std::vector<int> widths, heights, blocks;
    bool transpose = false, vnni = false;
  };
  std::vector<int> h1to32 = {1, 2, 4, 8, 16, 32};
  std::vector<Row> rows = {
      {BlockOp::Load, 8, {32}, h1to32, {1, 2}},
      {BlockOp::Load, 8, {16}, {8, 16, 32}, {4}},
      {BlockOp::Load, 16, {16}, h1to32, {1, 2}},
      {BlockOp::Load, 32, {8}, h1to32, {1, 2}},
      {BlockOp::Load, 32, {16}, h1to32, {1}},
      {BlockOp::Load, 8, {16}, {32}, {1, 2, 4}, false, true},
      {BlockOp::Load, 16, {16}, {16, 32}, {1, 2}, false, true},
      {BlockOp::Load, 32, {8}, {16, 32}, {1}, true, false},
      {BlockOp::Store, 8, {16, 32}, {1, 2, 4, 8}, {1}},
      {BlockOp::Store, 16, {16}, {1, 2, 4, 8}, {1}},
      {BlockOp::Store, 32, {16}, {1, 2, 4, 8}, {1}},
      {BlockOp::Prefetch, 8, {32}, h1to32, {1, 2}},
      {BlockOp::Prefetch, 8, {16}, {32}, {1, 2}},
      {BlockOp::Prefetch, 8, {16}, {8, 16, 32}, {4}},
      {BlockOp::Prefetch, 16, {16}, h1to32, {1, 2}},
      {BlockOp::Prefetch, 32, {8}, h1to32, {1, 2}},
      {BlockOp::Prefetch, 32, {16}, h1to32, {1}},
  };
  // §2.2 / §3.1: the vISA / Triton path also takes d64 transpose H 8, W 1, 2, 4.
  rows.push_back({BlockOp::Load, 64, {1, 2, 4}, {8}, {1}, true, false});
  for (const char* name : {"pvc", "bmg"}) {
    BlockIoTarget t = target(name);
    for (const Row& row : rows)
      for (int w : row.widths)
        for (int h : row.heights)
          for (int nb : row.blocks) {
            BlockShape s = shape(row.bits, w, h, nb, row.transpose, row.vnni);
            EXPECT_EQ(shapeError(t, row.op, s), "")
                << name << " " << blockOpName(row.op) << " " << blockShapeName(s);
          }
  }
}

TEST(BlockIoValidate, ShapeRules) {
  BlockIoTarget t = target("pvc");
  auto L = BlockOp::Load, S = BlockOp::Store, P = BlockOp::Prefetch;
  EXPECT_EQ(shapeError(t, L, shape(12, 16, 8)),
            "elemBits 12 is not a supported element size on pvc (8, 16, 32, 64)");
  EXPECT_EQ(shapeError(t, L, shape(16, 12, 8)), "tileWidth 12 is not a positive power of two");
  EXPECT_EQ(shapeError(t, L, shape(16, 16, 0)), "tileHeight 0 is not a positive power of two");
  EXPECT_EQ(shapeError(t, L, shape(16, 16, 8, 3)), "numBlocks 3 is not a positive power of two");
  EXPECT_EQ(shapeError(t, L, shape(16, -16, 8)), "tileWidth -16 is not a positive power of two");
  // min tile width: 4 for 8-bit, 2 for 16-bit
  EXPECT_EQ(shapeError(t, L, shape(8, 2, 8)),
            "tileWidth 2 is below the minimum 4 for 8-bit elements");
  EXPECT_EQ(shapeError(t, L, shape(16, 1, 8)),
            "tileWidth 1 is below the minimum 2 for 16-bit elements");
  EXPECT_EQ(shapeError(t, L, shape(8, 4, 8)), "");
  EXPECT_EQ(shapeError(t, L, shape(32, 1, 8)), "");
  // 64-byte row, one block (the brief's example) or several
  EXPECT_EQ(shapeError(t, L, shape(16, 64, 8)),
            "tileWidth 64 x 16-bit = 128 bytes exceeds the 64-byte row limit of a load");
  EXPECT_EQ(shapeError(t, L, shape(8, 128, 8)),
            "tileWidth 128 x 8-bit = 128 bytes exceeds the 64-byte row limit of a load");
  EXPECT_EQ(shapeError(t, S, shape(64, 16, 8)),
            "tileWidth 16 x 64-bit = 128 bytes exceeds the 64-byte row limit of a store");
  // payload restriction (8: <= 64, 16: <= 32, 32: <= 16, 64: <= 8) binds under 256-byte rows
  auto j = nlohmann::json::parse(blockIoTargetToJson(t).dump());
  j["maxRowBytes"]["prefetch"] = 256;
  BlockIoTarget wide = *blockIoTargetFromJson(j);
  EXPECT_EQ(shapeError(wide, P, shape(8, 128, 8)),
            "tileWidth 128 exceeds the maximum 64 for 8-bit elements");
  EXPECT_EQ(shapeError(wide, P, shape(16, 64, 8)),
            "tileWidth 64 exceeds the maximum 32 for 16-bit elements");
  EXPECT_EQ(shapeError(wide, P, shape(32, 32, 8)),
            "tileWidth 32 exceeds the maximum 16 for 32-bit elements");
  EXPECT_EQ(shapeError(wide, P, shape(64, 16, 8)),
            "tileWidth 16 exceeds the maximum 8 for 64-bit elements");
  EXPECT_EQ(shapeError(wide, P, shape(8, 64, 8, 4)), "");
  // tile height <= 32 (load/prefetch), <= 8 (store)
  EXPECT_EQ(shapeError(t, L, shape(16, 16, 64)),
            "tileHeight 64 exceeds the 32-row limit of a load");
  EXPECT_EQ(shapeError(t, P, shape(16, 16, 64)),
            "tileHeight 64 exceeds the 32-row limit of a prefetch");
  EXPECT_EQ(shapeError(t, S, shape(16, 16, 16)),
            "tileHeight 16 exceeds the 8-row limit of a store");
  EXPECT_EQ(shapeError(t, S, shape(16, 16, 8)), "");
  // v_blocks <= 4; 32-bit <= 2; 64-bit = 1; store = 1
  EXPECT_EQ(shapeError(t, L, shape(8, 4, 8, 8)),
            "numBlocks 8 exceeds the limit of 4 for a load of 8-bit elements");
  EXPECT_EQ(shapeError(t, L, shape(32, 4, 8, 4)),
            "numBlocks 4 exceeds the limit of 2 for a load of 32-bit elements");
  EXPECT_EQ(shapeError(t, L, shape(64, 2, 8, 2)),
            "numBlocks 2 exceeds the limit of 1 for a load of 64-bit elements");
  EXPECT_EQ(shapeError(t, S, shape(16, 16, 8, 2)),
            "numBlocks 2 exceeds the limit of 1 for a store of 16-bit elements");
  // 64-byte row
  EXPECT_EQ(shapeError(t, L, shape(16, 32, 8, 2)),
            "tileWidth 32 x numBlocks 2 x 16-bit = 128 bytes exceeds the 64-byte row limit of a "
            "load");
  EXPECT_EQ(shapeError(t, L, shape(32, 16, 8, 2)),
            "tileWidth 16 x numBlocks 2 x 32-bit = 128 bytes exceeds the 64-byte row limit of a "
            "load");
  EXPECT_EQ(shapeError(t, L, shape(16, 32, 8)), "");
  EXPECT_EQ(shapeError(t, L, shape(8, 64, 8)), "");
  // transpose: only 32/64-bit, loads, one block, d32 W <= 8, d64 H == 8 and W <= 4
  EXPECT_EQ(shapeError(t, L, shape(32, 8, 16, 1, true, true)),
            "transpose and vnni are mutually exclusive");
  EXPECT_EQ(shapeError(t, S, shape(32, 8, 8, 1, true)),
            "transpose applies to loads only, not to a store");
  EXPECT_EQ(shapeError(t, P, shape(32, 8, 8, 1, true)),
            "transpose applies to loads only, not to a prefetch");
  EXPECT_EQ(shapeError(t, L, shape(16, 16, 16, 1, true)),
            "transpose needs 32- or 64-bit elements, not 16-bit ones");
  EXPECT_EQ(shapeError(t, L, shape(8, 16, 16, 1, true)),
            "transpose needs 32- or 64-bit elements, not 8-bit ones");
  EXPECT_EQ(shapeError(t, L, shape(32, 4, 16, 2, true)),
            "numBlocks 2 exceeds the limit of 1 for a transposed load");
  EXPECT_EQ(shapeError(t, L, shape(32, 16, 16, 1, true)),
            "tileWidth 16 exceeds the maximum 8 of a transposed 32-bit load");
  EXPECT_EQ(shapeError(t, L, shape(64, 8, 8, 1, true)),
            "tileWidth 8 exceeds the maximum 4 of a transposed 64-bit load");
  EXPECT_EQ(shapeError(t, L, shape(64, 4, 16, 1, true)),
            "tileHeight 16 must be 8 for a transposed 64-bit load");
  EXPECT_EQ(shapeError(t, L, shape(64, 4, 8, 1, true)), "");
  EXPECT_EQ(shapeError(t, L, shape(32, 8, 32, 1, true)), "");
  // vnni: only 8/16-bit, loads, H >= 4 (8-bit) / 2 (16-bit)
  EXPECT_EQ(shapeError(t, S, shape(16, 16, 8, 1, false, true)),
            "vnni applies to loads only, not to a store");
  EXPECT_EQ(shapeError(t, L, shape(32, 16, 8, 1, false, true)),
            "vnni needs 8- or 16-bit elements, not 32-bit ones");
  EXPECT_EQ(shapeError(t, L, shape(8, 16, 2, 1, false, true)),
            "tileHeight 2 is below the minimum 4 of a VNNI 8-bit load");
  EXPECT_EQ(shapeError(t, L, shape(16, 16, 1, 1, false, true)),
            "tileHeight 1 is below the minimum 2 of a VNNI 16-bit load");
  EXPECT_EQ(shapeError(t, L, shape(16, 16, 2, 1, false, true)), "");
  EXPECT_EQ(shapeError(t, L, shape(8, 16, 4, 4, false, true)), "");
}

TEST(BlockIoValidate, SurfaceAndCoordinateRules) {
  BlockIoTarget t = target("bmg");
  auto req = [](Surface s, int bits = 16, int64_t x = 0, int64_t y = 0) {
    return load(shape(bits, bits == 8 ? 32 : 16, 8), s, x, y);
  };
  EXPECT_EQ(requestError(t, req(surface(256, 64, 256))), "");
  EXPECT_EQ(requestError(t, req(surface(256, 64, 256, 0x1010))),
            "surface.baseAddress 0x1010 is not 64-byte aligned");
  EXPECT_EQ(requestError(t, req(surface(256, 64, 256, 0x1040))), "");
  EXPECT_EQ(requestError(t, req(surface(32, 64, 64))),
            "surface.widthBytes 32 is below the minimum 64");
  EXPECT_EQ(requestError(t, req(surface((1 << 24) + 16, 4, (1 << 24) + 16))),
            "surface.widthBytes 16777232 exceeds the maximum 16777216");
  EXPECT_EQ(requestError(t, req(surface(1 << 24, 4, 1 << 24))), "");
  EXPECT_EQ(requestError(t, req(surface(66, 8, 80))),
            "surface.widthBytes 66 is not a multiple of 4 (the larger of 4 and the element size)");
  EXPECT_EQ(requestError(t, load(shape(64, 4, 8), surface(68, 8, 80))),
            "surface.widthBytes 68 is not a multiple of 8 (the larger of 4 and the element size)");
  EXPECT_EQ(requestError(t, req(surface(256, 0, 256))), "surface.height 0 must be at least 1");
  EXPECT_EQ(requestError(t, req(surface(256, (1 << 24) + 1, 256))),
            "surface.height 16777217 exceeds the maximum 16777216");
  EXPECT_EQ(requestError(t, req(surface(64, 8, 48))),
            "surface.pitchBytes 48 is below the minimum 64");
  EXPECT_EQ(requestError(t, req(surface(64, 8, (1 << 24) + 16))),
            "surface.pitchBytes 16777232 exceeds the maximum 16777216");
  EXPECT_EQ(requestError(t, req(surface(64, 8, 72))),
            "surface.pitchBytes 72 is not a multiple of 16");
  EXPECT_EQ(requestError(t, req(surface(256, 8, 128))),
            "surface.pitchBytes 128 is below surface.widthBytes 256");
  // x: multiple of 4 (8-bit) / 2 (16-bit) elements; any for 32-bit; negative allowed.
  EXPECT_EQ(requestError(t, req(surface(256, 8, 256), 8, 6)),
            "x 6 x 8-bit = 6 bytes is not a multiple of 4 bytes");
  EXPECT_EQ(requestError(t, req(surface(256, 8, 256), 16, 3)),
            "x 3 x 16-bit = 6 bytes is not a multiple of 4 bytes");
  EXPECT_EQ(requestError(t, req(surface(256, 8, 256), 16, -2)), "");
  EXPECT_EQ(requestError(t, req(surface(256, 8, 256), 32, 3, -5)), "");
  EXPECT_EQ(requestError(t, req(surface(256, 8, 256), 32, int64_t{1} << 31)),
            "x 2147483648 is outside the signed 32-bit coordinate range");
  EXPECT_EQ(requestError(t, req(surface(256, 8, 256), 32, 0, -(int64_t{1} << 31) - 1)),
            "y -2147483649 is outside the signed 32-bit coordinate range");
  // The shape is checked first.
  EXPECT_EQ(requestError(t, load(shape(16, 16, 64), surface(32, 8, 48))),
            "tileHeight 64 exceeds the 32-row limit of a load");
}

TEST(BlockIoValidate, ShapeNames) {
  EXPECT_EQ(blockShapeName(shape(16, 16, 8, 2)), "16b_8r16x2c");
  EXPECT_EQ(blockShapeName(shape(16, 16, 32, 1, false, true)), "transform_16b_32r16x1c");
  EXPECT_EQ(blockShapeName(shape(32, 8, 16, 1, true)), "transpose_32b_16r8x1c");
}

// =================================================================================================
// Worked examples of §3.1 and §2.4 (coordinates from the text; values read at those coordinates)

struct Fixture {
  BlockIoTarget t = target("pvc");
  // x0 = 8 (aligned for every size), y0 = 3: the block starts inside the surface.
  int64_t x0 = 8, y0 = 3;
  Memory m;
  explicit Fixture(int bits) : m(surface(512, 64, 576, 128), bits) { m.fillCoords(); }
  std::vector<std::vector<uint64_t>> run(BlockShape s) {
    return lanesOf(t, load(s, m.s, x0, y0), m);
  }
  uint64_t at(int64_t r, int64_t c) const { return m.get(y0 + r, x0 + c); }
};

TEST(BlockIoWorkedExamples, Plain16Bit) {
  Fixture f(16);
  auto a = f.run(shape(16, 16, 8));
  ASSERT_EQ(a[3].size(), 8u);
  EXPECT_EQ(a[3][5], f.at(5, 3)); // 16b_8r16x1c: lane 3, element 5 -> row 5, col 3
  auto b = f.run(shape(16, 16, 8, 2));
  ASSERT_EQ(b[3].size(), 16u);
  EXPECT_EQ(b[3][13], f.at(5, 19)); // 16b_8r16x2c: lane 3, element 13 -> (5, 19)
}

TEST(BlockIoWorkedExamples, Plain8BitPacksTwoColumnsPerLane) {
  Fixture f(8);
  auto a = f.run(shape(8, 32, 8));
  ASSERT_EQ(a[3].size(), 16u); // 8 ushorts = 16 bytes
  // 8b_8r32x1c: lane 3, ushort 5 -> row 5, byte cols 6 (low) and 7 (high)
  EXPECT_EQ(a[3][10], f.at(5, 6));
  EXPECT_EQ(a[3][11], f.at(5, 7));
}

TEST(BlockIoWorkedExamples, Plain32BitEightWide) {
  Fixture f(32);
  auto a = f.run(shape(32, 8, 8));
  ASSERT_EQ(a[3].size(), 4u);
  EXPECT_EQ(a[3][2], f.at(4, 3));  // 32b_8r8x1c: lane 3, element 2 -> (4, 3)
  EXPECT_EQ(a[11][2], f.at(5, 3)); // lane 11, element 2 -> (5, 3)
}

TEST(BlockIoWorkedExamples, Transform) {
  Fixture f16(16);
  auto a = f16.run(shape(16, 16, 16, 1, false, true));
  ASSERT_EQ(a[3].size(), 16u); // 8 uints
  // transform_16b_16r16x1c: lane 3, uint 5 -> low half (10, 3), high half (11, 3)
  EXPECT_EQ(a[3][10], f16.at(10, 3));
  EXPECT_EQ(a[3][11], f16.at(11, 3));
  auto c = f16.run(shape(16, 16, 32, 2, false, true));
  ASSERT_EQ(c[3].size(), 64u); // 32 uints
  // transform_16b_32r16x2c: lane 3, uint 21 -> block 1, g = 5 -> (10, 19) low, (11, 19) high
  EXPECT_EQ(c[3][42], f16.at(10, 19));
  EXPECT_EQ(c[3][43], f16.at(11, 19));

  Fixture f8(8);
  auto b = f8.run(shape(8, 16, 32, 1, false, true));
  ASSERT_EQ(b[3].size(), 32u); // 8 uints
  // transform_8b_32r16x1c: lane 3, uint 5 -> bytes (20,3), (21,3), (22,3), (23,3) low -> high
  for (int j = 0; j < 4; ++j) EXPECT_EQ(b[3][20 + j], f8.at(20 + j, 3)) << j;
}

TEST(BlockIoWorkedExamples, Transpose) {
  Fixture f(32);
  auto a = f.run(shape(32, 8, 16, 1, true));
  ASSERT_EQ(a[3].size(), 8u);
  EXPECT_EQ(a[3][5], f.at(3, 5)); // transpose_32b_16r8x1c: lane 3, element 5 -> (3, 5)
  auto b = f.run(shape(32, 8, 32, 1, true));
  ASSERT_EQ(b[3].size(), 16u);
  EXPECT_EQ(b[3][4], f.at(3, 2));  // transpose_32b_32r8x1c: lane 3, element 4 -> (3, 2)
  EXPECT_EQ(b[3][5], f.at(19, 2)); // element 5 -> (19, 2): rows l and l + 16, not 2l, 2l + 1
}

TEST(BlockIoWorkedExamples, SixteenBitBTransposeTrick) {
  // Memory holds B^T (N = 16 rows x K = 16 fp16). A d32 transpose W = K/2 = 8, H = N = 16 gives
  // lane n, element j = B^T[n][2j] | B^T[n][2j+1] << 16 = the DPAS-B VNNI operand.
  BlockIoTarget t = target("pvc");
  Memory bt(surface(64, 16, 64), 16);
  bt.fillCoords();
  Memory as32 = bt;
  as32.bits = 32;
  auto lanes = lanesOf(t, load(shape(32, 8, 16, 1, true), bt.s), as32);
  for (int n = 0; n < 16; ++n)
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(lanes[n][j], bt.get(n, 2 * j) | bt.get(n, 2 * j + 1) << 16) << n << " " << j;
}

// The per-lane formula table of §3.1 (SG16, compact), for every H and NB it lists.
TEST(BlockIoWorkedExamples, PerLaneFormulaTable) {
  std::vector<int> heights = {1, 2, 4, 8, 16, 32};
  for (int H : heights)
    for (int NB : {1, 2}) { // 16b_Hr16xNBc: b = e / H, r = e % H -> (r, 16b + l)
      Fixture f(16);
      auto a = f.run(shape(16, 16, H, NB));
      for (int l = 0; l < 16; ++l) {
        ASSERT_EQ(a[l].size(), size_t(H * NB));
        for (int e = 0; e < H * NB; ++e) EXPECT_EQ(a[l][e], f.at(e % H, 16 * (e / H) + l));
      }
    }
  for (int H : heights)
    for (int NB : {1, 2}) { // 8b_Hr32xNBc (ushort): (r, 32b + 2l) low, (r, 32b + 2l + 1) high
      Fixture f(8);
      auto a = f.run(shape(8, 32, H, NB));
      for (int l = 0; l < 16; ++l) {
        ASSERT_EQ(a[l].size(), size_t(2 * H * NB));
        for (int e = 0; e < H * NB; ++e) {
          EXPECT_EQ(a[l][2 * e], f.at(e % H, 32 * (e / H) + 2 * l));
          EXPECT_EQ(a[l][2 * e + 1], f.at(e % H, 32 * (e / H) + 2 * l + 1));
        }
      }
    }
  for (int H : {8, 16, 32}) { // 8b_Hr16x4c (uchar): 4H per lane, (r, 16b + l)
    Fixture f(8);
    auto a = f.run(shape(8, 16, H, 4));
    for (int l = 0; l < 16; ++l) {
      ASSERT_EQ(a[l].size(), size_t(4 * H));
      for (int e = 0; e < 4 * H; ++e) EXPECT_EQ(a[l][e], f.at(e % H, 16 * (e / H) + l));
    }
  }
  for (int H : heights) { // 32b_Hr16x1c (uint): (e, l)
    Fixture f(32);
    auto a = f.run(shape(32, 16, H));
    for (int l = 0; l < 16; ++l) {
      ASSERT_EQ(a[l].size(), size_t(H));
      for (int e = 0; e < H; ++e) EXPECT_EQ(a[l][e], f.at(e, l));
    }
  }
  for (int H : heights)
    for (int NB : {1, 2}) { // 32b_Hr8xNBc: (2i + l/8, 8b + l%8), row >= H undefined
      Fixture f(32);
      auto a = f.run(shape(32, 8, H, NB));
      int half = (H + 1) / 2;
      for (int l = 0; l < 16; ++l) {
        ASSERT_EQ(a[l].size(), size_t(half * NB));
        for (int e = 0; e < half * NB; ++e) {
          int b = e / half, i = e % half, row = 2 * i + l / 8;
          if (row < H)
            EXPECT_EQ(a[l][e], f.at(row, 8 * b + l % 8));
          else
            EXPECT_EQ(a[l][e], 0u) << "undefined slot reads as 0";
        }
      }
    }
  for (int H : {16, 32})
    for (int NB : {1, 2}) { // transform_16b_Hr16xNBc: (2g, 16b + l) low, (2g + 1, 16b + l) high
      Fixture f(16);
      auto a = f.run(shape(16, 16, H, NB, false, true));
      for (int l = 0; l < 16; ++l) {
        ASSERT_EQ(a[l].size(), size_t(H * NB));
        for (int e = 0; e < H / 2 * NB; ++e) {
          int b = e / (H / 2), g = e % (H / 2);
          EXPECT_EQ(a[l][2 * e], f.at(2 * g, 16 * b + l));
          EXPECT_EQ(a[l][2 * e + 1], f.at(2 * g + 1, 16 * b + l));
        }
      }
    }
  for (int NB : {1, 2, 4}) { // transform_8b_32r16xNBc: byte j = (4g + j, 16b + l)
    Fixture f(8);
    auto a = f.run(shape(8, 16, 32, NB, false, true));
    for (int l = 0; l < 16; ++l) {
      ASSERT_EQ(a[l].size(), size_t(32 * NB));
      for (int e = 0; e < 8 * NB; ++e)
        for (int j = 0; j < 4; ++j)
          EXPECT_EQ(a[l][4 * e + j], f.at(4 * (e % 8) + j, 16 * (e / 8) + l));
    }
  }
  { // transpose_32b_16r8x1c: (l, e); transpose_32b_32r8x1c: ((e%2)*16 + l, e/2)
    Fixture f(32);
    auto a = f.run(shape(32, 8, 16, 1, true));
    auto b = f.run(shape(32, 8, 32, 1, true));
    for (int l = 0; l < 16; ++l) {
      ASSERT_EQ(a[l].size(), 8u);
      ASSERT_EQ(b[l].size(), 16u);
      for (int e = 0; e < 8; ++e) EXPECT_EQ(a[l][e], f.at(l, e));
      for (int e = 0; e < 16; ++e) EXPECT_EQ(b[l][e], f.at((e % 2) * 16 + l, e / 2));
    }
  }
}

// §2.4 emitter examples: A bf16 16b_32r16x2c and B bf16 transform 16b_32r16x2c.
TEST(BlockIoWorkedExamples, EmitterOperandLoads) {
  Fixture f(16);
  auto a = f.run(shape(16, 16, 32, 2));
  for (int l = 0; l < 16; ++l) {
    ASSERT_EQ(a[l].size(), 64u); // 64 ushorts
    for (int b = 0; b < 2; ++b)
      for (int r = 0; r < 32; ++r) EXPECT_EQ(a[l][b * 32 + r], f.at(r, 16 * b + l));
  }
  auto bm = f.run(shape(16, 16, 32, 2, false, true));
  for (int l = 0; l < 16; ++l) {
    ASSERT_EQ(bm[l].size(), 64u); // 32 uints
    for (int b = 0; b < 2; ++b)
      for (int g = 0; g < 16; ++g) {
        int e = b * 16 + g;
        EXPECT_EQ(bm[l][2 * e], f.at(2 * g, 16 * b + l));
        EXPECT_EQ(bm[l][2 * e + 1], f.at(2 * g + 1, 16 * b + l));
      }
  }
}

// =================================================================================================
// GRF level (vISA LOAD_BLOCK2D pseudo-code), with padding

uint64_t grfElem(const std::vector<uint8_t>& img, int64_t index, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t{img[index * bytes + i]} << (8 * i);
  return v;
}

TEST(BlockIoGrf, SubGrfBlocksStartOnAGrfBoundary) {
  // 16b_1r16x2c: each 32-byte block is padded to a 64-byte GRF: [blk0, pad, blk1, pad].
  Fixture f(16);
  BlockShape s = shape(16, 16, 1, 2);
  EXPECT_EQ(grfImageBytes(f.t, s), 128);
  auto img = loadGrfImage(f.t, load(s, f.m.s, f.x0, f.y0), f.m.bytes);
  ASSERT_OK(img);
  ASSERT_EQ(img->size(), 128u);
  for (int x = 0; x < 16; ++x) {
    EXPECT_EQ(grfElem(*img, x, 2), f.at(0, x));
    EXPECT_EQ(grfElem(*img, 16 + x, 2), 0u);
    EXPECT_EQ(grfElem(*img, 32 + x, 2), f.at(0, 16 + x));
    EXPECT_EQ(grfElem(*img, 48 + x, 2), 0u);
  }
  // The per-lane array is compact: "reads two ushorts".
  auto a = f.run(s);
  for (int l = 0; l < 16; ++l)
    EXPECT_EQ(a[l], (std::vector<uint64_t>{f.at(0, l), f.at(0, 16 + l)}));
}

TEST(BlockIoGrf, PlainTransformAndTransposeImages) {
  Fixture f16(16);
  // Plain: dst[b*blockPitch + y*rowPitch + x] = M(y, b*W + x); 16b_8r16x2c blocks are 256 bytes.
  auto p = loadGrfImage(f16.t, load(shape(16, 16, 8, 2), f16.m.s, f16.x0, f16.y0), f16.m.bytes);
  ASSERT_OK(p);
  ASSERT_EQ(p->size(), 512u);
  for (int b = 0; b < 2; ++b)
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 16; ++x)
        EXPECT_EQ(grfElem(*p, b * 128 + y * 16 + x, 2), f16.at(y, 16 * b + x));
  // Transform: dword (g, x) at dword index g*rowPitch + x, lower row in lower bits.
  auto v = loadGrfImage(f16.t, load(shape(16, 16, 16, 1, false, true), f16.m.s, f16.x0, f16.y0),
                        f16.m.bytes);
  ASSERT_OK(v);
  ASSERT_EQ(v->size(), 512u);
  for (int g = 0; g < 8; ++g)
    for (int x = 0; x < 16; ++x)
      EXPECT_EQ(grfElem(*v, g * 16 + x, 4), f16.at(2 * g, x) | f16.at(2 * g + 1, x) << 16);
  // Transpose: dst[x*rowPitch + y] = M(y, x); d64 8r4: 4 rows of 8 qwords = 256 bytes.
  Fixture f64(64);
  auto tr =
      loadGrfImage(f64.t, load(shape(64, 4, 8, 1, true), f64.m.s, f64.x0, f64.y0), f64.m.bytes);
  ASSERT_OK(tr);
  ASSERT_EQ(tr->size(), 256u);
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 8; ++y) EXPECT_EQ(grfElem(*tr, x * 8 + y, 8), f64.at(y, x));
  // One 8-wide 32-bit row (32 bytes) fills half a GRF; the rest is zero padding.
  Fixture f32(32);
  auto h = loadGrfImage(f32.t, load(shape(32, 8, 1), f32.m.s, f32.x0, f32.y0), f32.m.bytes);
  ASSERT_OK(h);
  ASSERT_EQ(h->size(), 64u);
  for (int x = 0; x < 16; ++x) EXPECT_EQ(grfElem(*h, x, 4), x < 8 ? f32.at(0, x) : 0u);
}

TEST(BlockIoGrf, ExecutorsRejectWrongOpsAndSmallBuffers) {
  Fixture f(16);
  BlockIoRequest r = load(shape(16, 16, 8), f.m.s);
  r.op = BlockOp::Prefetch;
  EXPECT_EQ(loadGrfImage(f.t, r, f.m.bytes).error().message,
            "loadGrfImage needs a load request, not a prefetch");
  EXPECT_EQ(loadPerWorkItem(f.t, r, f.m.bytes).error().message,
            "loadPerWorkItem needs a load request, not a prefetch");
  std::vector<std::vector<uint64_t>> data(16, std::vector<uint64_t>(8, 0));
  EXPECT_EQ(storePerWorkItem(f.t, load(shape(16, 16, 8), f.m.s), data, f.m.bytes).error().message,
            "storePerWorkItem needs a store request, not a load");
  // An illegal request is reported, not executed.
  EXPECT_EQ(loadPerWorkItem(f.t, load(shape(16, 16, 64), f.m.s), f.m.bytes).error().message,
            "tileHeight 64 exceeds the 32-row limit of a load");
  // The surface runs past the buffer: row 5 starts at byte 320 of a 300-byte buffer.
  std::vector<uint8_t> small(300);
  EXPECT_EQ(
      loadPerWorkItem(f.t, load(shape(16, 16, 8), surface(64, 32, 64)), small).error().message,
      "surface element (row 5, column 0) at byte address 320 lies outside the 300-byte "
      "memory buffer");
}

// =================================================================================================
// Out-of-bounds zero fill at every edge, and dropped out-of-bounds stores

TEST(BlockIoOutOfBounds, LoadsReadZeroOutsideTheSurface) {
  BlockIoTarget t = target("pvc");
  // 16-bit surface 48 elements (96 bytes) wide, 20 rows, pitch 128: bytes 96..127 of a row are
  // outside the surface and hold non-zero garbage that must not be read.
  Memory m(surface(96, 20, 128, 64), 16, 256);
  std::mt19937_64 rng(1);
  m.fillRandom(rng);
  m.fillCoords();
  struct Case {
    const char* edge;
    int64_t x, y;
  };
  // 16b_8r16x2c covers 32 columns and 8 rows.
  std::vector<Case> cases = {{"inside", 8, 4},         {"left", -6, 4},
                             {"right", 30, 4},         {"top", 8, -3},
                             {"bottom", 8, 16},        {"top-left", -20, -5},
                             {"top-right", 40, -7},    {"bottom-left", -2, 19},
                             {"bottom-right", 46, 18}, {"fully left", -32, 4},
                             {"fully right", 48, 4},   {"fully above", 0, -8},
                             {"fully below", 0, 20},   {"far away", -4000, 100000}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.edge);
    auto a = lanesOf(t, load(shape(16, 16, 8, 2), m.s, c.x, c.y), m);
    for (int l = 0; l < 16; ++l)
      for (int e = 0; e < 16; ++e) {
        int64_t row = c.y + e % 8, col = c.x + 16 * (e / 8) + l;
        bool in = row >= 0 && row < 20 && col >= 0 && col < 48;
        EXPECT_EQ(a[l][e], in ? m.get(row, col) : 0u) << "lane " << l << " element " << e;
      }
  }
  // Transposed and VNNI loads zero-fill in element units too.
  Memory m32 = m;
  m32.bits = 32;
  auto tr = lanesOf(t, load(shape(32, 8, 16, 1, true), m.s, 20, 10), m32);
  for (int l = 0; l < 16; ++l)
    for (int e = 0; e < 8; ++e) {
      int64_t row = 10 + l, col = 20 + e; // (l, e); 24 dwords wide, 20 rows
      EXPECT_EQ(tr[l][e], row < 20 && col < 24 ? m32.get(row, col) : 0u) << l << " " << e;
    }
  auto v = lanesOf(t, load(shape(16, 16, 16, 1, false, true), m.s, 40, 11), m);
  for (int l = 0; l < 16; ++l)
    for (int i = 0; i < 16; ++i) {
      int64_t row = 11 + i, col = 40 + l;
      EXPECT_EQ(v[l][i], row < 20 && col < 48 ? m.get(row, col) : 0u) << l << " " << i;
    }
}

TEST(BlockIoOutOfBounds, StoresDropOutsideWrites) {
  BlockIoTarget t = target("bmg");
  for (auto [x, y] : std::vector<std::pair<int64_t, int64_t>>{
           {-8, 2}, {40, 2}, {8, -3}, {8, 17}, {-10, -6}, {44, 18}, {100, 0}, {0, 8}}) {
    SCOPED_TRACE(std::to_string(x) + "," + std::to_string(y));
    Memory m(surface(96, 20, 128, 64), 16, 256);
    std::mt19937_64 rng(7);
    m.fillRandom(rng);
    std::vector<uint8_t> before = m.bytes;
    std::vector<std::vector<uint64_t>> data(16);
    for (int l = 0; l < 16; ++l)
      for (int e = 0; e < 8; ++e) data[l].push_back(0x1000u + l * 16 + e);
    BlockIoRequest r{BlockOp::Store, shape(16, 16, 8), m.s, x, y};
    auto err = storePerWorkItem(t, r, data, m.bytes);
    ASSERT_TRUE(err) << err.error().message;
    // Expected memory: the old bytes, with in-surface elements (row y + e, col x + l) written.
    Memory want = m;
    want.bytes = before;
    for (int l = 0; l < 16; ++l)
      for (int e = 0; e < 8; ++e) {
        int64_t row = y + e, col = x + l;
        if (row >= 0 && row < 20 && col >= 0 && col < 48) want.set(row, col, data[l][e]);
      }
    EXPECT_EQ(m.bytes, want.bytes);
  }
}

TEST(BlockIoOutOfBounds, StoreDataIsChecked) {
  BlockIoTarget t = target("pvc");
  Memory m(surface(64, 8, 64), 16);
  BlockIoRequest r{BlockOp::Store, shape(16, 16, 8), m.s, 0, 0};
  std::vector<std::vector<uint64_t>> data(15, std::vector<uint64_t>(8, 0));
  EXPECT_EQ(storePerWorkItem(t, r, data, m.bytes).error().message,
            "data has 15 lanes; the subgroup has 16");
  data.assign(16, std::vector<uint64_t>(8, 0));
  data[3].pop_back();
  EXPECT_EQ(storePerWorkItem(t, r, data, m.bytes).error().message,
            "data[3] has 7 elements; a 16b_8r16x1c store takes 8 per lane");
  data[3].push_back(0x10000);
  EXPECT_EQ(storePerWorkItem(t, r, data, m.bytes).error().message,
            "data[3][7] = 65536 does not fit in 16 bits");
  BlockIoRequest big{BlockOp::Store, shape(16, 16, 16), m.s, 0, 0};
  EXPECT_EQ(storePerWorkItem(t, big, data, m.bytes).error().message,
            "tileHeight 16 exceeds the 8-row limit of a store");
  // A surface past the buffer: nothing is written.
  std::vector<uint8_t> small(300, 0xee);
  data[3][7] = 1;
  BlockIoRequest past{BlockOp::Store, shape(16, 16, 8), surface(64, 8, 64), 0, 0};
  auto err = storePerWorkItem(t, past, data, small);
  ASSERT_FALSE(err);
  EXPECT_EQ(err.error().message,
            "surface element (row 5, column 0) at byte address 320 lies outside "
            "the 300-byte memory buffer");
  EXPECT_EQ(small, std::vector<uint8_t>(300, 0xee));
}

// =================================================================================================
// Independent model of the per-work-item view, from the §3.1 prose, against thousands of random
// legal requests on both targets.

// Block-relative (row, column) of lane l's i-th element, or nullopt for an undefined slot.
std::optional<std::pair<int64_t, int64_t>> modelCoord(const BlockShape& s, int sg, int l,
                                                      int64_t i) {
  const int64_t W = s.tileWidth, H = s.tileHeight;
  if (s.transpose) {
    // Memory column x becomes a register row of H elements.
    if (H >= sg) { // H/sg register rows per column: element i -> (((i % q) * sg + l), i / q)
      int64_t q = H / sg;
      return std::pair{(i % q) * sg + l, i / q};
    }
    int64_t cpr = sg / H; // columns per register: lane l sees row l % H of column i*cpr + l/H
    int64_t x = i * cpr + l / H;
    if (x >= W) return std::nullopt;
    return std::pair{int64_t(l % H), x};
  }
  if (s.vnni) {
    int64_t epd = 32 / s.elemBits, groups = H / epd;
    int64_t j = i % epd, dword = i / epd; // lower row in lower bits
    if (W >= sg) {                        // k consecutive columns per lane in each row group
      int64_t k = W / sg, perBlock = groups * k;
      int64_t b = dword / perBlock, rem = dword % perBlock;
      return std::pair{(rem / k) * epd + j, b * W + k * l + rem % k};
    }
    int64_t gpr = sg / W, slots = (groups + gpr - 1) / gpr;
    int64_t b = dword / slots, g = (dword % slots) * gpr + l / W;
    if (g >= groups) return std::nullopt;
    return std::pair{g * epd + j, b * W + l % W};
  }
  if (W >= sg) { // lane l gets k consecutive columns of every row
    int64_t k = W / sg, b = i / (H * k), rem = i % (H * k);
    return std::pair{rem / k, b * W + k * l + rem % k};
  }
  // Rows narrower than the subgroup: sg/W rows per register, lane l in row l / W, column l % W.
  int64_t rpr = sg / W, slots = (H + rpr - 1) / rpr;
  int64_t b = i / slots, r = (i % slots) * rpr + l / W;
  if (r >= H) return std::nullopt;
  return std::pair{r, b * W + l % W};
}

int64_t modelCount(const BlockShape& s, int sg) {
  const int64_t W = s.tileWidth, H = s.tileHeight, NB = s.numBlocks;
  if (s.transpose) return H >= sg ? W * (H / sg) : (W + sg / H - 1) / (sg / H);
  if (s.vnni) {
    int64_t epd = 32 / s.elemBits, groups = H / epd;
    if (W >= sg) return NB * groups * (W / sg) * epd;
    return NB * ((groups + sg / W - 1) / (sg / W)) * epd;
  }
  if (W >= sg) return NB * H * (W / sg);
  return NB * ((H + sg / W - 1) / (sg / W));
}

std::vector<BlockShape> legalShapes(const BlockIoTarget& t, BlockOp op) {
  std::vector<BlockShape> out;
  for (int bits : {8, 16, 32, 64})
    for (int w = 1; w <= 64; w *= 2)
      for (int h = 1; h <= 32; h *= 2)
        for (int nb = 1; nb <= 4; nb *= 2)
          for (int mode = 0; mode < 3; ++mode) {
            BlockShape s = shape(bits, w, h, nb, mode == 1, mode == 2);
            if (validateBlockShape(t, op, s)) out.push_back(s);
          }
  return out;
}

// A random legal surface and a coordinate near it (often partly outside).
BlockIoRequest randomRequest(std::mt19937_64& rng, BlockOp op, const BlockShape& s) {
  auto uni = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int64_t e = s.elemBits / 8, widthUnit = std::max<int64_t>(4, e);
  int64_t width = widthUnit * uni(64 / widthUnit, 320 / widthUnit);
  int64_t pitch = (width + 15) / 16 * 16 + 16 * uni(0, 2);
  int64_t height = uni(1, 48);
  uint64_t base = 64 * static_cast<uint64_t>(uni(0, 3));
  int64_t widthElems = width / e, span = int64_t(s.tileWidth) * s.numBlocks;
  int64_t xStep = std::max<int64_t>(1, 4 / e);
  int64_t x = uni(-span - 4, widthElems + 4) / xStep * xStep;
  int64_t y = uni(-int64_t(s.tileHeight) - 2, height + 2);
  if (uni(0, 3) == 0) { // often fully inside
    x = uni(0, std::max<int64_t>(0, widthElems - span)) / xStep * xStep;
    y = uni(0, std::max<int64_t>(0, height - s.tileHeight));
  }
  return BlockIoRequest{op, s, surface(width, height, pitch, base), x, y};
}

// Both built-in targets, and a JSON-described 32-lane variant (the prose rules are per subgroup
// size; Triton's GenISA path runs block loads at SG32).
std::vector<BlockIoTarget> modelTargets() {
  auto j = nlohmann::json::parse(blockIoTargetToJson(target("pvc")).dump());
  j["name"] = "pvc-sg32";
  j["subgroupSize"] = 32;
  auto sg32 = blockIoTargetFromJson(j);
  EXPECT_TRUE(sg32.ok());
  return {target("pvc"), target("bmg"), *sg32};
}

TEST(BlockIoModel, LoadPerWorkItemMatchesTheProseModel) {
  std::mt19937_64 rng(2026);
  for (const BlockIoTarget& t : modelTargets()) {
    const char* name = t.name.c_str();
    std::vector<BlockShape> shapes = legalShapes(t, BlockOp::Load);
    ASSERT_GT(shapes.size(), 60u);
    int checked = 0;
    for (int iter = 0; iter < 3000; ++iter) {
      const BlockShape& s = shapes[iter < int(shapes.size()) ? iter : rng() % shapes.size()];
      BlockIoRequest r = randomRequest(rng, BlockOp::Load, s);
      ASSERT_EQ(requestError(t, r), "") << blockShapeName(s);
      Memory m(r.surface, s.elemBits);
      m.fillRandom(rng);
      auto lanes = loadPerWorkItem(t, r, m.bytes);
      ASSERT_OK(lanes);
      ASSERT_EQ(lanes->size(), size_t(t.subgroupSize));
      int64_t count = modelCount(s, t.subgroupSize);
      ASSERT_EQ(elementsPerWorkItem(t, s), count) << blockShapeName(s);
      int64_t widthElems = r.surface.widthBytes / (s.elemBits / 8);
      for (int l = 0; l < t.subgroupSize; ++l) {
        ASSERT_EQ(int64_t((*lanes)[l].size()), count) << blockShapeName(s);
        for (int64_t i = 0; i < count; ++i) {
          auto c = modelCoord(s, t.subgroupSize, l, i);
          uint64_t want = 0;
          if (c) {
            int64_t row = r.y + c->first, col = r.x + c->second;
            if (row >= 0 && row < r.surface.height && col >= 0 && col < widthElems)
              want = m.get(row, col);
          }
          ASSERT_EQ((*lanes)[l][i], want) << name << " " << blockShapeName(s) << " x " << r.x
                                          << " y " << r.y << " lane " << l << " element " << i;
          ++checked;
        }
      }
    }
    EXPECT_GT(checked, 100000);
  }
}

TEST(BlockIoModel, StorePerWorkItemMatchesTheProseModel) {
  std::mt19937_64 rng(99);
  for (const BlockIoTarget& t : modelTargets()) {
    const char* name = t.name.c_str();
    std::vector<BlockShape> shapes = legalShapes(t, BlockOp::Store);
    ASSERT_GT(shapes.size(), 20u);
    for (int iter = 0; iter < 1000; ++iter) {
      const BlockShape& s = shapes[iter < int(shapes.size()) ? iter : rng() % shapes.size()];
      BlockIoRequest r = randomRequest(rng, BlockOp::Store, s);
      Memory m(r.surface, s.elemBits);
      m.fillRandom(rng);
      Memory want = m;
      int64_t count = modelCount(s, t.subgroupSize);
      uint64_t mask = s.elemBits == 64 ? ~uint64_t{0} : (uint64_t{1} << s.elemBits) - 1;
      std::vector<std::vector<uint64_t>> data(t.subgroupSize);
      int64_t widthElems = r.surface.widthBytes / (s.elemBits / 8);
      for (int l = 0; l < t.subgroupSize; ++l)
        for (int64_t i = 0; i < count; ++i) {
          data[l].push_back(rng() & mask);
          if (auto c = modelCoord(s, t.subgroupSize, l, i)) {
            int64_t row = r.y + c->first, col = r.x + c->second;
            if (row >= 0 && row < r.surface.height && col >= 0 && col < widthElems)
              want.set(row, col, data[l].back());
          }
        }
      auto err = storePerWorkItem(t, r, data, m.bytes);
      ASSERT_TRUE(err) << err.error().message;
      ASSERT_EQ(m.bytes, want.bytes)
          << name << " " << blockShapeName(s) << " x " << r.x << " y " << r.y;
      // Loading back what was stored gives the data wherever the model places it in bounds.
      BlockIoRequest back = r;
      back.op = BlockOp::Load;
      auto lanes = loadPerWorkItem(t, back, m.bytes);
      ASSERT_OK(lanes);
      for (int l = 0; l < t.subgroupSize; ++l)
        for (int64_t i = 0; i < count; ++i) {
          auto c = modelCoord(s, t.subgroupSize, l, i);
          if (!c) continue;
          int64_t row = r.y + c->first, col = r.x + c->second;
          bool in = row >= 0 && row < r.surface.height && col >= 0 && col < widthElems;
          ASSERT_EQ((*lanes)[l][i], in ? data[l][i] : 0u);
        }
    }
  }
}

TEST(BlockIoModel, SizesOfIllegalShapesAreZeroNotACrash) {
  BlockIoTarget t = target("pvc");
  EXPECT_EQ(grfImageBytes(t, shape(0, 16, 8)), 0);
  EXPECT_EQ(elementsPerWorkItem(t, shape(16, 0, 8)), 0);
  EXPECT_EQ(elementsPerWorkItem(t, shape(64, 4, 8, 1, false, true)), 0);
  EXPECT_EQ(grfImageBytes(t, shape(16, 16, 8, 2)), 512);
  EXPECT_EQ(elementsPerWorkItem(t, shape(16, 16, 8, 2)), 16);
}

// =================================================================================================
// Bad input never crashes: random (mostly illegal) requests and mutated JSON targets.

TEST(BlockIoRobustness, RandomRequestsAreRejectedOrExecuted) {
  std::mt19937_64 rng(5);
  BlockIoTarget t = target("pvc");
  auto pick = [&](std::vector<int64_t> v) { return v[rng() % v.size()]; };
  std::vector<int64_t> ints = {0,  1,  2,   3,   4,   8,    16,      32,      64,        -1,
                               -8, 63, 128, 256, 576, 1000, 1 << 24, 1 << 30, INT32_MIN, INT32_MAX};
  std::vector<uint8_t> memory(4096, 0x11);
  int executed = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    BlockShape s{int(pick({0, 8, 16, 32, 64, 12, -8, 128})), int(pick(ints)), int(pick(ints)),
                 int(pick({1, 2, 4, 0, 3, -1, 8, 1 << 30})), rng() % 4 == 0,  rng() % 4 == 0};
    Surface surf{uint64_t(pick({0, 64, 128, 1, 4096, -64})), pick(ints), pick(ints), pick(ints)};
    BlockOp op = BlockOp(rng() % 3);
    BlockIoRequest r{op, s, surf, pick(ints), pick(ints)};
    if (rng() % 2) { // a plausible request, so that some execute
      s = shape(int(pick({8, 16, 32})), int(pick({4, 8, 16})), int(pick({1, 2, 4, 8})));
      r = BlockIoRequest{op, s, surface(256, pick({8, 16, 1000}), 256, uint64_t(pick({0, 64}))),
                         pick({0, 8, -8, 16, 1 << 20}), pick({0, 3, -5, 40})};
    }
    (void)validateBlockShape(t, op, s);
    (void)grfImageBytes(t, s);
    (void)elementsPerWorkItem(t, s);
    bool legal = validateBlockIo(t, r).ok();
    auto img = loadGrfImage(t, r, memory);
    auto lanes = loadPerWorkItem(t, r, memory);
    if (op != BlockOp::Load) {
      EXPECT_FALSE(img.ok());
      EXPECT_FALSE(lanes.ok());
    }
    if (lanes.ok()) {
      ++executed;
      EXPECT_TRUE(legal);
      EXPECT_EQ(int64_t(lanes->at(0).size()), elementsPerWorkItem(t, s));
      EXPECT_EQ(int64_t(img->size()), grfImageBytes(t, s));
    }
    std::vector<std::vector<uint64_t>> data(
        16, std::vector<uint64_t>(size_t(std::max<int64_t>(0, elementsPerWorkItem(t, s))), 1));
    if (storePerWorkItem(t, r, data, memory)) {
      ++executed;
      EXPECT_TRUE(legal);
    }
  }
  EXPECT_GT(executed, 10);
}

TEST(BlockIoRobustness, MutatedJsonTargetsAreRejectedOrUsable) {
  std::mt19937_64 rng(8);
  auto base = nlohmann::json::parse(blockIoTargetToJson(target("bmg")).dump());
  std::vector<nlohmann::json> values = {0,
                                        -1,
                                        1,
                                        3,
                                        7,
                                        64,
                                        4096,
                                        1u << 31,
                                        1.5,
                                        "x",
                                        nullptr,
                                        true,
                                        nlohmann::json::array(),
                                        nlohmann::json::object()};
  int accepted = 0, executed = 0;
  for (int iter = 0; iter < 1000; ++iter) {
    nlohmann::json j = base;
    auto flat = j.flatten();
    auto it = flat.begin();
    std::advance(it, rng() % flat.size());
    flat[it.key()] = values[rng() % values.size()];
    if (rng() % 8 == 0) flat.erase(it.key());
    nlohmann::json mutated;
    try {
      mutated = flat.unflatten();
    } catch (const nlohmann::json::exception&) {
      continue; // a mutation that is not a JSON document
    }
    auto t = blockIoTargetFromJson(mutated);
    if (!t.ok()) {
      EXPECT_FALSE(t.error().message.empty());
      continue;
    }
    ++accepted;
    // A usable target: its own legal shapes execute.
    for (const BlockShape& s : legalShapes(*t, BlockOp::Load)) {
      Memory m(surface(4096, 40, 4096), s.elemBits, 0);
      auto lanes = loadPerWorkItem(*t, load(s, m.s), m.bytes);
      if (!validateBlockIo(*t, load(s, m.s))) continue; // the mutation changed a surface rule
      ASSERT_TRUE(lanes.ok()) << lanes.error().message;
      EXPECT_EQ(int64_t(lanes->size()), t->subgroupSize);
      ++executed;
    }
  }
  EXPECT_GT(accepted, 30);
  EXPECT_GT(executed, 300);
}

} // namespace
