#include "layout_fast_calls.h"

#include "layout_from_bases.h"

#include "layout/core/linear_layout.h"

#include <structmember.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace py = pybind11;
using layout::DimName;
using layout::LinearLayout;

namespace gf2layout {
namespace {

PyTypeObject* layoutType = nullptr;
PyObject* generalApply = nullptr;
PyObject* generalFromBases = nullptr;

// The layout a Python object holds, or null (no error set) if it is not a constructed
// LinearLayout. pybind11 keeps an instance of a class without C++ bases in its simple layout (one
// value pointer and a flag), read here inline: every fast call starts here.
inline const LinearLayout* layoutOf(PyObject* object) {
  if (!PyObject_TypeCheck(object, layoutType)) return nullptr;
  auto* instance = reinterpret_cast<py::detail::instance*>(object);
  if (instance->simple_layout)
    return instance->simple_holder_constructed
               ? static_cast<const LinearLayout*>(instance->simple_value_holder[0])
               : nullptr;
  auto vh = instance->get_value_and_holder();
  return vh.holder_constructed() ? static_cast<const LinearLayout*>(vh.value_ptr()) : nullptr;
}

const LinearLayout* layoutOrRaise(PyObject* object) {
  const LinearLayout* l = layoutOf(object);
  if (!l) PyErr_SetString(PyExc_TypeError, "LinearLayout: the object was not initialised");
  return l;
}

// Runs a fast path, turning any C++ exception into the Python error it stands for: nothing
// thrown may cross into CPython.
template <typename F> PyObject* guarded(F&& body) noexcept {
  try {
    return body();
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  }
  return nullptr;
}

// The general binding with the same arguments (self first for a method).
PyObject* callGeneral(PyObject* general, PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                      PyObject* kwnames) {
  if (!self) return PyObject_Vectorcall(general, args, size_t(nargs), kwnames);
  const Py_ssize_t total = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
  std::vector<PyObject*> stack;
  stack.reserve(size_t(total) + 1);
  stack.push_back(self);
  stack.insert(stack.end(), args, args + total);
  return PyObject_Vectorcall(general, stack.data(), size_t(nargs) + 1, kwnames);
}

// Per interned dim name (by id), its Python string: interned, so it is the object of every equal
// string literal, and kept for the process. Dicts keyed by these objects find them by identity.
// And back: the id of each of those objects (they are never freed, so their addresses are never
// reused), which spares from_bases the intern table's lookup by text.
std::vector<PyObject*> nameObjects;
std::unordered_map<PyObject*, DimName> namesByObject;

PyObject* internName(DimName d) {
  if (d.id() >= nameObjects.size()) nameObjects.resize(size_t(d.id()) + 1, nullptr);
  const std::string text(d.str());
  PyObject* name = PyUnicode_InternFromString(text.c_str());
  if (!name) throw py::error_already_set();
  nameObjects[d.id()] = name;
  namesByObject.emplace(name, d);
  return name;
}

// Borrowed.
PyObject* nameObject(DimName d) {
  if (d.id() < nameObjects.size() && nameObjects[d.id()]) return nameObjects[d.id()];
  return internName(d);
}

// A Python int that is a valid uint64 input, as `value`; false (no error set) otherwise.
bool exactNonNegative(PyObject* object, uint64_t& value) {
  if (!PyLong_CheckExact(object)) return false;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(object, &overflow);
  if (overflow || v < 0) {
    PyErr_Clear();
    return false;
  }
  value = uint64_t(v);
  return true;
}

constexpr int kFastDims = 8;

// apply on {in_dim: int} with every in-dim once: the result dict, or null. Null with no error set
// means "not this form" (the general binding then answers, errors included).
PyObject* applyDict(const LinearLayout& l, PyObject* inputs) {
  const int nIn = l.numInDims(), nOut = l.numOutDims();
  if (nIn > kFastDims || nOut > kFastDims || PyDict_GET_SIZE(inputs) != nIn) return nullptr;
  // As many keys as in-dims and each in-dim found: no other key.
  std::array<uint64_t, kFastDims> ins{}, outs{};
  for (int d = 0; d < nIn; ++d) {
    PyObject* value = PyDict_GetItemWithError(inputs, nameObject(l.inDimName(d)));
    if (!value || !exactNonNegative(value, ins[size_t(d)])) {
      PyErr_Clear(); // a key whose comparison raised: the general binding reports it
      return nullptr;
    }
  }
  l.apply(std::span<const uint64_t>(ins.data(), size_t(nIn)),
          std::span<uint64_t>(outs.data(), size_t(nOut)));
  PyObject* result = PyDict_New();
  if (!result) return nullptr;
  for (int o = 0; o < nOut; ++o) {
    PyObject* v = PyLong_FromUnsignedLongLong(outs[size_t(o)]);
    if (!v || PyDict_SetItem(result, nameObject(l.outDimName(o)), v) < 0) {
      Py_XDECREF(v);
      Py_DECREF(result);
      return nullptr;
    }
    Py_DECREF(v);
  }
  return result;
}

PyObject* fastApply(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&]() -> PyObject* {
    if (nargs == 1 && !kwnames && PyDict_CheckExact(args[0]))
      if (const LinearLayout* l = layoutOf(self)) {
        PyObject* result = applyDict(*l, args[0]);
        if (result || PyErr_Occurred()) return result;
      }
    return callGeneral(generalApply, self, args, nargs, kwnames);
  });
}

