// Verifier rules for TritonGPU layout attributes, checked against upstream Triton's own
// diagnostics. An invalid encoding must be rejected by layout::triton::parseEncoding or, failing
// that, by layout::triton::toLinearLayout, and the error must contain Triton's message.
//
// The expected messages come from upstream Triton's attribute verifiers and custom parsers
// (lib/Dialect/TritonGPU/IR/Dialect.cpp, include/triton/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td)
// and from the cases of test/TritonGPU/invalid-attributes.mlir:
//   - main: upstream commit 800558f67437035e682fdf49fae229f59294a75b (2026-08-16). The attribute
//     code and the test file are identical at e3b5495 (2026-05-31).
//   - 3.6: upstream commit 004d7f5f58c2 (2025-11-25, "Advance version 3.5.0->3.6.0 (#8836)"), the
//     stand-in for release/3.6.x. Its invalid-attributes.mlir has 27 cases. The WMMA cases use the
//     3.6 syntax (`warpsPerCTA = [...]`; main has `ctaLayout = {warp = ...}`), which is the syntax
//     liblayout reads. Cases 16-27 are the padded_shared cases, which main moved to
//     test/TritonGPU/verify-padded-layouts.mlir.
//   - Intel DPAS (#ttig.dpas and #ttg.dot_op of a DPAS parent): intel/intel-xpu-backend-for-triton
//     commit 6c1649935d83, third_party/intel/lib/Dialect/TritonIntelGPU/IR/Dialect.cpp. The rules
//     checked here are the same at the fork's tag v3.6.0 (225cdbde3).
// The `#alias = ...` definitions of the .mlir cases are written inline here: the parent's text
// replaces the alias inside the #ttg.dot_op.
//
// One deliberate deviation from Triton: #ttg.amd_mfma, #ttg.nvidia_mma, #ttg.amd_wmma, #ttg.linear,
// #ttg.slice and #ttig.dpas silently ignore unknown keys upstream. liblayout rejects them with
// "unknown parameter '<key>'". The other attributes reject unknown keys upstream as well, and
// liblayout must use Triton's message for them.
//
// The positive controls are attributes that Triton printed: they are copied from
// tests/data/triton_encoding_vectors.jsonl and tests/data/seed002 where those files have them.
#include "layout/triton/encoding.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using Shape = std::vector<int64_t>;

const Shape kRank1 = {64};
const Shape kRank2 = {64, 64};
const Shape kRank3 = {2, 64, 64};

// `text` must be rejected, either by parseEncoding or by toLinearLayout on `shape`. The error must
// contain `expected`, the upstream message. parseEncoding prefixes its messages with
// "line L, column C: ", so the check is a substring match.
void expectRejected(const std::string& text, const std::string& expected, const Shape& shape) {
  SCOPED_TRACE(text);
  auto enc = layout::triton::parseEncoding(text);
  if (!enc) {
    EXPECT_NE(enc.error().message.find(expected), std::string::npos)
        << "parseEncoding rejected it, but the message lacks \"" << expected
        << "\": " << enc.error().message;
    return;
  }
  auto ll = layout::triton::toLinearLayout(*enc, shape);
  ASSERT_FALSE(ll.ok()) << "accepted by parseEncoding and toLinearLayout; expected an error "
                           "containing \""
                        << expected << "\"";
  EXPECT_NE(ll.error().message.find(expected), std::string::npos)
      << "toLinearLayout rejected it, but the message lacks \"" << expected
      << "\": " << ll.error().message;
}

// `text` must be accepted by parseEncoding and converted by toLinearLayout on `shape`.
void expectAccepted(const std::string& text, const Shape& shape) {
  SCOPED_TRACE(text);
  auto enc = layout::triton::parseEncoding(text);
  ASSERT_TRUE(enc.ok()) << enc.error().message;
  auto ll = layout::triton::toLinearLayout(*enc, shape);
  ASSERT_TRUE(ll.ok()) << ll.error().message;
  EXPECT_EQ(ll->numOutDims(), int(shape.size()));
}

// The #blocked of cases 1 and 2 of invalid-attributes.mlir.
const std::string kCase1Blocked = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], "
                                  "warpsPerCTA = [1, 1], order = [1, 0]}>";

// The DPAS parent of the issue's cases (opsPerChan = 2: operand A needs kWidth = 1, operand B
// kWidth = 2).
std::string dpas(const std::string& repeatCount, const std::string& opsPerChan,
                 const std::string& extra = "") {
  return "#ttig.dpas<{repeatCount = " + repeatCount +
         ", systolicDepth = 8, executionSize = 16, opsPerChan = " + opsPerChan +
         ", threadsPerWarp = 16, warpsPerCTA = [1, 1], repCluster = [1, 1]" + extra + "}>";
}

