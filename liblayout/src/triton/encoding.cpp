// Parsing, verification and dispatch of TritonGPU encodings.
#include "layout/triton/encoding.h"

#include "encoding_internal.h"
#include "layout/text/internal/quoted_input.h"

#include <algorithm>
#include <bit>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace layout::triton {

namespace detail {

Expected<std::vector<int64_t>> intList(const AttrValue& attr, const char* key) {
  const AttrValue* v = attr.find(key);
  if (!v)
    return makeErrorAt(attr.location, std::string("#") + attr.text + " needs the parameter " +
                                          layout::detail::quoteInput(key));
  if (v->kind != AttrValue::Kind::List)
    return makeErrorAt(v->location, std::string("'") + key + "' must be a list of integers, not " +
                                        kindName(v->kind));
  std::vector<int64_t> out;
  for (const AttrValue& item : v->items) {
    if (item.kind != AttrValue::Kind::Integer)
      return makeErrorAt(item.location, std::string("'") + key +
                                            "' must be a list of integers, but holds " +
                                            kindName(item.kind));
    out.push_back(item.integer);
  }
  return out;
}

Expected<int64_t> intParam(const AttrValue& attr, const char* key) {
  const AttrValue* v = attr.find(key);
  if (!v)
    return makeErrorAt(attr.location, std::string("#") + attr.text + " needs the parameter " +
                                          layout::detail::quoteInput(key));
  if (v->kind != AttrValue::Kind::Integer)
    return makeErrorAt(v->location,
                       std::string("'") + key + "' must be an integer, not " + kindName(v->kind));
  return v->integer;
}

Expected<std::vector<std::vector<int64_t>>> basesParam(const AttrValue& attr, const char* key) {
  const AttrValue* v = attr.find(key);
  if (!v) return std::vector<std::vector<int64_t>>();
  if (v->kind != AttrValue::Kind::List)
    return makeErrorAt(v->location,
                       std::string("'") + key + "' must be a list of bases like [[0, 1], [2, 0]]");
  std::vector<std::vector<int64_t>> out;
  for (const AttrValue& basis : v->items) {
    if (basis.kind != AttrValue::Kind::List)
      return makeErrorAt(basis.location,
                         std::string("each basis of '") + key + "' must be a list of integers");
    std::vector<int64_t> comps;
    for (const AttrValue& c : basis.items) {
      if (c.kind != AttrValue::Kind::Integer || c.integer < 0)
        return makeErrorAt(c.location, std::string("basis components of '") + key +
                                           "' must be non-negative integers");
      comps.push_back(c.integer);
    }
    out.push_back(std::move(comps));
  }
  return out;
}

Expected<void> checkPowersOfTwo(const AttrValue& attr, const char* key,
                                std::span<const int64_t> values) {
  for (int64_t x : values)
    if (x < 1 || !std::has_single_bit(uint64_t(x)))
      return makeErrorAt(
          attr.find(key)->location,
          std::string("'") + key + "' = " + printAttrValue(*attr.find(key)) +
              ": every entry must be a power of two (linear layouts cannot represent " +
              std::to_string(x) + ")");
  return {};
}

Expected<void> checkOrder(const AttrValue& attr, const char* key, std::span<const int64_t> order,
                          size_t rank) {
  std::vector<int64_t> sorted(order.begin(), order.end());
  std::sort(sorted.begin(), sorted.end());
  bool perm = sorted.size() == rank;
  for (size_t i = 0; perm && i < rank; ++i) perm = sorted[i] == int64_t(i);
  if (!perm)
    return makeErrorAt(attr.find(key)->location,
                       std::string("'") + key + "' = " + printAttrValue(*attr.find(key)) +
                           " must be a permutation of 0.." + std::to_string(int64_t(rank) - 1));
  return {};
}

} // namespace detail

