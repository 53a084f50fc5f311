// Which layouts must the operands of an XeGPU DPAS op have, given the layout of its result?
// Parses the result's #xegpu.layout and runs backward propagation (upstream's
// -xegpu-propagate-layout rules, docs/reference/xegpu.md §7) for `xegpu.dpas` on PVC: the example
// of the XeGPU RFC (seed 000, docs/seeds.md), a 256x256 bf16 result of [256, 32] x [32, 256].
//
//   ./build/examples/xegpu_propagation
#include "layout/xegpu/propagation.h"
#include "layout/xegpu/xegpu_layout.h"

#include <iostream>
#include <string>
#include <variant>

using namespace layout;
using namespace layout::xegpu;

int main() {
  // The result (C/D) layout: 8 x 4 subgroups, each owning 32 x 64 of D; each DPAS instruction
  // makes an 8 x 16 tile (inst_data); the 16 lanes of a subgroup lie along a row (lane_layout).
  const std::string d = "#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data = [8, "
                        "16], lane_layout = [1, 16], lane_data = [1, 1], order = [1, 0]>";

  // 1. Parse it: the verifier checks upstream's rules; the error gives line and column.
  auto result = parseXegpuAttr(d);
  if (!result) {
    std::cerr << "error: " << result.error().message << "\n";
    return 1;
  }
  std::cout << "result: " << printXegpu(*result) << "\n";

  // 2. Propagate backward through the dpas: what A, B and C must be for D to come out as above.
  //    One request type per op (DpasRequest here; TransposeRequest, BroadcastRequest, ... for the
  //    others), each with the inputs its rule reads: the result layout, the operand shapes, the
  //    element type and the target (its DPAS unit and subgroup size: layout/target).
  DpasRequest request;
  request.result = *result;
  request.shapeA = {256, 32}; // M x K
  request.shapeB = {32, 256}; // K x N
  request.elementType = "bf16";
  request.target = "pvc";
  auto operands = propagate(request); // Expected<DpasLayouts>: canonical attribute text
  if (!operands) {
    std::cerr << "error: " << operands.error().message << "\n";
    return 1;
  }
  std::cout << "a: " << operands->a << "\nb: " << operands->b << "\nc: " << operands->c << "\n";

  // 3. Every derived layout is attribute text that parses back (the propagation verifies it).
  //    B is VNNI-packed: lane_data [2, 1], each lane holds two consecutive rows (K) of a column.
  auto b = parseXegpuAttr(operands->b);
  if (!b) {
    std::cerr << "error: " << b.error().message << "\n";
    return 1;
  }
  std::cout << "b parses back: " << (printXegpu(*b) == operands->b ? "yes" : "no") << "\n";

  // A program that picks the op at run time holds any request in a PropagationRequest (a
  // std::variant) and gets a PropagationResult back.
  PropagationRequest any = request;
  auto anyResult = propagate(any);
  const auto* dpas = anyResult ? std::get_if<DpasLayouts>(&*anyResult) : nullptr;
  std::cout << opName(any)
            << " through the variant: " << (dpas && *dpas == *operands ? "same" : "differs")
            << "\n";
  return 0;
}
