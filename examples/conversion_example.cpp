// Builds two distributed layouts of a 16x16 tile with the C++ API and derives the conversion
// between them, the way a compiler plans a layout conversion.
//
//   ./build/examples/conversion_example
#include "layout/core/linear_layout.h"
#include "layout/text/layout_json.h"

#include <iostream>

using namespace layout;

int main() {
  DimName reg("register"), lane("lane"), d0("dim0"), d1("dim1");
  // Source: each lane holds 8 consecutive elements of a row; 2 lanes cover a row of 16.
  LinearLayout src = *product(
      *product(*LinearLayout::identity1D(8, reg, d1), *LinearLayout::identity1D(2, lane, d1)),
      *LinearLayout::identity1D(16, lane, d0));
  // Destination: each lane holds 8 consecutive elements of a column; 2 lanes per column.
  LinearLayout dst = *(*product(*product(*LinearLayout::identity1D(8, reg, d0),
                                         *LinearLayout::identity1D(2, lane, d0)),
                                *LinearLayout::identity1D(16, lane, d1)))
                          .transposeOuts(std::vector<DimName>{d0, d1});
  std::cout << "source layout:" << src.toString() << "\n\n";
  std::cout << "destination layout:" << dst.toString() << "\n\n";
  // Where does each (register, lane) of the source go in the destination?
  auto cvt = src.invertAndCompose(dst);
  if (!cvt) {
    std::cerr << "error: " << cvt.error().message << "\n";
    return 1;
  }
  std::cout << "conversion (source hardware -> destination hardware):" << cvt->toString() << "\n";
  uint64_t in[2] = {5, 3}, out[2];
  cvt->apply(in, out);
  std::cout << "\nsource register 5 of lane 3 goes to register " << out[0] << " of lane " << out[1]
            << "\n";
  return 0;
}
