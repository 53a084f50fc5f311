// Typed TritonGPU encodings (layout/triton/encoding_params.h): each struct becomes an AttrValue
// tree (the builder, verified by encodingFromAttr; the printer, printAttrValue), and each reader
// takes the values back out of a parsed attribute with the same helpers the converters use.
#include "layout/triton/encoding_params.h"

#include "encoding_internal.h"

namespace layout::triton {

namespace {

// ---- building attribute values ------------------------------------------------------------------

AttrValue integerValue(int64_t v) {
  AttrValue a;
  a.kind = AttrValue::Kind::Integer;
  a.integer = v;
  return a;
}

AttrValue booleanValue(bool v) {
  AttrValue a;
  a.kind = AttrValue::Kind::Boolean;
  a.boolean = v;
  return a;
}

AttrValue listValue(const std::vector<int64_t>& v) {
  AttrValue a;
  a.kind = AttrValue::Kind::List;
  for (int64_t x : v) a.items.push_back(integerValue(x));
  return a;
}

AttrValue basesValue(const Bases& bases) {
  AttrValue a;
  a.kind = AttrValue::Kind::List;
  for (const auto& b : bases) a.items.push_back(listValue(b));
  return a;
}

// #<name><{key = value, ...}> in the order the entries are added (Triton's printing order).
struct AttrBuilder {
  AttrValue v;
  explicit AttrBuilder(const char* name) {
    v.kind = AttrValue::Kind::Attribute;
    v.text = name;
  }
  AttrBuilder& add(const char* key, AttrValue value) {
    v.entries.push_back({key, std::move(value)});
    v.bracedEntries = v.entries.size();
    return *this;
  }
  AttrBuilder& addList(const char* key, const std::vector<int64_t>& list) {
    return add(key, listValue(list));
  }
  // Parameters Triton prints only when set.
  AttrBuilder& addListIfAny(const char* key, const std::vector<int64_t>& list) {
    return list.empty() ? *this : addList(key, list);
  }
  AttrBuilder& addCga(const Bases& cga) {
    return cga.empty() ? *this : add("CGALayout", basesValue(cga));
  }
};

// ---- reading them back --------------------------------------------------------------------------

Expected<void> expectKind(const Encoding& e, EncodingKind kind, const char* name) {
  if (e.kind != kind) return makeError(std::string("expected a #") + name + ", not " + e.text());
  return {};
}

Expected<std::vector<int64_t>> optionalList(const AttrValue& attr, const char* key) {
  if (!attr.find(key)) return std::vector<int64_t>{};
  return detail::intList(attr, key);
}

Expected<int64_t> optionalInt(const AttrValue& attr, const char* key, int64_t fallback) {
  if (!attr.find(key)) return fallback;
  return detail::intParam(attr, key);
}

bool flag(const AttrValue& attr, const char* key) {
  const AttrValue* v = attr.find(key);
  return v && v->kind == AttrValue::Kind::Boolean && v->boolean;
}

Expected<Bases> optionalBases(const AttrValue& attr, const char* key) {
  if (!attr.find(key)) return Bases{};
  return detail::basesParam(attr, key);
}

// The CGA layout as Triton 3.6's bases (from CGALayout or from the older CTA parameters);
// empty for one CTA.
Expected<Bases> cgaBases(const AttrValue& attr, int rank) {
  LAYOUT_TRY_ASSIGN(cga, detail::cgaLayout(attr, rank));
  Bases out;
  const int block = cga.inDimIndex(dims::block());
  if (block < 0) return out;
  const std::vector<InDimBases> ins = cga.inDims(); // a copy: the bases outlive the call
  for (const auto& basis : ins[size_t(block)].bases)
    out.push_back(std::vector<int64_t>(basis.begin(), basis.end()));
  return out;
}

// ---- the attribute of each struct ---------------------------------------------------------------

AttrValue attrOf(const BlockedEncoding& e) {
  return AttrBuilder("ttg.blocked")
      .addList("sizePerThread", e.sizePerThread)
      .addList("threadsPerWarp", e.threadsPerWarp)
      .addList("warpsPerCTA", e.warpsPerCTA)
      .addList("order", e.order)
      .addCga(e.cgaLayout)
      .v;
}

AttrValue attrOf(const PartitionedSharedEncoding& e) {
  return AttrBuilder("ttg.partitioned_shared")
      .add("numPartitions", integerValue(e.numPartitions))
      .add("numGroups", integerValue(e.numGroups))
      .add("partitionDim", integerValue(e.partitionDim))
      .add("partitionLayout", e.partitionLayout.attr)
      .v;
}

AttrValue attrOf(const SliceEncoding& e) {
  return AttrBuilder("ttg.slice").add("dim", integerValue(e.dim)).add("parent", e.parent.attr).v;
}

AttrValue attrOf(const DotOperandEncoding& e) {
  AttrBuilder b("ttg.dot_op");
  b.add("opIdx", integerValue(e.opIdx)).add("parent", e.parent.attr);
  if (e.kWidth != 0) b.add("kWidth", integerValue(e.kWidth));
  return b.v;
}

AttrValue attrOf(const NvidiaMmaEncoding& e) {
  return AttrBuilder("ttg.nvidia_mma")
      .add("versionMajor", integerValue(e.versionMajor))
      .add("versionMinor", integerValue(e.versionMinor))
      .addList("warpsPerCTA", e.warpsPerCTA)
      .addCga(e.cgaLayout)
      .addList("instrShape", e.instrShape)
      .v;
}

AttrValue attrOf(const AmdMfmaEncoding& e) {
  AttrBuilder b("ttg.amd_mfma");
  b.add("version", integerValue(e.version)).addList("warpsPerCTA", e.warpsPerCTA);
  b.addListIfAny("tilesPerWarp", e.tilesPerWarp).addList("instrShape", e.instrShape);
  b.add("isTransposed", booleanValue(e.isTransposed)).addCga(e.cgaLayout);
  if (e.elementBitWidth != 0) b.add("elementBitWidth", integerValue(e.elementBitWidth));
  return b.v;
}

AttrValue attrOf(const AmdWmmaEncoding& e) {
  AttrBuilder b("ttg.amd_wmma");
  b.add("version", integerValue(e.version)).add("isTranspose", booleanValue(e.isTranspose));
  if (e.hasCtaLayout) {
    // Triton main's printer: empty bases are skipped, CGALayout after ctaLayout, instrShape only
    // when it is not the default.
    AttrValue cta;
    cta.kind = AttrValue::Kind::Dict;
    if (!e.ctaRegisters.empty()) cta.entries.push_back({"register", basesValue(e.ctaRegisters)});
    if (!e.ctaWarps.empty()) cta.entries.push_back({"warp", basesValue(e.ctaWarps)});
    b.add("ctaLayout", std::move(cta));
    if (e.rank != 0) b.add("rank", integerValue(e.rank));
    b.addCga(e.cgaLayout);
    if (e.instrShape != std::vector<int64_t>{16, 16, 16})
      b.addListIfAny("instrShape", e.instrShape);
    return b.v;
  }
  b.addList("warpsPerCTA", e.warpsPerCTA).addListIfAny("tilesPerWarp", e.tilesPerWarp);
  b.addCga(e.cgaLayout).addListIfAny("instrShape", e.instrShape);
  return b.v;
}

AttrValue attrOf(const LinearEncoding& e) {
  return AttrBuilder("ttg.linear")
      .add("register", basesValue(e.registers))
      .add("lane", basesValue(e.lanes))
      .add("warp", basesValue(e.warps))
      .add("block", basesValue(e.blocks))
      .v;
}

AttrValue swizzledAttr(const char* name, int64_t vec, int64_t perPhase, int64_t maxPhase,
                       const std::vector<int64_t>& order, const Bases& cga) {
  return AttrBuilder(name)
      .add("vec", integerValue(vec))
      .add("perPhase", integerValue(perPhase))
      .add("maxPhase", integerValue(maxPhase))
      .addList("order", order)
      .addCga(cga)
      .v;
}

AttrValue attrOf(const SwizzledSharedEncoding& e) {
  return swizzledAttr("ttg.swizzled_shared", e.vec, e.perPhase, e.maxPhase, e.order, e.cgaLayout);
}

AttrValue attrOf(const AmdRotatingSharedEncoding& e) {
  return swizzledAttr("ttg.amd_rotating_shared", e.vec, e.perPhase, e.maxPhase, e.order,
                      e.cgaLayout);
}

AttrValue attrOf(const NvmmaSharedEncoding& e) {
  AttrBuilder b("ttg.nvmma_shared");
  b.add("swizzlingByteWidth", integerValue(e.swizzlingByteWidth));
  b.add("transposed", booleanValue(e.transposed));
  b.add("elementBitWidth", integerValue(e.elementBitWidth));
  if (e.fp4Padded) b.add("fp4Padded", booleanValue(true));
  b.addCga(e.cgaLayout);
  if (e.rank != 0) b.add("rank", integerValue(e.rank));
  return b.v;
}

AttrValue attrOf(const PaddedSharedEncoding& e) {
  AttrBuilder b("ttg.padded_shared");
  AttrValue pads;
  pads.kind = AttrValue::Kind::List;
  for (auto [interval, pad] : e.intervalPaddings) {
    AttrValue p;
    p.kind = AttrValue::Kind::Padding;
    p.integer = interval;
    p.padding = pad;
    pads.items.push_back(p);
  }
  b.v.items.push_back(std::move(pads));
  if (e.offsetBases.empty() && e.blockBases.empty())
    b.addList("order", e.order).addList("shape", e.shape);
  else
    b.add("offset", basesValue(e.offsetBases)).add("block", basesValue(e.blockBases));
  return b.v;
}

AttrValue attrOf(const SharedLinearEncoding& e) {
  AttrBuilder b("ttg.shared_linear");
  b.add("offset", basesValue(e.offset)).add("block", basesValue(e.block));
  if (e.alignment != 0) b.add("alignment", integerValue(e.alignment));
  return b.v;
}

AttrValue attrOf(const IntelDpasEncoding& e) {
  AttrBuilder b("ttig.dpas");
  b.add("repeatCount", integerValue(e.repeatCount));
  b.add("systolicDepth", integerValue(e.systolicDepth));
  b.add("executionSize", integerValue(e.executionSize));
  b.add("opsPerChan", integerValue(e.opsPerChan));
  b.add("threadsPerWarp", integerValue(e.threadsPerWarp));
  b.addList("warpsPerCTA", e.warpsPerCTA).addList("repCluster", e.repCluster);
  if (e.fp4KPack != 0) b.add("fp4KPack", integerValue(e.fp4KPack));
  return b.v;
}

AttrValue attrOf(const Subgroup2DBlockEncoding& e) {
  const Subgroup2DBlockParams& p = e.params;
  AttrBuilder b("ttig.subgroup_2d_block");
  b.addList("warpsPerCTA", {p.warpsPerCTA[0], p.warpsPerCTA[1]}).addCga(e.cgaLayout);
  b.addList("instrShape", {p.instrShape[0], p.instrShape[1]});
  b.add("numBlocks", integerValue(p.numBlocks)).addList("order", {p.order[0], p.order[1]});
  b.add("kWidth", integerValue(p.kWidth)).add("threadsPerWarp", integerValue(p.threadsPerWarp));
  return b.v;
}

} // namespace

Expected<Encoding> toEncoding(const Subgroup2DBlockEncoding& e) {
  return encodingFromAttr(attrOf(e));
}

std::string printEncoding(const Subgroup2DBlockEncoding& e) {
  return detail::subgroup2DBlockSpacing(printAttrValue(attrOf(e)));
}

#define LAYOUT_TYPED_ENCODING(Type)                                                                \
  Expected<Encoding> toEncoding(const Type& e) {                                                   \
    return encodingFromAttr(attrOf(e));                                                            \
  }                                                                                                \
  std::string printEncoding(const Type& e) {                                                       \
    return printAttrValue(attrOf(e));                                                              \
  }
LAYOUT_TYPED_ENCODING(BlockedEncoding)
LAYOUT_TYPED_ENCODING(SliceEncoding)
LAYOUT_TYPED_ENCODING(DotOperandEncoding)
LAYOUT_TYPED_ENCODING(NvidiaMmaEncoding)
LAYOUT_TYPED_ENCODING(AmdMfmaEncoding)
LAYOUT_TYPED_ENCODING(AmdWmmaEncoding)
LAYOUT_TYPED_ENCODING(LinearEncoding)
LAYOUT_TYPED_ENCODING(SwizzledSharedEncoding)
LAYOUT_TYPED_ENCODING(AmdRotatingSharedEncoding)
LAYOUT_TYPED_ENCODING(NvmmaSharedEncoding)
LAYOUT_TYPED_ENCODING(PaddedSharedEncoding)
LAYOUT_TYPED_ENCODING(SharedLinearEncoding)
LAYOUT_TYPED_ENCODING(IntelDpasEncoding)
LAYOUT_TYPED_ENCODING(PartitionedSharedEncoding)
#undef LAYOUT_TYPED_ENCODING

Expected<BlockedEncoding> blockedEncoding(const Encoding& e) {
  LAYOUT_TRY(expectKind(e, EncodingKind::Blocked, "ttg.blocked"));
  BlockedEncoding out;
  LAYOUT_TRY_ASSIGN(spt, detail::intList(e.attr, "sizePerThread"));
  LAYOUT_TRY_ASSIGN(tpw, detail::intList(e.attr, "threadsPerWarp"));
  LAYOUT_TRY_ASSIGN(wpc, detail::intList(e.attr, "warpsPerCTA"));
  LAYOUT_TRY_ASSIGN(order, detail::intList(e.attr, "order"));
  LAYOUT_TRY_ASSIGN(cga, cgaBases(e.attr, int(order.size())));
  return BlockedEncoding{spt, tpw, wpc, order, cga};
}

Expected<SliceEncoding> sliceEncoding(const Encoding& e) {
  LAYOUT_TRY(expectKind(e, EncodingKind::Slice, "ttg.slice"));
  LAYOUT_TRY_ASSIGN(dim, detail::intParam(e.attr, "dim"));
  LAYOUT_TRY_ASSIGN(parent, encodingFromAttr(*e.attr.find("parent")));
  return SliceEncoding{dim, std::move(parent)};
}

Expected<DotOperandEncoding> dotOperandEncoding(const Encoding& e) {
  LAYOUT_TRY(expectKind(e, EncodingKind::DotOperand, "ttg.dot_op"));
  LAYOUT_TRY_ASSIGN(opIdx, detail::intParam(e.attr, "opIdx"));
  LAYOUT_TRY_ASSIGN(kWidth, optionalInt(e.attr, "kWidth", 0));
  LAYOUT_TRY_ASSIGN(parent, encodingFromAttr(*e.attr.find("parent")));
  return DotOperandEncoding{opIdx, std::move(parent), kWidth};
}

Expected<NvidiaMmaEncoding> nvidiaMmaEncoding(const Encoding& e) {
  LAYOUT_TRY(expectKind(e, EncodingKind::NvidiaMma, "ttg.nvidia_mma"));
  NvidiaMmaEncoding out;
  LAYOUT_TRY_ASSIGN(major, detail::intParam(e.attr, "versionMajor"));
  LAYOUT_TRY_ASSIGN(minor, optionalInt(e.attr, "versionMinor", 0));
  LAYOUT_TRY_ASSIGN(wpc, detail::intList(e.attr, "warpsPerCTA"));
  LAYOUT_TRY_ASSIGN(instr, optionalList(e.attr, "instrShape"));
  LAYOUT_TRY_ASSIGN(cga, cgaBases(e.attr, int(wpc.size())));
  return NvidiaMmaEncoding{major, minor, wpc, instr, cga};
}

Expected<AmdMfmaEncoding> amdMfmaEncoding(const Encoding& e) {
  LAYOUT_TRY(expectKind(e, EncodingKind::AmdMfma, "ttg.amd_mfma"));
  LAYOUT_TRY_ASSIGN(version, detail::intParam(e.attr, "version"));
  LAYOUT_TRY_ASSIGN(wpc, detail::intList(e.attr, "warpsPerCTA"));
  LAYOUT_TRY_ASSIGN(instr, detail::intList(e.attr, "instrShape"));
  LAYOUT_TRY_ASSIGN(tiles, optionalList(e.attr, "tilesPerWarp"));
  LAYOUT_TRY_ASSIGN(bits, optionalInt(e.attr, "elementBitWidth", 0));
  LAYOUT_TRY_ASSIGN(cga, cgaBases(e.attr, int(wpc.size())));
  return AmdMfmaEncoding{version, wpc, instr, flag(e.attr, "isTransposed"), tiles, bits, cga};
}

Expected<AmdWmmaEncoding> amdWmmaEncoding(const Encoding& e) {
  LAYOUT_TRY(expectKind(e, EncodingKind::AmdWmma, "ttg.amd_wmma"));
  LAYOUT_TRY_ASSIGN(version, optionalInt(e.attr, "version", 1));
  if (const AttrValue* cta = e.attr.find("ctaLayout")) {
    AmdWmmaEncoding out;
    out.version = version;
    out.isTranspose = flag(e.attr, "isTranspose") || flag(e.attr, "isTransposed");
    out.hasCtaLayout = true;
    LAYOUT_TRY_ASSIGN(regs, optionalBases(*cta, "register"));
    LAYOUT_TRY_ASSIGN(warps, optionalBases(*cta, "warp"));
    LAYOUT_TRY_ASSIGN(rank, optionalInt(e.attr, "rank", 0));
    LAYOUT_TRY_ASSIGN(instr, optionalList(e.attr, "instrShape"));
    LAYOUT_TRY_ASSIGN(ctaLayout, detail::wmmaCtaLayout(e.attr));
    LAYOUT_TRY_ASSIGN(cga, cgaBases(e.attr, ctaLayout->numOutDims()));
    out.ctaRegisters = std::move(regs);
    out.ctaWarps = std::move(warps);
    out.rank = rank;
    out.instrShape = std::move(instr);
    out.cgaLayout = std::move(cga);
    return out;
  }
  LAYOUT_TRY_ASSIGN(wpc, detail::intList(e.attr, "warpsPerCTA"));
  LAYOUT_TRY_ASSIGN(tiles, optionalList(e.attr, "tilesPerWarp"));
  LAYOUT_TRY_ASSIGN(instr, optionalList(e.attr, "instrShape"));
  LAYOUT_TRY_ASSIGN(cga, cgaBases(e.attr, int(wpc.size())));
  const bool transposed = flag(e.attr, "isTranspose") || flag(e.attr, "isTransposed");
  AmdWmmaEncoding out;
  out.version = version;
  out.isTranspose = transposed;
  out.warpsPerCTA = std::move(wpc);
  out.tilesPerWarp = std::move(tiles);
  out.instrShape = std::move(instr);
  out.cgaLayout = std::move(cga);
  return out;
}

Expected<LinearEncoding> linearEncoding(const Encoding& e) {
  LAYOUT_TRY(expectKind(e, EncodingKind::Linear, "ttg.linear"));
  LAYOUT_TRY_ASSIGN(regs, optionalBases(e.attr, "register"));
  LAYOUT_TRY_ASSIGN(lanes, optionalBases(e.attr, "lane"));
  LAYOUT_TRY_ASSIGN(warps, optionalBases(e.attr, "warp"));
  LAYOUT_TRY_ASSIGN(blocks, optionalBases(e.attr, "block"));
  return LinearEncoding{regs, lanes, warps, blocks};
}

namespace {

template <typename T> Expected<T> swizzledFields(const Encoding& e) {
  LAYOUT_TRY_ASSIGN(vec, detail::intParam(e.attr, "vec"));
  LAYOUT_TRY_ASSIGN(perPhase, detail::intParam(e.attr, "perPhase"));
  LAYOUT_TRY_ASSIGN(maxPhase, detail::intParam(e.attr, "maxPhase"));
  LAYOUT_TRY_ASSIGN(order, detail::intList(e.attr, "order"));
  LAYOUT_TRY_ASSIGN(cga, cgaBases(e.attr, int(order.size())));
  return T{vec, perPhase, maxPhase, order, cga};
}

} // namespace

Expected<SwizzledSharedEncoding> swizzledSharedEncoding(const Encoding& e) {
  LAYOUT_TRY(expectKind(e, EncodingKind::SwizzledShared, "ttg.swizzled_shared"));
  return swizzledFields<SwizzledSharedEncoding>(e);
}

Expected<AmdRotatingSharedEncoding> amdRotatingSharedEncoding(const Encoding& e) {
  LAYOUT_TRY(expectKind(e, EncodingKind::AmdRotatingShared, "ttg.amd_rotating_shared"));
  return swizzledFields<AmdRotatingSharedEncoding>(e);
}

Expected<NvmmaSharedEncoding> nvmmaSharedEncoding(const Encoding& e) {
  LAYOUT_TRY(expectKind(e, EncodingKind::NvmmaShared, "ttg.nvmma_shared"));
  LAYOUT_TRY_ASSIGN(p, detail::nvmmaSharedParams(e.attr));
  LAYOUT_TRY_ASSIGN(rank, optionalInt(e.attr, "rank", 0));
  LAYOUT_TRY_ASSIGN(cga, cgaBases(e.attr, p.rank));
  return NvmmaSharedEncoding{p.swizzlingByteWidth, p.transposed, p.elementBitWidth,
                             p.fp4Padded,          rank,         cga};
}

Expected<PaddedSharedEncoding> paddedSharedEncoding(const Encoding& e) {
  LAYOUT_TRY(expectKind(e, EncodingKind::PaddedShared, "ttg.padded_shared"));
  PaddedSharedEncoding out;
  LAYOUT_TRY_ASSIGN(pads, detail::paddingIntervals(e.attr));
  out.intervalPaddings = std::move(pads);
  LAYOUT_TRY_ASSIGN(order, optionalList(e.attr, "order"));
  LAYOUT_TRY_ASSIGN(shape, optionalList(e.attr, "shape"));
  LAYOUT_TRY_ASSIGN(offset, optionalBases(e.attr, "offset"));
  LAYOUT_TRY_ASSIGN(block, optionalBases(e.attr, "block"));
  out.order = std::move(order);
  out.shape = std::move(shape);
  out.offsetBases = std::move(offset);
  out.blockBases = std::move(block);
  return out;
}

Expected<SharedLinearEncoding> sharedLinearEncoding(const Encoding& e) {
  LAYOUT_TRY(expectKind(e, EncodingKind::SharedLinear, "ttg.shared_linear"));
  LAYOUT_TRY_ASSIGN(offset, optionalBases(e.attr, "offset"));
  LAYOUT_TRY_ASSIGN(block, optionalBases(e.attr, "block"));
  LAYOUT_TRY_ASSIGN(alignment, optionalInt(e.attr, "alignment", 0));
  return SharedLinearEncoding{offset, block, alignment};
}

Expected<PartitionedSharedEncoding> partitionedSharedEncoding(const Encoding& e) {
  LAYOUT_TRY(expectKind(e, EncodingKind::PartitionedShared, "ttg.partitioned_shared"));
  LAYOUT_TRY_ASSIGN(partitions, detail::intParam(e.attr, "numPartitions"));
  LAYOUT_TRY_ASSIGN(groups, detail::intParam(e.attr, "numGroups"));
  LAYOUT_TRY_ASSIGN(dim, detail::intParam(e.attr, "partitionDim"));
  LAYOUT_TRY_ASSIGN(inner, encodingFromAttr(*e.attr.find("partitionLayout")));
  return PartitionedSharedEncoding{partitions, groups, dim, std::move(inner)};
}

Expected<Subgroup2DBlockEncoding> subgroup2DBlockEncoding(const Encoding& e) {
  LAYOUT_TRY(expectKind(e, EncodingKind::IntelSubgroup2DBlock, "ttig.subgroup_2d_block"));
  LAYOUT_TRY_ASSIGN(params, subgroup2DBlockParams(e));
  LAYOUT_TRY_ASSIGN(cga, cgaBases(e.attr, 2));
  return Subgroup2DBlockEncoding{params, cga};
}

Expected<IntelDpasEncoding> intelDpasEncoding(const Encoding& e) {
  LAYOUT_TRY(expectKind(e, EncodingKind::IntelDpas, "ttig.dpas"));
  return detail::intelDpasParams(e.attr);
}

} // namespace layout::triton
