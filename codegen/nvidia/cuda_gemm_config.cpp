// The NVIDIA GEMM configuration (cuda_gemm_plan.h): the architectures' defaults, the rules, and
// the JSON form.
#include "layout/codegen/cuda_gemm_plan.h"

#include <nlohmann/json.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace layout::codegen {
namespace {

bool isPow2(int64_t v) {
  return v > 0 && std::has_single_bit(static_cast<uint64_t>(v));
}

Error configError(const std::string& message) {
  return Error{message};
}

} // namespace

CudaGemmConfig cudaGemmDefaults(std::string_view arch) {
  CudaGemmConfig c;
  c.arch = std::string(arch);
  if (arch == "sm90") {
    c.stages = 4;
    c.groupM = 16;
  }
  return c;
}

Expected<void> validateCudaGemmConfig(const CudaGemmConfig& c) {
  auto field = [](const std::string& name, int64_t v, const std::string& rule) {
    return configError(name + " = " + std::to_string(v) + ": " + rule);
  };
  if (c.arch != "sm80" && c.arch != "sm90")
    return configError("arch = " + c.arch + ": expected sm80 or sm90");
  if (c.dtype != GemmDataType::F16 && c.dtype != GemmDataType::BF16)
    return configError(std::string("dtype = ") + std::string(dataTypeTraits(c.dtype).name) +
                       ": the sm80 path takes f16 or bf16 (mma.sync.m16n8k16 -> f32)");
  constexpr int64_t kMaxExtent = int64_t{1} << 17;
  for (auto [name, v] : {std::pair{"m", c.m}, {"n", c.n}, {"k", c.k}})
    if (v < 1 || v > kMaxExtent)
      return field(name, v, "must be in [1, " + std::to_string(kMaxExtent) + "]");
  if (c.k % 8)
    return field("k", c.k, "must be a multiple of 8 (cp.async moves 16-byte chunks of rows)");
  if (!c.transposeB && c.n % 8)
    return field("n", c.n,
                 "must be a multiple of 8 (cp.async moves 16-byte chunks of B's K x N rows; "
                 "--transpose-b stores B as N x K)");
  const auto [bm, bn] = c.blockTile;
  const auto [wm, wn] = c.warps;
  if (c.arch == "sm90") {
    if (bm != 64 && bm != 128)
      return field("block_tile[0]", bm,
                   "must be 64 or 128 on sm90 (one or two consumer "
                   "warpgroups of 64 rows)");
    if (bn != 64 && bn != 128 && bn != 256)
      return field("block_tile[1]", bn, "must be 64, 128 or 256 on sm90 (wgmma's N)");
    if (c.kTile != 64)
      return field("k_tile", c.kTile,
                   "must be 64 on sm90 (one 128-byte swizzle row of 16-bit "
                   "elements)");
    if (c.stages < 2 || c.stages > 8) return field("stages", c.stages, "must be in [2, 8]");
    if (c.groupM < 1 || c.groupM > 64) return field("group_m", c.groupM, "must be in [1, 64]");
    const int64_t smemBytes = int64_t{c.stages} * (bm + bn) * 64 * 2 + 2048;
    if (smemBytes > 227 * 1024)
      return field("stages", c.stages,
                   "with this tile needs " + std::to_string(smemBytes) +
                       " bytes of shared memory; at most 232448 (227 KiB) per CTA");
    return {};
  }
  for (auto [name, v] : {std::pair{"block_tile[0]", bm}, {"block_tile[1]", bn}})
    if (!isPow2(v) || v < 16 || v > 256)
      return field(name, v, "must be a power of two in [16, 256]");
  for (auto [name, v] : {std::pair{"warps[0]", wm}, {"warps[1]", wn}})
    if (!isPow2(v) || v > 8) return field(name, v, "must be a power of two in [1, 8]");
  if (bm / wm < 16)
    return field("block_tile[0]", bm, "must give each of warps[0] warps at least 16 rows");
  if (bn / wn < 16)
    return field("block_tile[1]", bn,
                 "must give each of warps[1] warps at least 16 columns "
                 "(one ldmatrix.x4 of B feeds two n8 tiles)");
  if (!isPow2(c.kTile) || c.kTile < 32 || c.kTile > 128)
    return field("k_tile", c.kTile,
                 "must be a power of two in [32, 128] (an even number of k16 steps: the "
                 "fragments are double-buffered)");
  if (c.stages < 2 || c.stages > 8) return field("stages", c.stages, "must be in [2, 8]");
  if (c.groupM < 1 || c.groupM > 64) return field("group_m", c.groupM, "must be in [1, 64]");
  const int64_t threads = 32 * wm * wn;
  for (auto [name, v] : {std::pair{"block_tile[0]", bm}, {"block_tile[1]", bn}})
    if (v * c.kTile / 8 < threads)
      return field(name, v,
                   "too small: its k_tile slice has fewer 16-byte chunks than the " +
                       std::to_string(threads) + " threads that copy it");
  const int64_t accumulators = bm * bn / threads;
  if (accumulators > 256)
    return field("block_tile", bm * bn,
                 "elements give " + std::to_string(accumulators) +
                     " accumulators per thread; at most 256 (the register file) fit");
  const int64_t smemBytes = int64_t{c.stages} * (bm + bn) * c.kTile * 2;
  if (smemBytes > 227 * 1024)
    return field("stages", c.stages,
                 "with this tile needs " + std::to_string(smemBytes) +
                     " bytes of shared memory; at most 232448 (227 KiB, sm90) per CTA");
  return {};
}