namespace {

const std::map<std::string, EncodingKind, std::less<>>& kindsByName() {
  static const std::map<std::string, EncodingKind, std::less<>> kinds = {
      {"ttg.blocked", EncodingKind::Blocked},
      {"ttg.slice", EncodingKind::Slice},
      {"ttg.dot_op", EncodingKind::DotOperand},
      {"ttg.nvidia_mma", EncodingKind::NvidiaMma},
      {"ttg.amd_mfma", EncodingKind::AmdMfma},
      {"ttg.amd_wmma", EncodingKind::AmdWmma},
      {"ttg.linear", EncodingKind::Linear},
      {"ttg.swizzled_shared", EncodingKind::SwizzledShared},
      {"ttg.nvmma_shared", EncodingKind::NvmmaShared},
      {"ttg.amd_rotating_shared", EncodingKind::AmdRotatingShared},
      {"ttg.padded_shared", EncodingKind::PaddedShared},
      {"ttg.shared_linear", EncodingKind::SharedLinear},
      {"ttig.dpas", EncodingKind::IntelDpas},
      {"ttig.subgroup_2d_block", EncodingKind::IntelSubgroup2DBlock},
      {"ttg.partitioned_shared", EncodingKind::PartitionedShared},
  };
  return kinds;
}

// `#triton_gpu.x` is the older name of `#ttg.x`; `#triton_intel_gpu.x` that of `#ttig.x`.
void normalizeDialect(AttrValue& v) {
  if (v.kind == AttrValue::Kind::Attribute && v.text.rfind("triton_gpu.", 0) == 0)
    v.text = "ttg." + v.text.substr(11);
  if (v.kind == AttrValue::Kind::Attribute && v.text.rfind("triton_intel_gpu.", 0) == 0)
    v.text = "ttig." + v.text.substr(17);
  for (AttrValue& item : v.items) normalizeDialect(item);
  for (AttrEntry& e : v.entries) normalizeDialect(e.value);
}

using detail::checkOrder;
using detail::checkPowersOfTwo;

Expected<int> verifyBlocked(const AttrValue& attr) {
  LAYOUT_TRY_ASSIGN(spt, detail::intList(attr, "sizePerThread"));
  LAYOUT_TRY_ASSIGN(tpw, detail::intList(attr, "threadsPerWarp"));
  LAYOUT_TRY_ASSIGN(wpc, detail::intList(attr, "warpsPerCTA"));
  LAYOUT_TRY_ASSIGN(order, detail::intList(attr, "order"));
  if (order.empty()) return makeErrorAt(attr.location, "#ttg.blocked needs a rank of at least 1");
  for (auto [key, list] : {std::pair{"sizePerThread", &spt}, std::pair{"threadsPerWarp", &tpw},
                           std::pair{"warpsPerCTA", &wpc}}) {
    if (list->size() != order.size())
      return makeErrorAt(attr.find(key)->location,
                         std::string("'") + key + "' has rank " + std::to_string(list->size()) +
                             " but 'order' has rank " + std::to_string(order.size()) +
                             "; all must agree");
    if (auto err = checkPowersOfTwo(attr, key, *list); !err) return err.error();
  }
  if (auto err = checkOrder(attr, "order", order, order.size()); !err) return err.error();
  LAYOUT_TRY(detail::cgaLayout(attr, int(order.size())));
  return int(order.size());
}

Expected<int> verifySwizzled(const AttrValue& attr) {
  for (const char* key : {"vec", "perPhase", "maxPhase"}) {
    LAYOUT_TRY_ASSIGN(v, detail::intParam(attr, key));
    if (v < 1)
      return makeErrorAt(attr.find(key)->location,
                         std::string("'") + key + "' must be at least 1, not " + std::to_string(v));
  }
  LAYOUT_TRY_ASSIGN(order, detail::intList(attr, "order"));
  if (order.empty())
    return makeErrorAt(attr.location, std::string("#") + attr.text + " needs a rank of at least 1");
  if (auto err = checkOrder(attr, "order", order, order.size()); !err) return err.error();
  LAYOUT_TRY(detail::cgaLayout(attr, int(order.size())));
  return int(order.size());
}

// #ttg.amd_wmma in Triton main's form (ctaLayout instead of warpsPerCTA / tilesPerWarp), as main's
// AMDWmmaEncodingAttr::verify: the instruction shapes of each version, one of the two forms.
Expected<int> verifyAmdWmmaMain(const AttrValue& attr, int64_t version, int rank) {
  for (const char* key : {"warpsPerCTA", "tilesPerWarp"})
    if (const AttrValue* v = attr.find(key))
      return makeErrorAt(v->location, std::string("'") + key +
                                          "' is Triton 3.6's form of #ttg.amd_wmma; with "
                                          "'ctaLayout' (Triton main) the warps are its warp bases");
  std::vector<int64_t> instr = {16, 16, 16};
  const AttrValue* instrAttr = attr.find("instrShape");
  if (instrAttr) {
    LAYOUT_TRY_ASSIGN(list, detail::intList(attr, "instrShape"));
    instr = list;
  }
  using Shapes = std::vector<std::vector<int64_t>>;
  const Shapes valid = version == 1   ? Shapes{{16, 16, 16}}
                       : version == 2 ? Shapes{{16, 16, 16}, {16, 16, 32}}
                                      : Shapes{{16, 16, 4},   {16, 16, 32}, {16, 16, 64},
                                               {16, 16, 128}, {32, 16, 64}, {32, 16, 128}};
  if (std::find(valid.begin(), valid.end(), instr) == valid.end()) {
    std::string listedShapes;
    for (const auto& v : valid)
      listedShapes += std::string(listedShapes.empty() ? "" : ", ") + "[" + std::to_string(v[0]) +
                      ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + "]";
    return makeErrorAt(instrAttr ? instrAttr->location : attr.location,
                       "invalid WMMA v" + std::to_string(version) + " instruction shape: " +
                           (instrAttr ? "'instrShape' = " + printAttrValue(*instrAttr)
                                      : std::string("the default [16, 16, 16]")) +
                           " (version " + std::to_string(version) + " has " + listedShapes + ")");
  }
  LAYOUT_TRY(detail::cgaLayout(attr, rank));
  return rank;
}

// #ttg.amd_wmma, as Triton 3.6's AMDWmmaEncodingAttr::verify plus the parameter types: version
// 1 (gfx11), 2 (gfx12) or 3 (gfx1250); instrShape [16, 16, 16] for versions 1 and 2 (the default)
// and [16, 16, K], K in {4, 32, 64, 128}, for version 3 (which has no default).
Expected<int> verifyAmdWmma(const AttrValue& attr) {
  LAYOUT_TRY_ASSIGN(version, detail::intParam(attr, "version"));
  if (version < 1 || version > 3)
    return makeErrorAt(attr.find("version")->location,
                       std::string("'version' = ") + std::to_string(version) +
                           ": #ttg.amd_wmma has versions 1 (gfx11), 2 (gfx12) and 3 (gfx1250)");
  // Triton 3.6 spells the flag isTranspose; the seed's attribute definitions say isTransposed.
  const AttrValue* transposeFlag = nullptr;
  for (const char* key : {"isTranspose", "isTransposed"}) {
    const AttrValue* v = attr.find(key);
    if (!v) continue;
    if (v->kind != AttrValue::Kind::Boolean)
      return makeErrorAt(v->location, std::string("'") + key + "' must be true or false, not " +
                                          kindName(v->kind));
    if (transposeFlag)
      return makeErrorAt(v->location,
                         "give only one of 'isTranspose' (Triton 3.6) and 'isTransposed'");
    transposeFlag = v;
  }
  LAYOUT_TRY_ASSIGN(ctaLayout, detail::wmmaCtaLayout(attr));
  if (ctaLayout) return verifyAmdWmmaMain(attr, version, ctaLayout->numOutDims());
  if (const AttrValue* rank = attr.find("rank"))
    return makeErrorAt(rank->location, "'rank' belongs to Triton main's ctaLayout form of "
                                       "#ttg.amd_wmma; with warpsPerCTA the rank is its length");
  LAYOUT_TRY_ASSIGN(warps, detail::intList(attr, "warpsPerCTA"));
  if (warps.size() < 2 || warps.size() > 3)
    return makeErrorAt(attr.find("warpsPerCTA")->location,
                       std::string("'warpsPerCTA' = ") + printAttrValue(*attr.find("warpsPerCTA")) +
                           " has rank " + std::to_string(warps.size()) +
                           "; #ttg.amd_wmma has rank 2 or 3");
  if (auto err = checkPowersOfTwo(attr, "warpsPerCTA", warps); !err) return err.error();
  if (attr.find("tilesPerWarp")) {
    LAYOUT_TRY_ASSIGN(tpw, detail::intList(attr, "tilesPerWarp"));
    if (tpw.size() != warps.size())
      return makeErrorAt(attr.find("tilesPerWarp")->location,
                         std::string("'tilesPerWarp' has rank ") + std::to_string(tpw.size()) +
                             " but 'warpsPerCTA' has rank " + std::to_string(warps.size()) +
                             "; they must agree");
    if (auto err = checkPowersOfTwo(attr, "tilesPerWarp", tpw); !err) return err.error();
  }
  std::vector<int64_t> instr = {16, 16, 16};
  const AttrValue* instrAttr = attr.find("instrShape");
  if (instrAttr) {
    LAYOUT_TRY_ASSIGN(list, detail::intList(attr, "instrShape"));
    if (list.size() != 3)
      return makeErrorAt(instrAttr->location, std::string("'instrShape' = ") +
                                                  printAttrValue(*instrAttr) +
                                                  " must be [M, N, K] (3 entries)");
    instr = list;
  }
  const AttrValue& where = instrAttr ? *instrAttr : attr;
  const std::string shown = instrAttr ? "'instrShape' = " + printAttrValue(*instrAttr)
                                      : std::string("the default 'instrShape' [16, 16, 16]");
  // Triton's messages first. Triton also accepts [16, 16, 32] for version 2, whose conversion
  // is not implemented here: an error rather than an unchecked layout.
  if (version == 2 && instr == std::vector<int64_t>{16, 16, 32})
    return makeErrorAt(where.location,
                       shown + ": the 16x16x32 instruction of #ttg.amd_wmma version 2 " +
                           "is not converted to a linear layout yet");
  if (version < 3 && instr != std::vector<int64_t>{16, 16, 16})
    return makeErrorAt(where.location, std::string("invalid WMMA v") + std::to_string(version) +
                                           " instruction shape: " + shown +
                                           " (#ttg.amd_wmma versions 1 and 2 have " +
                                           "the 16x16x16 instruction)");
  if (version == 3 && (instr[0] != 16 || instr[1] != 16 ||
                       (instr[2] != 4 && instr[2] != 32 && instr[2] != 64 && instr[2] != 128)))
    return makeErrorAt(
        where.location,
        std::string("invalid WMMA v3 instruction shape: ") + shown +
            " (#ttg.amd_wmma version 3 needs [16, 16, K] with K one of 4, 32, 64, 128)");
  LAYOUT_TRY(detail::cgaLayout(attr, int(warps.size())));
  return int(warps.size());
}

// #ttg.amd_mfma, as Triton's AMDMfmaEncodingAttr parser and verifier: a boolean isTransposed,
// version in [0, 4], (M, N) one of the instructions, elementBitWidth 32 or 64. Triton's messages.
Expected<int> verifyAmdMfma(const AttrValue& attr) {
  if (const AttrValue* t = attr.find("isTransposed"); t && t->kind != AttrValue::Kind::Boolean)
    return makeErrorAt(t->location, "expected a bool type in isTransposed");
  if (attr.find("version")) {
    LAYOUT_TRY_ASSIGN(version, detail::intParam(attr, "version"));
    if (version < 0 || version > 4)
      return makeErrorAt(attr.find("version")->location,
                         std::string("version must be in the [0, 4] range, not ") +
                             std::to_string(version));
  }
  LAYOUT_TRY_ASSIGN(instr, detail::intList(attr, "instrShape"));
  if (instr.size() < 2)
    return makeErrorAt(attr.find("instrShape")->location, "'instrShape' needs [M, N, K]");
  if (auto err = detail::checkMfmaInstrShape(attr, instr[0], instr[1]); !err) return err.error();
  if (attr.find("elementBitWidth")) {
    LAYOUT_TRY_ASSIGN(bits, detail::intParam(attr, "elementBitWidth"));
    if (bits != 32 && bits != 64)
      return makeErrorAt(attr.find("elementBitWidth")->location,
                         std::string("elementBitWidth must be 32 or 64, not ") +
                             std::to_string(bits));
  }
  LAYOUT_TRY_ASSIGN(warps, detail::intList(attr, "warpsPerCTA"));
  return int(warps.size());
}

int64_t intOr(const AttrValue& attr, const char* key, int64_t fallback) {
  const AttrValue* v = attr.find(key);
  return v && v->kind == AttrValue::Kind::Integer ? v->integer : fallback;
}

// DotOperandEncodingAttr::verify's rules on kWidth (0 when absent) for each parent, with Triton's
// messages; Intel's fork adds the DPAS rules (checked with its conversion).
Expected<void> checkDotOperandKWidth(const AttrValue& dot, const Encoding& parent, int64_t opIdx,
                                     int64_t kWidth) {
  const AttrValue* kw = dot.find("kWidth");
  const SourceLocation where = (kw ? *kw : dot).location;
  const AttrValue& p = parent.attr;
  switch (parent.kind) {
  case EncodingKind::NvidiaMma: {
    const int64_t major = intOr(p, "versionMajor", 0);
    const bool ampereOrHopper = major == 2 || major == 3;
    if (kWidth != 0 && !ampereOrHopper)
      return makeErrorAt(where,
                         "ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper "
                         "MMA parent (versionMajor = " +
                             std::to_string(major) + ")");
    if (kWidth == 0 && ampereOrHopper)
      return makeErrorAt(where, "ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA "
                                "parent");
    if (opIdx != 0 && major == 3)
      return makeErrorAt(dot.find("opIdx")->location,
                         "ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper "
                         "WGMMA only allows first operand to be in registers");
    return {};
  }
  case EncodingKind::AmdWmma: {
    const int64_t version = intOr(p, "version", 1);
    if (version == 1 && kWidth != 8 && kWidth != 16)
      return makeErrorAt(where, "ttg.dot_op kWidth parameter must be 8/16 for WMMA v1 (including "
                                "packed cases for `scaled_dot`), not " +
                                    std::to_string(kWidth));
    if (version == 2 && kWidth != 4 && kWidth != 8 && kWidth != 16)
      return makeErrorAt(where, "ttg.dot_op kWidth parameter must be 4/8/16 for WMMA v2 (including "
                                "packed cases for `scaled_dot`), not " +
                                    std::to_string(kWidth));
    if (version == 3 && kWidth == 0)
      return makeErrorAt(where, "ttg.dot_op kWidth parameter is mandatory for WMMA v3");
    return {};
  }
  case EncodingKind::AmdMfma:
    if (kWidth == 0)
      return makeErrorAt(where, "ttg.dot_op kWidth parameter is mandatory for MFMA parent");
    return {};
  case EncodingKind::Blocked:
    if (kWidth != 0)
      return makeErrorAt(where, "ttg.dot_op kWidth parameter is not supported when the parent is a "
                                "blocked layout");
    return {};
  case EncodingKind::IntelDpas:
    return {};
  default:
    return makeErrorAt(p.location, std::string("ttg.dot_op unexpected parent layout: #") + p.text +
                                       " (the parent must be an MMA, DPAS or blocked encoding)");
  }
}

// Verifies the attribute and returns its rank (-1 where the rank is not known without a shape).
Expected<int> verify(const Encoding& e) {
  const AttrValue& attr = e.attr;
  if (auto err = detail::checkParameterNames(e.kind, attr); !err) return err.error();
  switch (e.kind) {
  case EncodingKind::Blocked:
    return verifyBlocked(attr);
  case EncodingKind::SwizzledShared:
  case EncodingKind::AmdRotatingShared:
    return verifySwizzled(attr);
  case EncodingKind::AmdWmma:
    return verifyAmdWmma(attr);
  case EncodingKind::AmdMfma:
    return verifyAmdMfma(attr);
  case EncodingKind::IntelDpas: {
    // DpasEncodingAttr::verify: repeatCount 1..8, systolicDepth 8, executionSize 16 or 8,
    // opsPerChan 1/2/4/8, threadsPerWarp, rank 2 or 3, repCluster, fp4KPack, CTA layout.
    LAYOUT_TRY_ASSIGN(p, detail::intelDpasParams(attr));
    return p.rank;
  }
  case EncodingKind::IntelSubgroup2DBlock: {
    LAYOUT_TRY(detail::subgroup2DBlockParams(attr));
    return 2;
  }
  case EncodingKind::PartitionedShared: {
    // Triton main's parser and PartitionedSharedEncodingAttr::verify, with their messages.
    const AttrValue* inner = attr.find("partitionLayout");
    if (!inner) return makeErrorAt(attr.location, "missing partitionLayout");
    LAYOUT_TRY_ASSIGN(partitions, detail::intParam(attr, "numPartitions"));
    LAYOUT_TRY_ASSIGN(groups, detail::intParam(attr, "numGroups"));
    LAYOUT_TRY_ASSIGN(dim, detail::intParam(attr, "partitionDim"));
    if (partitions < 2 || !std::has_single_bit(uint64_t(partitions)))
      return makeErrorAt(attr.find("numPartitions")->location,
                         "numPartitions must be a power of 2 and at least 2");
    if (groups < 1 || !std::has_single_bit(uint64_t(groups)))
      return makeErrorAt(attr.find("numGroups")->location,
                         "numGroups must be a power of 2 and greater than 0");
    LAYOUT_TRY_ASSIGN(p, encodingFromAttr(*inner));
    if (!p.isShared() || p.kind == EncodingKind::PartitionedShared)
      return makeErrorAt(inner->location, "partitionLayout must be a SharedEncodingTrait (a shared "
                                          "encoding other than #ttg.partitioned_shared), not #" +
                                              p.attr.text);
    LAYOUT_TRY_ASSIGN(rank, verify(p));
    if (dim < 0 || (rank >= 0 && dim >= rank))
      return makeErrorAt(attr.find("partitionDim")->location,
                         "partitionDim (" + std::to_string(dim) +
                             ") must be less than the layout rank (" + std::to_string(rank) + ")");
    return rank;
  }
  case EncodingKind::NvmmaShared: {
    // swizzlingByteWidth in {0, 32, 64, 128}, elementBitWidth in {4, 8, 16, 32, 64}, boolean
    // transposed / fp4Padded, rank agreeing with the CGA layout, no unknown keys.
    LAYOUT_TRY_ASSIGN(p, detail::nvmmaSharedParams(attr));
    return p.rank;
  }
  case EncodingKind::Linear: {
    LAYOUT_TRY_ASSIGN(ll, detail::storedLinearLayout(attr));
    return ll.numOutDims();
  }
  case EncodingKind::SharedLinear: {
    LAYOUT_TRY_ASSIGN(ll, detail::storedSharedLinearLayout(attr));
    return ll.numOutDims();
  }
  case EncodingKind::PaddedShared: {
    LAYOUT_TRY(detail::paddingIntervals(attr));
    if (!attr.find("offset") && !attr.find("order")) return -1; // the seed's short form: no rank
    LAYOUT_TRY_ASSIGN(ll, detail::paddedLinearComponent(attr));
    return ll.numOutDims();
  }
  case EncodingKind::Slice: {
    LAYOUT_TRY_ASSIGN(dim, detail::intParam(attr, "dim"));
    const AttrValue* parent = attr.find("parent");
    if (!parent) return makeErrorAt(attr.location, "#ttg.slice needs the parameter 'parent'");
    LAYOUT_TRY_ASSIGN(p, encodingFromAttr(*parent));
    if (p.isShared())
      return makeErrorAt(parent->location,
                         "the parent of #ttg.slice must be a distributed encoding, "
                         "not #" +
                             p.attr.text);
    LAYOUT_TRY_ASSIGN(parentRank, verify(p));
    if (dim < 0 || (parentRank >= 0 && dim >= parentRank))
      return makeErrorAt(attr.find("dim")->location, std::string("'dim' = ") + std::to_string(dim) +
                                                         " must name a dim of the parent (rank " +
                                                         std::to_string(parentRank) + ")");
    return parentRank >= 0 ? parentRank - 1 : -1;
  }
  case EncodingKind::DotOperand: {
    LAYOUT_TRY_ASSIGN(opIdx, detail::intParam(attr, "opIdx"));
    if (opIdx != 0 && opIdx != 1)
      return makeErrorAt(attr.find("opIdx")->location,
                         std::string("ttg.dot_op opIdx parameter can be 0 or 1, got: ") +
                             std::to_string(opIdx));
    int64_t kWidth = 0;
    if (attr.find("kWidth")) {
      LAYOUT_TRY_ASSIGN(k, detail::intParam(attr, "kWidth"));
      if (k < 0)
        return makeErrorAt(attr.find("kWidth")->location,
                           "expected an unsigned integer value in kWidth");
      kWidth = k;
    }
    const AttrValue* parent = attr.find("parent");
    if (!parent) return makeErrorAt(attr.location, "#ttg.dot_op needs the parameter 'parent'");
    LAYOUT_TRY_ASSIGN(p, encodingFromAttr(*parent));
    if (auto err = checkDotOperandKWidth(attr, p, opIdx, kWidth); !err) return err.error();
    return verify(p);
  }
  default:
    return -1;
  }
}

} // namespace

