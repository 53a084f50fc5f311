// libFuzzer target: the layout JSON reader, the MLIR attribute parser (single attributes and
// alias files), the TritonGPU and XeGPU layouts, bank models, and the batch loop (every op,
// xegpu.*, banks.* and convert.plan included).
// Any input must produce exactly one response line per request line and never crash, hang or leak.
// Inputs behind fuzzgen::kMarker describe large structured ones (structured_inputs.h): deep
// nesting, 64-bit edge integers, layouts of thousands of dims, ever new dim names.
//
//   cmake -B build-asan -DCMAKE_CXX_COMPILER=clang++-14 -DLAYOUT_SANITIZE=ON -DLAYOUT_BUILD_FUZZERS=ON
//   ./build-asan/tests/fuzz/batch_fuzzer tests/fuzz/corpus -max_total_time=60
#include "layout/protocol/batch.h"
#include "layout/smem/bank_model.h"
#include "layout/text/internal/json_text.h"
#include "layout/text/layout_json.h"
#include "layout/text/mlir_attribute.h"
#include "layout/triton/encoding.h"
#include "layout/triton/layout_views.h"
#include "layout/xegpu/xegpu_layout.h"
#include "structured_inputs.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const layout::BatchProcessor batch;
  const std::string text =
      fuzzgen::expand(data, size).value_or(std::string(reinterpret_cast<const char*>(data), size));
  (void)layout::parseLayoutJson(text);
  // User bank models (layoutctl banks --instruction @model.json).
  if (auto j = layout::detail::parseJsonText(text)) (void)layout::smem::bankInstructionFromJson(*j);
  if (auto a = layout::parseAttribute(text)) (void)layout::printAttrValue(*a);
  (void)layout::parseAliasFile(text);
  if (auto enc = layout::triton::parseEncoding(text)) {
    // Small shapes of every rank: conversion and both views must hold for any verified encoding.
    for (size_t rank = 1; rank <= 3; ++rank) {
      std::vector<int64_t> shape(rank, 8);
      if (auto ll = layout::triton::toLinearLayout(*enc, shape)) {
        (void)layout::triton::layoutStr(*enc, *ll, shape, false);
        (void)layout::triton::layoutStr(*enc, *ll, shape, true);
      }
    }
  }

  if (auto xe = layout::xegpu::parseXegpuAttr(text)) {
    for (size_t rank = 1; rank <= 3; ++rank) {
      std::vector<int64_t> shape(rank, 16);
      (void)layout::xegpu::toLinearLayout(*xe, shape);
      (void)layout::xegpu::distributedShape(*xe, shape);
      (void)layout::xegpu::laneCoords(*xe, shape, 3, 1);
      (void)layout::xegpu::subgroupTiles(*xe, shape, 1);
    }
  }

  std::istringstream in(text);
  std::ostringstream out;
  if (!batch.run(in, out)) __builtin_trap(); // writing to a string stream cannot fail
  size_t requests = 0;
  {
    std::istringstream count(text);
    std::string line;
    while (std::getline(count, line)) ++requests;
  }
  size_t responses = 0;
  for (char c : out.str()) responses += c == '\n';
  if (responses != requests) std::abort();
  return 0;
}
