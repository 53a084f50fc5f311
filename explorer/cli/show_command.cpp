// layoutctl show: a layout's bases, or, for encodings and distributed / shared layouts, the tensor
// and hardware views of triton-tensor-layout (whose flags -l, -t, -i, -o, -use-hw-view and
// -alias-names are accepted as they are). Encodings run the toLinearLayout and layoutStr ops
// (Binding::OpCalls) once show has resolved their aliases; a layout given as JSON runs toString
// and the ops of its summary, and its views (which no op takes a layout for) are drawn here.
#include "op_command.h"

#include "layout/core/resource_limits.h"
#include "layout/protocol/layout_attribute.h"
#include "layout/text/internal/quoted_input.h"
#include "layout/text/layout_json.h"
#include "layout/text/mlir_attribute.h"
#include "layout/triton/encoding.h"
#include "layout/triton/layout_views.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

namespace layoutctl {

using layout::LinearLayout;

namespace {

// The layout of interchange §1: a 16x16 tile over 32 lanes with two registers each.
constexpr const char* kExampleLayout = R"({
  "inDims":  [ {"name": "register", "bases": [[0, 1], [8, 0]]},
               {"name": "lane",     "bases": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]},
               {"name": "warp",     "bases": []} ],
  "outDims": [ {"name": "dim0", "size": 16}, {"name": "dim1", "size": 16} ]
})";

struct ViewChoice {
  bool hw = false;
  bool bases = false; // toString of the layout itself
};

ViewChoice viewOf(const Args& args, bool defaultBases) {
  std::string view = args.option("view").value_or(defaultBases ? "bases" : "tensor");
  if (args.flag("use-hw-view")) view = "hw";
  if (view != "tensor" && view != "hw" && view != "bases")
    throw CliExit{kUsage, args.spelling("view") + " must be tensor, hw or bases, not " +
                              layout::detail::quoteInput(view)};
  return {view == "hw", view == "bases"};
}

// The text for one encoding on a shape: triton-tensor-layout's view, or the bases, from the ops.
// They read `given` (the attribute text as the user wrote it), or without it `enc` printed with
// its aliases resolved.
std::string encodingText(const layout::LayoutAttribute& enc, const std::string* given,
                         std::span<const int64_t> shape, const ViewChoice& view, const Args& args,
                         LinearLayout* out) {
  // Unsigned sizes, as parsed JSON holds them.
  nlohmann::json opArgs = {{"encoding", given ? *given : enc.text()},
                           {"shape", std::vector<uint64_t>(shape.begin(), shape.end())}};
  try {
    if (args.json() || view.bases) {
      LinearLayout ll = runLayoutOp("toLinearLayout", {}, std::move(opArgs));
      std::string text =
          args.json() ? layout::printLayoutJson(ll, 2) + "\n" : ll.toString().substr(1) + "\n";
      if (out) *out = std::move(ll);
      return text;
    }
    opArgs["view"] = view.hw ? "hw" : "tensor";
    return runOp("layoutStr", {}, std::move(opArgs)).get<std::string>();
  } catch (const CliExit&) {
    // A message that points into the printed text ("line 1, column 193") would not point into
    // what the user wrote (an alias file): the conversion of `enc` says where it is there.
    if (!given)
      if (auto ll = layout::toLinearLayout(enc, shape); !ll)
        throw CliExit{kInvalidInput, ll.error().message};
    throw;
  }
}