// ---- invalid-attributes.mlir (3.6; cases 1-15 are also main's) --------------------------------

// Case 1.
TEST(TritonInvalidAttributes, DotOpOpIdxMustBe0Or1) {
  expectRejected("#ttg.dot_op<{opIdx = 2, parent = " + kCase1Blocked + ", kWidth = 2}>",
                 "ttg.dot_op opIdx parameter can be 0 or 1, got: 2", kRank2);
}

// Case 2.
TEST(TritonInvalidAttributes, DotOpKWidthNotSupportedForBlockedParent) {
  expectRejected("#ttg.dot_op<{opIdx = 1, parent = " + kCase1Blocked + ", kWidth = 8}>",
                 "ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout",
                 kRank2);
}

// Case 3.
TEST(TritonInvalidAttributes, DotOpKWidthOnlyForAmpereOrHopperMmaParent) {
  expectRejected("#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 1, "
                 "warpsPerCTA = [1, 1], instrShape = [16, 8]}>, kWidth = 8}>",
                 "ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper MMA parent",
                 kRank2);
}

// Cases 4 and 5.
TEST(TritonInvalidAttributes, DotOpKWidthMandatoryForAmpereOrHopperMmaParent) {
  for (const char* versionMajor : {"2", "3"}) {
    expectRejected(
        std::string("#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = ") +
            versionMajor + ", warpsPerCTA = [1, 1], instrShape = [16, 8]}>}>",
        "ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent", kRank2);
  }
}

// Case 6.
TEST(TritonInvalidAttributes, DotOpOpIdxMustBe0ForHopperMmaParent) {
  expectRejected("#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 3, "
                 "warpsPerCTA = [1, 1], instrShape = [16, 8]}>, kWidth = 8}>",
                 "ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA "
                 "only allows first operand to be in registers",
                 kRank2);
}

// Case 7.
TEST(TritonInvalidAttributes, DotOpKWidthMandatoryForMfmaParent) {
  expectRejected("#ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = "
                 "[1, 1, 1], instrShape = [32, 32, 8], isTransposed = false}>}>",
                 "ttg.dot_op kWidth parameter is mandatory for MFMA parent", kRank3);
}

// Case 8 (3.6 syntax).
TEST(TritonInvalidAttributes, DotOpKWidthMustBe8Or16ForWmmaV1) {
  expectRejected("#ttg.dot_op<{opIdx = 1, parent = #ttg.amd_wmma<{version = 1, warpsPerCTA = "
                 "[1, 4]}>}>",
                 "ttg.dot_op kWidth parameter must be 8/16 for WMMA v1 (including packed cases for "
                 "`scaled_dot`)",
                 kRank2);
}

// Case 9 (3.6 syntax).
TEST(TritonInvalidAttributes, DotOpKWidthMustBe4Or8Or16ForWmmaV2) {
  expectRejected("#ttg.dot_op<{opIdx = 1, parent = #ttg.amd_wmma<{version = 2, warpsPerCTA = "
                 "[1, 4]}>, kWidth = 32}>",
                 "ttg.dot_op kWidth parameter must be 4/8/16 for WMMA v2 (including packed cases "
                 "for `scaled_dot`)",
                 kRank2);
}

// Cases 10, 11 and 12 (3.6 syntax).
TEST(TritonInvalidAttributes, WmmaInstrShapePerVersion) {
  expectRejected("#ttg.amd_wmma<{version = 1, warpsPerCTA = [1, 1], instrShape = [16, 16, 32]}>",
                 "invalid WMMA v1 instruction shape", kRank2);
  expectRejected("#ttg.amd_wmma<{version = 2, warpsPerCTA = [1, 1], instrShape = [16, 16, 64]}>",
                 "invalid WMMA v2 instruction shape", kRank2);
  expectRejected("#ttg.amd_wmma<{version = 3, warpsPerCTA = [1, 1], instrShape = [16, 16, 16]}>",
                 "invalid WMMA v3 instruction shape", kRank2);
}

// Case 13.
TEST(TritonInvalidAttributes, MfmaVersionMustBe0To4) {
  expectRejected("#ttg.amd_mfma<{version = 10, warpsPerCTA = [1, 1, 1], instrShape = [32, 32, 8], "
                 "isTransposed = false}>",
                 "version must be in the [0, 4] range", kRank3);
}

