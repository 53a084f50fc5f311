// The built-in hardware targets as JSON text, read by the same parsers as a user's description
// (hardwareTargetFromJson, and the block-I/O and bank-model readers of layout/intel and
// layout/smem), so built-in and user targets obey the same rules.
#include "builtin_targets.h"

namespace layout::target::detail {

// Bank models. Sources: docs/reference/banks-swizzles-visualizers.md §3.2 (NVIDIA), §3.3 (AMD),
// §3.4 (Intel). A model gives defaults (laneCount, banks, bankBytes) that an instruction may
// override; "phases" lists lane groups as "a-b" ranges or single lanes; "contiguous" = groups of
// banks * bankBytes / bytesPerLane consecutive lanes. "basis" says where each grouping comes from.
const char* builtinBankModelsJson() {
  return R"json([
{"name": "nvidia", "laneCount": 32, "banks": 32, "bankBytes": 4,
 "description": "NVIDIA shared memory, cc 5.x to 9.x: 32 banks x 4 B, one word per bank per cycle",
 "instructions": [
  {"name": "ld.b8", "direction": "read", "bytesPerLane": 1, "phases": [["0-31"]], "basis": "documented: CUDA C++ Programming Guide (accesses up to 4 B: one phase of 32 lanes)"},
  {"name": "ld.b16", "direction": "read", "bytesPerLane": 2, "phases": [["0-31"]], "basis": "documented: CUDA C++ Programming Guide (accesses up to 4 B: one phase of 32 lanes)"},
  {"name": "ld.b32", "direction": "read", "bytesPerLane": 4, "phases": [["0-31"]], "basis": "documented: CUDA C++ Programming Guide (accesses up to 4 B: one phase of 32 lanes)"},
  {"name": "ld.b64", "direction": "read", "bytesPerLane": 8, "phases": [["0-15"], ["16-31"]], "pairMergedPhases": [["0-31"]], "basis": "documented: GTC'19 S9593, NVIDIA/cutlass #328 (half warps); measured on H100: one phase when lanes n and n^1 (or n^2) read the same address (tests/data/nvidia_h100_bank_measurements.jsonl)"},
  {"name": "ld.b128", "direction": "read", "bytesPerLane": 16, "phases": [["0-7"], ["8-15"], ["16-23"], ["24-31"]], "pairMergedPhases": [["0-15"], ["16-31"]], "basis": "documented: GTC'19 S9593, NVIDIA/cutlass #328 (quarter warps); measured on H100: half warps when lanes n and n^1 (or n^2) read the same address (tests/data/nvidia_h100_bank_measurements.jsonl)"},
  {"name": "st.b8", "direction": "write", "bytesPerLane": 1, "phases": [["0-31"]], "basis": "documented: CUDA C++ Programming Guide (accesses up to 4 B: one phase of 32 lanes)"},
  {"name": "st.b16", "direction": "write", "bytesPerLane": 2, "phases": [["0-31"]], "basis": "documented: CUDA C++ Programming Guide (accesses up to 4 B: one phase of 32 lanes)"},
  {"name": "st.b32", "direction": "write", "bytesPerLane": 4, "phases": [["0-31"]], "basis": "documented: CUDA C++ Programming Guide (accesses up to 4 B: one phase of 32 lanes)"},
  {"name": "st.b64", "direction": "write", "bytesPerLane": 8, "phases": [["0-15"], ["16-31"]], "basis": "documented: GTC'19 S9593, NVIDIA/cutlass #328 (half warps); measured on H100 (no merge, unlike ld.b64)"},
  {"name": "st.b128", "direction": "write", "bytesPerLane": 16, "phases": [["0-7"], ["8-15"], ["16-23"], ["24-31"]], "basis": "documented: GTC'19 S9593, NVIDIA/cutlass #328 (quarter warps); measured on H100 (no merge, unlike ld.b128)"},
  {"name": "ldmatrix.x1", "direction": "read", "bytesPerLane": 16, "matrices": 1, "phases": [["0-7"]], "basis": "documented: PTX ISA (one 8x8 b16 matrix = 8 rows x 16 B = one phase)"},
  {"name": "ldmatrix.x2", "direction": "read", "bytesPerLane": 16, "matrices": 2, "phases": [["0-7"], ["8-15"]], "basis": "documented: PTX ISA (one 8x8 b16 matrix = 8 rows x 16 B = one phase)"},
  {"name": "ldmatrix.x4", "direction": "read", "bytesPerLane": 16, "matrices": 4, "phases": [["0-7"], ["8-15"], ["16-23"], ["24-31"]], "basis": "documented: PTX ISA (one 8x8 b16 matrix = 8 rows x 16 B = one phase)"},
  {"name": "ldmatrix.x1.trans", "direction": "read", "bytesPerLane": 16, "matrices": 1, "transposed": true, "phases": [["0-7"]], "basis": "documented: PTX ISA (one 8x8 b16 matrix = 8 rows x 16 B = one phase)"},
  {"name": "ldmatrix.x2.trans", "direction": "read", "bytesPerLane": 16, "matrices": 2, "transposed": true, "phases": [["0-7"], ["8-15"]], "basis": "documented: PTX ISA (one 8x8 b16 matrix = 8 rows x 16 B = one phase)"},
  {"name": "ldmatrix.x4.trans", "direction": "read", "bytesPerLane": 16, "matrices": 4, "transposed": true, "phases": [["0-7"], ["8-15"], ["16-23"], ["24-31"]], "basis": "documented: PTX ISA (one 8x8 b16 matrix = 8 rows x 16 B = one phase)"},
  {"name": "stmatrix.x1", "direction": "write", "bytesPerLane": 16, "matrices": 1, "phases": [["0-7"]], "basis": "documented: PTX ISA 7.8 (stmatrix mirrors ldmatrix)"},
  {"name": "stmatrix.x2", "direction": "write", "bytesPerLane": 16, "matrices": 2, "phases": [["0-7"], ["8-15"]], "basis": "documented: PTX ISA 7.8 (stmatrix mirrors ldmatrix)"},
  {"name": "stmatrix.x4", "direction": "write", "bytesPerLane": 16, "matrices": 4, "phases": [["0-7"], ["8-15"], ["16-23"], ["24-31"]], "basis": "documented: PTX ISA 7.8 (stmatrix mirrors ldmatrix)"},
  {"name": "stmatrix.x1.trans", "direction": "write", "bytesPerLane": 16, "matrices": 1, "transposed": true, "phases": [["0-7"]], "basis": "documented: PTX ISA 7.8 (stmatrix mirrors ldmatrix)"},
  {"name": "stmatrix.x2.trans", "direction": "write", "bytesPerLane": 16, "matrices": 2, "transposed": true, "phases": [["0-7"], ["8-15"]], "basis": "documented: PTX ISA 7.8 (stmatrix mirrors ldmatrix)"},
  {"name": "stmatrix.x4.trans", "direction": "write", "bytesPerLane": 16, "matrices": 4, "transposed": true, "phases": [["0-7"], ["8-15"], ["16-23"], ["24-31"]], "basis": "documented: PTX ISA 7.8 (stmatrix mirrors ldmatrix)"}
 ]},
{"name": "cdna3", "laneCount": 64, "banks": 32, "bankBytes": 4,
 "description": "AMD CDNA3 (gfx942, MI300) LDS: 32 banks x 4 B, 64-lane waves",
 "instructions": [
  {"name": "ds_read_u8", "direction": "read", "bytesPerLane": 1, "phases": [["0-31"], ["32-63"]], "basis": "assumed: as ds_read_b32 (LLVM's gfx942 syntax lists ds_read_u8/u16 and ds_write_b8/b16; lanes reading one dword share it)"},
  {"name": "ds_read_u16", "direction": "read", "bytesPerLane": 2, "phases": [["0-31"], ["32-63"]], "basis": "assumed: as ds_read_b32 (Triton 3.6 emits it for 16-bit transposes on gfx942)"},
  {"name": "ds_read_b32", "direction": "read", "bytesPerLane": 4, "phases": [["0-31"], ["32-63"]], "basis": "documented: nod-ai AMDGPU kernel optimization guide (b32: 32 adjacent lanes per pass)"},
  {"name": "ds_read_b64", "direction": "read", "bytesPerLane": 8, "phases": "contiguous", "basis": "assumed: no published lane groups; Triton PR #9662's phase count (64 lanes x 64 bits / (32 banks x 32 bits) = 4) as contiguous lanes"},
  {"name": "ds_read_b128", "direction": "read", "bytesPerLane": 16, "phases": [["0-3", "20-23"], ["4-7", "16-19"], ["8-11", "28-31"], ["12-15", "24-27"], ["32-35", "52-55"], ["36-39", "48-51"], ["40-43", "60-63"], ["44-47", "56-59"]], "basis": "documented: ROCm composable_kernel lds_bank_conflicts.rst, Triton PR #11365"},
  {"name": "ds_write_b8", "direction": "write", "bytesPerLane": 1, "phases": [["0-31"], ["32-63"]], "basis": "assumed: as ds_write_b32"},
  {"name": "ds_write_b16", "direction": "write", "bytesPerLane": 2, "phases": [["0-31"], ["32-63"]], "basis": "assumed: as ds_write_b32 (Triton 3.6 emits it, and its _d16_hi form, for 16-bit transposes on gfx942)"},
  {"name": "ds_write_b32", "direction": "write", "bytesPerLane": 4, "phases": [["0-31"], ["32-63"]], "basis": "assumed: as ds_read_b32 (32 adjacent lanes per pass)"},
  {"name": "ds_write_b64", "direction": "write", "bytesPerLane": 8, "phases": "contiguous", "basis": "assumed: no published lane groups; Triton PR #9662's phase count as contiguous lanes"},
  {"name": "ds_write_b128", "direction": "write", "bytesPerLane": 16, "phases": "contiguous", "basis": "documented: ROCm composable_kernel lds_bank_conflicts.rst (8 phases of 8 contiguous lanes)"}
 ]},
{"name": "cdna4", "laneCount": 64, "banks": 64, "bankBytes": 4,
 "description": "AMD CDNA4 (gfx950, MI350/MI355X) LDS: 64 banks x 4 B, 64-lane waves; some instructions see 32 banks",
 "instructions": [
  {"name": "ds_read_u8", "direction": "read", "bytesPerLane": 1, "phases": "contiguous", "basis": "assumed: as ds_read_b32"},
  {"name": "ds_read_u16", "direction": "read", "bytesPerLane": 2, "phases": "contiguous", "basis": "assumed: as ds_read_b32"},
  {"name": "ds_read_b32", "direction": "read", "bytesPerLane": 4, "phases": "contiguous", "basis": "assumed: no published measurement; IREE PR #24428 treats reads up to 8 B as contiguous phases"},
  {"name": "ds_read_b64", "direction": "read", "bytesPerLane": 8, "phases": [["0-31"], ["32-63"]], "basis": "measured: HipKittens (arXiv 2511.08083) Table 5"},
  {"name": "ds_read_b96", "direction": "read", "banks": 32, "bytesPerLane": 12, "phases": [["0-3", "20-23"], ["4-7", "16-19"], ["8-11", "28-31"], ["12-15", "24-27"], ["32-35", "52-55"], ["36-39", "48-51"], ["40-43", "60-63"], ["44-47", "56-59"]], "basis": "measured: HipKittens (arXiv 2511.08083) Table 5 (32 banks seen)"},
  {"name": "ds_read_b128", "direction": "read", "bytesPerLane": 16, "phases": [["0-3", "12-15", "20-27"], ["4-11", "16-19", "28-31"], ["32-35", "44-47", "52-59"], ["36-43", "48-51", "60-63"]], "basis": "measured: HipKittens (arXiv 2511.08083) Table 5; Triton PR #11365"},
  {"name": "ds_write_b8", "direction": "write", "bytesPerLane": 1, "phases": "contiguous", "basis": "assumed: as ds_write_b32"},
  {"name": "ds_write_b16", "direction": "write", "bytesPerLane": 2, "phases": "contiguous", "basis": "assumed: as ds_write_b32"},
  {"name": "ds_write_b32", "direction": "write", "bytesPerLane": 4, "phases": "contiguous", "basis": "assumed: no published measurement; one 256-byte bank line per phase"},
  {"name": "ds_write_b64", "direction": "write", "banks": 32, "bytesPerLane": 8, "phases": [["0-15"], ["16-31"], ["32-47"], ["48-63"]], "basis": "measured: HipKittens (arXiv 2511.08083) Table 5 (32 banks seen)"},
  {"name": "ds_write_b128", "direction": "write", "bytesPerLane": 16, "phases": "contiguous", "basis": "assumed: no published measurement; Triton PR #9662's phase count as contiguous lanes"}
 ]},
{"name": "xe", "laneCount": 16, "banks": 16, "bankBytes": 4,
 "description": "Intel Xe SLM: 64 consecutive bytes in 16 banks x 4 B (oneAPI GPU Optimization Guide); one phase = one 16-lane sub-group request (suggested default; load a JSON model for other splits)",
 "instructions": [
  {"name": "slm.ld.b8", "direction": "read", "bytesPerLane": 1, "phases": [["0-15"]], "basis": "assumed: one phase per sub-group request (no public phase rules)"},
  {"name": "slm.ld.b16", "direction": "read", "bytesPerLane": 2, "phases": [["0-15"]], "basis": "assumed: one phase per sub-group request (no public phase rules)"},
  {"name": "slm.ld.b32", "direction": "read", "bytesPerLane": 4, "phases": [["0-15"]], "basis": "assumed: one phase per sub-group request (no public phase rules)"},
  {"name": "slm.ld.b64", "direction": "read", "bytesPerLane": 8, "phases": [["0-15"]], "basis": "assumed: one phase per sub-group request (no public phase rules)"},
  {"name": "slm.ld.b128", "direction": "read", "bytesPerLane": 16, "phases": [["0-15"]], "basis": "assumed: one phase per sub-group request (no public phase rules)"},
  {"name": "slm.st.b8", "direction": "write", "bytesPerLane": 1, "phases": [["0-15"]], "basis": "assumed: one phase per sub-group request (no public phase rules)"},
  {"name": "slm.st.b16", "direction": "write", "bytesPerLane": 2, "phases": [["0-15"]], "basis": "assumed: one phase per sub-group request (no public phase rules)"},
  {"name": "slm.st.b32", "direction": "write", "bytesPerLane": 4, "phases": [["0-15"]], "basis": "assumed: one phase per sub-group request (no public phase rules)"},
  {"name": "slm.st.b64", "direction": "write", "bytesPerLane": 8, "phases": [["0-15"]], "basis": "assumed: one phase per sub-group request (no public phase rules)"},
  {"name": "slm.st.b128", "direction": "write", "bytesPerLane": 16, "phases": [["0-15"]], "basis": "assumed: one phase per sub-group request (no public phase rules)"}
 ]}
])json";
}