// A list or tuple's items (borrowed), or false.
bool sequenceItems(PyObject* object, PyObject* const*& items, Py_ssize_t& size) {
  if (PyList_CheckExact(object)) {
    items = &PyList_GET_ITEM(object, 0);
    size = PyList_GET_SIZE(object);
    return true;
  }
  if (PyTuple_CheckExact(object)) {
    items = &PyTuple_GET_ITEM(object, 0);
    size = PyTuple_GET_SIZE(object);
    return true;
  }
  return false;
}

bool dimName(PyObject* object, DimName& name) {
  if (auto it = namesByObject.find(object); it != namesByObject.end()) {
    name = it->second;
    return true;
  }
  if (!PyUnicode_CheckExact(object)) return false;
  Py_ssize_t length = 0;
  const char* text = PyUnicode_AsUTF8AndSize(object, &length);
  if (!text) {
    PyErr_Clear();
    return false;
  }
  name = DimName(std::string_view(text, size_t(length)));
  return true;
}

bool nonNegativeList(PyObject* object, std::vector<uint64_t>& values) {
  PyObject* const* items = nullptr;
  Py_ssize_t n = 0;
  if (!sequenceItems(object, items, n)) return false;
  values.resize(size_t(n));
  for (Py_ssize_t i = 0; i < n; ++i)
    if (!exactNonNegative(items[i], values[size_t(i)])) return false;
  return true;
}

// The converted arguments of from_bases, kept between calls so that steady use allocates nothing
// for them (the vectors keep their capacity).
struct FromBasesScratch {
  std::vector<layout::InDimBases> ins;
  std::vector<DimName> outNames;
  std::vector<uint64_t> outSizes;
  bool busy = false;
};

// from_bases(bases, out_dim_names[, out_dim_sizes[, require_surjective]]) given positionally with
// lists (or tuples) of str and int: the layout, or null with no error set for any other form or
// any argument the general binding should judge.
PyObject* fromBasesPositional(PyObject* const* args, Py_ssize_t nargs, FromBasesScratch& s) {
  PyObject* const* entries = nullptr;
  PyObject* const* names = nullptr;
  Py_ssize_t nEntries = 0, nOut = 0;
  if (!sequenceItems(args[0], entries, nEntries) || !sequenceItems(args[1], names, nOut))
    return nullptr;
  s.outNames.resize(size_t(nOut));
  for (Py_ssize_t o = 0; o < nOut; ++o)
    if (!dimName(names[o], s.outNames[size_t(o)])) return nullptr;
  const bool sized = nargs >= 3 && args[2] != Py_None;
  if (sized && !nonNegativeList(args[2], s.outSizes)) return nullptr;
  bool requireSurjective = true;
  if (nargs == 4) {
    if (args[3] != Py_True && args[3] != Py_False) return nullptr;
    requireSurjective = args[3] == Py_True;
  }
  s.ins.resize(size_t(nEntries));
  for (Py_ssize_t d = 0; d < nEntries; ++d) {
    PyObject* const* pair = nullptr;
    PyObject* const* vectors = nullptr;
    Py_ssize_t pairSize = 0, nBases = 0;
    if (!sequenceItems(entries[d], pair, pairSize) || pairSize != 2) return nullptr;
    layout::InDimBases& in = s.ins[size_t(d)];
    if (!dimName(pair[0], in.name) || !sequenceItems(pair[1], vectors, nBases)) return nullptr;
    in.bases.resize(size_t(nBases));
    for (Py_ssize_t b = 0; b < nBases; ++b)
      if (!nonNegativeList(vectors[b], in.bases[size_t(b)]) ||
          in.bases[size_t(b)].size() != size_t(nOut))
        return nullptr;
  }
  auto l = layoutFromBases(s.ins, s.outNames, sized ? &s.outSizes : nullptr, requireSurjective);
  if (!l) throw py::value_error(l.error().message);
  return py::cast(std::move(*l)).release().ptr();
}

