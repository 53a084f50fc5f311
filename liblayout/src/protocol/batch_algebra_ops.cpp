// The core algebra ops of `layoutctl batch`: interchange §2, plus extensions named after the
// Triton functions they expose.
#include "layout/core/exact_size.h"
#include "layout/core/gf2_matrix.h"
#include "layout/core/shape_fitting.h"
#include "layout/protocol/batch.h"
#include "layout/text/internal/quoted_input.h"
#include "layout/text/layout_json.h"

#include <nlohmann/json.hpp>

namespace layout {

using nlohmann::ordered_json;

namespace {

using Result = Expected<ordered_json>;

Result layoutResult(Expected<LinearLayout> l) {
  if (!l) return l.error();
  LAYOUT_TRY(checkLayoutJsonSize(*l));
  return layoutToJson(*l);
}

Result optionalLayoutResult(Expected<std::optional<LinearLayout>> l) {
  if (!l) return l.error();
  if (!l->has_value()) return ordered_json(nullptr);
  LAYOUT_TRY(checkLayoutJsonSize(**l));
  return layoutToJson(**l);
}

Result boolResult(Expected<bool> b) {
  if (!b) return b.error();
  return ordered_json(*b);
}

ordered_json nameList(const std::vector<DimName>& names) {
  ordered_json j = ordered_json::array();
  for (DimName n : names) j.push_back(std::string(n.str()));
  return j;
}

Expected<int> inDimIndexArg(const BatchRequest& r, const char* arg) {
  LAYOUT_TRY_ASSIGN(d, r.dimArg(arg));
  int i = r.inputs[0].inDimIndex(d);
  if (i < 0)
    return makeError("args." + std::string(arg) + ": " +
                     layout::detail::quoteInput(std::string(d.str())) +
                     " is not an in-dim of the layout");
  return i;
}

Expected<int> outDimIndexArg(const BatchRequest& r, const char* arg) {
  LAYOUT_TRY_ASSIGN(d, r.dimArg(arg));
  int i = r.inputs[0].outDimIndex(d);
  if (i < 0)
    return makeError("args." + std::string(arg) + ": " +
                     layout::detail::quoteInput(std::string(d.str())) +
                     " is not an out-dim of the layout");
  return i;
}

// A JSON number when it fits in 64 bits, else the exact value as a decimal string (a 120-bit
// layout's total size is 2^120).
Result sizeResult(int log2) {
  if (log2 <= LinearLayout::kMaxDimSizeLog2) return ordered_json(uint64_t{1} << log2);
  return ordered_json(exactPowerOfTwo(log2).str());
}

// One op of the batch; its args are declared by declareArgs after it is registered.
void addOp(BatchProcessor& p, const char* name, int arity, const char* summary,
           std::function<Result(const BatchRequest&)> run) {
  p.registerOp(name, BatchOp{arity, summary, std::move(run)});
}

// An op that makes a layout: the batch gets its JSON, a front end the layout (BatchOp::layout).
using Make = std::function<Expected<LinearLayout>(const BatchRequest&)>;
void addLayoutOp(BatchProcessor& p, const char* name, int arity, const char* summary, Make make) {
  BatchOp op{arity, summary, [make](const BatchRequest& r) { return layoutResult(make(r)); }};
  op.layout = std::move(make);
  p.registerOp(name, std::move(op));
}

// The factories: layouts made from args alone.
void registerFactoryOps(BatchProcessor& p) {
  addLayoutOp(p, "identity1D", 0, "args {size, inDim, outDim} -> layout x -> x",
              [](const BatchRequest& r) -> Expected<LinearLayout> {
                LAYOUT_TRY_ASSIGN(size, r.uintArg("size"));
                LAYOUT_TRY_ASSIGN(in, r.dimArg("inDim"));
                LAYOUT_TRY_ASSIGN(out, r.dimArg("outDim"));
                return LinearLayout::identity1D(size, in, out);
              });
  addLayoutOp(p, "strided1D", 0, "args {size, stride, inDim, outDim} -> layout x -> stride*x",
              [](const BatchRequest& r) -> Expected<LinearLayout> {
                LAYOUT_TRY_ASSIGN(size, r.uintArg("size"));
                LAYOUT_TRY_ASSIGN(stride, r.uintArg("stride"));
                LAYOUT_TRY_ASSIGN(in, r.dimArg("inDim"));
                LAYOUT_TRY_ASSIGN(out, r.dimArg("outDim"));
                return LinearLayout::strided1D(size, stride, in, out);
              });
  addLayoutOp(p, "zeros1D", 0, "args {size, inDim, outDim, outDimSize=1} -> layout x -> 0",
              [](const BatchRequest& r) -> Expected<LinearLayout> {
                LAYOUT_TRY_ASSIGN(size, r.uintArg("size"));
                LAYOUT_TRY_ASSIGN(in, r.dimArg("inDim"));
                LAYOUT_TRY_ASSIGN(out, r.dimArg("outDim"));
                LAYOUT_TRY_ASSIGN(outSize, r.uintArgOr("outDimSize", 1));
                return LinearLayout::zeros1D(size, in, out, outSize);
              });
  p.declareArgs({{"identity1D", {"size", "inDim", "outDim"}},
                 {"strided1D", {"size", "stride", "inDim", "outDim"}},
                 {"zeros1D", {"size", "inDim", "outDim", "outDimSize"}}});
}

// The transforms: layouts made from layouts (compose ... ensureLayoutNotSmallerThan), and the
// predicates over sublayouts.
void registerTransformOps(BatchProcessor& p) {
  addLayoutOp(p, "compose", 2, "A, B -> B(A(x))",
              [](const BatchRequest& r) { return r.inputs[0].compose(r.inputs[1]); });
  addLayoutOp(p, "invertAndCompose", 2, "A, B -> C with A(x) == B(C(x))",
              [](const BatchRequest& r) { return r.inputs[0].invertAndCompose(r.inputs[1]); });
  addLayoutOp(p, "invert", 1, "A -> A^-1",
              [](const BatchRequest& r) { return r.inputs[0].invert(); });
  addLayoutOp(p, "pseudoinvert", 1, "A -> smallest-preimage map",
              [](const BatchRequest& r) { return r.inputs[0].pseudoinvert(); });
  addLayoutOp(p, "product", 2, "A, B -> A * B",
              [](const BatchRequest& r) { return product(r.inputs[0], r.inputs[1]); });
  addLayoutOp(p, "transposeIns", 1, "args {newInDimOrder}",
              [](const BatchRequest& r) -> Expected<LinearLayout> {
                LAYOUT_TRY_ASSIGN(order, r.dimListArg("newInDimOrder"));
                return r.inputs[0].transposeIns(order);
              });
  addLayoutOp(p, "transposeOuts", 1, "args {newOutDimOrder}",
              [](const BatchRequest& r) -> Expected<LinearLayout> {
                LAYOUT_TRY_ASSIGN(order, r.dimListArg("newOutDimOrder"));
                return r.inputs[0].transposeOuts(order);
              });
  addLayoutOp(p, "reshapeIns", 1, "args {newInDims: [[name, size], ...]}",
              [](const BatchRequest& r) -> Expected<LinearLayout> {
                LAYOUT_TRY_ASSIGN(dims, r.dimSizeListArg("newInDims"));
                return r.inputs[0].reshapeIns(dims);
              });
  addLayoutOp(p, "reshapeOuts", 1, "args {newOutDims: [[name, size], ...]}",
              [](const BatchRequest& r) -> Expected<LinearLayout> {
                LAYOUT_TRY_ASSIGN(dims, r.dimSizeListArg("newOutDims"));
                return r.inputs[0].reshapeOuts(dims);
              });
  addLayoutOp(p, "flattenIns", 1, "A -> one in-dim",
              [](const BatchRequest& r) { return r.inputs[0].flattenIns(); });
  addLayoutOp(p, "flattenOuts", 1, "A -> one out-dim",
              [](const BatchRequest& r) { return r.inputs[0].flattenOuts(); });
  addLayoutOp(p, "sublayout", 1, "args {inDims, outDims}",
              [](const BatchRequest& r) -> Expected<LinearLayout> {
                LAYOUT_TRY_ASSIGN(ins, r.dimListArg("inDims"));
                LAYOUT_TRY_ASSIGN(outs, r.dimListArg("outDims"));
                return r.inputs[0].sublayout(ins, outs);
              });
  addOp(p, "sublayoutIsZero", 1, "args {inDims, outDims} -> bool",
        [](const BatchRequest& r) -> Result {
          LAYOUT_TRY_ASSIGN(ins, r.dimListArg("inDims"));
          LAYOUT_TRY_ASSIGN(outs, r.dimListArg("outDims"));
          return boolResult(r.inputs[0].sublayoutIsZero(ins, outs));
        });
  addOp(p, "squareSublayoutIsIdentity", 1, "args {dims} -> bool",
        [](const BatchRequest& r) -> Result {
          LAYOUT_TRY_ASSIGN(dims, r.dimListArg("dims"));
          return boolResult(r.inputs[0].squareSublayoutIsIdentity(dims));
        });
  addOp(p, "isTrivialOver", 1, "args {dims} -> bool (extension)",
        [](const BatchRequest& r) -> Result {
          LAYOUT_TRY_ASSIGN(dims, r.dimListArg("dims"));
          return boolResult(r.inputs[0].isTrivialOver(dims));
        });
  addLayoutOp(p, "concatIns", 2, "A, B -> in-dims of A then B",
              [](const BatchRequest& r) { return r.inputs[0].concatIns(r.inputs[1]); });
  addLayoutOp(p, "concatOuts", 2, "A, B -> out-dims of A then B",
              [](const BatchRequest& r) { return r.inputs[0].concatOuts(r.inputs[1]); });
  addOp(p, "divideLeft", 2, "A, B -> C with A == B * C, or null", [](const BatchRequest& r) {
    return optionalLayoutResult(divideLeft(r.inputs[0], r.inputs[1]));
  });
  addOp(p, "divideRight", 2, "A, B -> C with A == C * B, or null", [](const BatchRequest& r) {
    return optionalLayoutResult(divideRight(r.inputs[0], r.inputs[1]));
  });
  addOp(p, "quotient", 1, "args {dims} -> layout or null", [](const BatchRequest& r) -> Result {
    LAYOUT_TRY_ASSIGN(dims, r.dimListArg("dims"));
    return optionalLayoutResult(r.inputs[0].quotient(dims));
  });
  addLayoutOp(p, "resizeInDim", 1, "args {inDim, size} (extension)",
              [](const BatchRequest& r) -> Expected<LinearLayout> {
                LAYOUT_TRY_ASSIGN(d, r.dimArg("inDim"));
                LAYOUT_TRY_ASSIGN(size, r.uintArg("size"));
                return r.inputs[0].resizeInDim(d, size);
              });
  addLayoutOp(p, "resizeOutDim", 1, "args {outDim, size} (extension)",
              [](const BatchRequest& r) -> Expected<LinearLayout> {
                LAYOUT_TRY_ASSIGN(d, r.dimArg("outDim"));
                LAYOUT_TRY_ASSIGN(size, r.uintArg("size"));
                return r.inputs[0].resizeOutDim(d, size);
              });
  addLayoutOp(p, "removeZeroBasesAlongDim", 1, "args {inDim} (extension)",
              [](const BatchRequest& r) -> Expected<LinearLayout> {
                LAYOUT_TRY_ASSIGN(d, r.dimArg("inDim"));
                return r.inputs[0].removeZeroBasesAlongDim(d);
              });
  addLayoutOp(p, "renameInDim", 1, "args {oldName, newName} (extension)",
              [](const BatchRequest& r) -> Expected<LinearLayout> {
                LAYOUT_TRY_ASSIGN(from, r.dimArg("oldName"));
                LAYOUT_TRY_ASSIGN(to, r.dimArg("newName"));
                return r.inputs[0].renameInDim(from, to);
              });
  addLayoutOp(p, "ensureLayoutNotLargerThan", 1,
              "args {shape: [[outDim, size], ...], broadcastRegisters=true} (extension)",
              [](const BatchRequest& r) -> Expected<LinearLayout> {
                LAYOUT_TRY_ASSIGN(shape, r.dimSizeListArg("shape"));
                bool broadcast = true;
                if (r.args.contains("broadcastRegisters")) {
                  if (!r.args["broadcastRegisters"].is_boolean())
                    return makeError("args.broadcastRegisters: expected a boolean");
                  broadcast = r.args["broadcastRegisters"].get<bool>();
                }
                return ensureLayoutNotLargerThan(r.inputs[0], shape, broadcast);
              });
  addLayoutOp(p, "ensureLayoutNotSmallerThan", 1, "args {shape: [[outDim, size], ...]} (extension)",
              [](const BatchRequest& r) -> Expected<LinearLayout> {
                LAYOUT_TRY_ASSIGN(shape, r.dimSizeListArg("shape"));
                return ensureLayoutNotSmallerThan(r.inputs[0], shape);
              });
  // Ops not listed take no args. Those the algebra subcommands run are spelled as layoutctl
  // spells them (--ins, --outs).
  p.declareArgs({{"transposeIns", {OpArg("newInDimOrder").spelled("ins")}},
                 {"transposeOuts", {OpArg("newOutDimOrder").spelled("outs")}},
                 {"reshapeIns", {OpArg("newInDims").spelled("ins")}},
                 {"reshapeOuts", {OpArg("newOutDims").spelled("outs")}},
                 {"sublayout", {OpArg("inDims").spelled("ins"), OpArg("outDims").spelled("outs")}},
                 {"sublayoutIsZero", {"inDims", "outDims"}},
                 {"squareSublayoutIsIdentity", {"dims"}},
                 {"isTrivialOver", {"dims"}},
                 {"quotient", {"dims"}},
                 {"resizeInDim", {"inDim", "size"}},
                 {"resizeOutDim", {"outDim", "size"}},
                 {"removeZeroBasesAlongDim", {"inDim"}},
                 {"renameInDim", {"oldName", "newName"}},
                 {"ensureLayoutNotLargerThan", {"shape", "broadcastRegisters"}},
                 {"ensureLayoutNotSmallerThan", {"shape"}}});
}

// The queries: facts about one layout or a pair (getFreeVariableMasks ... getMatrix).
void registerQueryOps(BatchProcessor& p) {
  addOp(p, "getFreeVariableMasks", 1, "A -> [[inDim, mask], ...]",
        [](const BatchRequest& r) -> Result {
          ordered_json j = ordered_json::array();
          for (auto& [name, mask] : r.inputs[0].freeVariableMasks())
            j.push_back({std::string(name.str()), mask});
          return j;
        });
  addOp(p, "isSurjective", 1, "A -> bool",
        [](const BatchRequest& r) -> Result { return ordered_json(r.inputs[0].isSurjective()); });
  addOp(p, "isInjective", 1, "A -> bool",
        [](const BatchRequest& r) -> Result { return ordered_json(r.inputs[0].isInjective()); });
  addOp(p, "isInvertible", 1, "A -> bool",
        [](const BatchRequest& r) -> Result { return ordered_json(r.inputs[0].isInvertible()); });
  addOp(p, "getNumConsecutiveInOut", 1, "A -> int", [](const BatchRequest& r) -> Result {
    return ordered_json(r.inputs[0].numConsecutiveInOut());
  });
  addOp(p, "apply", 1, "args {ins: [[inDim, value], ...]} -> [[outDim, value], ...]",
        [](const BatchRequest& r) -> Result {
          LAYOUT_TRY_ASSIGN(ins, r.dimValueListArg("ins"));
          LAYOUT_TRY_ASSIGN(outs, r.inputs[0].apply(ins));
          ordered_json j = ordered_json::array();
          for (auto& [name, value] : outs) j.push_back({std::string(name.str()), value});
          return j;
        });
  addOp(p, "equals", 2, "A, B -> bool",
        [](const BatchRequest& r) -> Result { return ordered_json(r.inputs[0] == r.inputs[1]); });
  addOp(p, "equalIgnoringOutDimSizes", 2, "A, B -> bool", [](const BatchRequest& r) -> Result {
    return ordered_json(r.inputs[0].equalIgnoringOutDimSizes(r.inputs[1]));
  });
  addOp(p, "getInDimSizeLog2", 1, "args {inDim} -> int", [](const BatchRequest& r) -> Result {
    LAYOUT_TRY_ASSIGN(i, inDimIndexArg(r, "inDim"));
    return ordered_json(r.inputs[0].inDimSizeLog2(i));
  });
  addOp(p, "getOutDimSizeLog2", 1, "args {outDim} -> int", [](const BatchRequest& r) -> Result {
    LAYOUT_TRY_ASSIGN(i, outDimIndexArg(r, "outDim"));
    return ordered_json(r.inputs[0].outDimSizeLog2(i));
  });
  addOp(p, "getInDimSize", 1, "args {inDim} -> int (extension)",
        [](const BatchRequest& r) -> Result {
          LAYOUT_TRY_ASSIGN(i, inDimIndexArg(r, "inDim"));
          return ordered_json(r.inputs[0].inDimSize(i));
        });
  addOp(p, "getOutDimSize", 1, "args {outDim} -> int (extension)",
        [](const BatchRequest& r) -> Result {
          LAYOUT_TRY_ASSIGN(i, outDimIndexArg(r, "outDim"));
          return ordered_json(r.inputs[0].outDimSize(i));
        });
  addOp(p, "getTotalOutDimSize", 1, "A -> int",
        [](const BatchRequest& r) { return sizeResult(r.inputs[0].totalOutDimSizeLog2()); });
  addOp(p, "getTotalInDimSize", 1, "A -> int (extension)",
        [](const BatchRequest& r) { return sizeResult(r.inputs[0].totalInDimSizeLog2()); });
  addOp(p, "getTotalOutDimSizeLog2", 1, "A -> int (extension)",
        [](const BatchRequest& r) -> Result {
          return ordered_json(r.inputs[0].totalOutDimSizeLog2());
        });
  addOp(p, "getTotalInDimSizeLog2", 1, "A -> int (extension)", [](const BatchRequest& r) -> Result {
    return ordered_json(r.inputs[0].totalInDimSizeLog2());
  });
  addOp(p, "getInDimNames", 1, "A -> [name, ...]",
        [](const BatchRequest& r) -> Result { return nameList(r.inputs[0].inDimNames()); });
  addOp(p, "getOutDimNames", 1, "A -> [name, ...]",
        [](const BatchRequest& r) -> Result { return nameList(r.inputs[0].outDimNames()); });
  addOp(p, "toString", 1, "A -> Triton's toString text",
        [](const BatchRequest& r) -> Result { return ordered_json(r.inputs[0].toString()); });
  addOp(p, "getMatrix", 1, "A -> rows (one per out bit) of 0/1 per in bit (extension)",
        [](const BatchRequest& r) -> Result {
          const LinearLayout& l = r.inputs[0];
          std::vector<uint64_t> m = layoutMatrix(l);
          const int w = layoutMatrixWordsPerRow(l);
          ordered_json rows = ordered_json::array();
          for (int row = 0; row < l.totalOutDimSizeLog2(); ++row) {
            ordered_json bits = ordered_json::array();
            for (int c = 0; c < l.totalInDimSizeLog2(); ++c)
              bits.push_back(int((m[size_t(row) * w + c / 64] >> (c % 64)) & 1));
            rows.push_back(std::move(bits));
          }
          return rows;
        });
  // Ops not listed take no args; apply's are layoutctl's IN=VALUE words.
  p.declareArgs({{"apply", {OpArg("ins").asPositional()}},
                 {"getInDimSizeLog2", {"inDim"}},
                 {"getOutDimSizeLog2", {"outDim"}},
                 {"getInDimSize", {"inDim"}},
                 {"getOutDimSize", {"outDim"}}});
}

} // namespace

void registerAlgebraOps(BatchProcessor& p) {
  registerFactoryOps(p);
  registerTransformOps(p);
  registerQueryOps(p);
}

} // namespace layout
