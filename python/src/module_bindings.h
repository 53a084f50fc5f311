// Internal to the module gf2layout._core: the registration function of each concept the module
// binds (one .cpp each, called in this order by gf2layout_module.cpp's PYBIND11_MODULE) and the
// helpers they share.
#pragma once

#include "layout/core/expected.h"
#include "layout/text/internal/json_text.h"

#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>

#include <string>
#include <utility>

namespace gf2layout {

// LinearLayout (bind_linear_layout.cpp): the class with Triton's method names, and its fast
// calls (layout_fast_calls.h). First: the other bindings return LinearLayout objects.
void bindLinearLayout(pybind11::module_& m);
// to_linear_layout, layout_str (bind_encodings.cpp): TritonGPU encodings and XeGPU layouts.
void bindEncodings(pybind11::module_& m);
// gemm_kernel, gemm_simulate (bind_gemm.cpp): the DPAS GEMM kernel and the Xe simulator.
void bindGemm(pybind11::module_& m);
// batch (bind_batch.cpp): one request of the batch protocol.
void bindBatch(pybind11::module_& m);

// The value, or ValueError with the library's message.
template <typename T> T orRaise(layout::Expected<T> value) {
  if (!value) throw pybind11::value_error(value.error().message);
  return std::move(*value);
}

// Through the json module, so key order (ordered_json) and types survive.
template <typename Json> pybind11::object jsonToPython(const Json& j) {
  return pybind11::module_::import("json").attr("loads")(j.dump());
}

// Within the JSON limits of every other input (nesting depth, value count): ValueError past them.
inline nlohmann::json pythonToJson(const pybind11::handle& value) {
  return orRaise(layout::detail::parseJsonText(
      pybind11::cast<std::string>(pybind11::module_::import("json").attr("dumps")(value))));
}

} // namespace gf2layout
