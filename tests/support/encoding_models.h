// Element-by-element models of the TritonGPU layout encodings, written from the prose and the
// worked examples of docs/seeds.md (seed 003) (the TritonGPU attribute definitions,
// "the seed" below; line numbers refer to it). They answer, by plain integer arithmetic and
// enumeration, "which (block, warp, lane, register) hold tensor element (i, j[, k])?" for the
// distributed encodings and "which logical element is stored at shared offset o?" for the shared
// ones. They share no code with liblayout and include no layout/ header: tests compare liblayout's
// GF(2) conversions against them, so they must not inherit its mistakes. Nothing here builds a
// basis or a matrix.
//
// Where the seed is silent (mostly: how registers are numbered), the convention comes from
// docs/reference/triton-linear-layout.md section 5 and is marked "Convention" below. The
// distributed models, conventions included, were checked element by element against the
// toLinearLayout of real Triton 3.6.0 on 1,057 random cases (blocked of rank 1-3, slices of all
// four parents, nvidia_mma v2, amd_mfma 16/32 with tilesPerWarp and isTransposed, amd_wmma v1/v2,
// CTA splits and multicast): all agree. The shared models agree with the bases of reference 5.3.
// All sizes (parameters and tensor shapes) must be powers of two; invalid parameters throw
// std::invalid_argument.
//
// Common rules (every distributed model):
// - Wrap and broadcast, seed 675-683: "when the tensor dim size T.shape[d] is larger than the
//   layout dim size L.shape[d], ... we distribute values ... in a "wrapped around" manner, with
//   each thread owning multiple values" and "when the tensor dim size T.shape[d] is smaller than
//   the layout dim size L.shape[d], ... in a "broadcasted" manner, with each value owned by
//   multiple threads". Per dim d, with tile = the CTA's layout extent: a tensor index x lies at
//   tile position x % tile in repetition x / tile when the (per-CTA) tensor is at least the tile;
//   otherwise at every tile position p < tile with p % T.shape[d] == x (which also duplicates
//   registers when a thread's own extent exceeds the tensor). Seed 633-634: "If the layout does not
//   completely cover the tensor, we tile it until we cover the entire tensor. We call each
//   individual tile "rep"." (The seed's formula on line 673 is only right for broadcasting, see
//   tests/data/seed003/INDEX.md.)
// - Convention: repetitions add registers. A thread's register index is
//   (register within one rep) + (registers per rep) * (rep index), with the rep index linearised
//   over the per-dim rep counts in the encoding's rep order (first entry fastest): `order` for
//   blocked, row-major (last dim fastest) for nvidia_mma / amd_wmma; amd_mfma has its own rule.
// - CTAs, seed 108-110: "The tensor is divided up into CTASplitNum pieces, which are distributed
//   among the CTAsPerCGA thread blocks. Each CTA processes a subtensor of shape
//   `tensor_shape / CTASplitNum`." and 112-124 (CTAsPerCGA > CTASplitNum = multicast: several CTAs
//   hold the same piece). Seed 621: "For CTAs Per CGA and Warps Per CTA level, the linear id is
//   distributed contiguously with the shape and order." A CTA with coordinates c (block id =
//   c linearised over CTAsPerCGA in CTAOrder, first entry fastest) holds piece c[d] %
//   CTASplitNum[d]; pieces beyond a dim smaller than CTASplitNum wrap (the shape per CTA is
//   T.shape[d] / min(T.shape[d], CTASplitNum[d])). Empty CTALayout = one CTA (seed 129-132).
// - Thread id (what the seed's tables print) = lane + warp * lanesPerWarp (seed 66-81).
//
// Per-encoding sentences:
// - blocked (seed 774-853): "each warp owns a contiguous portion of the target tensor ...
//   characterized by three tuples -- thread tile size, warp tile size, and block tile size -- which
//   specify the amount of elements owned by each CUDA thread, warp and CTA". A thread owns a
//   sizePerThread block; lanes are laid out over threadsPerWarp, warps over warpsPerCTA, each
//   linearised in `order` (fastest first; seed 861 "the fastest-changing axis first", 621-629).
//   Convention: register = index within sizePerThread (linearised in `order`) + reps as above.
// - slice (seed 1355-1376): "Given a `parent` layout and a `dim`, squeezes the given `dim` in the
//   `parent` layout": element j of the slice is held by the holders of the parent's element j with
//   0 inserted at `dim`, the parent being laid over the shape with 1 inserted at `dim`. Convention
//   (reference 5.2 slice): registers that, in every thread, only repeat what another register of
//   that thread holds (a register index bit that never changes the element) are dropped and the
//   remaining register bits are packed.
// - nvidia_mma version 2 (seed 1294-1322): "the implicit warpTileSize is [16, 8]" and "mma.16816
//   section, FP32 accumulator": in a 16x8 tile lane l holds rows l/4 and l/4 + 8, columns
//   2*(l%4) and 2*(l%4)+1 (PTX c0..c3: register = col%2 + 2*(row/8)). Warps row-major over
//   warpsPerCTA (the numbers of the seed's table; its warp labels disagree, see INDEX.md).
// - amd_mfma (seed 958-1075), MDim = NDim = 32 or 16, wave64: "Example 1 ... MDim=NDim=32": lane l
//   holds column l%32 of rows 4*(l/32) .. +3, and again 8, 16, 24 rows lower; "Example 2 ...
//   MDim=NDim=16": lane l holds column l%16 of rows 4*(l/16) .. +3. "`isTransposed` indicates the
//   result tensor is transposed": rows and columns swap roles inside a tile. Example 4
//   (tilesPerWarp) "allows each warp to compute contiguous MFMA tiles in the row and/or column
//   dimensions". Warps row-major (examples 1, 2 and 4; batch warps slowest). Convention
//   (reference 5.2 amd_mfma): register = a % 4 + 4 * (a / (4 * 64 / D)) for the in-tile index a
//   along the register direction (rows; columns if transposed), D = MDim, + R * (tile of the warp
//   along N + tilesPerWarp[N] * (rep along N + repsN * (tile along M +
//   tilesPerWarp[M] * (rep along M + repsM * rep along batch)))), R = registers per tile (16 for
//   32x32, 4 for 16x16).
// - amd_wmma versions 1 and 2 (seed 1126-1212), wave32, warp tile [16, 16] (seed 1135-1136):
//   version 1: even rows are held by lanes 0-15, odd rows by lanes 16-31, lane l holding column
//   l%16 (register = row/2); version 2: rows 0-7 by lanes 0-15 and rows 8-15 by lanes 16-31
//   (register = row%8); isTransposed (version 2 table) swaps rows and columns. Warps row-major
//   (warps 0, 1 on top, 2, 3 below in all three tables).
// - Reps along N for amd_mfma and amd_wmma. Convention (reference 5.2 amd_mfma: "registers to cover
//   shape[N] / (N*warpsN*tpwN)"; Triton 3.6.0 does this for both encodings): the number of
//   repetitions along the last dim is counted over the whole tensor, not over the CTA's piece. With
//   CTASplitNum[N] > 1 the registers of the reps beyond the piece hold copies (they fold back onto
//   the piece like a broadcast). Only matters for a CTA split along N; nRepsOverWholeTensor = false
//   counts them per CTA instead. Reps along M and batch are always per CTA.
// - swizzled_shared (seed 180-253): "elements of row r are xor'ed with r (or more properly,
//   in[r][c] -> out[r][c^r])", "perPhase=2 means that pairs of 2 rows get the same swizzling",
//   "maxPhase=m has the effect of limiting the maximum value of the xor to m-1", "When vec=2,
//   elements are swizzled in pairs of 2 ... ((c / 2) ^ r) * 2 + (c % 2)". Offset o enumerates the
//   (per-CTA) tensor in `order` (fastest first); with col = order[0] and row = order[1], the
//   element stored at (row r, column c) is (r, c ^ ((vec * ((r / perPhase) % maxPhase)) %
//   numCols)). Since xor is its own inverse, this is also where element (r, c) is stored. Rank 1 is
//   not swizzled; dims beyond order[1] are not swizzled. The wrap modulo numCols is not in the seed
//   (reference 5.3).
// - amd_rotating_shared (seed 518-594): "phase = (inRowId / perPhase) % maxPhase,
//   blockNo = (inRowId / (perPhase * maxPhase)) % maxPhase, combinedPhase = phase ^ blockNo,
//   outColId = inColId ^ combinedPhase", generalised to vec like swizzled_shared ("For vec != 1
//   example, take a look at SwizzledSharedEncodingAttr documentation"). The seed's "row"/"column"
//   words are inconsistent; this model follows its formulas and tables: the phase comes from the
//   slower index order[1], the xor applies to the contiguous index order[0]. Single CTA split only.
// - padded_shared (seed 376-417): "We insert a padding of `<pad_i>` elements after every
//   `<interval_i>` elements ... i + \sum_{k} (i / interval_k) * pad_k", i enumerating the tensor in
//   `order`.
//
//   encoding_model::Blocked b{{2, 2}, {8, 4}, {1, 2}, {1, 0}, {}};
//   auto who = encoding_model::owners(b, {16, 16}, {0, 8});  // {block 0, warp 1, lane 0, reg 0}
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

