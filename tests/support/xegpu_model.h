// An element-by-element model of how MLIR XeGPU layouts (`#xegpu.layout`, `#xegpu.slice`, the old
// `#xegpu.sg_map`) distribute a tensor over subgroups, lanes and registers, written only from the
// prose and pseudo code of docs/reference/xegpu.md ("ref" below, section numbers §n) and the
// XeGPU RFCs docs/seeds.md (seed 000) ("seed 000") and 001_046d9a7c4907c201.txt
// ("seed 001"). It shares no code with liblayout and includes no layout/ header: the tests compare
// liblayout's XeGPU -> LinearLayout conversion against it, so it must not inherit its mistakes.
// Nothing here builds a basis or a matrix; everything is integer arithmetic and enumeration.
//
// The model, rule by rule (the sentence each rule comes from is quoted):
//
// 1. Levels. Seed 000 "distribution rule": "The workgroup-level tile ... is initially partitioned
//    into sg_data at the subgroup level. It is then further blocked into inst_data to align with
//    the instruction data size, followed by a final distribution into lane_data fragments at the
//    work item level." So a lane's elements are: (a) the subgroup's pieces (only when sg_layout is
//    present; ref §1 "Presence => workgroup-level layout"), each an sg_data-shaped block of the
//    tensor; (b) inside each piece (or inside the whole tensor for a subgroup-level layout) the
//    inst_data tiles, if inst_data is present; (c) inside each tile (or piece, or tensor) the
//    lane's lane_data blocks, if lane_layout is present. A level whose fields are absent does not
//    distribute: every subgroup (lane) holds the whole tile of the level above.
//
// 2. Ids (ref §2 delinearizeId): "rem = s; for k = 0 .. r-1: d = O[k]; id[d] = rem mod G[d];
//    rem = rem div G[d]", O = order (default [r-1..0], ref §1 "Default [rank-1, ..., 1, 0]"),
//    G = sg_layout for subgroup ids, lane_layout for lane ids (the same `order` for both, ref §1
//    "linearization order for BOTH sg_layout and lane_layout"). "Every digit, including the
//    slowest, is taken mod G[d], so ids >= prod(G) alias ids mod prod(G): lanes or subgroups beyond
//    the layout size are replicas." The model accepts any id >= 0 and applies exactly this.
//
// 3. Blocks owned by an id at one level (ref §3 computeDistributedCoords):
//    "unit[i] = min(shape[i], G[i] * B[i]); local[i] = id[i] * B[i];
//     for U in row-major tiles of `shape` by `unit` (StaticTileOffsetRange; last dim fastest):
//       coord = [ (U[i] + local[i]) mod shape[i] ]   # start of one B-shaped block"
//    "Result: an ordered list of block starts; each block is `B`-shaped." This one formula gives
//    round-robin ("when shape[i] > G[i]·B[i] ... the id owns one block in every unit"; seed 001
//    "the rest data will wrap around and be assigned to the first subgroup") and broadcast/sharing
//    ("when G[i]·B[i] > shape[i], unit[i] = shape[i] and id·B mod shape repeats, so several ids get
//    the same block"; seed 001 "If sg_data[i] is equal to tensor_shape[i], the tensor data is
//    broadcasted to all subgroups along the dimension i"), and the 2026 lane "wrap-around" (ref
//    §1.3 "a dim whose size equals lane_data in that dim is allowed and is replicated to all
//    lanes": there unit = shape = B and the start is always 0). (G, B) = (sg_layout, sg_data) at
//    the subgroup level, (lane_layout, lane_data) at the lane level, and `shape` is "the data shape
//    at that level (the wg tile for subgroups; the sg/inst tile for lanes)".
//
// 4. inst_data (ref §3.3): "the op is unrolled ("blocked") into inst_data-shaped tiles (row-major
//    tile order, StaticTileOffsetRange), each tile carrying dropInstData() of the layout; lanes are
//    distributed within each tile"; seed 001 "blocking rule": "offset[i] = inst_data[i] *
//    [0:inst_dist[i])", relative to the subgroup offsets.
//
// 5. Register numbering. Ref §3.3: "a single flattened "register index" across tiles is a
//    convention the library must choose (suggestion: tile index = the slowest register bits)", and
//    ref §10 "wg-level pieces are separate values ordered row-major over units". So
//      register = (piece index * tilesPerPiece + tile index) * registersPerTile + lane register,
//    pieces in the §3 unit order, tiles row-major. Inside one tile two orders are modelled:
//    - RegisterOrder::Blocks (the default; "computeDistributedCoords order"): the lane's blocks in
//      the §3 order, each block's elements row-major, i.e. seed 001 "Each lane gets multiple
//      distributions of data fragments, and these fragments are packed into 1D. The data within
//      lane_data is packed first, followed by the packing of data fragments in row-major order",
//      and seed 000's sg_map fragment shape "[n_distribution_units, wi_data_size]".
//    - RegisterOrder::VectorRowMajor: ref §3.2 "Registers are row-major over P" (P = the per-lane
//      distributed shape of §3.1), element of per-lane index a: "u[i] = a[i] div B[i];
//      w[i] = a[i] mod B[i]; global[i] = ((u[i]*unit[i] + id[i]*B[i]) mod shape[i]) + w[i]".
//    The two agree unless some dim i before the last has B[i] > 1 while a later dim has several
//    units. registerOrderOf picks the one the spec text for the spelling prescribes (sg_map:
//    Blocks, #xegpu.layout: VectorRowMajor per ref §3.2, the newer text). With no lane level, a
//    tile's (or piece's, or the tensor's) elements are numbered row-major (ref §10 "Register bits
//    (per lane / per subgroup piece): row-major over the per-id shape").
//
// 6. Slices (ref §5): the value has rank rank(root) - |flattened dims|. "flatten(): ... Start with
//    remaining = [0..R); apply the dims lists from the innermost slice outwards, each time removing
//    the listed *positions* of `remaining`; flattened dims = [0..R) \ remaining". Fields: "the root
//    field with the sliced positions removed". Ids: "delinearizeId = the root's delinearizeId (full
//    root grid, root order)" and "computeDistributedCoords(id, shape): ids = root delinearization;
//    drop the ids of the sliced dims; then §3 with the effective G/B. The ids of sliced dims are
//    ignored => broadcast across them." The model applies the same to lane ids and inst_data.
//
// 7. Verifier (ref §1.1, messages verbatim) and distributability (ref §1.3, tryDistribute with the
//    checks over all dims at once, as written: "If shape % layout == 0 in all dims ...").
//
// 8. Leading dims (ref §3.2 "leading extra vector dims are kept whole", §4 "leading
//    rank(vec) - rank(layout) dims unchanged"): every id holds all of them; they are the slowest
//    register digits (row-major over [leading..., per-lane shape]).
//
// The empty layout (legal, ref §1.1 rule 1) distributes nothing: every id holds every element.
// Not modelled: sg_data larger than the tensor dim (allowed by ref §1.3's round-robin branch, but
// the §3.2 coordinates "((...) mod shape[i]) + w[i]" then leave the tensor: rejected here).
// array_length is just a leading dim (rule 8). Invalid input throws std::invalid_argument.
//
//   xegpu_model::Params p = xegpu_model::parse(
//       "#xegpu.layout<sg_layout = [2, 2], sg_data = [16, 16], order = [1, 0]>");
//   auto elems = xegpu_model::laneElements(p, {64, 64}, /*subgroup=*/3, /*lane=*/0);
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace xegpu_model {

using Shape = std::vector<int64_t>; // tensor shape, dim0 first
using Coord = std::vector<int64_t>; // tensor index, dim0 first

// The fields of the innermost (root) `#xegpu.layout`, each empty when absent, plus the slices
// wrapped around it.
struct Params {
  std::vector<int64_t> sgLayout, sgData, instData, laneLayout, laneData, order;
  // One dims list per `#xegpu.slice` around the root: sliceDims[0] belongs to the innermost slice
  // (the one whose parent is the layout itself), the last entry to the outermost. Each list holds
  // positions in its parent's dims (ref §5 flatten). Empty: a plain layout.
  std::vector<std::vector<int64_t>> sliceDims;
  // Spelled `#xegpu.sg_map<wi_layout, wi_data>` (lane fields only). Distributes like a lane-only
  // layout; only the natural register order differs (see registerOrderOf).
  bool isSgMap = false;
  friend bool operator==(const Params&, const Params&) = default;
};

// ---- Text ---------------------------------------------------------------------------------------
// Parses `#xegpu.layout<name = [..], ...>` (any subset of sg_layout, sg_data, inst_data,
// lane_layout, lane_data, order, in any order), `#xegpu.slice<ATTR, dims = [..]>` (also the RFC's
// `#xegpu.slice<ATTR, 1>` and `dims = 1`), and `#xegpu.sg_map<wi_layout = [..], wi_data = [..]>`
// (= lane_layout / lane_data). Throws std::invalid_argument on anything else. Does not verify.
Params parse(std::string_view text);
// The canonical text: fields in the upstream print order (ref §1), `name = [a, b]`, slices as
// `#xegpu.slice<PARENT, dims = [..]>`.
std::string toString(const Params& p);

// ---- Structure ----------------------------------------------------------------------------------
// Ref §1 getRank of the root: |sg_layout|, else |inst_data|, else |lane_layout|, else 0.
int64_t rootRank(const Params& p);
// Ref §5 flatten: the sliced root dims, sorted. Throws if a slice names a position that does not
// exist or repeats one.
std::vector<int64_t> flattenedSliceDims(const Params& p);
// rootRank - |flattened dims|.
int64_t rank(const Params& p);
// The root's effective order (ref §1 getEffectiveOrderAsInt): order, or [R-1..0].
std::vector<int64_t> rootOrder(const Params& p);
// A root field with the sliced positions removed (ref §5); empty stays empty.
std::vector<int64_t> effective(const Params& p, const std::vector<int64_t>& rootField);
// Ref §1.1, checks in the listed order, messages verbatim; std::nullopt when accepted. Slices
// additionally: "invalid dim (<d>) in slice attribute." and "repeated dim (<d>) in slice
// attribute." (ref §5).
std::optional<std::string> verifyError(const Params& p);
// Ref §1.3 (with the 2026 lane wrap-around), on the effective fields, with tryDistribute's
// divisibility tested over all dims at once as written ("If `shape % layout == 0` in all dims ...
// else if `rr` and `layout % shape == 0` ..."; data likewise); also the verifier (§1.1) and
// "expected layout rank to match tensor rank" (§1.2). Nothing else. `why` gets a reason.
bool isDistributable(const Params& p, std::span<const int64_t> shape, std::string* why = nullptr);
// What laneElements needs: a verified layout, positive fields, `order` a permutation, slice dims in
// range, rank(p) <= |shape| (leading dims are kept whole, ref §3.2 / §4), and per trailing dim:
// sg_data <= shape, inst_data divides the subgroup tile, and at the lane level (shape % lane_layout
// == 0 and (shape / lane_layout) % lane_data == 0) or shape == lane_data (wrap-around). It does not
// apply ref §1.3's sg-level rule across dims (the §3 formulas are per dim), and it rejects sg_data
// > shape, which §1.3 accepts.
bool modelApplies(const Params& p, std::span<const int64_t> shape, std::string* why = nullptr);

// Subgroups / lanes the layout distributes over: prod(root sg_layout) and prod(root lane_layout),
// 1 when absent (ref §1 getNumSubgroups; slices use the full root grid, ref §5).
int64_t numSubgroups(const Params& p);
int64_t numLanes(const Params& p);

// ---- Distribution -------------------------------------------------------------------------------
// Ref §2, exactly: id[order[k]] = rem mod G[order[k]], rem = rem div G[order[k]].
std::vector<int64_t> delinearize(int64_t id, std::span<const int64_t> layoutDims,
                                 std::span<const int64_t> order);

// Ref §3 for one level: the ordered block starts of the id with multi-index `id` (one entry per
// dim) over `shape` with grid G and block B.
std::vector<Coord> blockStarts(std::span<const int64_t> shape, std::span<const int64_t> G,
                               std::span<const int64_t> B, std::span<const int64_t> id);

enum class RegisterOrder { Blocks, VectorRowMajor };
// The order each spec text prescribes for the attribute's spelling: sg_map -> Blocks (seed 000:
// the fragment is "[n_distribution_units, wi_data_size]", wi_data innermost); #xegpu.layout ->
// VectorRowMajor (ref §3.2 "Registers are row-major over P"; note that seed 001 says the Blocks
// order for the same layouts: "The data within lane_data is packed first, followed by the packing
// of data fragments in row-major order").
RegisterOrder registerOrderOf(const Params& p);

// The tensor elements held by (subgroup, lane), index = register (rules 5 and 8). `shape` has at
// least rank(p) dims. Throws when !modelApplies(p, shape).
std::vector<Coord> laneElements(const Params& p, std::span<const int64_t> shape, int64_t subgroup,
                                int64_t lane, RegisterOrder order = RegisterOrder::Blocks);
// Registers per lane: the size of every laneElements list.
int64_t numRegisters(const Params& p, std::span<const int64_t> shape);

struct Owner {
  int64_t subgroup = 0;
  int64_t lane = 0;
  int64_t reg = 0;
  friend auto operator<=>(const Owner&, const Owner&) = default;
};
// For every element (indexed row-major over `shape`), its holders, sorted, over subgroups
// [0, subgroups) and lanes [0, lanes) (defaults: numSubgroups / numLanes; larger values add the
// aliasing replicas of rule 2).
std::vector<std::vector<Owner>> owners(const Params& p, std::span<const int64_t> shape,
                                       RegisterOrder order = RegisterOrder::Blocks,
                                       int64_t subgroups = 0, int64_t lanes = 0);

// ---- Shapes -------------------------------------------------------------------------------------
// Ref §3.1 computeDistributedShape at one level: B[i] * (shape[i] / min(shape[i], G[i]*B[i])).
Shape computeDistributedShape(std::span<const int64_t> shape, std::span<const int64_t> G,
                              std::span<const int64_t> B);
// The layout's own level (ref §3, "Level choice: workgroup layout -> (sg_layout, sg_data);
// subgroup layout -> (lane_layout, lane_data)"), with ref §4's rule that leading
// rank(shape) - rank(layout) dims are kept. A subgroup layout without lane_layout leaves the shape
// as it is.
Shape distributedShape(const Params& p, std::span<const int64_t> shape);
// Ref §4 getDistVecTypeBasedOnLaneLayout: leading dims kept, trailing = computeDistributedShape
// with the effective lane_layout / lane_data (shape unchanged without lane_layout).
Shape laneDistributedShape(const Params& p, std::span<const int64_t> shape);
// The per-lane vector shape of the whole hierarchy. Not in the spec beyond its parts (ref §3.1 per
// level, seed 000 for sg_map); the convention is the one liblayout's xegpu_layout.h documents:
// #xegpu.layout: per dim, (subgroup pieces along the dim) * (inst_data tiles along the dim) *
// (the lane's §3.1 distributed shape of one tile, or the tile itself without lane_layout), leading
// rank(shape) - rank(p) dims kept; sg_map: [n_distribution_units, wi_data_size]. Its product is
// always numRegisters (for equal ranks).
Shape perLaneShape(const Params& p, std::span<const int64_t> shape);
// Ref §4 getDistributedVectorType: the SIMT 1-D length prod(shape) * arrayLength /
// prod(lane_layout); requires shape[i] % (lane_layout[i] * lane_data[i]) == 0.
int64_t simtVectorLength(const Params& p, std::span<const int64_t> shape, int64_t arrayLength = 1);

} // namespace xegpu_model
