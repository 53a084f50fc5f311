// How do I embed the `layoutctl batch` protocol in my own program, with an op of my own? Creates a
// layout::BatchProcessor (it starts with every op of docs/interchange.md §2), registers one more
// op with registerOp, and answers request lines: the session of docs/interchange.md §2.1 as a
// stream (an existing op, an error, a blank line, an unknown op), then requests to the new op.
//
// The new op, "example.owner", answers "which hardware location holds this tensor element?":
//   {"op": "example.owner", "args": {"encoding": "#ttg.blocked<...>", "shape": [8, 16],
//                                    "element": [5, 13]}}
//   -> {"register": 1, "lane": 23, "warp": 0, "block": 0}
//
//   ./build/examples/batch_embedding
#include "layout/core/linear_layout.h"
#include "layout/protocol/batch.h"
#include "layout/protocol/layout_attribute.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace layout;
using nlohmann::ordered_json;

namespace {

// The op's body. The registry has already checked the args against the declaration below
// (unknown keys, missing ones, wrong kinds), so it only reads them. An error returned here becomes
// the response's "error", prefixed with the op's name.
Expected<ordered_json> owner(const BatchRequest& r) {
  LAYOUT_TRY_ASSIGN(text, r.stringArg("encoding")); // returns the error when it fails
  LAYOUT_TRY_ASSIGN(shape, r.shapeArg("shape"));
  auto attr = parseLayoutAttribute(text); // any #ttg. encoding or #xegpu. layout
  if (!attr) return withContext(attr.error(), "args.encoding");
  LAYOUT_TRY_ASSIGN(ll, toLinearLayout(*attr, shape)); // (register, lane, warp, block) -> dims
  const auto element = r.args["element"].get<std::vector<uint64_t>>();
  if (element.size() != shape.size())
    return makeError("args.element: " + std::to_string(element.size()) +
                     " coordinates for a tensor of rank " + std::to_string(shape.size()));
  for (size_t d = 0; d < shape.size(); ++d)
    if (element[d] >= uint64_t(shape[d]))
      return makeError("args.element[" + std::to_string(d) + "]: outside the shape");
  // The smallest hardware location that holds the element (several hold it under a broadcast).
  LAYOUT_TRY_ASSIGN(inverse, ll.pseudoinvert()); // dims -> (register, lane, warp, block)
  std::vector<uint64_t> hw(size_t(inverse.numOutDims()));
  inverse.apply(element, hw);
  ordered_json result = ordered_json::object();
  for (int i = 0; i < inverse.numOutDims(); ++i)
    result[std::string(inverse.outDimName(i).str())] = hw[size_t(i)];
  return result;
}

} // namespace

int main() {
  // 1. The processor, with the built-in ops.
  BatchProcessor batch;

  // 2. Our op: no input layouts (arity 0), a one-line summary (layoutctl batch --list-ops prints
  //    it), the body, and the args it reads. OpArg kinds give the checks every op shares.
  BatchOp op;
  op.arity = 0;
  op.summary = "args {encoding, shape, element} -> the smallest {register, lane, warp, block} "
               "holding the element";
  op.run = owner;
  op.args = {OpArg("encoding", OpArgKind::String).needed(),
             OpArg("shape", OpArgKind::Shape).needed(),
             OpArg("element", OpArgKind::IntList).needed()};
  batch.registerOp("example.owner", std::move(op));

  // 3. Request lines. One line in, one line out, in order; an error answers its own line only.
  //    A whole stream, as `layoutctl batch` reads stdin: docs/interchange.md §2.1's example
  //    session (an existing op, a failed precondition, a blank line, an unknown op).
  std::istringstream session(
      R"({"id":2,"op":"identity1D","args":{"size":4,"inDim":"lane","outDim":"dim0"}})"
      "\n"
      R"({"id":3,"op":"invert","inputs":[{"inDims":[{"name":"x","bases":[[1],[0]]}],)"
      R"("outDims":[{"name":"y","size":4}]}]})"
      "\n\n"
      R"({"id":4,"op":"frobnicate"})"
      "\n");
  if (!batch.run(session, std::cout)) return 1; // false: writing the responses failed

  // One line at a time (a server answering requests as they come): our op, with a good request,
  // a misspelt argument and an element outside the tensor.
  const std::string blocked = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                              "warpsPerCTA = [1, 1], order = [1, 0]}>";
  auto request = [&](int id, const std::string& args) {
    return R"({"id":)" + std::to_string(id) + R"(,"op":"example.owner","args":{"encoding":")" +
           blocked + R"(","shape":[8,16],)" + args + "}}";
  };
  std::cout << batch.processLine(request(5, R"("element":[5,13])")) << "\n";
  std::cout << batch.processLine(request(6, R"("elemnt":[5,13])")) << "\n";
  std::cout << batch.processLine(request(7, R"("element":[8,0])")) << "\n";
  return 0;
}
