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
  const int64_t pieces = partitions * groups;
  if (shape[dim] % pieces != 0)
    return makeError("shape: dim " + std::to_string(dim) + " = " + std::to_string(shape[dim]) +
                     " does not split into numPartitions * numGroups = " + std::to_string(pieces) +
                     " pieces");
  std::vector<int64_t> pieceShape(shape.begin(), shape.end());
  pieceShape[dim] = shape[dim] / pieces;
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