PyObject* fastFromBases(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return guarded([&]() -> PyObject* {
    static FromBasesScratch scratch;
    if (!kwnames && nargs >= 2 && nargs <= 4 && !scratch.busy) {
      // busy: should anything below run Python code that calls from_bases again, that call
      // takes the general path instead of reusing the scratch in use.
      scratch.busy = true;
      PyObject* result = nullptr;
      try {
        result = fromBasesPositional(args, nargs, scratch);
      } catch (...) {
        scratch.busy = false;
        throw;
      }
      scratch.busy = false;
      if (result || PyErr_Occurred()) return result;
    }
    return callGeneral(generalFromBases, nullptr, args, nargs, kwnames);
  });
}

PyObject* richCompare(PyObject* a, PyObject* b, int op) {
  if (op == Py_EQ || op == Py_NE) {
    const LinearLayout* x = layoutOf(a);
    const LinearLayout* y = layoutOf(b);
    if (x && y) {
      PyObject* answer = (x == y || *x == *y) == (op == Py_EQ) ? Py_True : Py_False;
      Py_INCREF(answer);
      return answer;
    }
  }
  Py_RETURN_NOTIMPLEMENTED;
}

Py_hash_t hashSlot(PyObject* self) {
  const LinearLayout* l = layoutOrRaise(self);
  if (!l) return -1;
  const auto h = static_cast<Py_hash_t>(l->hash());
  return h == -1 ? -2 : h; // -1 is CPython's error value
}

bool namesAreAscii(const LinearLayout& l) {
  auto ascii = [](DimName d) {
    for (char c : d.str())
      if (static_cast<unsigned char>(c) >= 0x80) return false;
    return true;
  };
  for (int d = 0; d < l.numInDims(); ++d)
    if (!ascii(l.inDimName(d))) return false;
  for (int o = 0; o < l.numOutDims(); ++o)
    if (!ascii(l.outDimName(o))) return false;
  return true;
}

PyObject* textSlot(PyObject* self) {
  return guarded([&]() -> PyObject* {
    const LinearLayout* l = layoutOrRaise(self);
    if (!l) return nullptr;
    // Written into a buffer kept between calls (the GIL serialises them) and decoded from there:
    // no std::string in between.
    static std::vector<char> buffer;
    const size_t bound = l->textSizeBound();
    if (buffer.size() < bound) buffer.resize(bound);
    const char* end = l->writeText(buffer.data());
    const Py_ssize_t size = end - buffer.data();
    // Everything but the dim names is ASCII. When the names are too, the str is made by one copy
    // into a new ASCII string instead of a UTF-8 decode, which checks every byte (a third of
    // str's time on a 20-basis layout).
    PyObject* text;
    if (namesAreAscii(*l)) {
      text = PyUnicode_New(size, 127);
      if (text) std::memcpy(PyUnicode_1BYTE_DATA(text), buffer.data(), size_t(size));
    } else {
      text = PyUnicode_FromStringAndSize(buffer.data(), size);
    }
    if (buffer.size() > (size_t{1} << 20)) std::vector<char>().swap(buffer); // keep no huge one
    return text;
  });
}

// A new Python LinearLayout from an op's result, or its error as ValueError.
PyObject* layoutResult(layout::Expected<LinearLayout> result) {
  if (!result) throw py::value_error(result.error().message);
  return py::cast(std::move(*result)).release().ptr();
}

