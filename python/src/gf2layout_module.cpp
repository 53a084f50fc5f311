// The Python module gf2layout._core (pybind11): layout::LinearLayout with the names and semantics
// of Triton's Python binding (triton._C.libtriton.linear_layout.LinearLayout), and the library's
// other capabilities through its batch protocol (docs/interchange.md). Errors raise ValueError
// with the library's message; nothing here aborts the interpreter.
//
// One registration function per concept (module_bindings.h), each in its own file:
//   bind_linear_layout.cpp  LinearLayout (with layout_fast_calls.h and layout_from_bases.h)
//   bind_encodings.cpp      to_linear_layout, layout_str
//   bind_gemm.cpp           gemm_kernel, gemm_simulate
//   bind_batch.cpp          batch
#include "module_bindings.h"

#include <pybind11/pybind11.h>

PYBIND11_MODULE(_core, m) {
  m.doc() = "gf2layout: GF(2) linear layouts (Triton's LinearLayout semantics) and the layout "
            "engine's encodings, queries and plans";

  // LinearLayout first: the functions registered after it return LinearLayout objects, and
  // pybind11 names a type in their signatures only once it is registered.
  gf2layout::bindLinearLayout(m);
  gf2layout::bindEncodings(m);
  gf2layout::bindGemm(m);
  gf2layout::bindBatch(m);
}