bool Encoding::isShared() const {
  return kind == EncodingKind::SwizzledShared || kind == EncodingKind::NvmmaShared ||
         kind == EncodingKind::AmdRotatingShared || kind == EncodingKind::PaddedShared ||
         kind == EncodingKind::SharedLinear || kind == EncodingKind::PartitionedShared;
}

Expected<Encoding> encodingFromAttr(const AttrValue& attr) {
  if (attr.kind != AttrValue::Kind::Attribute)
    return makeErrorAt(attr.location, std::string("expected a layout encoding attribute, got ") +
                                          kindName(attr.kind));
  AttrValue normalized = attr;
  normalizeDialect(normalized);
  auto it = kindsByName().find(normalized.text);
  if (it == kindsByName().end())
    return makeErrorAt(attr.location,
                       "unknown TritonGPU encoding " + layout::detail::quoteInput("#" + attr.text));
  std::string canonical = printAttrValue(normalized);
  if (it->second == EncodingKind::IntelSubgroup2DBlock)
    canonical = detail::subgroup2DBlockSpacing(std::move(canonical));
  Encoding e{it->second, std::move(normalized), std::move(canonical)};
  LAYOUT_TRY(verify(e));
  return e;
}

Expected<Encoding> parseEncoding(std::string_view text, const AttrAliases& aliases) {
  LAYOUT_TRY_ASSIGN(attr, parseAttribute(text, aliases));
  return encodingFromAttr(attr);
}

