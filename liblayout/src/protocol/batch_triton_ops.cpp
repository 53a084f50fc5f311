// Batch ops over layout attributes (interchange §2): toLinearLayout, layoutStr, verify, for every
// dialect (TritonGPU encodings and XeGPU layouts, layout_attribute.h).
#include "layout/protocol/batch.h"
#include "layout/protocol/layout_attribute.h"
#include "layout/text/layout_json.h"
#include "layout/triton/encoding.h"
#include "layout/triton/layout_views.h"

#include <nlohmann/json.hpp>

namespace layout {

using nlohmann::ordered_json;

namespace {

struct EncodingOnShape {
  LayoutAttribute encoding;
  std::vector<int64_t> shape;
  LinearLayout layout;
};

Expected<EncodingOnShape> convert(const BatchRequest& r) {
  LAYOUT_TRY_ASSIGN(text, r.stringArg("encoding"));
  LAYOUT_TRY_ASSIGN(shape, r.shapeArg());
  auto enc = parseLayoutAttribute(text);
  if (!enc) return withContext(enc.error(), r.argPath("encoding"));
  LAYOUT_TRY_ASSIGN(ll, toLinearLayout(*enc, shape));
  return EncodingOnShape{std::move(*enc), std::move(shape), std::move(ll)};
}

} // namespace

void registerTritonOps(BatchProcessor& p) {
  BatchOp toLinearLayout{0, "args {encoding, shape} -> Triton's toLinearLayout",
                         [](const BatchRequest& r) -> Expected<ordered_json> {
                           LAYOUT_TRY_ASSIGN(c, convert(r));
                           LAYOUT_TRY(checkLayoutJsonSize(c.layout));
                           return layoutToJson(c.layout);
                         }};
  // A front end gets the layout itself (BatchOp::layout) and prints it its own way.
  toLinearLayout.layout = [](const BatchRequest& r) -> Expected<LinearLayout> {
    LAYOUT_TRY_ASSIGN(c, convert(r));
    return std::move(c.layout);
  };
  p.registerOp("toLinearLayout", std::move(toLinearLayout));
  p.registerOp("layoutStr",
               BatchOp{0, "args {encoding, shape, view: tensor|hw} -> triton-tensor-layout text",
                       [](const BatchRequest& r) -> Expected<ordered_json> {
                         LAYOUT_TRY_ASSIGN(view, r.stringArg("view"));
                         if (view != "tensor" && view != "hw")
                           return makeError("args.view: expected \"tensor\" or \"hw\", not \"" +
                                            view + "\"");
                         LAYOUT_TRY_ASSIGN(c, convert(r));
                         LAYOUT_TRY_ASSIGN(text,
                                           layoutStr(c.encoding, c.layout, c.shape, view == "hw"));
                         return ordered_json(std::move(text));
                       }});
  p.registerOp("verify", BatchOp{0, "args {encoding, shape} -> {ok: true} or the verifier's error",
                                 [](const BatchRequest& r) -> Expected<ordered_json> {
                                   LAYOUT_TRY(convert(r));
                                   return ordered_json{{"ok", true}};
                                 }});
  // Spelled as `layoutctl show` spells them (--layout or -l; --shape, or triton-tensor-layout's
  // -t / --type).
  const OpArg encoding = OpArg("encoding").spelled("layout").alsoSpelled("l");
  const OpArg shape = OpArg("shape").alsoSpelled("type").alsoSpelled("t");
  p.declareArgs({{"toLinearLayout", {encoding, shape}},
                 {"layoutStr", {encoding, shape, "view"}},
                 {"verify", {encoding, shape}}});
}

} // namespace layout