std::string showEncodings(const Args& args, const std::string& attrText) {
  // --type and -t (triton-tensor-layout's), aliases of --shape, win over it as they always did.
  const char* shapeOption = args.option("type") ? "type" : args.option("t") ? "t" : "shape";
  auto shapeText = args.option(shapeOption);
  if (!shapeText)
    throw CliExit{kUsage,
                  "an encoding needs a tensor shape: --shape 16x32 or -t tensor<16x32xf16>"};
  std::vector<int64_t> shape = parseShape(*shapeText, args.spelling(shapeOption));
  ViewChoice view = viewOf(args, /*defaultBases=*/false);
  std::string out;
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  layout::AttrAliases aliases;
  if (auto file = args.option("input")) {
    // The file's label stays "--input" however it was spelled (docs/limits.md quotes it).
    auto defs = layout::parseAliasFile(readFile(*file, "--input"));
    if (!defs) throw CliExit{kInvalidInput, *file + ": " + defs.error().message};
    if (defs->empty() && attrText.empty())
      throw CliExit{kInvalidInput, *file +
                                       ": the file defines no aliases (lines such as '#blocked = "
                                       "#ttg.blocked<{...}>'), so " +
                                       args.spelling("input") + " has nothing to print"};
    std::set<std::string> wanted;
    if (auto names = args.option("alias-names")) {
      std::stringstream ss(*names);
      std::string n;
      while (std::getline(ss, n, ','))
        if (!n.empty()) wanted.insert(n[0] == '#' ? n.substr(1) : n);
      for (const std::string& n : wanted) {
        if (std::any_of(defs->begin(), defs->end(),
                        [&](const layout::AliasDefinition& d) { return d.name == n; }))
          continue;
        std::string known;
        size_t listed = 0;
        for (const auto& d : *defs) {
          if (listed == 20) {
            known += ", ... (" + std::to_string(defs->size() - listed) + " more)";
            break;
          }
          known += (known.empty() ? "" : ", ") + layout::detail::quoteInput("#" + d.name);
          ++listed;
        }
        throw CliExit{kInvalidInput, args.spelling("alias-names") + ": unknown alias name " +
                                         layout::detail::quoteInput(n) + ": " + *file +
                                         (defs->empty() ? std::string(" defines no aliases")
                                                        : " defines " + known)};
      }
    }
    for (const auto& def : *defs) {
      aliases[def.name] = def.value;
      if (!wanted.empty() && !wanted.count(def.name)) continue;
      auto enc = layout::layoutAttributeFromAttr(def.value);
      if (!enc) throw CliExit{kInvalidInput, *file + ": #" + def.name + ": " + enc.error().message};
      LinearLayout ll;
      std::string text = encodingText(*enc, nullptr, shape, view, args, &ll);
      if (args.json()) {
        json.push_back({{"alias", def.name}, {"layout", layout::layoutToJson(ll)}});
        continue;
      }
      out += "Print layout attribute: #" + def.name + " = " + enc->text() + "\n" + text + "\n";
    }
  }
  if (!attrText.empty()) {
    auto enc = layout::parseLayoutAttribute(attrText, aliases);
    if (!enc) throw CliExit{kInvalidInput, "layout: " + enc.error().message};
    // As given when no alias file is read (the ops know no aliases).
    LinearLayout ll;
    std::string text =
        encodingText(*enc, aliases.empty() ? &attrText : nullptr, shape, view, args, &ll);
    if (args.json() && json.empty()) return text;
    if (args.json()) {
      json.push_back({{"alias", nullptr}, {"layout", layout::layoutToJson(ll)}});
    } else {
      out += "Print layout attribute: " + enc->text() + "\n" + text;
    }
  }
  return args.json() ? json.dump(2) + "\n" : out;
}

std::string showLayout(const Args& args, const LinearLayout& l) {
  if (args.json()) return layout::printLayoutJson(l, 2) + "\n";
  ViewChoice view = viewOf(args, /*defaultBases=*/true);
  if (view.bases) {
    auto query = [&l](const char* op) { return runOp(op, {l}); };
    auto yesNo = [&](const char* op) { return query(op).get<bool>() ? "yes" : "no"; };
    // No op gives the rank.
    return query("toString").get<std::string>().substr(1) +
           "\nin bits: " + std::to_string(query("getTotalInDimSizeLog2").get<int>()) +
           ", out bits: " + std::to_string(query("getTotalOutDimSizeLog2").get<int>()) +
           ", rank: " + std::to_string(l.rank()) + ", surjective: " + yesNo("isSurjective") +
           ", injective: " + yesNo("isInjective") + "\n";
  }
  // Views of a layout given as JSON: its out-dims are the tensor (the view checks its size). No
  // op draws them (layoutStr takes an encoding), so they are drawn here.
  std::vector<int64_t> shape;
  for (int o = 0; o < l.numOutDims(); ++o) shape.push_back(int64_t(l.outDimSize(o)));
  if (l.numOutDims() == 0) throw CliExit{kInvalidInput, "views need at least one out-dim"};
  bool shared = l.hasInDim(layout::dims::offset());
  for (int d = 0; d < l.numInDims(); ++d) {
    layout::DimName n = l.inDimName(d);
    bool known = shared ? (n == layout::dims::offset() || n == layout::dims::block())
                        : (n == layout::dims::reg() || n == layout::dims::lane() ||
                           n == layout::dims::warp() || n == layout::dims::block());
    if (!known)
      throw CliExit{kInvalidInput,
                    "the tensor and hw views need in-dims register/lane/warp/block (distributed) "
                    "or offset/block (shared); this layout has '" +
                        std::string(n.str()) + "'"};
  }
  return orFail(shared ? layout::triton::sharedLayoutStr(l, shape, view.hw)
                       : layout::triton::distributedLayoutStr(l, shape, view.hw));
}

