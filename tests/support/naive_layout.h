// A deliberately simple, slow model of Triton's LinearLayout, written from the prose of
// docs/reference/triton-linear-layout.md (sections 1-4). It shares no code with liblayout and
// includes no layout/ header: the property tests compare liblayout against it, so it must not
// inherit liblayout's mistakes.
//
// Everything favours obviousness over speed: a layout is nested vectors keyed by strings, matrices
// are vectors of bools, and the questions about spans and preimages are answered by exhaustive
// search wherever that is affordable.
//
//   naive::Layout l = naive::identity1D(4, "register", "dim0");
//   std::vector<uint64_t> out = naive::apply(l, {3});   // {3}
//   std::cout << naive::toString(l);                     // Triton's text
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace naive {

// bases[i] = image of input 2^i: one component per out-dim, in out-dim order.
using Bases = std::vector<std::vector<uint64_t>>;
using Names = std::vector<std::string>;
// (name, size): an out-dim, or a target dim of a reshape.
using DimSizes = std::vector<std::pair<std::string, uint64_t>>;
// (in-dim name, mask of free input bits).
using Masks = std::vector<std::pair<std::string, uint64_t>>;

struct Layout {
  std::vector<std::pair<std::string, Bases>> ins;
  DimSizes outs;
  friend bool operator==(const Layout&, const Layout&) = default;
};

// GoogleTest prints layouts with this.
void PrintTo(const Layout& l, std::ostream* os);

// ---- Basic queries ------------------------------------------------------------------------------
bool isPowerOfTwo(uint64_t v);
// log2 of a power of two.
int log2Exact(uint64_t v);
int inIndex(const Layout& l, const std::string& name);  // -1 when absent
int outIndex(const Layout& l, const std::string& name); // -1 when absent
Names inNames(const Layout& l);
Names outNames(const Layout& l);
int totalInBits(const Layout& l);
int totalOutBits(const Layout& l);
// Unique names, power-of-two sizes, one component per out-dim, every component below its size.
bool isValid(const Layout& l);

// ---- Factories ----------------------------------------------------------------------------------
Layout identity1D(uint64_t size, const std::string& in, const std::string& out);
Layout zeros1D(uint64_t size, const std::string& in, const std::string& out, uint64_t outSize = 1);

// ---- Apply --------------------------------------------------------------------------------------
// One value per in-dim (in-dim order) -> one value per out-dim (out-dim order): the XOR of the
// bases of the set input bits. Input bits at or above an in-dim's size are ignored.
std::vector<uint64_t> apply(const Layout& l, const std::vector<uint64_t>& ins);

// ---- Algebra ------------------------------------------------------------------------------------
// outer(inner(x)); nullopt when inner's out-dims are not outer's in-dims or are larger.
std::optional<Layout> compose(const Layout& inner, const Layout& outer);
// Order-preserving union of two name lists (Triton's `supremum`); nullopt on inconsistent orders.
std::optional<Names> supremum(const Names& x, const Names& y);
// Triton's `inner * outer`.
std::optional<Layout> product(const Layout& inner, const Layout& outer);
std::optional<Layout> transposeIns(const Layout& l, const Names& order);
std::optional<Layout> transposeOuts(const Layout& l, const Names& order);
std::optional<Layout> reshapeIns(const Layout& l, const DimSizes& newIns);
std::optional<Layout> reshapeOuts(const Layout& l, const DimSizes& newOuts);
// Keeps the named dims in the layout's own order; out sizes are unchanged.
Layout sublayout(const Layout& l, const Names& ins, const Names& outs);
std::optional<Layout> concatIns(const Layout& a, const Layout& b);
std::optional<Layout> concatOuts(const Layout& a, const Layout& b);
bool equalIgnoringOutDimSizes(const Layout& a, const Layout& b);

// ---- Ranks and spans ----------------------------------------------------------------------------
// One row per out bit (out-dim by out-dim, LSB first), one column per in bit (in-dim by in-dim,
// LSB first).
std::vector<std::vector<bool>> matrix(const Layout& l);
// Reduced row-echelon form by plain Gauss-Jordan elimination, scanning columns left to right (so
// each pivot is its row's lowest set column); zero rows end up last. Returns the rank.
int rref(std::vector<std::vector<bool>>& m);
int rank(const Layout& l);
bool isSurjective(const Layout& l);
bool isInjective(const Layout& l);
bool isInvertible(const Layout& l);
// Input bit j (global order) is free iff its basis lies in the span of the bases of all earlier
// input bits, decided by enumerating every subset of the earlier bits. At most 17 input bits.
Masks freeVariableMasksBruteForce(const Layout& l);
// The same question answered with an incremental XOR basis, for layouts of any width.
Masks freeVariableMasksBySpan(const Layout& l);

// ---- Inverses (exhaustive) ----------------------------------------------------------------------
// Im(a) is inside Im(b): every basis of a (read in b's out-dims by name) is some b(x), found by
// enumerating all inputs of b. Out-dim name sets must agree. At most 20 input bits in b.
bool imageContained(const Layout& a, const Layout& b);
// c has a's in-dims (names and sizes, in order) and b's in-dims as out-dims, and
// a(x) == b(c(x)) for every input x of a (enumerated). At most 20 input bits in a.
bool invertAndComposeCheck(const Layout& a, const Layout& b, const Layout& c);
// Triton's a.invertAndCompose(b) from the prose of the reference, section 4: in-dims whose
// single-dim sublayouts agree (ignoring out sizes) map to themselves; every other basis of a
// maps
// to its numerically smallest preimage under b restricted to its remaining in-dims (which is the
// least-squares solution with free variables 0), found by enumerating those inputs. nullopt when
// a precondition fails or a basis has no preimage. At most 20 remaining input bits in b.
std::optional<Layout> invertAndCompose(const Layout& a, const Layout& b);
// (Product of identity1D(outSize(d), d, d) over l's out-dims).invertAndCompose(l).
std::optional<Layout> pseudoinvert(const Layout& l);

// ---- Text ---------------------------------------------------------------------------------------
// Triton's LinearLayout::toString, transcribed from the reference's description.
std::string toString(const Layout& l);

} // namespace naive
