#include "cli_args.h"

#include "layout/protocol/op_args.h"
#include "layout/target/hardware_target.h"

#include "layout/text/file_io.h"
#include "layout/text/internal/quoted_input.h"
#include "layout/text/layout_json.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace layoutctl {

using layout::detail::quoteInput;

namespace {

// "shape" -> "--shape"; an option already spelled ("-t", "--type") stays as it is.
std::string optionName(const std::string& option) {
  return !option.empty() && option[0] == '-' ? option : "--" + option;
}

} // namespace

Args::Args(const std::vector<std::string>& argv, const std::vector<Option>& options, bool allowCsv,
           bool allowSarif) {
  std::set<std::string> values = {"format"}, flags;
  for (const Option& o : options) {
    (o.flag ? flags : values).insert(o.name);
    for (const std::string& alias : o.aliases) (o.flag ? flags : values).insert(alias);
    if (!o.aliases.empty()) aliases_[o.name] = o.aliases;
  }
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string a = argv[i];
    // The option as the user spelled it, without "=value": messages name it that way.
    const std::string spelled = a.substr(0, a.find('='));
    // Single-dash spellings (-l, -t, -use-hw-view, -alias-names=a,b: triton-tensor-layout's
    // flags) are accepted for every option the subcommand declares.
    if (a.size() > 1 && a[0] == '-' && a[1] != '-' && a != "-h") {
      std::string name =
          a.substr(1, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 1);
      if (values.count(name) || flags.count(name)) a = "-" + a;
    }
    if (a == "-h" || a == "--help") {
      help_ = true;
      continue;
    }
    if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
      std::string name = a.substr(2), value;
      bool inlineValue = false;
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        inlineValue = true;
      }
      if (values.count(name)) {
        if (!inlineValue) {
          if (i + 1 >= argv.size()) throw CliExit{kUsage, "option " + spelled + " needs a value"};
          value = argv[++i];
        }
        options_[name] = value;
        spellings_[name] = spelled;
      } else if (flags.count(name) && !inlineValue) {
        flags_.insert(name);
        spellings_[name] = spelled;
      } else if (flags.count(name)) {
        throw CliExit{kUsage, "option " + spelled + " is a flag and takes no value (got " +
                                  quoteInput(argv[i]) + ")"};
      } else {
        throw CliExit{kUsage, "unknown option " + quoteInput(argv[i])};
      }
      continue;
    }
    positionals_.push_back(a);
  }
  if (auto f = option("format"); f && *f != "text" && *f != "json" && !(allowCsv && *f == "csv") &&
                                 !(allowSarif && *f == "sarif"))
    throw CliExit{kUsage, spelling("format") + " must be 'text', 'json'" +
                              (allowCsv ? " or 'csv'" : "") + (allowSarif ? " or 'sarif'" : "") +
                              ", not " + quoteInput(*f)};
}

std::string Args::given(const std::string& name) const {
  if (spellings_.count(name)) return name;
  if (auto it = aliases_.find(name); it != aliases_.end())
    for (const std::string& alias : it->second)
      if (spellings_.count(alias)) return alias;
  return name;
}

std::string Args::spelling(const std::string& name) const {
  auto it = spellings_.find(given(name));
  return it == spellings_.end() ? "--" + name : it->second;
}

std::optional<std::string> Args::option(const std::string& name) const {
  auto it = options_.find(given(name));
  if (it == options_.end()) return std::nullopt;
  return it->second;
}

bool Args::json() const {
  return option("format").value_or("text") == "json";
}

std::string readFile(const std::string& path, const std::string& what) {
  auto text =
      path == "-" ? layout::readInputStream(std::cin, what) : layout::readInputFile(path, what);
  if (!text) throw CliExit{kInvalidInput, text.error().message};
  return std::move(*text);
}

std::string readTextArg(const std::string& text, const std::string& what) {
  if (!text.empty() && text[0] == '@') return readFile(text.substr(1), what);
  return text;
}

