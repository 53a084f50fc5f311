// Bounds on the work and memory that one request may ask for, so that hostile or mistaken input
// (a 2^64-cell view, a 4 GiB alias expansion, `@/dev/zero`) gets an error naming the limit
// instead of a crash, a hang or an exhausted machine. docs/limits.md lists every limit.
//
//   layout::ResourceLimits limits = layout::resourceLimits();   // the process-wide values
//   limits.maxViewCells = uint64_t{1} << 24;                     // raise one
//   layout::setResourceLimits(limits);
//
//   // Tools read the LAYOUT_MAX_* environment variables once at start-up:
//   auto fromEnv = layout::resourceLimitsFromEnvironment();      // error names a bad variable
//   if (!fromEnv) { std::cerr << "error: " << fromEnv.error().message << "\n"; return 1; }
//   layout::setResourceLimits(*fromEnv);
#pragma once

#include "layout/core/expected.h"

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

namespace layout {

struct ResourceLimits {
  // Bytes of one input file, `@file` argument or standard input (LAYOUT_MAX_INPUT_BYTES).
  uint64_t maxInputBytes = uint64_t{64} << 20;
  // Bytes of one `layoutctl batch` request line (LAYOUT_MAX_LINE_BYTES).
  uint64_t maxLineBytes = uint64_t{16} << 20;
  // Cells of a text view (tensor elements, and hardware positions of the hw view)
  // (LAYOUT_MAX_VIEW_CELLS, or `layoutctl show --max-cells`).
  uint64_t maxViewCells = uint64_t{1} << 22;
  // Elements of the operand tensor a block-load plan covers (LAYOUT_MAX_PLAN_ELEMENTS).
  uint64_t maxPlanElements = uint64_t{1} << 24;
  // Values (numbers, names, lists, attributes) of attribute text once aliases are expanded, per
  // attribute and per alias file (LAYOUT_MAX_ATTR_VALUES).
  uint64_t maxAttrValues = uint64_t{1} << 18;
  // In-dims plus out-dims of one layout JSON object (LAYOUT_MAX_DIMS).
  uint64_t maxDims = 4096;
  // Nesting of arrays and objects in one JSON document: a request line, a layout, a target, a
  // configuration (LAYOUT_MAX_JSON_DEPTH). Checked before parsing, so nothing recurses deeper.
  uint64_t maxJsonDepth = 256;
  // Values (scalars, arrays, objects) of one JSON document (LAYOUT_MAX_JSON_VALUES): a parsed
  // value takes 16-100 bytes, so this keeps a parse within about 100 MiB whatever the input, while
  // the widest layouts (thousands of dims of 63 bases) take a few hundred thousand.
  uint64_t maxJsonValues = uint64_t{1} << 20;
  // Bits of one layout's basis matrix (in bits x out bits, rounded up to 64-bit words), for every
  // layout the algebra makes (LAYOUT_MAX_LAYOUT_BITS). 2^28 bits is 32 MiB: a 16384 x 16384 map,
  // far beyond any hardware layout, while a wide invertAndCompose cannot ask for gigabytes.
  uint64_t maxLayoutBits = uint64_t{1} << 28;
  // Distinct dim names, and their bytes, interned by one process (LAYOUT_MAX_DIM_NAMES,
  // LAYOUT_MAX_DIM_NAME_BYTES). Interned names live as long as the process (a DimName is a bare
  // id, so the algebra never counts references), so a long batch session of ever new names is
  // bounded here, at about 25 MiB; past it, requests with new names get an error. Real kernels
  // use a few dozen names.
  uint64_t maxDimNames = uint64_t{1} << 16;
  uint64_t maxDimNameBytes = uint64_t{16} << 20;
  // Multiply-adds (M x N x K) of a GEMM that `layoutctl gemm` simulates and verifies on the host
  // (LAYOUT_MAX_GEMM_MACS, or `layoutctl gemm --max-macs`).
  uint64_t maxGemmMacs = uint64_t{1} << 34;
  // Operations, and results, of one MLIR file that readMlirOps keeps (LAYOUT_MAX_MLIR_OPS); real
  // kernels have a few thousand.
  uint64_t maxMlirOps = uint64_t{1} << 18;
  // Nesting of regions, and of brackets within an op, in MLIR text (LAYOUT_MAX_MLIR_NESTING); real
  // kernels nest about ten deep.
  uint64_t maxMlirNesting = 256;
};

// How many distinct dim names this process has interned, and their bytes: what maxDimNames and
// maxDimNameBytes bound.
struct InternedDimNames {
  uint64_t names = 0;
  uint64_t bytes = 0;
};
InternedDimNames internedDimNames();

// Thrown where a limit is met by code that cannot return an error (interning a DimName). The
// tools report it like any other limit: an error naming the limit, exit status 1, and in a batch
// an error line for that request.
class LimitExceeded : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The limits in force for this process (the defaults above until setResourceLimits).
const ResourceLimits& resourceLimits();
void setResourceLimits(const ResourceLimits& limits);

// The defaults, each replaced by its environment variable where that is set. A variable that is
// not a positive decimal integer is an error naming it.
Expected<ResourceLimits> resourceLimitsFromEnvironment();

// The number of elements of a tensor of `shape`, or an error ("<what> has N elements; the limit
// is L (<how to raise it>)") when it exceeds `limit` or overflows 64 bits. Checked before any
// allocation proportional to the tensor.
Expected<uint64_t> boundedElementCount(std::span<const int64_t> shape, uint64_t limit,
                                       const std::string& what, const char* raiseHint);

// "2^22 (4194304)" for powers of two, else the decimal value: how messages print a limit.
std::string describeLimit(uint64_t limit);

} // namespace layout
