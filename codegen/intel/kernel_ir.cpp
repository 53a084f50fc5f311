// Matrix geometry shared by the builder, the emitter and the simulator's host side.
#include "layout/codegen/kernel_ir.h"

namespace layout::codegen {

int matrixElementBits(const GemmProblem& c, MatrixOperand m) {
  return m == MatrixOperand::C ? 32 : dataTypeTraits(c.dtype).inputBits;
}

std::string_view matrixName(MatrixOperand m) {
  switch (m) {
  case MatrixOperand::A:
    return "A";
  case MatrixOperand::B:
    return "B";
  case MatrixOperand::C:
    return "C";
  }
  return "?";
}

std::array<int64_t, 2> matrixExtent(const GemmProblem& c, MatrixOperand m) {
  switch (m) {
  case MatrixOperand::A:
    return {c.m, c.k};
  case MatrixOperand::B:
    return c.transposeB ? std::array<int64_t, 2>{c.n, c.k} : std::array<int64_t, 2>{c.k, c.n};
  case MatrixOperand::C:
    return {c.m, c.n};
  }
  return {0, 0};
}

intel::Surface matrixSurface(const GemmProblem& c, MatrixOperand m) {
  // The block-I/O rules (docs/reference/intel-xe.md §3.1): width >= 64 bytes and a multiple
  // of 4, pitch a multiple of 16 (we use 64 so every row starts 64-byte aligned, like the base).
  const auto [rows, cols] = matrixExtent(c, m);
  const int64_t rowBytes = cols * matrixElementBits(c, m) / 8;
  intel::Surface s;
  s.widthBytes = (std::max<int64_t>(rowBytes, 64) + 3) / 4 * 4;
  s.height = rows;
  s.pitchBytes = (s.widthBytes + 63) / 64 * 64;
  return s;
}

std::array<int32_t, 10> gemmScalarArguments(const GemmConfig& c) {
  std::array<int32_t, 10> out{static_cast<int32_t>(c.k)};
  size_t i = 1;
  for (auto m : {MatrixOperand::A, MatrixOperand::B, MatrixOperand::C}) {
    const auto s = matrixSurface(c, m);
    for (int64_t v : {s.widthBytes, s.height, s.pitchBytes}) out[i++] = static_cast<int32_t>(v);
  }
  return out;
}

KernelBuildOptions kernelBuildOptions(const GemmConfig& c) {
  const bool large = c.grfPerThread == 256;
  return {large ? "-ze-opt-large-register-file" : "",
          large ? "-cl-intel-256-GRF-per-thread" : "-cl-intel-128-GRF-per-thread"};
}

} // namespace layout::codegen