std::string targetOption(const Args& args, const std::string& name, const std::string& fallback) {
  const std::string spec = args.option(name).value_or(fallback);
  auto t = layout::target::hardwareTarget(spec);
  if (!t)
    throw CliExit{spec.rfind('@', 0) == 0 ? kInvalidInput : kUsage,
                  args.spelling(name) + ": " + t.error().message};
  return spec;
}

std::string targetChoices() {
  std::string s;
  for (const auto& t : layout::target::builtinTargets()) s += t.name + "|";
  return s + "@FILE";
}

void writeTextFile(const std::string& path, const std::string& text, const std::string& what) {
  if (auto written = layout::writeOutputFile(path, text, what); !written)
    throw CliExit{kInvalidInput, written.error().message};
}

std::vector<int64_t> parseShape(std::string text, const std::string& option) {
  if (text.empty()) throw CliExit{kUsage, optionName(option) + ": empty shape"};
  auto shape = layout::opargs::shapeFromText(text, optionName(option));
  if (!shape) throw CliExit{kUsage, shape.error().message};
  return *shape;
}

layout::LinearLayout readLayoutArg(const std::string& text, const std::string& what) {
  std::string content = text;
  std::string source = what;
  if (!text.empty() && text[0] == '@') {
    std::string path = text.substr(1);
    content = readFile(path, what);
    source = what + " (" + path + ")";
  }
  size_t start = content.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) throw CliExit{kInvalidInput, source + ": empty layout"};
  if (content[start] == '#')
    throw CliExit{kInvalidInput,
                  source + ": this subcommand takes layout JSON; convert an encoding first with "
                           "'layoutctl show ATTR --shape AxB --format json'"};
  if (content[start] != '{')
    throw CliExit{kInvalidInput,
                  source + ": expected layout JSON (starting with '{') or @file, got '" +
                      content.substr(start, 20) + "'" + (content.size() - start > 20 ? "..." : "")};
  auto l = layout::parseLayoutJson(content);
  if (!l) throw CliExit{kInvalidInput, source + ": " + l.error().message};
  return std::move(*l);
}

namespace {

std::vector<std::string> splitCommas(const std::string& text) {
  std::vector<std::string> parts;
  std::string cur;
  std::stringstream ss(text);
  while (std::getline(ss, cur, ',')) parts.push_back(cur);
  return parts;
}

} // namespace

uint64_t positiveCount(const std::string& text, const std::string& option) {
  if (text.empty() || text.size() > 19 ||
      text.find_first_not_of("0123456789") != std::string::npos || std::stoull(text) == 0)
    throw CliExit{kUsage,
                  optionName(option) + ": " + quoteInput(text) + " is not a positive integer"};
  return std::stoull(text);
}

std::vector<layout::DimName> parseDimList(const std::string& text, const std::string& option) {
  std::vector<layout::DimName> names;
  for (const std::string& p : splitCommas(text)) {
    if (p.empty())
      throw CliExit{kUsage, optionName(option) + ": empty dim name in " + quoteInput(text) +
                                " (use a,b,c)"};
    names.push_back(layout::DimName(p));
  }
  return names;
}

std::vector<layout::DimSize> parseDimSizeList(const std::string& text, const std::string& option) {
  std::vector<layout::DimSize> dims;
  for (const std::string& p : splitCommas(text)) {
    auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == p.size())
      throw CliExit{kUsage, optionName(option) +
                                ": expected name=size pairs like lane=32,warp=4, got " +
                                quoteInput(p)};
    std::string size = p.substr(eq + 1);
    if (size.find_first_not_of("0123456789") != std::string::npos || size.size() > 19)
      throw CliExit{kUsage, optionName(option) + ": size " + quoteInput(size) +
                                " is not a non-negative integer"};
    dims.push_back({layout::DimName(p.substr(0, eq)), std::stoull(size)});
  }
  return dims;
}

} // namespace layoutctl
