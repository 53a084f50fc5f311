#include "access_geometry.h"

#include "layout/core/element_bits.h"
#include "layout/text/internal/quoted_input.h"
#include "xor_basis.h"

#include <bit>
#include <string>

namespace layout::smem::detail {

namespace {

std::string dimList(const LinearLayout& l, bool ins) {
  std::string s;
  int n = ins ? l.numInDims() : l.numOutDims();
  for (int i = 0; i < n; ++i) {
    if (i) s += ", ";
    s += std::string(ins ? l.inDimName(i).str() : l.outDimName(i).str());
    s += "=" + std::to_string(ins ? l.inDimSize(i) : l.outDimSize(i));
  }
  return s;
}

} // namespace

std::vector<uint64_t> inDimImages(const LinearLayout& l, DimName name) {
  std::vector<uint64_t> out;
  int i = l.inDimIndex(name);
  if (i < 0) return out;
  for (int b = 0; b < l.inDimSizeLog2(i); ++b)
    out.push_back(l.basisWords(l.inDimFirstBasis(i) + b)[0]);
  return out;
}

Expected<AccessGeometry> accessGeometry(const LinearLayout& accessIn, const LinearLayout& shared) {
  for (int i = 0; i < accessIn.numInDims(); ++i) {
    DimName d = accessIn.inDimName(i);
    if (d != dims::reg() && d != dims::lane() && d != dims::warp() && d != dims::block())
      return makeError("access layout: in-dim " + layout::detail::quoteInput(std::string(d.str())) +
                       " is not register, lane, warp or block");
    if (d == dims::block() && accessIn.inDimSize(i) > 1)
      return makeError("access layout: block has size " + std::to_string(accessIn.inDimSize(i)) +
                       "; each CTA has its own shared memory, analyse one CTA (block size 1)");
  }
  for (int i = 0; i < shared.numInDims(); ++i) {
    DimName d = shared.inDimName(i);
    if (d != dims::offset() && d != dims::block())
      return makeError("shared layout: in-dim " + layout::detail::quoteInput(std::string(d.str())) +
                       " is not offset or block");
    if (d == dims::block() && shared.inDimSize(i) > 1)
      return makeError("shared layout: block has size " + std::to_string(shared.inDimSize(i)) +
                       "; analyse one CTA (block size 1)");
  }
  if (!shared.hasInDim(dims::offset())) return makeError("shared layout: no 'offset' in-dim");
  if (!accessIn.hasInDim(dims::lane())) return makeError("access layout: no 'lane' in-dim");
  // The same tensor: equal out-dims, possibly listed in another order.
  bool same = accessIn.numOutDims() == shared.numOutDims();
  for (int i = 0; same && i < shared.numOutDims(); ++i) {
    int j = accessIn.outDimIndex(shared.outDimName(i));
    same = j >= 0 && accessIn.outDimSize(j) == shared.outDimSize(i);
  }
  if (!same)
    return makeError("access layout and shared layout cover different tensors: access [" +
                     dimList(accessIn, false) + "], shared [" + dimList(shared, false) + "]");
  std::vector<DimName> order = shared.outDimNames();
  LAYOUT_TRY_ASSIGN(access, accessIn.transposeOuts(order));
  AccessGeometry g;
  g.offsetBits = shared.totalOutDimSizeLog2();
  if (g.offsetBits > 62)
    return makeError("shared layout: the tile has 2^" + std::to_string(g.offsetBits) +
                     " elements; at most 2^62 are supported");
  int offsetDim = shared.inDimIndex(dims::offset());
  if (shared.inDimSizeLog2(offsetDim) != g.offsetBits)
    return makeError("shared layout: offset has " + std::to_string(shared.inDimSize(offsetDim)) +
                     " values but the tensor has 2^" + std::to_string(g.offsetBits) +
                     " elements; a shared layout must be a bijection offset <-> element");
  XorBasis inverse;
  std::vector<uint64_t> off = inDimImages(shared, dims::offset());
  for (size_t b = 0; b < off.size(); ++b)
    if (!inverse.add(off[b], uint64_t{1} << b))
      return makeError("shared layout: offset bit " + std::to_string(b) +
                       " is a combination of lower bits; two offsets hold the same element, so "
                       "the layout is not a bijection");
  auto toOffsets = [&](DimName d) {
    std::vector<uint64_t> out;
    for (uint64_t c : inDimImages(access, d)) out.push_back(*inverse.solve(c));
    return out;
  };
  g.reg = toOffsets(dims::reg());
  g.lane = toOffsets(dims::lane());
  g.warp = toOffsets(dims::warp());
  return g;
}

std::optional<std::vector<uint64_t>> phaseLaneSubspace(const BankInstruction& ins) {
  const auto& g0 = ins.phases.front();
  std::vector<char> inP(static_cast<size_t>(ins.laneCount), 0);
  std::vector<uint64_t> basis;
  XorBasis b;
  for (int l : g0) {
    uint64_t d = static_cast<uint64_t>(l ^ g0[0]);
    inP[d] = 1;
    if (b.add(d, 0)) basis.push_back(d);
  }
  if ((size_t{1} << basis.size()) != g0.size()) return std::nullopt; // not closed under XOR
  for (const auto& g : ins.phases) {
    if (g.size() != g0.size()) return std::nullopt;
    for (int l : g)
      if (!inP[static_cast<uint64_t>(l ^ g[0])]) return std::nullopt;
  }
  return basis;
}

int contiguousRegisterElements(const std::vector<uint64_t>& regOffsets) {
  XorBasis b;
  for (size_t i = 0; i < regOffsets.size(); ++i) b.add(regOffsets[i], uint64_t{1} << i);
  int k = 0;
  while (k < 62 && b.contains(uint64_t{1} << k)) ++k;
  return 1 << k;
}

Expected<IssuePlan> planIssues(const AccessGeometry& g, const BankInstruction& ins, int elemBits) {
  const std::string& n = ins.name;
  LAYOUT_TRY(checkElementBits(elemBits, "elemBits"));
  int elemBytes = elemBits / 8;
  if ((uint64_t{1} << g.lane.size()) != static_cast<uint64_t>(ins.laneCount))
    return makeError("the access layout has " + std::to_string(uint64_t{1} << g.lane.size()) +
                     " lanes but " + n + " serves " + std::to_string(ins.laneCount));
  IssuePlan plan;
  XorBasis regs;
  for (size_t i = 0; i < g.reg.size(); ++i) regs.add(g.reg[i], uint64_t{1} << i);
  int contiguous = contiguousRegisterElements(g.reg);
  // Register combos already used, as a basis over register-index masks.
  XorBasis used;
  auto take = [&](uint64_t mask, std::vector<uint64_t>& into) {
    used.add(mask, 0);
    into.push_back(mask);
  };
  if (!ins.isMatrix()) {
    if (ins.bytesPerLane < elemBytes)
      return makeError(n + " moves " + std::to_string(ins.bytesPerLane) +
                       " bytes per lane, less than one " + std::to_string(elemBits) +
                       "-bit element");
    if (ins.bytesPerLane % elemBytes != 0 ||
        !std::has_single_bit(static_cast<unsigned>(ins.bytesPerLane / elemBytes)))
      return makeError(n + " moves " + std::to_string(ins.bytesPerLane) +
                       " bytes per lane, not a power-of-two number of " + std::to_string(elemBits) +
                       "-bit elements; analyse it from explicit byte addresses (byteAddresses)");
    plan.vectorElements = ins.bytesPerLane / elemBytes;
    if (plan.vectorElements > contiguous)
      return makeError(n + " moves " + std::to_string(plan.vectorElements) + " elements (" +
                       std::to_string(ins.bytesPerLane) +
                       " B) per lane, but the registers of a lane hold at most " +
                       std::to_string(contiguous) + " elements at consecutive offsets (" +
                       std::to_string(contiguous * elemBytes) +
                       " B) of this shared layout: use an access of at most that width");
    for (int k = 0; (1 << k) < plan.vectorElements; ++k)
      take(*regs.solve(uint64_t{1} << k), plan.phaseRegisters);
  } else {
    if (elemBits != 16)
      return makeError(n + " moves b16 elements; elemBits is " + std::to_string(elemBits));
    plan.vectorElements = 2;
    auto expectLane = [&](int bit, uint64_t offset) -> Expected<void> {
      if (g.lane.size() > static_cast<size_t>(bit) && g.lane[bit] == offset) return {};
      return makeError(n + " needs lane bit " + std::to_string(bit) + " at element offset " +
                       std::to_string(offset) + " (" +
                       (ins.transposed ? "the 8 lanes of a column read one 16-byte row"
                                       : "the 4 lanes of a row read one 16-byte row") +
                       "), but it is at offset " +
                       (g.lane.size() > static_cast<size_t>(bit) ? std::to_string(g.lane[bit])
                                                                 : std::string("(none)")));
    };
    if (!ins.transposed) {
      if (auto e = expectLane(0, 2); !e) return e.error();
      if (auto e = expectLane(1, 4); !e) return e.error();
      auto pair = regs.solve(1);
      if (!pair)
        return makeError(n + " gives each lane 2 adjacent elements of a row, but no register of "
                             "the access layout holds the element next to another");
      take(*pair, plan.phaseRegisters);
    } else {
      if (auto e = expectLane(2, 1); !e) return e.error();
      if (auto e = expectLane(3, 2); !e) return e.error();
      if (auto e = expectLane(4, 4); !e) return e.error();
      if (g.reg.empty() || g.reg[0] == 0)
        return makeError(n + " gives each lane 2 elements of adjacent rows: register bit 0 must "
                             "select the second row");
      take(1, plan.phaseRegisters);
    }
    int matrixBits = std::countr_zero(static_cast<unsigned>(ins.matrices));
    for (size_t i = 0; i < g.reg.size() && plan.matrixRegisters.size() < size_t(matrixBits); ++i)
      if (!used.contains(uint64_t{1} << i)) take(uint64_t{1} << i, plan.matrixRegisters);
    if (plan.matrixRegisters.size() < size_t(matrixBits))
      return makeError(n + " gives each lane " + std::to_string(2 * ins.matrices) +
                       " elements; the access layout gives it " +
                       std::to_string(uint64_t{1} << g.reg.size()));
  }
  // Every lane's run must start at the same register: lanes and warps may not land inside a run
  // (that would need a per-lane register order), and the other registers are renumbered (XOR'd
  // with run registers) so that they start runs too.
  const uint64_t runMask = ins.isMatrix() ? 7 : uint64_t(plan.vectorElements) - 1;
  auto alignedRun = [&](const std::vector<uint64_t>& images, const char* dim,
                        uint64_t skip) -> Expected<void> {
    for (size_t i = 0; i < images.size(); ++i) {
      if (skip >> i & 1) continue;
      if (images[i] & runMask)
        return makeError(n + " moves runs of " + std::to_string(runMask + 1) + " elements, but " +
                         dim + " bit " + std::to_string(i) + " lands at element offset " +
                         std::to_string(images[i]) +
                         ", inside a run: lanes would need different register orders");
    }
    return {};
  };
  uint64_t rowLanes = !ins.isMatrix() ? 0 : ins.transposed ? 0b11100 : 0b00011;
  if (auto e = alignedRun(g.lane, "lane", rowLanes); !e) return e.error();
  if (auto e = alignedRun(g.warp, "warp", 0); !e) return e.error();
  auto align = [&](uint64_t mask) {
    if (!ins.isMatrix()) {
      uint64_t low = combine(g.reg, mask) & runMask;
      for (size_t k = 0; k < plan.phaseRegisters.size(); ++k)
        if (low >> k & 1) mask ^= plan.phaseRegisters[k];
    } else if (!ins.transposed && (combine(g.reg, mask) & 1)) {
      mask ^= plan.phaseRegisters[0];
    }
    return mask;
  };
  for (auto* list : {&plan.matrixRegisters, &plan.issueRegisters})
    for (uint64_t& m : *list) m = align(m);
  for (size_t i = 0; i < g.reg.size(); ++i)
    if (!used.contains(uint64_t{1} << i)) take(align(uint64_t{1} << i), plan.issueRegisters);
  if (ins.isMatrix())
    for (auto* list : {&plan.matrixRegisters, &plan.issueRegisters})
      for (uint64_t m : *list)
        if (combine(g.reg, m) & runMask)
          return makeError(n +
                           " reads 16-byte rows that the lanes supply, but a register lands at "
                           "element offset " +
                           std::to_string(combine(g.reg, m)) + ", inside a row");
  return plan;
}

} // namespace layout::smem::detail