Expected<CudaGemmConfig> cudaGemmConfigFromJson(const nlohmann::json& j,
                                                const CudaGemmConfig& base) {
  if (!j.is_object()) return configError("config: expected a JSON object");
  CudaGemmConfig c = base;
  for (const auto& item : j.items()) {
    // Named copies: lambdas cannot capture structured bindings before C++20 (clang 14).
    const std::string key = item.key();
    const nlohmann::json& v = item.value();
    auto integer = [&](int64_t& out) -> Expected<void> {
      if (!v.is_number_integer()) return configError(key + ": expected an integer");
      // 2^63 and above are unsigned in JSON: as int64_t they would wrap to negative numbers.
      if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX))
        return configError(key + " = " + std::to_string(v.get<uint64_t>()) +
                           ": out of range (at most 2^63 - 1)");
      out = v.get<int64_t>();
      return {};
    };
    auto pair = [&](std::array<int64_t, 2>& out) -> Expected<void> {
      if (!v.is_array() || v.size() != 2 || !v[0].is_number_integer() || !v[1].is_number_integer())
        return configError(key + ": expected [rows, columns]");
      for (const auto& e : v)
        if (e.is_number_unsigned() && e.get<uint64_t>() > uint64_t(INT64_MAX))
          return configError(key + ": " + std::to_string(e.get<uint64_t>()) +
                             " is out of range (at most 2^63 - 1)");
      out = {v[0].get<int64_t>(), v[1].get<int64_t>()};
      return {};
    };
    if (key == "m") {
      LAYOUT_TRY(integer(c.m));
    } else if (key == "n") {
      LAYOUT_TRY(integer(c.n));
    } else if (key == "k") {
      LAYOUT_TRY(integer(c.k));
    } else if (key == "k_tile") {
      LAYOUT_TRY(integer(c.kTile));
    } else if (key == "stages" || key == "group_m") {
      int64_t x = 0;
      LAYOUT_TRY(integer(x));
      if (x < 0 || x > 1024) return configError(key + " = " + std::to_string(x) + ": out of range");
      (key == "stages" ? c.stages : c.groupM) = static_cast<int>(x);
    } else if (key == "block_tile") {
      LAYOUT_TRY(pair(c.blockTile));
    } else if (key == "warps") {
      LAYOUT_TRY(pair(c.warps));
    } else if (key == "dtype" || key == "arch") {
      if (!v.is_string()) return configError(key + ": expected a string");
      if (key == "arch") {
        c.arch = v.get<std::string>();
      } else {
        auto t = parseGemmDataType(v.get<std::string>());
        if (!t) return configError("dtype: expected f16 or bf16");
        c.dtype = *t;
      }
    } else if (key == "transpose_b") {
      if (!v.is_boolean()) return configError("transpose_b: expected true or false");
      c.transposeB = v.get<bool>();
    } else {
      return configError("config: unknown key '" + key +
                         "' (expected m, n, k, dtype, arch, block_tile, warps, k_tile, stages, "
                         "group_m, transpose_b)");
    }
  }
  return c;
}

nlohmann::ordered_json cudaGemmConfigToJson(const CudaGemmConfig& c) {
  return {{"m", c.m},
          {"n", c.n},
          {"k", c.k},
          {"dtype", std::string(dataTypeTraits(c.dtype).name)},
          {"arch", c.arch},
          {"block_tile", c.blockTile},
          {"warps", c.warps},
          {"k_tile", c.kTile},
          {"stages", c.stages},
          {"group_m", c.groupM},
          {"transpose_b", c.transposeB}};
}

} // namespace layout::codegen
