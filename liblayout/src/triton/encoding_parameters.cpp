// The parameter names each TritonGPU encoding takes, and the error for any other name. Where
// Triton's parser rejects an unknown name, the message is Triton's; where Triton ignores it
// (nvidia_mma, amd_mfma, amd_wmma, linear, slice, Intel dpas), it is rejected too, since a
// misspelt parameter (`isTranspose` on amd_mfma, `tilesperWarp`) would silently change the layout.
#include "encoding_internal.h"

#include <algorithm>
#include <span>

namespace layout::triton::detail {

namespace {

using Names = std::span<const char* const>;

// The CGA layout, as Triton 3.6 writes it and as older versions did.
constexpr const char* kCga[] = {"CGALayout", "CTAsPerCGA", "CTASplitNum", "CTAOrder"};

constexpr const char* kBlocked[] = {"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"};
constexpr const char* kSwizzled[] = {"vec", "perPhase", "maxPhase", "order"};
constexpr const char* kNvmmaShared[] = {"swizzlingByteWidth", "transposed", "elementBitWidth",
                                        "fp4Padded", "rank"};
constexpr const char* kPaddedBases[] = {"offset", "block"};
constexpr const char* kPaddedShape[] = {"order", "shape"};
constexpr const char* kSharedLinear[] = {"offset", "block", "alignment"};
constexpr const char* kDotOperand[] = {"opIdx", "parent", "kWidth"};
constexpr const char* kNvidiaMma[] = {"versionMajor", "versionMinor", "warpsPerCTA", "instrShape"};
constexpr const char* kAmdMfma[] = {"version",      "warpsPerCTA",  "instrShape",
                                    "isTransposed", "tilesPerWarp", "elementBitWidth"};
// Triton 3.6 spells the flag isTranspose; the seed's attribute definitions isTransposed. Triton
// main replaced warpsPerCTA / tilesPerWarp by ctaLayout (and rank, for an empty one).
constexpr const char* kAmdWmma[] = {"version",      "isTranspose", "isTransposed", "warpsPerCTA",
                                    "tilesPerWarp", "instrShape",  "ctaLayout",    "rank"};
constexpr const char* kLinear[] = {"register", "lane", "warp", "block"};
constexpr const char* kSlice[] = {"dim", "parent"};
// A, B and C: the per-warp operand shapes older Triton versions print.
constexpr const char* kIntelDpas[] = {"repeatCount",
                                      "systolicDepth",
                                      "executionSize",
                                      "opsPerChan",
                                      "threadsPerWarp",
                                      "warpsPerCTA",
                                      "repCluster",
                                      "fp4KPack",
                                      "A",
                                      "B",
                                      "C"};

constexpr const char* kPartitionedShared[] = {"numPartitions", "numGroups", "partitionDim",
                                              "partitionLayout"};
constexpr const char* kIntelSubgroup2DBlock[] = {"warpsPerCTA", "instrShape", "numBlocks",
                                                 "order",       "kWidth",     "threadsPerWarp"};

bool among(const std::string& key, Names names) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return key == n; });
}

std::string listed(Names names) {
  std::string s;
  for (const char* n : names) s += (s.empty() ? "" : ", ") + std::string(n);
  return s;
}

struct ParameterSet {
  Names names;
  bool cga;                  // also the CGA layout's names
  const char* tritonMessage; // Triton's diagnostic prefix; null where Triton ignores the name
  bool quoted = false;       // Triton quotes the name (padded_shared)
};

ParameterSet parameterSet(EncodingKind kind, const AttrValue& attr) {
  switch (kind) {
  case EncodingKind::Blocked:
    return {kBlocked, true, "unexpected key: "};
  case EncodingKind::SwizzledShared:
  case EncodingKind::AmdRotatingShared:
    return {kSwizzled, true, "unexpected key: "};
  case EncodingKind::NvmmaShared:
    return {kNvmmaShared, true, "unexpected key: "};
  case EncodingKind::PaddedShared:
    if (attr.find("offset") || attr.find("block"))
      return {kPaddedBases, false, "Unexpected attribute ", true};
    return {kPaddedShape, false, "Unexpected attribute ", true};
  case EncodingKind::SharedLinear:
    return {kSharedLinear, false,
            "SharedLinearEncodingAttr must have exactly two attributes: offset and block; got "};
  case EncodingKind::DotOperand:
    return {kDotOperand, false, "duplicate or unknown struct parameter name: "};
  case EncodingKind::NvidiaMma:
    return {kNvidiaMma, true, nullptr};
  case EncodingKind::AmdMfma:
    return {kAmdMfma, true, nullptr};
  case EncodingKind::AmdWmma:
    return {kAmdWmma, true, nullptr};
  case EncodingKind::Linear:
    return {kLinear, false, nullptr};
  case EncodingKind::Slice:
    return {kSlice, false, nullptr};
  case EncodingKind::IntelDpas:
    return {kIntelDpas, true, nullptr};
  case EncodingKind::IntelSubgroup2DBlock:
    return {kIntelSubgroup2DBlock, true, nullptr};
  case EncodingKind::PartitionedShared:
    return {kPartitionedShared, false, "unexpected key: "};
  }
  return {{}, false, nullptr};
}

} // namespace

Expected<void> checkParameterNames(EncodingKind kind, const AttrValue& attr) {
  const ParameterSet set = parameterSet(kind, attr);
  for (const AttrEntry& e : attr.entries) {
    if (among(e.key, set.names) || (set.cga && among(e.key, kCga))) continue;
    if (set.tritonMessage)
      return makeErrorAt(e.value.location, set.tritonMessage +
                                               (set.quoted ? "\"" + e.key + "\" found" : e.key) +
                                               " (#" + attr.text + " takes " + listed(set.names) +
                                               (set.cga ? " and the CGA layout" : "") + ")");
    return makeErrorAt(e.value.location,
                       std::string("unknown parameter '") + e.key + "' of #" + attr.text +
                           " (it takes " + listed(set.names) +
                           (set.cga ? " and the CGA layout" : "") +
                           "; Triton ignores other names, which would hide a misspelt one)");
  }
  return {};
}

} // namespace layout::triton::detail
