// layoutctl xegpu: MLIR XeGPU layouts (#xegpu.layout, #xegpu.slice, #xegpu.sg_map) as linear
// layouts, and upstream's distribution queries (subgroup tiles, id delinearization, per-lane
// coordinates and vector shapes). Each query runs its xegpu.* batch op (Binding::OpCalls); the
// command line checks its own usage first and prints the op's result.
#include "op_command.h"

#include "layout/text/internal/list_text.h"
#include "layout/text/internal/quoted_input.h"
#include "layout/text/layout_json.h"
#include "layout/xegpu/xegpu_layout.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <sstream>

namespace layoutctl {

using layout::detail::listText;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// A non-negative integer option, or nullopt when absent.
std::optional<uint64_t> intOption(const Args& args, const std::string& name) {
  auto text = args.option(name);
  if (!text) return std::nullopt;
  if (text->empty() || text->size() > 12 ||
      text->find_first_not_of("0123456789") != std::string::npos)
    throw CliExit{kUsage, args.spelling(name) + ": " + layout::detail::quoteInput(*text) +
                              " is not a non-negative integer"};
  return std::stoull(*text);
}

// --shape as the ops' JSON (unsigned sizes, as parsed JSON holds them). A 0-sized dim is left
// to the op to refuse.
json shapeOption(const Args& args) {
  auto text = args.option("shape");
  if (!text) throw CliExit{kUsage, "this query needs --shape (e.g. --shape 128x128)"};
  json shape = json::array();
  std::stringstream ss(*text);
  std::string part;
  while (std::getline(ss, part, 'x')) {
    if (part.empty() || part.size() > 12 ||
        part.find_first_not_of("0123456789") != std::string::npos)
      throw CliExit{kUsage, args.spelling("shape") + ": " + layout::detail::quoteInput(part) +
                                " is not a dim size (use 128x128)"};
    shape.push_back(uint64_t(std::stoull(part)));
  }
  if (shape.empty()) throw CliExit{kUsage, args.spelling("shape") + ": empty shape"};
  return shape;
}

// The layout's text (@FILE read). It is parsed here as well as by the op: a bad layout reads
// "layout: ..." as it always did, where the op names its argument as the option (--layout).
std::string layoutOption(const Args& args) {
  auto text = args.option("layout");
  if (!text) throw CliExit{kUsage, "give the layout: --layout '#xegpu.layout<...>'"};
  std::string attr = readTextArg(*text, args.spelling("layout"));
  if (auto l = layout::xegpu::parseXegpuAttr(attr); !l)
    throw CliExit{kInvalidInput, "layout: " + l.error().message};
  return attr;
}

std::vector<int64_t> ints(const ordered_json& j) {
  return j.get<std::vector<int64_t>>();
}

int runXegpu(const Args& args) {
  if (args.positionals().size() != 1)
    throw CliExit{kUsage, "expected one query: layout, tiles, delinearize, lane-coords or "
                          "distributed-shape"};
  const std::string query = args.positionals()[0];
  if (query != "layout" && query != "tiles" && query != "delinearize" && query != "lane-coords" &&
      query != "distributed-shape")
    throw CliExit{kUsage, "unknown query " + layout::detail::quoteInput(query) +
                              " (expected layout, tiles, delinearize, lane-coords or "
                              "distributed-shape)"};
  // Usage first: options are checked before the layout is, and the layout before the op runs.
  json opArgs = json::object();
  if (query != "delinearize") opArgs["shape"] = shapeOption(args);
  std::optional<uint64_t> subgroup = intOption(args, "subgroup"), lane = intOption(args, "lane"),
                          id = intOption(args, "id");
  if (query == "tiles" && !subgroup) throw CliExit{kUsage, "tiles needs --subgroup N"};
  if (query == "lane-coords" && !lane) throw CliExit{kUsage, "lane-coords needs --lane N"};
  if (query == "delinearize") {
    if (!id) throw CliExit{kUsage, "delinearize needs --id N and --level subgroup|lane"};
    std::string level = args.option("level").value_or("");
    if (level != "subgroup" && level != "lane")
      throw CliExit{kUsage, args.spelling("level") + " must be 'subgroup' or 'lane', not " +
                                layout::detail::quoteInput(level)};
    opArgs["id"] = *id;
    opArgs["level"] = level;
  }
  opArgs["layout"] = layoutOption(args);
  // The ops refuse ids past the layout's grid (upstream would wrap them).
  if (query == "tiles" || (query == "lane-coords" && subgroup)) opArgs["subgroupId"] = *subgroup;
  if (query == "lane-coords") opArgs["laneId"] = *lane;

  std::ostringstream out;
  if (query == "layout") {
    const layout::LinearLayout ll = runLayoutOp("xegpu.toLinearLayout", {}, std::move(opArgs));
    out << (args.json() ? layout::printLayoutJson(ll, 2) : ll.toString().substr(1)) << "\n";
  } else if (query == "tiles") {
    const ordered_json t = runOp("xegpu.subgroupTiles", {}, std::move(opArgs));
    if (args.json()) {
      out << t.dump(2) << "\n";
    } else {
      out << "subgroup " << *subgroup << ": " << t["tileOffsets"].size() << " tile(s) of "
          << listText(ints(t["tileShape"])) << " at\n";
      for (const auto& o : t["tileOffsets"]) out << "  " << listText(ints(o)) << "\n";
    }
  } else if (query == "delinearize") {
    const ordered_json ids = runOp("xegpu.delinearize", {}, std::move(opArgs));
    out << (args.json() ? ids.dump() : listText(ints(ids))) << "\n";
  } else if (query == "lane-coords") {
    const ordered_json coords = runOp("xegpu.laneCoords", {}, std::move(opArgs));
    if (args.json()) {
      out << coords.dump() << "\n";
    } else {
      for (size_t r = 0; r < coords.size(); ++r)
        out << "register " << r << ": " << listText(ints(coords[r])) << "\n";
    }
  } else {
    const ordered_json s = runOp("xegpu.distributedShape", {}, std::move(opArgs));
    if (args.json()) {
      out << s.dump() << "\n";
    } else {
      for (size_t i = 0; i < s.size(); ++i) out << (i ? "x" : "") << s[i].get<int64_t>();
      out << "\n";
    }
  }
  std::cout << out.str();
  return kOk;
}

} // namespace