namespace {

// Conversions by (canonical text, shape). Bounded: cleared when it reaches kMaxEntries, which
// only costs recomputation.
class ConversionCache {
public:
  static constexpr size_t kMaxEntries = 1 << 14;

  std::optional<LinearLayout> find(const std::string& key) const {
    std::shared_lock lock(mutex_);
    auto it = map_.find(key);
    if (it == map_.end()) return std::nullopt;
    return it->second;
  }
  void insert(std::string key, const LinearLayout& l) {
    std::unique_lock lock(mutex_);
    if (map_.size() >= kMaxEntries) map_.clear();
    map_.emplace(std::move(key), l);
  }

private:
  mutable std::shared_mutex mutex_;
  std::unordered_map<std::string, LinearLayout> map_;
};

ConversionCache& conversionCache() {
  static ConversionCache* cache = new ConversionCache(); // outlives static destructors
  return *cache;
}

} // namespace

Expected<LinearLayout> toLinearLayout(const Encoding& encoding, std::span<const int64_t> shape) {
  std::string key = encoding.canonical;
  key.reserve(key.size() + 8 * shape.size());
  for (int64_t d : shape) key += "|" + std::to_string(d);
  if (auto hit = conversionCache().find(key)) return std::move(*hit);
  auto l = toLinearLayoutUncached(encoding, shape);
  if (l) conversionCache().insert(std::move(key), *l);
  return l;
}

