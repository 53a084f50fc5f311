// layoutctl xegpu: MLIR XeGPU layouts (#xegpu.layout, #xegpu.slice, #xegpu.sg_map) as linear
// layouts, and upstream's distribution queries (subgroup tiles, id delinearization, per-lane
// coordinates and vector shapes).
#include "op_command.h"

#include "layout/text/internal/quoted_input.h"
#include "layout/text/layout_json.h"
#include "layout/xegpu/xegpu_layout.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

namespace layoutctl {

namespace xg = layout::xegpu;
using nlohmann::ordered_json;
using xg::listText;

namespace {

// A non-negative integer option, or nullopt when absent.
std::optional<int64_t> intOption(const Args& args, const std::string& name) {
  auto text = args.option(name);
  if (!text) return std::nullopt;
  if (text->empty() || text->size() > 12 ||
      text->find_first_not_of("0123456789") != std::string::npos)
    throw CliExit{kUsage, args.spelling(name) + ": " + layout::detail::quoteInput(*text) +
                              " is not a non-negative integer"};
  return std::stoll(*text);
}

// An id option within the layout's grid at `level` (refused rather than wrapped).
void checkIdOption(const Args& args, const xg::XeLayout& l, const std::string& name,
                   std::optional<int64_t> id, xg::Level level) {
  if (!id) return;
  if (auto ok = xg::checkIdInRange(l, *id, level, args.spelling(name)); !ok)
    throw CliExit{kInvalidInput, ok.error().message};
}

std::vector<int64_t> shapeOption(const Args& args) {
  auto text = args.option("shape");
  if (!text) throw CliExit{kUsage, "this query needs --shape (e.g. --shape 128x128)"};
  std::vector<int64_t> shape;
  std::stringstream ss(*text);
  std::string part;
  while (std::getline(ss, part, 'x')) {
    if (part.empty() || part.size() > 12 ||
        part.find_first_not_of("0123456789") != std::string::npos)
      throw CliExit{kUsage, args.spelling("shape") + ": " + layout::detail::quoteInput(part) +
                                " is not a dim size (use 128x128)"};
    shape.push_back(std::stoll(part));
  }
  if (shape.empty()) throw CliExit{kUsage, args.spelling("shape") + ": empty shape"};
  return shape;
}

xg::XeLayout layoutOption(const Args& args) {
  auto text = args.option("layout");
  if (!text) throw CliExit{kUsage, "give the layout: --layout '#xegpu.layout<...>'"};
  const std::string attr = readTextArg(*text, args.spelling("layout"));
  auto l = xg::parseXegpuAttr(attr);
  if (!l) throw CliExit{kInvalidInput, "layout: " + l.error().message};
  return *l;
}

ordered_json listsJson(const std::vector<std::vector<int64_t>>& v) {
  ordered_json out = ordered_json::array();
  for (const auto& x : v) out.push_back(x);
  return out;
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
  // Usage first: options are checked before the layout is.
  std::vector<int64_t> shape;
  if (query != "delinearize") shape = shapeOption(args);
  std::optional<int64_t> subgroup = intOption(args, "subgroup"), lane = intOption(args, "lane"),
                         id = intOption(args, "id");
  if (query == "tiles" && !subgroup) throw CliExit{kUsage, "tiles needs --subgroup N"};
  if (query == "lane-coords" && !lane) throw CliExit{kUsage, "lane-coords needs --lane N"};
  xg::Level level = xg::Level::Subgroup;
  if (query == "delinearize") {
    if (!id) throw CliExit{kUsage, "delinearize needs --id N and --level subgroup|lane"};
    std::string lv = args.option("level").value_or("");
    if (lv != "subgroup" && lv != "lane")
      throw CliExit{kUsage, args.spelling("level") + " must be 'subgroup' or 'lane', not " +
                                layout::detail::quoteInput(lv)};
    level = lv == "subgroup" ? xg::Level::Subgroup : xg::Level::Lane;
  }
  const xg::XeLayout l = layoutOption(args);
  // Ids past the layout's grid are refused (upstream would wrap them).
  if (query == "tiles" || query == "lane-coords")
    checkIdOption(args, l, "subgroup", subgroup, xg::Level::Subgroup);
  if (query == "lane-coords") checkIdOption(args, l, "lane", lane, xg::Level::Lane);
  if (query == "delinearize") checkIdOption(args, l, "id", id, level);

  std::ostringstream out;
  if (query == "layout") {
    auto ll = orFail(xg::toLinearLayout(l, shape));
    out << (args.json() ? layout::printLayoutJson(ll, 2) : ll.toString().substr(1)) << "\n";
  } else if (query == "tiles") {
    auto t = orFail(xg::subgroupTiles(l, shape, *subgroup));
    if (args.json()) {
      ordered_json j;
      j["tileShape"] = t.tileShape;
      j["tileOffsets"] = listsJson(t.tileOffsets);
      out << j.dump(2) << "\n";
    } else {
      out << "subgroup " << *subgroup << ": " << t.tileOffsets.size() << " tile(s) of "
          << listText(t.tileShape) << " at\n";
      for (const auto& o : t.tileOffsets) out << "  " << listText(o) << "\n";
    }
  } else if (query == "delinearize") {
    auto ids = orFail(xg::delinearize(l, *id, level));
    out << (args.json() ? ordered_json(ids).dump() : listText(ids)) << "\n";
  } else if (query == "lane-coords") {
    auto coords = orFail(xg::laneCoords(l, shape, *lane, subgroup));
    if (args.json()) {
      out << listsJson(coords).dump() << "\n";
    } else {
      for (size_t r = 0; r < coords.size(); ++r)
        out << "register " << r << ": " << listText(coords[r]) << "\n";
    }
  } else {
    auto s = orFail(xg::distributedShape(l, shape));
    if (args.json()) {
      out << ordered_json(s).dump() << "\n";
    } else {
      for (size_t i = 0; i < s.size(); ++i) out << (i ? "x" : "") << s[i];
      out << "\n";
    }
  }
  std::cout << out.str();
  return kOk;
}

} // namespace

void addXegpuCommand(std::vector<Command>& commands) {
  // Bound to the xegpu.* ops by their arguments (--layout or -l, --shape, --subgroup, --lane,
  // --id, --level), computed here: the ops name a 0-sized dim their own way.
  addTwinCommand(
      commands, Binding::OpSpec,
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
