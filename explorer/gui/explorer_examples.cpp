#include "explorer_examples.h"

namespace layout::views {

namespace {

Example make(std::string name, std::string description, std::string layoutA, std::string shape,
             ViewKind view) {
  Example e{std::move(name), std::move(description), {}};
  e.inputs.layoutA = std::move(layoutA);
  e.inputs.shape = std::move(shape);
  e.inputs.view = view;
  return e;
}

std::vector<Example> build() {
  const std::string dpas = "#ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, "
                           "opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [1, 1], "
                           "repCluster = [1, 1]}>";
  std::vector<Example> list;
  list.push_back(make("blocked", "Triton #ttg.blocked, 4 warps, over 32x32",
                      "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA "
                      "= [2, 2], order = [1, 0]}>",
                      "32x32", ViewKind::Tensor));
  list.push_back(make("mma-v2-operands", "NVIDIA mma.sync (v2) m16n8k16: A, B and C over 64x64",
                      "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
                      "instrShape = [16, 8]}>",
                      "64x64", ViewKind::Operands));
  list.back().inputs.k = 16;
  list.push_back(make("wgmma-accumulator", "NVIDIA wgmma (v3) accumulator, 4 warps, over 64x64",
                      "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
                      "instrShape = [16, 64, 16]}>",
                      "64x64", ViewKind::Tensor));
  list.push_back(make("dpas-operands",
                      "Seed 002: Intel DPAS bf16 8x16x16, A (8x16), B (16x16) and C (8x16)", dpas,
                      "8x16", ViewKind::Operands));
  list.back().inputs.k = 16;
  list.push_back(
      make("mfma-bank-conflicts",
           "Seed 004: MFMA 16x16x32 reads of a 32x64 f16 tile, ds_read_b128 banks",
           R"({"inDims": [{"name": "register", "bases": [[0, 1], [0, 2], [0, 4], [0, 32]]},
 {"name": "lane", "bases": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8], [0, 16]]},
 {"name": "warp", "bases": [[0, 0], [0, 0], [16, 0]]}],
 "outDims": [{"name": "dim0", "size": 32}, {"name": "dim1", "size": 64}]})",
           "32x64", ViewKind::Banks));
  list.back().inputs.instruction = "cdna4.ds_read_b128";
  list.push_back(make("xegpu-subgroups", "XeGPU #xegpu.layout: 2 subgroups of 16 work-items",
                      "#xegpu.layout<sg_layout = [2, 1], sg_data = [8, 16], lane_layout = [1, "
                      "16], lane_data = [1, 1]>",
                      "16x16", ViewKind::Hardware));
  list.push_back(make("convert-shuffles",
                      "A conversion that stays in the warp: blocked rows to blocked columns",
                      "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA "
                      "= [1, 1], order = [1, 0]}>",
                      "16x16", ViewKind::Convert));
  list.back().inputs.layoutB = "#ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [8, 4], "
                               "warpsPerCTA = [1, 1], order = [0, 1]}>";
  list.push_back(make("swizzled-shared", "#ttg.swizzled_shared, vec 2, 4 phases, over 8x16",
                      "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>",
                      "8x16", ViewKind::Tensor));
  return list;
}

} // namespace

const std::vector<Example>& examples() {
  static const std::vector<Example> list = build();
  return list;
}

const Example* findExample(const std::string& name) {
  for (const Example& e : examples())
    if (e.name == name) return &e;
  return nullptr;
}

} // namespace layout::views
