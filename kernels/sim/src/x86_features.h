// Internal: the x86 feature levels the vector kernels of the simulator and the verification are
// compiled for (target attributes x86-64-v3 / -v4), checked at run time. Feature by feature:
// clang 14 (the fuzz build) knows neither the level names nor "f16c" in __builtin_cpu_supports,
// so F16C is read from CPUID leaf 1 (ECX bit 29).
#pragma once

#include <cpuid.h>

namespace layout::kernels::detail {

inline bool x86HasF16c() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) != 0;
}

// AVX2, FMA, BMI2 and F16C: what x86-64-v3 adds and the kernels use.
inline bool x86HasV3() {
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
         __builtin_cpu_supports("bmi2") && x86HasF16c();
}

// x86-64-v3 plus AVX-512 F, BW, DQ, VL and CD: what x86-64-v4 adds.
inline bool x86HasV4() {
  return x86HasV3() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512cd");
}

} // namespace layout::kernels::detail