int runShow(const Args& args) {
  if (args.positionals().size() > 1) throw CliExit{kUsage, "expected at most one layout"};
  if (auto cells = args.option("max-cells")) {
    layout::ResourceLimits limits = layout::resourceLimits();
    limits.maxViewCells = positiveCount(*cells, args.spelling("max-cells"));
    layout::setResourceLimits(limits);
  }
  std::string text;
  bool given = false;
  if (auto l = args.option("layout")) {
    text = *l;
    given = true;
  }
  if (!args.positionals().empty()) {
    if (given) throw CliExit{kUsage, "give the layout once (positional or -l)"};
    text = args.positionals()[0];
    given = true;
  }
  if (given && text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw CliExit{kInvalidInput, "layout: the layout text is empty (give layout JSON, attribute "
                                 "text or @FILE; without a layout, show prints the built-in "
                                 "example)"};
  if (!text.empty() && text[0] == '@' && text.size() > 1 && text != "@-") {
    // @file with attribute text reads like -l; JSON goes through readLayoutArg below.
    std::string content = readFile(text.substr(1), "layout");
    size_t first = content.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && content[first] == '#') text = content.substr(first);
  }
  const bool hasFile = args.option("input").has_value();
  std::string output;
  if (hasFile || (!text.empty() && text.find_first_not_of(" \t\r\n") != std::string::npos &&
                  text[text.find_first_not_of(" \t\r\n")] == '#')) {
    output = showEncodings(args, text);
  } else if (text.empty()) {
    std::cerr << "(no layout given: showing the built-in example of interchange §1)\n";
    output = showLayout(args, readLayoutArg(kExampleLayout, "example"));
  } else {
    output = showLayout(args, readLayoutArg(text, "layout"));
  }
  if (auto path = args.option("output")) {
    writeTextFile(*path, output, "--output");
  } else {
    std::cout << output;
  }
  return kOk;
}

} // namespace

void addShowCommand(std::vector<Command>& commands) {
  // Encodings run toLinearLayout and layoutStr, whose arguments are the options (--layout or -l,
  // --shape or -t, --view); a JSON layout's bases run toString and the queries of its summary.
  addTwinCommand(
      commands, Binding::OpCalls,
      {"toLinearLayout", "layoutStr", "toString", "getTotalInDimSizeLog2", "getTotalOutDimSizeLog2",
       "isSurjective", "isInjective"},
      {"show",
       "show [LAYOUT | -l ATTR] [--shape AxB | -t tensor<AxBxT>] [--view tensor|hw|bases | "
       "-use-hw-view] [-i FILE [-alias-names=a,b]] [-o FILE] [--max-cells N] [--format text|json]",
       "Print a layout. LAYOUT is layout JSON, @file, or TritonGPU attribute text (#ttg.blocked, "
       "slice, linear, nvidia_mma, amd_mfma, dot_op, swizzled_shared, amd_rotating_shared, "
       "shared_linear), which needs a shape. JSON layouts print in Triton's toString format with "
       "their rank by default "
       "(--view bases); encodings print triton-tensor-layout's tensor view, or with --view hw / "
       "-use-hw-view its hardware view, byte for byte, after 'Print layout attribute: ...'. "
       "-i reads the aliases of an MLIR file (all, or those of -alias-names) and prints each. "
       "--format json prints the linear layout. Without a layout, shows the built-in example of "
       "interchange §1. The tensor and hw views print at most 2^22 cells and hardware positions "
       "(--max-cells N or LAYOUT_MAX_VIEW_CELLS raise it; docs/limits.md).",
       "layoutctl show -l '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
       "warpsPerCTA = [1, 1], order = [1, 0]}>' -t 'tensor<16x16xf16>' -use-hw-view",
       {{"input", {"i"}},
        {"output", {"o"}},
        {"alias-names"},
        {"max-cells"},
        {"use-hw-view", {}, /*flag=*/true}},
       runShow});
}

} // namespace layoutctl
