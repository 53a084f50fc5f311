// gf2layout._core's LinearLayout: layout::LinearLayout with the names and semantics of Triton's
// Python binding (triton._C.libtriton.linear_layout.LinearLayout). The calls made most (==, hash,
// str, repr, apply, from_bases) are CPython slots set up by layout_fast_calls.h; this file
// registers the class, its other methods and the general forms those fast paths fall back to.
#include "layout/core/bit_rows.h"
#include "layout/core/linear_layout.h"
#include "layout/text/layout_json.h"
#include "layout/triton/layout_views.h"
#include "layout_fast_calls.h"
#include "layout_from_bases.h"
#include "module_bindings.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
using layout::DimName;
using layout::LinearLayout;

namespace gf2layout {

namespace {

std::vector<DimName> names(const std::vector<std::string>& strings) {
  std::vector<DimName> out;
  out.reserve(strings.size());
  for (const auto& s : strings) out.emplace_back(s);
  return out;
}

// A size or stride as Triton takes it (int32 there); negative or zero where a power of two is
// needed is the library's error.
uint64_t unsignedArg(int64_t v, const char* what) {
  if (v < 0) throw py::value_error(std::string(what) + " = " + std::to_string(v) + " is negative");
  return uint64_t(v);
}

// from_bases's general binding (every argument form pybind11 converts); the common positional
// form takes the fast path of layout_fast_calls.h. Both end in layoutFromBases.
LinearLayout
fromBases(const std::vector<std::pair<std::string, std::vector<std::vector<int64_t>>>>& bases,
          const std::vector<std::string>& outDimNames,
          std::optional<std::vector<int64_t>> outDimSizes, bool requireSurjective) {
  std::vector<layout::InDimBases> ins;
  ins.reserve(bases.size());
  for (const auto& [name, vectors] : bases) {
    layout::InDimBases in{DimName(name), {}};
    for (const auto& v : vectors) {
      if (v.size() != outDimNames.size())
        throw py::value_error("from_bases: a basis of in-dim '" + name + "' has " +
                              std::to_string(v.size()) + " components for " +
                              std::to_string(outDimNames.size()) + " out-dims");
      std::vector<uint64_t> u;
      u.reserve(v.size());
      for (int64_t x : v) u.push_back(unsignedArg(x, "a basis component"));
      in.bases.push_back(std::move(u));
    }
    ins.push_back(std::move(in));
  }
  std::optional<std::vector<uint64_t>> sizes;
  if (outDimSizes) {
    sizes.emplace();
    for (int64_t size : *outDimSizes) sizes->push_back(unsignedArg(size, "out_dim_sizes"));
  }
  return orRaise(gf2layout::layoutFromBases(ins, names(outDimNames), sizes ? &*sizes : nullptr,
                                            requireSurjective));
}

std::vector<std::pair<DimName, uint64_t>> namedInputs(const LinearLayout& l, py::handle inputs) {
  std::vector<std::pair<DimName, uint64_t>> ins;
  ins.reserve(size_t(l.numInDims()));
  auto add = [&](py::handle k, py::handle v) {
    ins.emplace_back(DimName(py::cast<std::string>(k)),
                     unsignedArg(py::cast<int64_t>(v), "an input value"));
  };
  if (py::isinstance<py::dict>(inputs)) {
    for (auto item : py::reinterpret_borrow<py::dict>(inputs)) add(item.first, item.second);
  } else {
    for (auto item : inputs) {
      auto pair = py::reinterpret_borrow<py::sequence>(item);
      if (pair.size() != 2) throw py::value_error("apply: inputs are (name, value) pairs");
      add(pair[0], pair[1]);
    }
  }
  return ins;
}

using NamedSizes = std::vector<std::pair<std::string, int64_t>>;

std::vector<layout::DimSize> dimSizes(const NamedSizes& dims) {
  std::vector<layout::DimSize> out;
  for (const auto& [name, size] : dims) out.push_back({DimName(name), unsignedArg(size, "a size")});
  return out;
}

std::vector<int64_t> outSizes(const LinearLayout& l) {
  std::vector<int64_t> shape;
  for (int o = 0; o < l.numOutDims(); ++o) shape.push_back(int64_t(l.outDimSize(o)));
  return shape;
}

// apply over NumPy arrays: one uint64 array per in-dim (broadcast to a common length), one per
// out-dim back, computed in one pass without Python in the loop.
py::dict applyArrays(const LinearLayout& l, const py::dict& inputs) {
  const int nIn = l.numInDims(), nOut = l.numOutDims();
  using U64Array = py::array_t<uint64_t, py::array::c_style | py::array::forcecast>;
  std::vector<U64Array> arrays(static_cast<size_t>(nIn));
  std::vector<bool> given(static_cast<size_t>(nIn), false);
  py::ssize_t n = 1;
  for (auto item : inputs) {
    const std::string name = py::cast<std::string>(item.first);
    const int d = l.inDimIndex(DimName(name));
    if (d < 0) throw py::value_error("apply_array: '" + name + "' is not an in-dim");
    arrays[size_t(d)] = U64Array::ensure(item.second);
    if (!arrays[size_t(d)]) throw py::value_error("apply_array: '" + name + "' is not numeric");
    if (arrays[size_t(d)].ndim() != 1)
      throw py::value_error("apply_array: '" + name + "' must be one-dimensional");
    const py::ssize_t len = arrays[size_t(d)].shape(0);
    if (len != 1) {
      if (n != 1 && len != n)
        throw py::value_error("apply_array: the input arrays have different lengths");
      n = len;
    }
    given[size_t(d)] = true;
  }
  for (int d = 0; d < nIn; ++d)
    if (!given[size_t(d)])
      throw py::value_error("apply_array: missing in-dim '" + std::string(l.inDimName(d).str()) +
                            "'");
  std::vector<py::array_t<uint64_t>> outs;
  std::vector<uint64_t*> outPtr;
  for (int o = 0; o < nOut; ++o) {
    outs.emplace_back(n);
    outPtr.push_back(outs.back().mutable_data());
  }
  std::vector<const uint64_t*> inPtr;
  std::vector<bool> scalar;
  for (auto& a : arrays) {
    inPtr.push_back(a.data());
    scalar.push_back(a.shape(0) == 1);
  }
  {
    py::gil_scoped_release release;
    if (l.totalOutDimSizeLog2() <= 64) {
      // The outputs fit one word: XOR of per-byte lookup tables (for each in-dim and each byte of
      // its value, the packed image of all 256 byte values), then the out-dims cut from the word.
      // A few table reads per point instead of one basis per input bit.
      struct ByteTable {
        int dim, shift;
        std::vector<uint64_t> image; // 256 entries
      };
      std::vector<ByteTable> tables;
      for (int d = 0; d < nIn; ++d)
        for (int shift = 0; shift < l.inDimSizeLog2(d); shift += 8) {
          ByteTable t{d, shift, std::vector<uint64_t>(256, 0)};
          for (int bit = 0; bit < 8 && shift + bit < l.inDimSizeLog2(d); ++bit) {
            uint64_t packed = 0;
            int offset = 0;
            for (int o = 0; o < nOut; ++o) {
              packed |= l.basis(d, shift + bit, o) << offset;
              offset += l.outDimSizeLog2(o);
            }
            for (int v = 0; v < 256; ++v)
              if (v >> bit & 1) t.image[size_t(v)] ^= packed;
          }
          tables.push_back(std::move(t));
        }
      // Per table its input column and step (0 for a broadcast length-1 array); per out-dim its
      // shift and mask in the word.
      std::vector<const uint64_t*> column;
      std::vector<py::ssize_t> step;
      for (const ByteTable& t : tables) {
        column.push_back(inPtr[size_t(t.dim)]);
        step.push_back(scalar[size_t(t.dim)] ? 0 : 1);
      }
      std::vector<int> shift;
      std::vector<uint64_t> mask;
      for (int o = 0, off = 0; o < nOut; off += l.outDimSizeLog2(o), ++o) {
        shift.push_back(off);
        const int bits = l.outDimSizeLog2(o);
        mask.push_back(bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
      }
      const size_t nTables = tables.size();
      for (py::ssize_t i = 0; i < n; ++i) {
        uint64_t word = 0;
        for (size_t k = 0; k < nTables; ++k)
          word ^= tables[k].image[size_t((column[k][i * step[k]] >> tables[k].shift) & 0xFF)];
        for (int o = 0; o < nOut; ++o)
          outPtr[size_t(o)][i] = (word >> shift[size_t(o)]) & mask[size_t(o)];
      }
    } else {
      std::vector<uint64_t> in(static_cast<size_t>(nIn)), out(static_cast<size_t>(nOut));
      for (py::ssize_t i = 0; i < n; ++i) {
        for (int d = 0; d < nIn; ++d) in[size_t(d)] = inPtr[size_t(d)][scalar[size_t(d)] ? 0 : i];
        l.apply(in, out);
        for (int o = 0; o < nOut; ++o) outPtr[size_t(o)][i] = out[size_t(o)];
      }
    }
  }
  py::dict result;
  for (int o = 0; o < nOut; ++o) result[py::str(std::string(l.outDimName(o).str()))] = outs[o];
  return result;
}

} // namespace

void bindLinearLayout(py::module_& m) {
  // ==, !=, hash, str, repr, apply and from_bases are CPython slots and methods set up by
  // layout_fast_calls.h; their general forms are registered after the class.
  py::class_<LinearLayout>(m, "LinearLayout", py::custom_type_setup(gf2layout::setUpFastLayoutType))
      .def(py::init<>(), "The empty layout (no dims).")
      .def_static(
          "identity_1d",
          [](int64_t size, const std::string& inDim, const std::string& outDim) {
            return orRaise(LinearLayout::identity1D(unsignedArg(size, "size"), DimName(inDim),
                                                    DimName(outDim)));
          },
          py::arg("size"), py::arg("inDim"), py::arg("outDim"), "x -> x over `size` elements.")
      .def_static(
          "strided_1d",
          [](int64_t size, int64_t stride, const std::string& inDim, const std::string& outDim) {
            return orRaise(LinearLayout::strided1D(unsignedArg(size, "size"),
                                                   unsignedArg(stride, "stride"), DimName(inDim),
                                                   DimName(outDim)));
          },
          py::arg("size"), py::arg("stride"), py::arg("inDim"), py::arg("outDim"),
          "x -> stride * x; the out size is size * stride.")
      .def_static(
          "zeros_1d",
          [](int64_t size, const std::string& inDim, const std::string& outDim,
             int64_t outDimSize) {
            return orRaise(LinearLayout::zeros1D(unsignedArg(size, "size"), DimName(inDim),
                                                 DimName(outDim),
                                                 unsignedArg(outDimSize, "outDimSize")));
          },
          py::arg("size"), py::arg("inDim"), py::arg("outDim"), py::arg("outDimSize") = 1,
          "x -> 0 over `size` elements.")
      .def_static(
          "from_json",
          [](const std::string& text) { return orRaise(layout::parseLayoutJson(text)); },
          py::arg("text"), "A layout from the layout JSON of docs/interchange.md §1.")
      .def(
          "to_json", [](const LinearLayout& l) { return layout::printLayoutJson(l); },
          "The layout JSON of docs/interchange.md §1.")
      .def(
          "get_in_dim_size",
          [](const LinearLayout& l, const std::string& d) {
            const int i = l.inDimIndex(DimName(d));
            if (i < 0) throw py::value_error("'" + d + "' is not an in-dim");
            return l.inDimSize(i);
          },
          py::arg("inDim"))
      .def(
          "get_out_dim_size",
          [](const LinearLayout& l, const std::string& d) {
            const int i = l.outDimIndex(DimName(d));
            if (i < 0) throw py::value_error("'" + d + "' is not an out-dim");
            return l.outDimSize(i);
          },
          py::arg("outDim"))
      .def(
          "__imul__",
          [](LinearLayout& a, const LinearLayout& b) -> LinearLayout& {
            a = orRaise(product(a, b));
            return a;
          },
          py::is_operator())
      .def(py::pickle(
          [](const LinearLayout& l) { return layout::printLayoutJson(l); },
          [](const std::string& text) { return orRaise(layout::parseLayoutJson(text)); }))
      .def("apply_array", &applyArrays, py::arg("inputs"),
           "NumPy form of apply: {in_dim: uint64 array} (arrays of length 1 broadcast) -> "
           "{out_dim: uint64 array}.")
      .def(
          "get_matrix_view",
          [](const LinearLayout& l) {
            const auto rows = layout::layoutMatrixRows(l);
            std::vector<std::vector<int>> m;
            m.reserve(rows.size());
            for (const auto& row : rows) {
              std::vector<int> bits(row.size());
              for (size_t c = 0; c < row.size(); ++c) bits[c] = row[c];
              m.push_back(std::move(bits));
            }
            return m;
          },
          "The layout as a 0/1 matrix: row = output bit (out-dim 0 first, low bit first), "
          "column = input bit.")
      .def(
          "matrix",
          [](const LinearLayout& l) {
            const auto rows = layout::layoutMatrixRows(l);
            py::array_t<uint8_t> a({l.totalOutDimSizeLog2(), l.totalInDimSizeLog2()});
            auto v = a.mutable_unchecked<2>();
            for (size_t r = 0; r < rows.size(); ++r)
              for (size_t c = 0; c < rows[r].size(); ++c) v(r, c) = rows[r][c];
            return a;
          },
          "get_matrix_view as a uint8 NumPy array.")
      .def(
          "get_free_variable_masks",
          [](const LinearLayout& l) {
            py::dict result;
            for (const auto& [name, mask] : l.freeVariableMasks())
              result[py::str(std::string(name.str()))] = mask;
            return result;
          },
          "Per in-dim, the mask of input bits that do not change the output.")
      .def("get_num_consecutive_in_out", &LinearLayout::numConsecutiveInOut)
      .def(
          "sublayout",
          [](const LinearLayout& l, const std::vector<std::string>& ins,
             const std::vector<std::string>& outs) {
            const auto i = names(ins), o = names(outs);
            return orRaise(l.sublayout(i, o));
          },
          py::arg("in_dims"), py::arg("out_dims"))
      .def(
          "reshape_ins",
          [](const LinearLayout& l, const NamedSizes& dims) {
            return orRaise(l.reshapeIns(dimSizes(dims)));
          },
          py::arg("new_in_dims"))
      .def(
          "reshape_outs",
          [](const LinearLayout& l, const NamedSizes& dims) {
            return orRaise(l.reshapeOuts(dimSizes(dims)));
          },
          py::arg("new_out_dims"))
      .def(
          "transpose_ins",
          [](const LinearLayout& l, const std::vector<std::string>& order) {
            const auto o = names(order);
            return orRaise(l.transposeIns(o));
          },
          py::arg("order"))
      .def(
          "transpose_outs",
          [](const LinearLayout& l, const std::vector<std::string>& order) {
            const auto o = names(order);
            return orRaise(l.transposeOuts(o));
          },
          py::arg("order"))
      .def("flatten_ins", [](const LinearLayout& l) { return orRaise(l.flattenIns()); })
      .def("flatten_outs", [](const LinearLayout& l) { return orRaise(l.flattenOuts()); })
      .def(
          "get_shared_view",
          [](const LinearLayout& l, bool hw) {
            return orRaise(layout::triton::sharedLayoutStr(l, outSizes(l), hw));
          },
          py::arg("useHWPointOfView"))
      .def(
          "get_distributed_view",
          [](const LinearLayout& l, bool hw) {
            return orRaise(layout::triton::distributedLayoutStr(l, outSizes(l), hw));
          },
          py::arg("useHWPointOfView"));

  gf2layout::fillScalarSlotsOnInit();
  gf2layout::setGeneralLayoutCalls(py::cpp_function(
                                       [](const LinearLayout& l, py::handle inputs) {
                                         auto outs = orRaise(l.apply(namedInputs(l, inputs)));
                                         py::dict result;
                                         for (const auto& [name, value] : outs)
                                           result[py::str(std::string(name.str()))] = value;
                                         return result;
                                       },
                                       py::name("apply"), py::arg("self"), py::arg("inputs")),
                                   py::cpp_function(&fromBases, py::arg("bases"),
                                                    py::arg("out_dim_names"),
                                                    py::arg("out_dim_sizes") = py::none(),
                                                    py::arg("require_surjective") = true));
}

} // namespace gf2layout
