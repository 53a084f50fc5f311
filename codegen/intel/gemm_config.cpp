// GEMM configuration: data-type traits, the configuration rules and the JSON form.
#include "layout/codegen/gemm_config.h"

#include "layout/intel/block_io.h"
#include "layout/target/hardware_target.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>

namespace layout::codegen {
namespace {

// docs/reference/intel-xe.md §3.2 (SG16) and the OpenCL built-in names of §6.
constexpr DataTypeTraits kTraits[] = {
    {GemmDataType::F16, "f16", "f32", 16, 2, 16, "intel_sub_group_f16_f16_matrix_mad_k16"},
    {GemmDataType::BF16, "bf16", "f32", 16, 2, 16, "intel_sub_group_bf16_bf16_matrix_mad_k16"},
    {GemmDataType::Int8, "int8", "int32", 8, 4, 32, "intel_sub_group_i8_i8_matrix_mad_k32"},
    {GemmDataType::TF32, "tf32", "f32", 32, 1, 8, "intel_sub_group_tf32_tf32_matrix_mad_k8"},
};

// The 2D block surface fields are 24 bits wide (width and pitch in bytes, height in rows).
constexpr int64_t kMaxSurfaceField = int64_t{1} << 24;
// A workgroup holds at most 1024 work-items on PVC and BMG: 64 subgroups of 16.
constexpr int64_t kMaxSubgroupsPerWorkgroup = 64;
// With 256 registers per thread an Xe core runs half the threads, so a workgroup may hold at most
// 32 subgroups of 16 (512 work-items); 1024 hangs PVC (Intel's compute-runtime limits it).
constexpr int64_t kMaxSubgroupsLargeGrf = 32;
constexpr int64_t kMaxTileExtent = 1024;

bool isPowerOfTwo(int64_t v) {
  return v > 0 && std::has_single_bit(static_cast<uint64_t>(v));
}

std::string field(std::string_view name, int index) {
  return std::string(name) + "[" + std::to_string(index) + "]";
}

} // namespace

const DataTypeTraits& dataTypeTraits(GemmDataType t) {
  return *std::find_if(std::begin(kTraits), std::end(kTraits),
                       [t](const DataTypeTraits& d) { return d.type == t; });
}

std::optional<GemmDataType> parseGemmDataType(std::string_view name) {
  for (const auto& t : kTraits)
    if (t.name == name) return t.type;
  return std::nullopt;
}

Expected<void> validateGemmConfig(const GemmConfig& c) {
  LAYOUT_TRY(checkGemmConfig(c));
  return {};
}

int64_t defaultKTile(GemmDataType t) {
  return t == GemmDataType::TF32 ? 16 : 32;
}

Expected<GemmTarget> checkGemmConfig(const GemmConfig& c) {
  const auto& traits = dataTypeTraits(c.dtype);
  auto hw = target::hardwareTarget(c.arch);
  if (!hw) return withContext(hw.error(), "arch");
  // The kernels are Xe DPAS kernels: a target with DPAS and 2D block I/O whose DPAS spans the
  // subgroup, which the 16-lane (SIMD16) OpenCL built-ins the emitter calls need.
  if (!hw->dpas || !hw->blockIo || hw->subgroupSize != 16 || hw->dpas->executionSize != 16) {
    std::string names;
    for (const auto& t : target::builtinTargets())
      if (t.dpas && t.blockIo && t.subgroupSize == 16 && t.dpas->executionSize == 16)
        names += (names.empty() ? "" : ", ") + t.name;
    return makeError(
        "arch '" + c.arch +
        "': the GEMM kernels need DPAS over 16 lanes and 2D block I/O (targets: " + names + ")");
  }
  if (!hw->dpas->supports(traits.name))
    return makeError("dtype " + std::string(traits.name) + ": target '" + hw->name +
                     "' has no such DPAS");
  auto target = intel::blockIoTarget(*hw);
  if (!target) return withContext(target.error(), "arch");
  for (auto [name, v] : {std::pair<std::string_view, int64_t>{"m", c.m}, {"n", c.n}, {"k", c.k}}) {
    if (v < 1) return makeError(std::string(name) + " = " + std::to_string(v) + ": must be >= 1");
    if (v > kMaxSurfaceField)
      return makeError(std::string(name) + " = " + std::to_string(v) +
                       ": exceeds the 2D block surface limit of 2^24 rows or bytes per row");
  }
  // Rows are surface heights; columns times element bytes are surface widths and pitches.
  const int64_t inBytes = traits.inputBits / 8;
  if (c.m > kMaxSurfaceField || c.n * 4 > kMaxSurfaceField || c.k * inBytes > kMaxSurfaceField ||
      (c.transposeB ? c.n : c.k) > kMaxSurfaceField)
    return makeError("m, n, k: a matrix exceeds the 2D block surface limit of 2^24 rows or 2^24 "
                     "bytes per row");
  if (c.repeatCount != 1 && c.repeatCount != 2 && c.repeatCount != 4 && c.repeatCount != 8)
    return makeError("repeat_count = " + std::to_string(c.repeatCount) +
                     ": the OpenCL DPAS built-ins take M in {1, 2, 4, 8}");
  if (c.repeatCount > hw->dpas->maxRepeatCount)
    return makeError("repeat_count = " + std::to_string(c.repeatCount) + ": target '" + hw->name +
                     "' repeats at most " + std::to_string(hw->dpas->maxRepeatCount) + " rows");
  for (int i = 0; i < 2; ++i)
    if (!isPowerOfTwo(c.sgLayout[i]))
      return makeError(field("sg_layout", i) + " = " + std::to_string(c.sgLayout[i]) +
                       ": must be a power of two (subgroup ids are linear-layout bits)");
  if (c.sgLayout[0] > kMaxSubgroupsPerWorkgroup || c.sgLayout[1] > kMaxSubgroupsPerWorkgroup ||
      subgroupsPerWorkgroup(c) > kMaxSubgroupsPerWorkgroup) {
    // Both are powers of two; their product may not fit in 64 bits, so add the exponents.
    const int log2Total = std::countr_zero(static_cast<uint64_t>(c.sgLayout[0])) +
                          std::countr_zero(static_cast<uint64_t>(c.sgLayout[1]));
    return makeError("sg_layout = [" + std::to_string(c.sgLayout[0]) + ", " +
                     std::to_string(c.sgLayout[1]) + "]: " +
                     (log2Total < 63 ? std::to_string(int64_t{1} << log2Total)
                                     : "2^" + std::to_string(log2Total)) +
                     " subgroups exceed the workgroup limit of 64 (1024 work-items)");
  }
  // 1024 x 16 f32 accumulators alone are 64 KiB, four times the largest register file (256 x 64 B):
  // larger tiles cannot fit, and the bound keeps the layout sizes small.
  for (int i = 0; i < 2; ++i)
    if (c.sgData[i] > kMaxTileExtent)
      return makeError(field("sg_data", i) + " = " + std::to_string(c.sgData[i]) +
                       ": exceeds 1024, more than any register file holds");
  if (c.kTile > kMaxTileExtent)
    return makeError("k_tile = " + std::to_string(c.kTile) +
                     ": exceeds 1024, more than any register file holds");
  const int64_t instr[2] = {c.repeatCount, target->subgroupSize};
  const char* what[2] = {"the DPAS repeat count", "the DPAS execution size"};
  for (int i = 0; i < 2; ++i)
    if (c.sgData[i] < instr[i] || c.sgData[i] % instr[i] != 0 ||
        !isPowerOfTwo(c.sgData[i] / instr[i]))
      return makeError(field("sg_data", i) + " = " + std::to_string(c.sgData[i]) +
                       ": must be a power-of-two multiple of " + what[i] + " " +
                       std::to_string(instr[i]));
  if (c.kTile < traits.dpasK || c.kTile % traits.dpasK != 0 ||
      !isPowerOfTwo(c.kTile / traits.dpasK))
    return makeError("k_tile = " + std::to_string(c.kTile) +
                     ": must be a power-of-two multiple of " + std::string(traits.name) +
                     " DPAS K " + std::to_string(traits.dpasK));
  if (c.stages < 0 || c.stages > 8)
    return makeError("stages = " + std::to_string(c.stages) +
                     ": must be in 0..8 (K steps of prefetch ahead of the loads; 0 = none)");
  if (c.groupM < 1 || c.groupM > 64)
    return makeError("group_m = " + std::to_string(c.groupM) + ": must be in 1..64 tile rows");
  const auto& counts = hw->registers.registersPerThread;
  if (std::find(counts.begin(), counts.end(), c.grfPerThread) == counts.end()) {
    std::string options;
    for (int n : counts) options += (options.empty() ? "" : " or ") + std::to_string(n);
    return makeError("grf_per_thread = " + std::to_string(c.grfPerThread) + ": target '" +
                     hw->name + "' threads have " + options + " registers");
  }
  if (c.grfPerThread == 256 && subgroupsPerWorkgroup(c) > kMaxSubgroupsLargeGrf)
    return makeError("sg_layout = [" + std::to_string(c.sgLayout[0]) + ", " +
                     std::to_string(c.sgLayout[1]) +
                     "]: " + std::to_string(subgroupsPerWorkgroup(c)) +
                     " subgroups exceed the 32 (512 work-items) a workgroup may hold with "
                     "grf_per_thread = 256 (1024 work-items hang PVC in large-register mode): use "
                     "at most 32 subgroups, or grf_per_thread = 128");
  return GemmTarget{std::move(*hw), std::move(*target)};
}

namespace {

Expected<void> readInt(const nlohmann::json& j, std::string_view key, int64_t& out) {
  if (!j.is_number_integer())
    return makeError(std::string(key) + ": expected an integer, got " + j.dump());
  // 2^63 and above are unsigned in JSON: as int64_t they would wrap to negative numbers.
  if (j.is_number_unsigned() && j.get<uint64_t>() > uint64_t(INT64_MAX))
    return makeError(std::string(key) + " = " + std::to_string(j.get<uint64_t>()) +
                     ": out of range (at most 2^63 - 1)");
  out = j.get<int64_t>();
  return {};
}

Expected<void> readPair(const nlohmann::json& j, std::string_view key,
                        std::array<int64_t, 2>& out) {
  if (!j.is_array() || j.size() != 2)
    return makeError(std::string(key) + ": expected an array of 2 integers, got " + j.dump());
  for (int i = 0; i < 2; ++i)
    if (auto e = readInt(j[i], field(key, i), out[i]); !e) return e;
  return {};
}

} // namespace

Expected<GemmConfig> gemmConfigFromJson(const nlohmann::json& j, const GemmConfig& base) {
  if (!j.is_object()) return makeError("gemm config: expected a JSON object, got " + j.dump());
  GemmConfig c = base;
  for (const auto& item : j.items()) {
    // Named, not structured bindings: clang 14 (the fuzz build) cannot capture those in lambdas.
    const std::string& key = item.key();
    const nlohmann::json& value = item.value();
    Expected<void> err;
    int64_t v = 0;
    auto readSmall = [&](int& out) {
      err = readInt(value, key, v);
      if (err && (v < INT32_MIN || v > INT32_MAX)) err = makeError(key + ": out of range");
      if (err) out = static_cast<int>(v);
    };
    if (key == "m")
      err = readInt(value, key, c.m);
    else if (key == "n")
      err = readInt(value, key, c.n);
    else if (key == "k")
      err = readInt(value, key, c.k);
    else if (key == "k_tile")
      err = readInt(value, key, c.kTile);
    else if (key == "sg_layout")
      err = readPair(value, key, c.sgLayout);
    else if (key == "sg_data")
      err = readPair(value, key, c.sgData);
    else if (key == "repeat_count")
      readSmall(c.repeatCount);
    else if (key == "stages")
      readSmall(c.stages);
    else if (key == "group_m")
      readSmall(c.groupM);
    else if (key == "grf_per_thread")
      readSmall(c.grfPerThread);
    else if (key == "dtype" || key == "arch") {
      if (!value.is_string()) {
        err = makeError(key + ": expected a string, got " + value.dump());
      } else if (key == "arch") {
        c.arch = value.get<std::string>();
      } else if (auto t = parseGemmDataType(value.get<std::string>())) {
        c.dtype = *t;
      } else {
        err = makeError("dtype '" + value.get<std::string>() +
                        "': expected one of f16, bf16, int8, tf32");
      }
    } else if (key == "transpose_b") {
      if (!value.is_boolean())
        err = makeError("transpose_b: expected a boolean");
      else
        c.transposeB = value.get<bool>();
    } else {
      err = makeError(key + ": unknown field (expected m, n, k, dtype, arch, sg_layout, sg_data, "
                            "k_tile, repeat_count, transpose_b, stages, group_m, grf_per_thread)");
    }
    if (!err) return err.error();
  }
  return c;
}

nlohmann::ordered_json gemmConfigToJson(const GemmConfig& c) {
  nlohmann::ordered_json j;
  j["m"] = c.m;
  j["n"] = c.n;
  j["k"] = c.k;
  j["dtype"] = dataTypeTraits(c.dtype).name;
  j["arch"] = c.arch;
  j["sg_layout"] = c.sgLayout;
  j["sg_data"] = c.sgData;
  j["k_tile"] = c.kTile;
  j["repeat_count"] = c.repeatCount;
  j["transpose_b"] = c.transposeB;
  j["stages"] = c.stages;
  j["group_m"] = c.groupM;
  j["grf_per_thread"] = c.grfPerThread;
  return j;
}

} // namespace layout::codegen