// Targets. Sources: docs/reference/intel-xe.md §1.1 (DPAS parameters: executionSize 16 on PVC and
// BMG, 8 on DG2; systolicDepth 8; repeatCount 1..8), §4.4 (subgroup sizes; GRF 64 B on PVC/BMG,
// 32 B on DG2; 128 GRF per thread, 256 in large-GRF mode), §2.2 and §3.1 (2D block-I/O limits:
// Triton's TritonGEN verifier and runtime asserts, the SPIR-V / OpenCL restrictions; PVC and BMG
// share them, the sources give no difference: 256-byte prefetch rows exist only where a module
// reports support_prefetch_256b, and the part is not named, so both keep 64; 32-bit prefetch keeps
// 2 blocks, as the OpenCL shape table lists). DG2 has no 2D block I/O. The DPAS element types
// follow seed 000's sg_map tables for PVC and ARC. NVIDIA: 32-lane warps, at most 255 32-bit
// registers per thread (CUDA C++ Programming Guide, compute capabilities). AMD CDNA3/CDNA4:
// 64-lane waves, 512 32-bit VGPRs per lane (architectural and accumulation registers together;
// AMD Instinct MI300 / CDNA3 ISA).
const char* builtinTargetsJson() {
  return R"json([
{"name": "pvc", "vendor": "intel",
 "description": "Intel Data Center GPU Max (Ponte Vecchio, Xe-HPC)",
 "subgroupSize": 16, "registerFile": {"registerBytes": 64, "registersPerThread": [128, 256]},
 "dpas": {"executionSize": 16, "systolicDepth": 8, "maxRepeatCount": 8,
          "types": ["f16", "bf16", "tf32", "int8"]},
 "blockIo": {
     "maxTileHeight": {"load": 32, "store": 8, "prefetch": 32},
     "maxRowBytes": {"load": 64, "store": 64, "prefetch": 64},
     "elements": [
       {"elemBits": 8, "minTileWidth": 4, "maxTileWidth": 64,
        "maxBlocks": {"load": 4, "store": 1, "prefetch": 4}, "vnni": {"minTileHeight": 4}},
       {"elemBits": 16, "minTileWidth": 2, "maxTileWidth": 32,
        "maxBlocks": {"load": 4, "store": 1, "prefetch": 4}, "vnni": {"minTileHeight": 2}},
       {"elemBits": 32, "minTileWidth": 1, "maxTileWidth": 16,
        "maxBlocks": {"load": 2, "store": 1, "prefetch": 2},
        "transpose": {"maxTileWidth": 8, "maxBlocks": 1}},
       {"elemBits": 64, "minTileWidth": 1, "maxTileWidth": 8,
        "maxBlocks": {"load": 1, "store": 1, "prefetch": 1},
        "transpose": {"maxTileWidth": 4, "requiredTileHeight": 8, "maxBlocks": 1}}
     ],
     "surface": {"minWidthBytes": 64, "maxWidthBytes": 16777216, "widthMultipleBytes": 4,
                 "maxHeight": 16777216, "minPitchBytes": 64, "maxPitchBytes": 16777216,
                 "pitchMultipleBytes": 16, "baseAlignmentBytes": 64, "xMultipleBytes": 4}
   },
 "bankModel": "xe"},
{"name": "bmg", "vendor": "intel", "description": "Intel Arc B-series (Battlemage, Xe2)",
 "subgroupSize": 16, "registerFile": {"registerBytes": 64, "registersPerThread": [128, 256]},
 "dpas": {"executionSize": 16, "systolicDepth": 8, "maxRepeatCount": 8,
          "types": ["f16", "bf16", "tf32", "int8"]},
 "blockIo": "pvc", "bankModel": "xe"},
{"name": "arc", "vendor": "intel", "description": "Intel Arc A-series and Flex (DG2, Xe-HPG)",
 "subgroupSize": 8, "registerFile": {"registerBytes": 32, "registersPerThread": [128]},
 "dpas": {"executionSize": 8, "systolicDepth": 8, "maxRepeatCount": 8,
          "types": ["f16", "bf16", "tf32", "int8"]},
 "bankModel": "xe"},
{"name": "nvidia", "vendor": "nvidia",
 "description": "NVIDIA GPUs of compute capability 7.0 to 9.0 (Volta to Hopper)",
 "subgroupSize": 32, "registerFile": {"registerBytes": 4, "registersPerThread": [255]},
 "bankModel": "nvidia"},
{"name": "cdna3", "vendor": "amd", "description": "AMD Instinct MI300 (CDNA3, gfx942)",
 "subgroupSize": 64, "registerFile": {"registerBytes": 4, "registersPerThread": [512]},
 "bankModel": "cdna3"},
{"name": "cdna4", "vendor": "amd", "description": "AMD Instinct MI350 / MI355X (CDNA4, gfx950)",
 "subgroupSize": 64, "registerFile": {"registerBytes": 4, "registersPerThread": [512]},
 "bankModel": "cdna4"}
])json";
}

} // namespace layout::target::detail