// Case 14 (the .mlir file checks the prefix "invalid (mDim, nDim) combination").
TEST(TritonInvalidAttributes, MfmaMDimNDimCombination) {
  expectRejected("#ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 1, 1], instrShape = [16, 8, 8], "
                 "isTransposed = false}>",
                 "invalid (mDim, nDim) combination: (16, 8)", kRank3);
}

// Case 15.
TEST(TritonInvalidAttributes, MfmaElementBitWidthMustBe32Or64) {
  expectRejected("#ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 1, 1], instrShape = [16, 16, 16], "
                 "isTransposed = false, elementBitWidth = 16}>",
                 "elementBitWidth must be 32 or 64", kRank3);
}

// Cases 16 and 17.
TEST(TritonInvalidAttributes, PaddedSharedIntervalsMustBePowersOfTwo) {
  expectRejected("#ttg.padded_shared<[3:+2] {offset=[[0]], block=[]}>",
                 "interval values must all be power of two", kRank1);
  expectRejected("#ttg.padded_shared<[0:+2] {offset=[[0]], block=[]}>",
                 "interval values must all be power of two", kRank1);
}

// Cases 18 and 19.
TEST(TritonInvalidAttributes, PaddedSharedPaddingsMustBePowersOfTwo) {
  expectRejected("#ttg.padded_shared<[2:+3] {offset=[[0]], block=[]}>",
                 "padding values must all be power of two", kRank1);
  expectRejected("#ttg.padded_shared<[2:+0] {offset=[[0]], block=[]}>",
                 "padding values must all be power of two", kRank1);
}

// Case 20.
TEST(TritonInvalidAttributes, PaddedSharedIntervalsMustBeDistinct) {
  expectRejected("#ttg.padded_shared<[2:+1, 2:+4] {offset=[[0]], block=[]}>",
                 "interval values cannot have duplicates", kRank1);
}

// Cases 21, 22 and 24 (the .mlir file checks the prefix "Unexpected attribute" for case 21).
TEST(TritonInvalidAttributes, PaddedSharedUnexpectedAttributes) {
  expectRejected("#ttg.padded_shared<[2:+1, 4:+2] {unknown = 5}>",
                 "Unexpected attribute \"unknown\" found", kRank2);
  expectRejected("#ttg.padded_shared<[2:+1, 4:+2] {offset = [[1, 0], [2, 0]], block = [], "
                 "order=[0, 1]}>",
                 "Unexpected attribute \"order\" found", kRank2);
  expectRejected("#ttg.padded_shared<[2:+1, 4:+2] {order = [1, 0], register = [[0, 1], [0, 2]]}>",
                 "Unexpected attribute \"register\" found", kRank2);
}

// Case 23.
TEST(TritonInvalidAttributes, PaddedSharedOffsetBasesMustBePowersOfTwo) {
  expectRejected("#ttg.padded_shared<[2:+1, 4:+2] {offset = [[1, 0], [3, 0]], block = []}>",
                 "Each offset basis must be 0 or a power of two", kRank2);
}

// Cases 25, 26 and 27.
TEST(TritonInvalidAttributes, PaddedSharedNeedsOffsetAndBlockBases) {
  expectRejected("#ttg.padded_shared<[2:+1, 4:+2] {offset = [[1, 0], [1, 1]]}>",
                 "Expected basis of 'block' not found", kRank2);
  expectRejected("#ttg.padded_shared<[2:+1, 4:+2] {offset = [[0 , 1]]}>",
                 "Expected basis of 'block' not found", kRank2);
  expectRejected("#ttg.padded_shared<[2:+1, 4:+2] {block = [[0 , 1]]}>",
                 "Expected basis of 'offset' not found", kRank2);
}

// ---- The issue's cases ------------------------------------------------------------------------

TEST(TritonVerifierIssue, MfmaVersionOutOfRange) {
  for (const char* version : {"10", "99"}) {
    expectRejected(std::string("#ttg.amd_mfma<{version = ") + version +
                       ", warpsPerCTA = [1, 1], instrShape = [32, 32, 8], isTransposed = false}>",
                   "version must be in the [0, 4] range", kRank2);
  }
}

// Upstream has no nvidia_mma verifier: versionMajor 0, 1 (Volta) and 7 parse, the #ttg.dot_op
// verifier rejects a kWidth on them, and toLinearLayout handles Ampere and Hopper only.
std::string nvidiaMma(const std::string& versionMajor) {
  return "#ttg.nvidia_mma<{versionMajor = " + versionMajor +
         ", versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>";
}

