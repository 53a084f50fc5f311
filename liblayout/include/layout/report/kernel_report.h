// Every layout of a kernel and what it costs (`layoutctl report`, issue 33): the ops of a TritonGPU
// IR dump (layout/text/mlir_ops.h) analysed with the library's models for the module's target.
//
//   auto m = layout::readMlirOps(text);
//   auto r = layout::report::analyzeKernel(*m, {});      // target from ttg.target ("cuda:90")
//   for (const auto& op : r->ops)
//     if (op.conversion) op.conversion->kind;            // none, registers, shuffles, shared
//   std::cout << layout::report::reportText(*r);
//
// Per op:
//   ttg.convert_layout   both encodings -> linear layouts -> conversion::planConversion: the class,
//                        shuffle rounds, or the shared round trip (bytes, instructions, wavefronts
//                        against the ideal of the synthesized swizzle).
//   ttg.local_alloc (with a tensor), ttg.local_store, ttg.local_load,
//   ttg.async_copy_global_to_local
//                        the register layout against the !ttg.memdesc's shared layout:
//                        smem::analyzeBanks for the instruction the target would use (ldmatrix
//                        for 16-bit dot operands on NVIDIA where the layouts allow it, else the
//                        widest plain load / store), and the synthesized swizzle's wavefronts.
//   tt.dot, ttng.warp_group_dot
//                        operand and accumulator encodings, the instruction shape, accumulator
//                        registers per thread.
//   tt.load, tt.store    elements per thread that are contiguous in the tensor (vector width).
//   tt.trans, tt.reshape, tt.join, tt.split, tt.broadcast, tt.expand_dims
//                        whether the layout change is free: the result layout pushed through the
//                        op's element map against the source (classifyConversion).
//   tt.reduce            elements combined per thread, butterfly shuffle rounds and count, and
//                        whether warps along the axis send partial results through shared memory.
//   tt.scan, ttg.memdesc_trans
//                        listed with their layouts.
// An op that cannot be analysed (an encoding the library does not know, a shape past the limits)
// keeps a note; only an unknown target fails the whole report.
#pragma once

#include "layout/core/conversion_kind.h"
#include "layout/core/expected.h"
#include "layout/text/mlir_ops.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace layout::report {

struct ReportOptions {
  // "sm80", "sm90", "cuda:90", "gfx942", "hip:gfx950", or a hardware target name ("nvidia",
  // "cdna3", "pvc", ...); empty: the module's "ttg.target" (NVIDIA when it has none).
  std::string target;
};

// A shared-memory access: the instruction, wavefronts against the ideal, and the synthesized
// swizzle's figure for the same access.
struct BankFigures {
  std::string instruction; // "nvidia.ldmatrix.x4", "nvidia.st.b128", "cdna3.ds_read_b64"
  int vectorElements = 1;  // elements one lane moves per access
  uint64_t wavefronts = 0, ideal = 0;
  std::optional<uint64_t> swizzledWavefronts, swizzledIdeal; // the synthesized swizzle's
  std::string swizzledInstruction;
  uint64_t extra() const { return wavefronts - ideal; }
};

// A convert_layout's plan.
struct ConversionFigures {
  ConversionKind kind = ConversionKind::None;
  int shuffleRounds = 0, roundsLowerBound = 0;
  // SharedMemory: one CTA's buffer and both halves (through the synthesized swizzle).
  uint64_t sharedBytes = 0;
  std::string storeInstruction, loadInstruction;
  uint64_t storeWavefronts = 0, storeIdeal = 0, loadWavefronts = 0, loadIdeal = 0;
  // Whether the conversion moves data between warps (then shuffles cannot do it).
  bool crossWarp = false;
};

struct DotFigures {
  // "[16, 128, 16]" from the MMA parent; Intel DPAS (#ttig.dpas, xegpu.dpas): [M, N, K] of one
  // instruction; "" when unknown.
  std::string instrShape;
  int accumulatorRegisters = 0; // per thread
  int64_t instructions = 0;     // per warp / subgroup where known (DPAS), else 0
};

// A 2D block access on Intel Xe (xegpu.load_nd / store_nd / prefetch_nd; tt.load of a block
// pointer to a DPAS operand; a #ttig.subgroup_2d_block tensor): the block instruction one
// subgroup issues and how many.
struct BlockIoFigures {
  std::string instruction;           // "16b_32r16x2c", "transform_16b_16r16x1c" (OpenCL-style)
  std::vector<int64_t> tile;         // [rows, columns] of one block
  std::vector<int64_t> subgroupData; // [rows, columns] one subgroup moves
  int arrayLength = 1;               // blocks side by side per instruction
  bool packed = false, transpose = false;
  int64_t instructions = 0;    // per subgroup
  int64_t elementsPerLane = 0; // of one instruction
  int shuffledRegisters = 0;   // DPAS operands: registers assembled by shuffles (planner)
  bool legal = true;
  std::string why; // the block I/O rule the shape breaks, or how the figures were found
};