template <layout::Expected<LinearLayout> (LinearLayout::*Op)() const>
PyObject* unaryLayoutOp(PyObject* self, PyObject*) {
  return guarded([&]() -> PyObject* {
    const LinearLayout* l = layoutOrRaise(self);
    return l ? layoutResult((l->*Op)()) : nullptr;
  });
}

// `outer` must be a LinearLayout (TypeError otherwise, as pybind11 gave).
const LinearLayout* layoutArgument(PyObject* outer) {
  const LinearLayout* l = layoutOf(outer);
  if (!l) PyErr_Format(PyExc_TypeError, "expected a LinearLayout, not %s", Py_TYPE(outer)->tp_name);
  return l;
}

template <layout::Expected<LinearLayout> (LinearLayout::*Op)(const LinearLayout&) const>
PyObject* binaryLayoutOp(PyObject* self, PyObject* outer) {
  return guarded([&]() -> PyObject* {
    const LinearLayout* l = layoutOrRaise(self);
    const LinearLayout* o = l ? layoutArgument(outer) : nullptr;
    return o ? layoutResult((l->*Op)(*o)) : nullptr;
  });
}

PyObject* multiplySlot(PyObject* a, PyObject* b) {
  const LinearLayout* x = layoutOf(a);
  const LinearLayout* y = layoutOf(b);
  if (!x || !y) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&] { return layoutResult(product(*x, *y)); });
}

template <bool (LinearLayout::*Query)() const> PyObject* layoutQuery(PyObject* self, PyObject*) {
  const LinearLayout* l = layoutOrRaise(self);
  return l ? PyBool_FromLong((l->*Query)()) : nullptr;
}

// A new reference to an interned dim name.
PyObject* newName(DimName d) {
  PyObject* name = nameObject(d);
  Py_INCREF(name);
  return name;
}

// [name, ...] of the in-dims (In) or out-dims: the interned names, so that dicts keyed by them
// match apply's in-dims by identity.
template <bool In> PyObject* dimNames(PyObject* self, PyObject*) {
  return guarded([&]() -> PyObject* {
    const LinearLayout* l = layoutOrRaise(self);
    if (!l) return nullptr;
    const int n = In ? l->numInDims() : l->numOutDims();
    py::list result(n);
    for (int d = 0; d < n; ++d)
      PyList_SET_ITEM(result.ptr(), d, newName(In ? l->inDimName(d) : l->outDimName(d)));
    return result.release().ptr();
  });
}

// Per dim name (by id, for the first kCachedPairNames ids) and log2 size, the (name, size) tuple:
// immutable, so in_dims and out_dims hand out the same one every time instead of building a tuple
// and an int per dim per call. Kept for the process, like the names.
constexpr uint32_t kCachedPairNames = 4096;
std::vector<std::array<PyObject*, LinearLayout::kMaxDimSizeLog2 + 1>> pairsByName;

// A new reference to (name, 2^sizeLog2).
PyObject* newDimSizePair(DimName name, int sizeLog2) {
  auto build = [&]() -> PyObject* {
    PyObject* size = PyLong_FromUnsignedLongLong(uint64_t{1} << sizeLog2);
    if (!size) return nullptr;
    PyObject* pair = PyTuple_New(2);
    if (!pair) {
      Py_DECREF(size);
      return nullptr;
    }
    PyTuple_SET_ITEM(pair, 0, newName(name));
    PyTuple_SET_ITEM(pair, 1, size);
    return pair;
  };
  if (name.id() >= kCachedPairNames) return build();
  if (name.id() >= pairsByName.size()) pairsByName.resize(size_t(name.id()) + 1, {});
  PyObject*& cached = pairsByName[name.id()][size_t(sizeLog2)];
  if (!cached && !(cached = build())) return nullptr;
  Py_INCREF(cached);
  return cached;
}

// [(name, size), ...] as Triton's out_dims gives it.
template <bool In> PyObject* dimSizes(PyObject* self, void*) {
  return guarded([&]() -> PyObject* {
    const LinearLayout* l = layoutOrRaise(self);
    if (!l) return nullptr;
    const int n = In ? l->numInDims() : l->numOutDims();
    py::list result(n);
    for (int d = 0; d < n; ++d) {
      PyObject* pair = In ? newDimSizePair(l->inDimName(d), l->inDimSizeLog2(d))
                          : newDimSizePair(l->outDimName(d), l->outDimSizeLog2(d));
      if (!pair) return nullptr;
      PyList_SET_ITEM(result.ptr(), d, pair);
    }
    return result.release().ptr();
  });
}

