// gf2layout._core's layout attributes: the linear layout of a TritonGPU encoding or an XeGPU
// layout over a tensor shape, and triton-tensor-layout's text views of it.
#include "layout/protocol/layout_attribute.h"
#include "layout/triton/layout_views.h"
#include "module_bindings.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

namespace py = pybind11;

namespace gf2layout {

void bindEncodings(py::module_& m) {
  m.def(
      "to_linear_layout",
      [](const std::string& attr, const std::vector<int64_t>& shape) {
        auto a = orRaise(layout::parseLayoutAttribute(attr));
        return orRaise(layout::toLinearLayout(a, shape));
      },
      py::arg("attr"), py::arg("shape"),
      "The linear layout of a TritonGPU encoding or an XeGPU layout over a tensor shape.");
  m.def(
      "layout_str",
      [](const std::string& attr, const std::vector<int64_t>& shape, bool hw) {
        auto a = orRaise(layout::parseLayoutAttribute(attr));
        auto l = orRaise(layout::toLinearLayout(a, shape));
        return orRaise(layout::layoutStr(a, l, shape, hw));
      },
      py::arg("attr"), py::arg("shape"), py::arg("hw") = false,
      "triton-tensor-layout's tensor view (or, with hw=True, its hardware view).");
}

} // namespace gf2layout