void addXegpuCommand(std::vector<Command>& commands) {
  // Each query runs its xegpu.* op; the options are the ops' arguments (--layout or -l, --shape,
  // --subgroup, --lane, --id, --level).
  addTwinCommand(
      commands, Binding::OpCalls,
      {"xegpu.toLinearLayout", "xegpu.subgroupTiles", "xegpu.delinearize", "xegpu.laneCoords",
       "xegpu.distributedShape"},
      {"xegpu",
       "xegpu layout|tiles|delinearize|lane-coords|distributed-shape --layout ATTR [--shape AxB] "
       "[--subgroup N] [--lane N] [--id N --level subgroup|lane] [--format text|json]",
       "MLIR XeGPU layouts. ATTR is #xegpu.layout<...>, #xegpu.slice<#xegpu.layout<...>, dims = "
       "[..]> or #xegpu.sg_map<wi_layout = [..], wi_data = [..]> (or @FILE holding it), checked "
       "with upstream's verifier.\n"
       "  layout             the linear layout (register, lane, warp, block -> dim0..) of --shape\n"
       "  tiles              the sg_data tiles subgroup --subgroup owns (round-robin order)\n"
       "  delinearize        the grid coordinate of --id at --level subgroup|lane (by `order`)\n"
       "  lane-coords        the tensor coordinate of each register of --lane (and --subgroup "
       "for workgroup layouts)\n"
       "  distributed-shape  the per-lane vector shape\n"
       "Shapes that do not distribute give upstream's 'cannot distribute' error (exit 1); linear "
       "layouts also need power-of-two sizes.\n\n"
       "more examples:\n"
       "  layoutctl xegpu distributed-shape --layout '#xegpu.sg_map<wi_layout = [1, 16], wi_data "
       "= [2, 1]>' --shape 16x16\n"
       "  layoutctl xegpu delinearize --layout '#xegpu.layout<sg_layout = [4, 4], sg_data = [8, "
       "8], order = [0, 1]>' --id 4 --level subgroup\n"
       "  layoutctl xegpu layout --layout '#xegpu.layout<lane_layout = [1, 16], lane_data = [1, "
       "1]>' --shape 8x16 --format json",
       "layoutctl xegpu tiles --layout '#xegpu.layout<sg_layout = [2, 2], sg_data = [32, 128], "
       "lane_layout = [1, 16], lane_data = [1, 1], order = [1, 0]>' --shape 128x128 --subgroup 2",
       {},
       runXegpu});
}

} // namespace layoutctl
