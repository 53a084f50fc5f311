// The calls Python code makes most on a LinearLayout (==, !=, hash, str, repr, apply and
// from_bases) as CPython type slots and vectorcall methods instead of pybind11 bindings.
//
// Why by hand: pybind11's dispatcher (overload resolution, argument casters, a std::string per
// name) costs 100-600 ns a call, more than these ops take in C++ (5-300 ns), so through it they
// were only 2-5x faster than Triton's binding. A slot or a METH_FASTCALL method costs what a
// built-in's call costs. Each fast path handles the common argument forms (a dict of int
// values; positional lists of ints) and hands anything else, including every error, to the
// general pybind11 binding, so the results and messages of both paths are the same.
#pragma once

#include <pybind11/pybind11.h>

namespace gf2layout {

// Before PyType_Ready (pybind11's custom_type_setup): sets tp_richcompare, tp_hash, tp_str,
// tp_repr, tp_methods (apply, from_bases), tp_getset and the member slots of the counts of the
// LinearLayout type.
//
//   py::class_<LinearLayout>(m, "LinearLayout", py::custom_type_setup(setUpFastLayoutType))
void setUpFastLayoutType(PyHeapTypeObject* heapType);

// After the class is registered: every LinearLayout object pybind11 makes from then on fills
// the member slots of num_in_dims, num_out_dims and total_{in,out}_dim_size_log2 (set up by
// setUpFastLayoutType) as it is initialised. Call once, before any layout object is made.
void fillScalarSlotsOnInit();

// The general bindings the fast paths fall back to: `apply(self, inputs)` and
// `from_bases(bases, out_dim_names, out_dim_sizes=None, require_surjective=True)`, as pybind11
// functions. Call once, after the class is registered; the references are kept for the process.
void setGeneralLayoutCalls(pybind11::object apply, pybind11::object fromBases);

} // namespace gf2layout