TEST(TritonVerifierIssue, NvidiaMmaDotOpKWidthNeedsAmpereOrHopper) {
  for (const char* versionMajor : {"0", "1", "7"}) {
    expectRejected(
        "#ttg.dot_op<{opIdx = 0, parent = " + nvidiaMma(versionMajor) + ", kWidth = 2}>",
        "ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper MMA parent", kRank2);
  }
}

TEST(TritonVerifierIssue, NvidiaMmaUnsupportedVersionMajorHasNoLinearLayout) {
  for (const char* versionMajor : {"0", "1", "7"}) {
    expectRejected(nvidiaMma(versionMajor), "versionMajor", kRank2);
  }
}

// Only `true` and `false` are bools: an untyped integer literal is an i64.
TEST(TritonVerifierIssue, MfmaIsTransposedMustBeBool) {
  for (const char* value : {"7", "1"}) {
    expectRejected(std::string("#ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 1], instrShape = "
                               "[32, 32, 8], isTransposed = ") +
                       value + "}>",
                   "expected a bool type in isTransposed", kRank2);
  }
}

// Attributes that reject unknown keys upstream, with upstream's message.
TEST(TritonVerifierIssue, UnknownKeysRejectedWithTritonMessages) {
  expectRejected("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = "
                 "[1, 1], order = [1, 0], foo = 3}>",
                 "unexpected key: foo", kRank2);
  expectRejected("#ttg.swizzled_shared<{vec = 2, perPhase = 4, maxPhase = 8, order = [1, 0], "
                 "foo = 1}>",
                 "unexpected key: foo", kRank2);
  expectRejected("#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, "
                 "elementBitWidth = 16, foo = 1}>",
                 "unexpected key: foo", kRank2);
  expectRejected("#ttg.dot_op<{opIdx = 0, parent = " + nvidiaMma("2") + ", kWidth = 2, foo = 1}>",
                 "duplicate or unknown struct parameter name: foo", kRank2);
  expectRejected("#ttg.padded_shared<[2:+1] {order = [1, 0], shape = [16, 32], foo = [1]}>",
                 "Unexpected attribute \"foo\" found", kRank2);
}

// Attributes whose unknown keys Triton ignores: liblayout rejects them (documented deviation).
TEST(TritonVerifierIssue, UnknownKeysRejectedWhereTritonIgnoresThem) {
  const std::string expected = "unknown parameter 'foo'";
  expectRejected("#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [32, 32, 8], "
                 "isTransposed = false, foo = 1}>",
                 expected, kRank2);
  expectRejected("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], "
                 "instrShape = [16, 8], foo = 1}>",
                 expected, kRank2);
  expectRejected("#ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2], foo = 1}>",
                 expected, kRank2);
  expectRejected("#ttg.linear<{register = [], lane = [[0, 1], [1, 0], [0, 2], [2, 0], [4, 0]], "
                 "warp = [[8, 0], [16, 0]], block = [], foo = 1}>",
                 expected, kRank2);
  expectRejected("#ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [2, 2], "
                 "threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>, foo = 1}>",
                 expected, kRank1);
  expectRejected(dpas("8", "2", ", foo = 1"), expected, kRank2);
}

TEST(TritonVerifierIssue, MfmaElementBitWidthAndInstrShape) {
  expectRejected("#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [32, 32, 8], "
                 "isTransposed = false, elementBitWidth = 16}>",
                 "elementBitWidth must be 32 or 64", kRank2);
  expectRejected("#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [16, 8, 8], "
                 "isTransposed = false}>",
                 "invalid (mDim, nDim) combination: (16, 8)", kRank2);
}

TEST(TritonVerifierIssue, DotOpKWidthForAmdParents) {
  expectRejected("#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = "
                 "[1, 1], instrShape = [32, 32, 8], isTransposed = false}>}>",
                 "ttg.dot_op kWidth parameter is mandatory for MFMA parent", kRank2);
  expectRejected("#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_wmma<{version = 1, isTranspose = "
                 "false, warpsPerCTA = [1, 1]}>, kWidth = 4}>",
                 "ttg.dot_op kWidth parameter must be 8/16 for WMMA v1", kRank2);
  expectRejected("#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_wmma<{version = 2, isTranspose = "
                 "false, warpsPerCTA = [1, 1]}>, kWidth = 32}>",
                 "ttg.dot_op kWidth parameter must be 4/8/16 for WMMA v2", kRank2);
}

TEST(TritonVerifierIssue, DpasRules) {
  expectRejected("#ttg.dot_op<{opIdx = 1, parent = " + dpas("8", "2") + ", kWidth = 1}>",
                 "ttg.dot_op kWidth parameter must match the parent's opsPerChannel", kRank2);
  expectRejected(dpas("9", "2"), "repeatCount must be in the range [1, 8], but was:9", kRank2);
  expectRejected(dpas("8", "3"), "opsPerChannel must be 1, 2 or 4, but was:3", kRank2);
}

