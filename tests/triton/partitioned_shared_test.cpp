// #ttg.partitioned_shared (Triton main): a shared layout split along partitionDim into
// numPartitions * numGroups pieces, piece p stored in buffer p % numPartitions after the pieces
// of the earlier groups. Independent source: the attribute's documentation upstream (the
// [128, 32] example: 8 pieces of [16, 32], buffer 0 = pieces 0, 2, 4, 6), written out here as
// arithmetic; the inner layout's own conversion is the one checked against Triton 3.6.
#include "layout/triton/encoding.h"
#include "layout/triton/encoding_params.h"
#include "layout/triton/layout_views.h"

#include <gtest/gtest.h>

namespace layout::triton {
namespace {

std::string partitioned(const std::string& inner, int partitions, int groups, int dim) {
  return "#ttg.partitioned_shared<{numPartitions = " + std::to_string(partitions) +
         ", numGroups = " + std::to_string(groups) + ", partitionDim = " + std::to_string(dim) +
         ", partitionLayout = " + inner + "}>";
}

TEST(PartitionedShared, UpstreamExamplePiecesAndBuffers) {
  const std::string inner =
      "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>";
  auto e = parseEncoding(partitioned(inner, 2, 4, 0));
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_TRUE(e->isShared());
  const std::vector<int64_t> shape{128, 32}, pieceShape{16, 32};
  auto ll = toLinearLayout(*e, shape);
  ASSERT_TRUE(ll) << ll.error().message;
  auto innerEnc = parseEncoding(inner);
  ASSERT_TRUE(innerEnc);
  auto piece = toLinearLayout(*innerEnc, pieceShape);
  ASSERT_TRUE(piece);
  const uint64_t pieceElems = 16 * 32;
  for (uint64_t buffer = 0; buffer < 2; ++buffer)
    for (uint64_t o = 0; o < 4 * pieceElems; ++o) {
      // Offset o of buffer q: group o / pieceElems, so piece 2 * group + q; inside the piece the
      // inner layout's offset o % pieceElems.
      const uint64_t pieceIndex = 2 * (o / pieceElems) + buffer;
      const std::pair<DimName, uint64_t> inPiece[] = {{dims::offset(), o % pieceElems},
                                                      {dims::block(), 0}};
      auto local = piece->apply(inPiece);
      const std::pair<DimName, uint64_t> in[] = {
          {dims::offset(), o}, {dims::block(), 0}, {DimName("partition"), buffer}};
      auto got = ll->apply(in);
      ASSERT_TRUE(local && got);
      ASSERT_EQ((*got)[0].second, pieceIndex * 16 + (*local)[0].second)
          << "buffer " << buffer << " offset " << o;
      ASSERT_EQ((*got)[1].second, (*local)[1].second) << "buffer " << buffer << " offset " << o;
    }
  // The hardware view lists each buffer.
  auto view = layoutStr(*e, *ll, shape, /*hwView=*/true);
  ASSERT_TRUE(view) << view.error().message;
  EXPECT_NE(view->find("Partition: 1:\nOffset: 0 -> ( 16, 0)\n"), std::string::npos) << *view;
  // Printed back as read; the typed form rebuilds the same encoding.
  auto typed = partitionedSharedEncoding(*e);
  ASSERT_TRUE(typed) << typed.error().message;
  EXPECT_EQ(printEncoding(*typed), partitioned(inner, 2, 4, 0));
}

TEST(PartitionedShared, VerifierMessagesAreTritonMains) {
  const std::string inner =
      "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>";
  auto error = [](const std::string& text) {
    auto e = parseEncoding(text);
    return e ? std::string("accepted") : e.error().message;
  };
  auto has = [](const std::string& m, const std::string& part) {
    return m.find(part) != std::string::npos;
  };
  EXPECT_TRUE(
      has(error(partitioned(inner, 1, 4, 0)), "numPartitions must be a power of 2 and at least 2"));
  EXPECT_TRUE(
      has(error(partitioned(inner, 2, 3, 0)), "numGroups must be a power of 2 and greater than 0"));
  EXPECT_TRUE(has(error(partitioned(inner, 2, 1, 2)),
                  "partitionDim (2) must be less than the layout rank (2)"));
  EXPECT_TRUE(has(error(partitioned("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = "
                                    "[4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>",
                                    2, 1, 0)),
                  "partitionLayout must be a SharedEncodingTrait"));
  EXPECT_TRUE(has(error("#ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim "
                        "= 0}>"),
                  "missing partitionLayout"));
  EXPECT_TRUE(has(error("#ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim "
                        "= 0, partitionLayout = " +
                        inner + ", extra = 1}>"),
                  "unexpected key: extra"));
  auto e = parseEncoding(partitioned(inner, 4, 4, 0));
  ASSERT_TRUE(e);
  auto ll = toLinearLayout(*e, std::vector<int64_t>{8, 8});
  ASSERT_FALSE(ll);
  EXPECT_TRUE(has(ll.error().message, "does not split into numPartitions * numGroups = 16"));
}

} // namespace
} // namespace layout::triton