// tt.trans, tt.reshape, tt.join, tt.split, tt.broadcast, tt.expand_dims: whether every thread
// already holds the elements the result needs (the op's result layout against its source).
struct LayoutChangeFigures {
  bool free = false;
  // What moving the source to the result's placement needs: None or RegisterPermutation (free),
  // WarpShuffle, SharedMemory.
  ConversionKind movement = ConversionKind::None;
  std::string why;
};

// tt.reduce along `axis` as Triton lowers it: inside each thread, then butterfly shuffles over
// the lanes along the axis, then through shared memory when warps lie along it.
struct ReductionFigures {
  int axis = 0;
  uint64_t inThreadElements = 1; // source elements a thread combines into one partial result
  uint64_t accumulators = 1;     // partial results per thread (per reduced tensor)
  int laneRounds = 0;            // butterfly rounds: log2(lanes along the axis)
  uint64_t shuffles = 0;         // per thread: accumulators * rounds * 32-bit words * operands
  int warpsAlongAxis = 1;        // > 1: the partial results meet in shared memory
  bool crossWarp() const { return warpsAlongAxis > 1; }
};

struct OpReport {
  std::string op; // "ttg.convert_layout"
  MlirLocation loc;
  int line = 0, column = 0; // in the MLIR file
  // "conversion", "shared", "dot", "memory", "layout".
  std::string category;
  std::vector<int64_t> shape;
  std::string elementType;
  int elemBits = 0;
  // Role -> printed encoding: "src"/"dst", "registers"/"shared", "a"/"b"/"acc", "result".
  std::vector<std::pair<std::string, std::string>> layouts;
  std::optional<ConversionFigures> conversion;
  std::optional<BankFigures> banks;
  std::optional<DotFigures> dot;
  std::optional<int> vectorWidth; // tt.load / tt.store: contiguous elements per thread
  std::optional<BlockIoFigures> blockIo;
  std::optional<LayoutChangeFigures> change;
  std::optional<ReductionFigures> reduction;
  std::vector<std::string> notes;
};

struct ReportSummary {
  int ops = 0;
  int conversions = 0;
  int planNone = 0, planRegisters = 0, planShuffles = 0, planShared = 0;
  int sharedRoundTrips = 0;     // conversions through shared memory
  int sharedAccesses = 0;       // analysed local_alloc / local_store / local_load / async copies
  uint64_t extraWavefronts = 0; // wavefronts - ideal over every analysed access and round trip
  // Intra-warp conversions a lowering that ignores broadcast sends through shared memory: the
  // planner's shuffle plans with no shuffle round (Triton 3.6 in the corpus).
  int couldBeShuffles = 0;
  int notAnalysed = 0;                             // ops with a note and no figures
  int layoutChanges = 0, layoutChangesNotFree = 0; // trans, reshape, join, split, broadcast, ...
  int reductions = 0, crossWarpReductions = 0;
};

struct KernelReport {
  std::string target;    // as given or read ("cuda:90")
  std::string bankModel; // "nvidia", "cdna3", "cdna4", "xe"
  int lanes = 32;
  std::vector<OpReport> ops; // in file order
  ReportSummary summary;
  std::vector<std::string> notes; // the reader's notes and the report's own
};

// The bank model of a target spelling ("sm90" -> nvidia, "hip:gfx942" -> cdna3). Errors list
// the spellings.
Expected<std::string> bankModelForTarget(std::string_view target);

// Errors: an unknown target only.
Expected<KernelReport> analyzeKernel(const MlirModule& module, const ReportOptions& options);
// readMlirOps, then analyzeKernel (the reader's errors are "line L, column C: ...").
Expected<KernelReport> reportFromText(std::string_view text, const ReportOptions& options);

nlohmann::ordered_json reportToJson(const KernelReport& r);
// Grouped by source line, worst first.
std::string reportText(const KernelReport& r);
// SARIF 2.1.0: one result per finding (a shared round trip shuffles could do, bank conflicts
// above the ideal).
nlohmann::ordered_json reportToSarif(const KernelReport& r);

} // namespace layout::report