// ---- Positive controls ------------------------------------------------------------------------

TEST(TritonVerifierAccepts, Blocked) {
  // triton_encoding_vectors.jsonl, id 2.
  expectAccepted("#ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [4, 8], warpsPerCTA = "
                 "[2, 4], order = [1, 0]}>",
                 kRank2);
  // The #blocked of cases 1 and 2, and a dot operand of a blocked parent without kWidth
  // (triton_encoding_vectors.jsonl, id 222).
  expectAccepted(kCase1Blocked, kRank2);
  expectAccepted("#ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 2], "
                 "threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>}>",
                 kRank2);
}

TEST(TritonVerifierAccepts, MfmaVersions) {
  // Printed by Triton as a dot_op parent in triton_encoding_vectors.jsonl.
  expectAccepted("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 1], instrShape = [32, 32, 8], "
                 "isTransposed = true}>",
                 kRank2);
  // The ends of the [0, 4] range (version 4 from triton_encoding_vectors.jsonl).
  expectAccepted("#ttg.amd_mfma<{version = 4, warpsPerCTA = [1, 2], instrShape = [32, 32, 4], "
                 "isTransposed = true}>",
                 kRank2);
  expectAccepted("#ttg.amd_mfma<{version = 0, warpsPerCTA = [1, 1], instrShape = [32, 32, 8], "
                 "isTransposed = false}>",
                 kRank2);
  // Rank 3 (triton_encoding_vectors.jsonl).
  expectAccepted("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 1, 2], instrShape = [32, 32, 8], "
                 "isTransposed = false}>",
                 kRank3);
}

TEST(TritonVerifierAccepts, NvidiaMmaAmpereAndItsDotOperand) {
  // triton_encoding_vectors.jsonl has this parent, and dot operands of it with kWidth 1 and 2.
  expectAccepted(nvidiaMma("2"), kRank2);
  expectAccepted("#ttg.dot_op<{opIdx = 0, parent = " + nvidiaMma("2") + ", kWidth = 2}>", kRank2);
}

// The accepted kWidths next to the rejected ones (triton_encoding_vectors.jsonl).
TEST(TritonVerifierAccepts, DotOpKWidthsOfAmdParents) {
  expectAccepted("#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = "
                 "[2, 1], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 2}>",
                 kRank2);
  expectAccepted("#ttg.dot_op<{opIdx = 1, parent = #ttg.amd_wmma<{version = 1, isTranspose = "
                 "false, warpsPerCTA = [1, 1]}>, kWidth = 8}>",
                 kRank2);
  expectAccepted("#ttg.dot_op<{opIdx = 1, parent = #ttg.amd_wmma<{version = 2, isTranspose = "
                 "false, warpsPerCTA = [2, 2]}>, kWidth = 4}>",
                 kRank2);
}

TEST(TritonVerifierAccepts, DpasDotOperands) {
  // opsPerChan = 2: operand A has kWidth = opsPerChan / 2, operand B kWidth = opsPerChan.
  expectAccepted("#ttg.dot_op<{opIdx = 0, parent = " + dpas("8", "2") + ", kWidth = 1}>", kRank2);
  expectAccepted("#ttg.dot_op<{opIdx = 1, parent = " + dpas("8", "2") + ", kWidth = 2}>", kRank2);
  // As Triton printed them (tests/data/seed002/dpas_a_type.txt and dpas_b_type.txt).
  const std::string parent =
      "#triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, "
      "opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2], "
      "A = [32, 16], B = [16, 32], C = [32, 32]}>";
  expectAccepted("#ttg.dot_op<{opIdx = 0, parent = " + parent + ", kWidth = 1}>", {256, 32});
  expectAccepted("#ttg.dot_op<{opIdx = 1, parent = " + parent + ", kWidth = 2}>", {32, 256});
}

TEST(TritonVerifierAccepts, PaddedShared) {
  // triton_encoding_vectors.jsonl.
  expectAccepted("#ttg.padded_shared<[2:+1, 4:+2] {order = [1, 2, 0], shape = [16, 8, 8]}>",
                 {16, 8, 8});
  expectAccepted("#ttg.padded_shared<[16:+1] {offset = [[1, 0], [0, 8], [0, 16], [0, 1], [0, 4], "
                 "[0, 2]], block = [[2, 0]]}>",
                 {4, 32});
}

} // namespace
