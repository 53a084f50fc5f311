// Element-by-element model of `#ttig.subgroup_2d_block`, from docs/reference/intel-xe.md §1.5 and
// docs/reference/triton-linear-layout.md §5.1 only. See the header for the geometry summary.
#include "support/subgroup_2d_block_model.h"

#include <stdexcept>
#include <string>

namespace layout::testing {
namespace {

bool isPow2(int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("subgroup2DBlock model: " + what);
}

// Everything the element formula needs, derived once from the parameters.
struct Geometry {
  int64_t pe = 1;           // adjacent columns per lane within one block row
  int64_t lanesPerRow = 1;  // lanes that split one row of the block (2^c in the prose)
  int64_t rowsPerWarp = 1;  // rows covered by one sweep of the lanes
  int64_t rowGroups = 1;    // row registers per block: height / rowsPerWarp (at least 1)
  int64_t regsPerBlock = 1; // pe * rowGroups
  int64_t blockRows = 1;    // rows of one block tile
  int64_t blockCols = 1;    // columns of one block tile (= width)
  int64_t tileRows = 1;     // the numBlocks tile: blockRows x (blockCols * numBlocks)
  int64_t tileCols = 1;
  int64_t ctaRows = 1; // the tile after warps (broadcast dims do not grow it)
  int64_t ctaCols = 1;
};

Geometry geometry(const Subgroup2DBlockModel& m) {
  require(isPow2(m.height) && isPow2(m.width), "instrShape must be powers of two");
  require(isPow2(m.numBlocks), "numBlocks must be a power of two");
  // The verifier wants 16, but §1.5 says the layout function is written for any tpw.
  require(isPow2(m.threadsPerWarp), "threadsPerWarp must be a power of two");
  require(isPow2(m.warpsPerCTA[0]) && isPow2(m.warpsPerCTA[1]),
          "warpsPerCTA must be powers of two");
  require(m.order0 == 0 || m.order0 == 1, "order[0] must be 0 or 1");

  Geometry g;
  const int64_t tpw = m.threadsPerWarp;
  // pe = ceil(width / tpw): a lane packs several adjacent columns only when the row is wider
  // than the subgroup.
  g.pe = (m.width + tpw - 1) / tpw;
  // Lane column bases are pe, 2pe, 4pe, ... < width, so lanes step across the row pe columns at
  // a time and width / pe lanes fit in one row (never more than tpw, since pe >= width / tpw).
  g.lanesPerRow = m.width / g.pe;
  // rowsPerWarp = ceil(tpw / 2^c); with powers of two and lanesPerRow <= tpw this is exact, so
  // lane bases number log2(lanesPerRow) + log2(rowsPerWarp) = log2(tpw): every lane < tpw exists.
  g.rowsPerWarp = (tpw + g.lanesPerRow - 1) / g.lanesPerRow;
  // Register row bases (i * rowsPerWarp, 0) for i = 1, 2, 4, ... < height / rowsPerWarp (read as
  // powers of two, like the lanes). If rowsPerWarp > height the quotient is 0: no row registers.
  g.rowGroups = m.height >= g.rowsPerWarp ? m.height / g.rowsPerWarp : 1;
  g.regsPerBlock = g.pe * g.rowGroups;
  // "Out sizes are the smallest that hold the bases": rows reach rowGroups * rowsPerWarp, which is
  // height, except that it is rowsPerWarp when the lanes alone already span more than height.
  g.blockRows = g.rowGroups * g.rowsPerWarp;
  g.blockCols = m.width;
  // × identity(numBlocks) registers along dim1: blocks sit side by side along the columns.
  g.tileRows = g.blockRows;
  g.tileCols = g.blockCols * m.numBlocks;
  // Warps in units of the tile; the dim equal to order[0] gets zeros (broadcast, no growth).
  g.ctaRows = g.tileRows * (m.order0 == 0 ? 1 : m.warpsPerCTA[0]);
  g.ctaCols = g.tileCols * (m.order0 == 1 ? 1 : m.warpsPerCTA[1]);
  return g;
}

void requireShape(const Geometry& g, int64_t rows, int64_t cols) {
  require(isPow2(rows) && isPow2(cols), "tensor shape must be powers of two");
  // Smaller shapes would need §5.1's shrink step (broadcast), which this model does not cover.
  require(rows >= g.ctaRows && cols >= g.ctaCols, "tensor smaller than the CTA tile");
}

} // namespace

std::pair<int64_t, int64_t> subgroup2DBlockCtaTile(const Subgroup2DBlockModel& m) {
  const Geometry g = geometry(m);
  return {g.ctaRows, g.ctaCols};
}

int64_t subgroup2DBlockRegisters(const Subgroup2DBlockModel& m, int64_t rows, int64_t cols) {
  const Geometry g = geometry(m);
  requireShape(g, rows, cols);
  // One tile's registers (block-internal x numBlocks) times the repetitions covering the tensor.
  const int64_t reps = (rows / g.ctaRows) * (cols / g.ctaCols);
  return g.regsPerBlock * m.numBlocks * reps;
}

std::pair<int64_t, int64_t> subgroup2DBlockElement(const Subgroup2DBlockModel& m, int64_t rows,
                                                   int64_t cols, int64_t reg, int64_t lane,
                                                   int64_t warp) {
  const Geometry g = geometry(m);
  requireShape(g, rows, cols);
  const int64_t numWarps = int64_t{m.warpsPerCTA[0]} * m.warpsPerCTA[1];
  const int64_t regsPerTile = g.regsPerBlock * m.numBlocks;
  const int64_t repsRow = rows / g.ctaRows;
  const int64_t numRegs = regsPerTile * repsRow * (cols / g.ctaCols);
  require(reg >= 0 && reg < numRegs, "register out of range");
  require(lane >= 0 && lane < m.threadsPerWarp, "lane out of range");
  require(warp >= 0 && warp < numWarps, "warp out of range");

  // Register index, low to high: [inside the block | block index | repetition], the order in
  // which the products add register bases (tile, then × identity(numBlocks), then §5.1 growth).
  const int64_t regInBlock = reg % g.regsPerBlock;
  const int64_t block = (reg / g.regsPerBlock) % m.numBlocks;
  const int64_t rep = reg / regsPerTile;

  // Inside one block message: the lane picks a row within the sweep and a pe-wide column group;
  // the register's low bits pick the column inside the group, its next bits the row sweep.
  int64_t row = (regInBlock / g.pe) * g.rowsPerWarp + lane / g.lanesPerRow;
  int64_t col = (lane % g.lanesPerRow) * g.pe + regInBlock % g.pe;

  // Extra blocks always extend the columns, whatever order says.
  col += block * g.blockCols;

  // Warps: factors multiplied for dim1 first, then dim0, so the low warp bits index dim1. The
  // dim equal to order[0] is a zeros factor: its warp bits still exist but move nothing.
  const int64_t warpCol = warp % m.warpsPerCTA[1];
  const int64_t warpRow = warp / m.warpsPerCTA[1];
  if (m.order0 != 1) col += warpCol * g.tileCols;
  if (m.order0 != 0) row += warpRow * g.tileRows;

  // §5.1 growth: repetition register bases are added for out-dim dim0 first (until the rows are
  // covered), then dim1, each in units of the CTA tile.
  row += (rep % repsRow) * g.ctaRows;
  col += (rep / repsRow) * g.ctaCols;
  return {row, col};
}

} // namespace layout::testing
