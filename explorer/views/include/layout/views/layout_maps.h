// The two maps the explorer draws, enumerated once from a linear layout:
// - the tensor map: for every tensor element (the layout's out-dims, row-major, folded to 2D
//   as rows = all dims but the last, cols = the last), the hardware ids that hold it;
// - the hardware map: for every hardware id (the layout's in-dims), the element it holds.
//
//   auto ll = layout::triton::toLinearLayout(*enc, shape);
//   auto map = layout::views::TensorMap::build(*ll);
//   for (uint64_t hw : map->owners(row, col)) map->label(hw);   // "T3:1", "T35:1", "o17"
#pragma once

#include "layout/core/linear_layout.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace layout::views {

// A hardware id is the layout's packed input (in-dim 0 in the low bits). `HwNames` splits it.
class TensorMap {
public:
  // Fails when the layout has more than 2^22 inputs or 2^22 elements (too big to enumerate
  // interactively) or no out-dims.
  static layout::Expected<TensorMap> build(const layout::LinearLayout& ll);

  const layout::LinearLayout& layout() const { return layout_; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  uint64_t numElements() const { return uint64_t(rows_) * cols_; }
  uint64_t numInputs() const { return uint64_t{1} << layout_.totalInDimSizeLog2(); }

  // Owners of a cell, ascending packed input.
  std::span<const uint64_t> owners(int row, int col) const;
  std::span<const uint64_t> owners(uint64_t cell) const;
  // The cell a packed input maps to.
  uint64_t cellOf(uint64_t packedInput) const { return cellOfInput_[packedInput]; }

  // The value of in-dim `name` in a packed input, or 0 when the layout lacks it.
  uint64_t inValue(uint64_t packedInput, const std::string& name) const;
  int inDimIndex(const std::string& name) const;
  // The per-dim input values of a packed input.
  std::vector<uint64_t> unpack(uint64_t packedInput) const;
  uint64_t pack(std::span<const uint64_t> values) const;
  // The tensor coordinate (one value per out-dim) of a cell.
  std::vector<uint64_t> coordinate(uint64_t cell) const;

  // True for Triton's distributed layouts (in-dims among register, lane, warp, block).
  bool isDistributed() const { return distributed_; }
  // "T<thread>:<register>", the thread counted over the CTA (lane + warp * lanes), with "B<b>:"
  // in front when there are several blocks (triton-tensor-layout's form); "o<offset>" for
  // shared layouts; otherwise "name=v,...".
  std::string label(uint64_t packedInput) const;
  // The label of a tensor cell: for distributed layouts the thread over the register on two
  // lines, "T<thread>\nV<register>" (CuTe's T/V pictures; "B<b>:" in front of the thread for
  // several blocks), so cells stay square-ish; otherwise `label`.
  std::string cellLabel(uint64_t packedInput) const;
  // The hardware thread of a distributed input: the packed input with the register bits
  // cleared (lane, warp, block). Equal for every input a thread holds.
  uint64_t threadOf(uint64_t packedInput) const;

private:
  std::string threadName(uint64_t packedInput) const; // "T35", "B1:T3"

  layout::LinearLayout layout_;
  int rows_ = 0, cols_ = 0;
  bool distributed_ = false;
  std::vector<uint32_t> ownerStart_; // size numElements + 1
  std::vector<uint64_t> ownerList_;
  std::vector<uint64_t> cellOfInput_;
  std::vector<int> inShift_, inBits_;
  uint64_t registerMask_ = 0;
};

// The owners of a broadcast element in a line: when the layout's free input bits (Triton's free
// variables) all have zero images, the owners are the first with every combination of them (the
// usual case): "held by every value of lane bits 0b11000 (4 lanes) x warp bits 0b1 (2 warps)";
// nullopt for one owner, or when the owners are not such a product (they are listed then).
std::optional<std::string> broadcastSummary(const TensorMap& map, uint64_t cell);

// "0b0101" with `bits` digits (at least 1).
std::string binaryText(uint64_t value, int bits);

// The bases (in-dim name, index) whose XOR gives the input: one entry per set bit.
std::vector<std::pair<std::string, int>> basesOf(const layout::LinearLayout& ll,
                                                 uint64_t packedInput);

} // namespace layout::views