// [(in_dim, [[component per out-dim], ...]), ...].
PyObject* basesProperty(PyObject* self, void*) {
  return guarded([&]() -> PyObject* {
    const LinearLayout* l = layoutOrRaise(self);
    if (!l) return nullptr;
    const int nOut = l->numOutDims();
    py::list result(l->numInDims());
    for (int d = 0; d < l->numInDims(); ++d) {
      py::list vectors(l->inDimSizeLog2(d));
      for (int b = 0; b < l->inDimSizeLog2(d); ++b) {
        py::list v(nOut);
        for (int o = 0; o < nOut; ++o)
          PyList_SET_ITEM(v.ptr(), o, py::int_(l->basis(d, b, o)).release().ptr());
        PyList_SET_ITEM(vectors.ptr(), b, v.release().ptr());
      }
      py::tuple pair(2);
      PyTuple_SET_ITEM(pair.ptr(), 0, newName(l->inDimName(d)));
      PyTuple_SET_ITEM(pair.ptr(), 1, vectors.release().ptr());
      PyList_SET_ITEM(result.ptr(), d, pair.release().ptr());
    }
    return result.release().ptr();
  });
}

PyMethodDef fastMethods[] = {
    {"apply", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fastApply)),
     METH_FASTCALL | METH_KEYWORDS,
     "apply($self, inputs, /)\n--\n\nNamed inputs ({in_dim: value} or [(in_dim, value)], every "
     "in-dim once) -> {out_dim: value}. Like Triton, only the low log2(size) bits of a value are "
     "read."},
    {"from_bases", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fastFromBases)),
     METH_FASTCALL | METH_KEYWORDS | METH_STATIC,
     "from_bases(bases, out_dim_names, out_dim_sizes=None, require_surjective=True)\n--\n\nA "
     "layout from [(in_dim, [basis, ...]), ...]; out sizes inferred (surjective) unless given."},
    {"compose", binaryLayoutOp<&LinearLayout::compose>, METH_O,
     "compose($self, outer, /)\n--\n\nouter(self(x))."},
    {"invert_and_compose", binaryLayoutOp<&LinearLayout::invertAndCompose>, METH_O,
     "invert_and_compose($self, outer, /)\n--\n\nC with self(x) == outer(C(x)) (Triton's "
     "least-squares choice)."},
    {"invert", unaryLayoutOp<&LinearLayout::invert>, METH_NOARGS,
     "invert($self, /)\n--\n\nThe inverse of an invertible layout."},
    {"pseudoinvert", unaryLayoutOp<&LinearLayout::pseudoinvert>, METH_NOARGS,
     "pseudoinvert($self, /)\n--\n\nEach output to its smallest preimage."},
    {"is_surjective", layoutQuery<&LinearLayout::isSurjective>, METH_NOARGS,
     "is_surjective($self, /)\n--\n\nEvery output is reached."},
    {"is_injective", layoutQuery<&LinearLayout::isInjective>, METH_NOARGS,
     "is_injective($self, /)\n--\n\nNo two inputs share an output."},
    {"is_invertible", layoutQuery<&LinearLayout::isInvertible>, METH_NOARGS,
     "is_invertible($self, /)\n--\n\nSurjective and injective."},
    {"get_in_dim_names", dimNames<true>, METH_NOARGS,
     "get_in_dim_names($self, /)\n--\n\nThe in-dim names, in order."},
    {"get_out_dim_names", dimNames<false>, METH_NOARGS,
     "get_out_dim_names($self, /)\n--\n\nThe out-dim names, in order."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef fastProperties[] = {
    {"in_dims", dimSizes<true>, nullptr, "[(in_dim, size), ...]", nullptr},
    {"out_dims", dimSizes<false>, nullptr, "[(out_dim, size), ...]", nullptr},
    {"bases", basesProperty, nullptr,
     "[(in_dim, [basis, ...]), ...]: basis i is the image of 2^i, one component per out-dim.",
     nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

// The four counts, as member slots after pybind11's instance: CPython reads a member slot with
// its own specialised instruction (LOAD_ATTR_SLOT: 12 ns on the device machine's Python 3.12),
// where a C property (getset) is a generic attribute lookup and a call (22-24 ns there, more
// than the 20 ns that 10x Triton's 200 ns allows).
// Every layout object is immutable, so the counts are filled once, when pybind11 initialises the
// object (its type's init_instance, which every way of making one goes through), and released
// with it. An object never initialised has empty slots: reading one raises AttributeError.
constexpr int kNumScalarSlots = 4;
Py_ssize_t scalarSlotsOffset = 0;
destructor pybindDealloc = nullptr;
void (*pybindInitInstance)(py::detail::instance*, const void*) = nullptr;
std::array<PyMemberDef, kNumScalarSlots + 1> scalarMembers{};

PyObject** scalarSlots(PyObject* self) {
  return reinterpret_cast<PyObject**>(reinterpret_cast<char*>(self) + scalarSlotsOffset);
}

void initInstanceWithSlots(py::detail::instance* inst, const void* holder) {
  pybindInitInstance(inst, holder);
  PyObject* self = reinterpret_cast<PyObject*>(inst);
  const LinearLayout* l = layoutOf(self);
  if (!l) return;
  const std::array<int, kNumScalarSlots> counts = {
      l->numInDims(), l->numOutDims(), l->totalInDimSizeLog2(), l->totalOutDimSizeLog2()};
  PyObject** slots = scalarSlots(self);
  for (int i = 0; i < kNumScalarSlots; ++i) {
    Py_XSETREF(slots[i], PyLong_FromLong(counts[static_cast<size_t>(i)]));
    // Out of memory leaves the slot empty (AttributeError on reading it): pybind11 does not
    // expect a Python error from here.
    if (!slots[i]) PyErr_Clear();
  }
}

void deallocWithSlots(PyObject* self) {
  PyObject** slots = scalarSlots(self);
  for (int i = 0; i < kNumScalarSlots; ++i) Py_CLEAR(slots[i]);
  pybindDealloc(self);
}

} // namespace

void setUpFastLayoutType(PyHeapTypeObject* heapType) {
  PyTypeObject* type = &heapType->ht_type;
  layoutType = type;
  type->tp_richcompare = richCompare;
  type->tp_hash = hashSlot;
  type->tp_str = textSlot;
  type->tp_repr = textSlot;
  type->tp_methods = fastMethods;
  type->tp_getset = fastProperties;
  // The scalar slots go after pybind11's instance, pointer-aligned.
  constexpr Py_ssize_t align = alignof(PyObject*);
  scalarSlotsOffset = (type->tp_basicsize + align - 1) / align * align;
  type->tp_basicsize = scalarSlotsOffset + kNumScalarSlots * Py_ssize_t(sizeof(PyObject*));
  const std::array<std::pair<const char*, const char*>, kNumScalarSlots> names = {{
      {"num_in_dims", "The number of in-dims."},
      {"num_out_dims", "The number of out-dims."},
      {"total_in_dim_size_log2", "The number of input bits."},
      {"total_out_dim_size_log2", "The number of output bits."},
  }};
  for (size_t i = 0; i < names.size(); ++i)
    scalarMembers[i] = {names[i].first, T_OBJECT_EX,
                        scalarSlotsOffset + Py_ssize_t(i * sizeof(PyObject*)), READONLY,
                        names[i].second};
  type->tp_members = scalarMembers.data();
  // pybind11 leaves tp_dealloc to be inherited from its instance base type.
  pybindDealloc = type->tp_base->tp_dealloc;
  type->tp_dealloc = deallocWithSlots;
  heapType->as_number.nb_multiply = multiplySlot;
}

void fillScalarSlotsOnInit() {
  py::detail::type_info* info = py::detail::get_type_info(typeid(LinearLayout));
  pybindInitInstance = info->init_instance;
  info->init_instance = initInstanceWithSlots;
}

void setGeneralLayoutCalls(py::object apply, py::object fromBases) {
  generalApply = apply.release().ptr();
  generalFromBases = fromBases.release().ptr();
}

} // namespace gf2layout
