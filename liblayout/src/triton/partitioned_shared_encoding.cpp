// #ttg.partitioned_shared (Triton main's PartitionedSharedEncodingAttr): a tensor split along
// partitionDim into numPartitions * numGroups pieces, piece p in buffer p % numPartitions, so that
// pieces of different partitions sit in different shared-memory partitions. The layout (Triton
// main's partitionedSharedToLinearLayout): the inner shared layout of one piece, then the
// `partition` in-dim choosing the piece within a group, then more `offset` bits walking the groups
// (a buffer holds its partition's pieces of every group, one after the other).
#include "encoding_internal.h"

namespace layout::triton::detail {

Expected<LinearLayout> partitionedSharedToLinearLayout(const AttrValue& attr,
                                                       std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(partitions, intParam(attr, "numPartitions"));
  LAYOUT_TRY_ASSIGN(groups, intParam(attr, "numGroups"));
  LAYOUT_TRY_ASSIGN(dim, intParam(attr, "partitionDim"));
  LAYOUT_TRY_ASSIGN(inner, encodingFromAttr(*attr.find("partitionLayout")));
  if (dim < 0 || dim >= int64_t(shape.size()))
    return makeError("partitionDim " + std::to_string(dim) + " is not a dim of the shape (rank " +
                     std::to_string(shape.size()) + ")");
  if (partitions < 1 || groups < 1)
    return makeError("numPartitions and numGroups must be at least 1");
  // In 128 bits: the attribute's two 64-bit integers can multiply past 2^64.
  const unsigned __int128 pieces = (unsigned __int128)partitions * uint64_t(groups);
  const std::string piecesText = (pieces >> 64) ? "2^64 or more" : std::to_string(uint64_t(pieces));
  if (shape[dim] <= 0 || pieces > uint64_t(shape[dim]) || uint64_t(shape[dim]) % pieces != 0)
    return makeError("shape: dim " + std::to_string(dim) + " = " + std::to_string(shape[dim]) +
                     " does not split into numPartitions * numGroups = " + piecesText + " pieces");
  std::vector<int64_t> pieceShape(shape.begin(), shape.end());
  pieceShape[dim] = int64_t(uint64_t(shape[dim]) / uint64_t(pieces));
  LAYOUT_TRY_ASSIGN(base, toLinearLayout(inner, pieceShape));
  if (!base.hasInDim(dims::offset()))
    return makeError("partitionLayout #" + inner.attr.text + " has no offset in-dim");
  const DimName out = dims::standardOut(int(dim));
  LinearLayout full = base;
  if (auto err = multiplyInto(
          full, LinearLayout::identity1D(uint64_t(partitions), DimName("partition"), out));
      !err)
    return err.error();
  if (auto err =
          multiplyInto(full, LinearLayout::identity1D(uint64_t(groups), dims::offset(), out));
      !err)
    return err.error();
  return full;
}

} // namespace layout::triton::detail