namespace encoding_model {

using Dims = std::vector<unsigned>; // one entry per tensor dim, dim0 first
using Shape = std::vector<int64_t>; // tensor shape, dim0 first
using Coord = std::vector<int64_t>; // tensor index, dim0 first

// One holder of an element. Lists of owners are sorted by (block, warp, lane, reg), which is
// Triton's block -> warp -> lane -> register order, and hold no duplicates.
struct Owner {
  int64_t block = 0;
  int64_t warp = 0;
  int64_t lane = 0;
  int64_t reg = 0;
  friend auto operator<=>(const Owner&, const Owner&) = default;
};

// All three empty: one CTA. Otherwise all three have one entry per dim.
struct CTALayout {
  Dims CTAsPerCGA;
  Dims CTASplitNum;
  Dims CTAOrder; // fastest first
};

// ---- Distributed encodings ----------------------------------------------------------------------
struct Blocked {
  Dims sizePerThread;
  Dims threadsPerWarp; // their product is the warp size (the seed's examples also use 16)
  Dims warpsPerCTA;
  Dims order; // fastest first
  CTALayout cta;
};

// versionMajor 2 only (Turing/Ampere accumulator). Rank 2 or 3 (batch first).
struct NvidiaMma {
  Dims warpsPerCTA;
  Dims instrShape; // {16, 8} (rank 3: {1, 16, 8}); any multiple of 8 in the last two dims works
  CTALayout cta;
};

// Rank 2 or 3 (batch first). MDim == NDim, 16 or 32; 32-bit elements; wave64.
struct AmdMfma {
  Dims warpsPerCTA;
  Dims tilesPerWarp; // empty = all 1; the batch entry must be 1
  unsigned MDim = 32;
  unsigned NDim = 32;
  bool isTransposed = false;
  CTALayout cta;
  // See "Reps along N" above; false: count them over the CTA's piece like the other dims.
  bool nRepsOverWholeTensor = true;
};

// Rank 2 or 3 (batch first). version 1 (gfx11) or 2 (gfx12); wave32; 16x16 warp tile.
struct AmdWmma {
  unsigned version = 1;
  bool isTransposed = false;
  Dims warpsPerCTA;
  CTALayout cta;
  bool nRepsOverWholeTensor = true; // see "Reps along N" above
};

using SliceParent = std::variant<Blocked, NvidiaMma, AmdMfma, AmdWmma>;

struct Slice {
  unsigned dim = 0;
  SliceParent parent;
};

using Distributed = std::variant<Blocked, NvidiaMma, AmdMfma, AmdWmma, Slice>;

// How many of each hardware unit the encoding uses for a tensor of this shape. Registers include
// those that only duplicate (broadcast) another register's element.
struct HardwareSize {
  int64_t blocks = 1;
  int64_t warps = 1;
  int64_t lanes = 1;
  int64_t registers = 1;
  friend bool operator==(const HardwareSize&, const HardwareSize&) = default;
};

int64_t lanesPerWarp(const Distributed& enc);
HardwareSize hardwareSize(const Distributed& enc, const Shape& shape);

// Every holder of `element` (0 <= element[d] < shape[d]); never empty. For a Slice each call
// rebuilds the parent's hardware table (to find the dropped registers): use ownerTable for whole
// tensors.
std::vector<Owner> owners(const Distributed& enc, const Shape& shape, const Coord& element);

// owners() of every element, elements in row-major order (last dim fastest), as
// triton-tensor-layout prints them.
std::vector<std::vector<Owner>> ownerTable(const Distributed& enc, const Shape& shape);

// The inverse view: the element held at each hardware location, indexed by
// ((block * warps + warp) * lanes + lane) * registers + reg (sizes from hardwareSize). Every
// location holds exactly one element in a valid model; throws std::logic_error otherwise.
std::vector<Coord> hardwareTable(const Distributed& enc, const Shape& shape);

// The seeds' "thread id": lane + warp * lanesPerWarp.
inline int64_t threadId(const Owner& o, int64_t lanes) {
  return o.lane + o.warp * lanes;
}

// ---- Shared encodings ---------------------------------------------------------------------------
struct SwizzledShared {
  unsigned vec = 1;
  unsigned perPhase = 1;
  unsigned maxPhase = 1;
  Dims order; // fastest first
  CTALayout cta;
};

// Same parameters; CTASplitNum must be all 1 (CTAsPerCGA may replicate).
struct AmdRotatingShared {
  unsigned vec = 1;
  unsigned perPhase = 1;
  unsigned maxPhase = 1;
  Dims order;
  CTALayout cta;
};

// Number of shared offsets in one block: the product of the shape per CTA.
int64_t offsetsPerBlock(const Shape& shape, const CTALayout& cta);
int64_t numBlocks(const CTALayout& cta, std::size_t rank);

// The logical element stored at shared `offset` of `block`.
Coord elementAtOffset(const SwizzledShared& enc, const Shape& shape, int64_t offset,
                      int64_t block = 0);
Coord elementAtOffset(const AmdRotatingShared& enc, const Shape& shape, int64_t offset,
                      int64_t block = 0);

// elementAtOffset for every (block, offset), indexed by block * offsetsPerBlock + offset.
std::vector<Coord> sharedTable(const SwizzledShared& enc, const Shape& shape);
std::vector<Coord> sharedTable(const AmdRotatingShared& enc, const Shape& shape);

// padded_shared with its default linear part (the tensor enumerated in `order`). Single CTA.
struct PaddedShared {
  std::vector<std::pair<unsigned, unsigned>> intervalPads; // (interval, pad), powers of two
  Dims order;                                              // fastest first
};

// Shared-memory location (in elements, padding included) of `element`.
int64_t paddedOffset(const PaddedShared& enc, const Shape& shape, const Coord& element);
// The element stored at `location`, or nullopt for a padding slot (or past the tensor).
std::optional<Coord> elementAtPaddedOffset(const PaddedShared& enc, const Shape& shape,
                                           int64_t location);

// ---- Small helpers the tests also use
// ------------------------------------------------------------ Row-major (last dim fastest) flat
// index of `c` in `shape`, and back.
int64_t flatIndex(const Shape& shape, const Coord& c);
Coord unflatIndex(const Shape& shape, int64_t flat);

} // namespace encoding_model