Expected<LinearLayout> toLinearLayoutUncached(const Encoding& encoding,
                                              std::span<const int64_t> shape) {
  if (shape.empty()) return makeError("shape: a tensor has at least one dim");
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] < 1 || !std::has_single_bit(uint64_t(shape[d])) || shape[d] > (int64_t{1} << 40))
      return makeError("shape: dim " + std::to_string(d) + " has size " + std::to_string(shape[d]) +
                       "; linear layouts need powers of two (at most 2^40 here)");
  switch (encoding.kind) {
  case EncodingKind::Blocked:
    return detail::blockedToLinearLayout(encoding.attr, shape);
  case EncodingKind::Slice:
    return detail::sliceToLinearLayout(encoding.attr, shape);
  case EncodingKind::Linear:
    return detail::linearToLinearLayout(encoding.attr, shape);
  case EncodingKind::SharedLinear:
    return detail::sharedLinearToLinearLayout(encoding.attr, shape);
  case EncodingKind::PaddedShared:
    return detail::paddedSharedToLinearLayout(encoding.attr, shape);
  case EncodingKind::AmdMfma:
    return detail::amdMfmaToLinearLayout(encoding.attr, shape);
  case EncodingKind::AmdWmma:
    return detail::amdWmmaToLinearLayout(encoding.attr, shape);
  case EncodingKind::NvidiaMma:
    return detail::nvidiaMmaToLinearLayout(encoding.attr, shape);
  case EncodingKind::DotOperand:
    return detail::dotOperandToLinearLayout(encoding.attr, shape);
  case EncodingKind::SwizzledShared:
    return detail::swizzledSharedToLinearLayout(encoding.attr, shape, /*rotating=*/false);
  case EncodingKind::AmdRotatingShared:
    return detail::swizzledSharedToLinearLayout(encoding.attr, shape, /*rotating=*/true);
  case EncodingKind::NvmmaShared:
    return detail::nvmmaSharedToLinearLayout(encoding.attr, shape);
  case EncodingKind::IntelDpas:
    return detail::intelDpasToLinearLayout(encoding.attr, shape);
  case EncodingKind::IntelSubgroup2DBlock:
    return detail::subgroup2DBlockToLinearLayout(encoding.attr, shape);
  case EncodingKind::PartitionedShared:
    return detail::partitionedSharedToLinearLayout(encoding.attr, shape);
  default:
    return makeError("#" + encoding.attr.text +
                     ": the conversion of this encoding to a linear layout is not implemented yet");
  }
}

} // namespace layout::triton
