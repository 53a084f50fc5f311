#include "layout/protocol/batch.h"

#include "layout/core/resource_limits.h"
#include "layout/protocol/op_args.h"
#include "layout/text/file_io.h"
#include "layout/text/layout_json.h"

#include "layout/text/internal/json_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <istream>
#include <new>
#include <optional>
#include <ostream>

namespace layout {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

Expected<const json*> findArg(const json& args, const char* name) {
  auto it = args.find(name);
  if (it == args.end()) return makeError("missing argument \"" + std::string(name) + "\"");
  return &*it;
}

Expected<DimName> asDim(const json& j, const std::string& path) {
  if (!j.is_string() || j.get_ref<const std::string&>().empty())
    return makeError(path + ": expected a non-empty dim name string");
  return DimName(j.get<std::string>());
}

Expected<uint64_t> asUint(const json& j, const std::string& path) {
  if (!j.is_number_unsigned()) return makeError(path + ": expected a non-negative integer");
  return j.get<uint64_t>();
}

Expected<std::vector<std::pair<DimName, uint64_t>>> asPairList(const json& j,
                                                               const std::string& path) {
  if (!j.is_array()) return makeError(path + ": expected a list of [name, integer] pairs");
  std::vector<std::pair<DimName, uint64_t>> out;
  for (size_t i = 0; i < j.size(); ++i) {
    std::string p = path + "[" + std::to_string(i) + "]";
    if (!j[i].is_array() || j[i].size() != 2)
      return makeError(p + ": expected a [name, integer] pair");
    LAYOUT_TRY_ASSIGN(name, asDim(j[i][0], p + "[0]"));
    LAYOUT_TRY_ASSIGN(value, asUint(j[i][1], p + "[1]"));
    out.push_back({name, value});
  }
  return out;
}

std::string dump(const ordered_json& j) {
  return j.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

// A response line. `idText` is the request's id as JSON text, echoed as sent.
std::string respond(const std::string& idText, const char* key, const ordered_json& value) {
  return "{\"id\":" + idText + ",\"" + key + "\":" + dump(value) + "}";
}

std::string errorLine(const std::string& idText, const std::string& message) {
  return respond(idText, "error", message);
}

// Finds the top-level "id" of a request by SAX, on a whole line or on the first bytes of one too
// long to parse. Numbers keep the text they were written with: a parsed id loses digits beyond a
// double's precision (12345678901234567890123 would echo as 1.2345678901234568e+22).
class IdFinder : public nlohmann::json_sax<json> {
public:
  std::optional<std::string> found;

  bool null() override { return primitive("null"); }
  bool boolean(bool v) override { return primitive(v ? "true" : "false"); }
  // Only a literal with a minus sign is a signed integer, so 0 here was written -0.
  bool number_integer(number_integer_t v) override {
    return primitive(v == 0 ? "-0" : std::to_string(v));
  }
  bool number_unsigned(number_unsigned_t v) override { return primitive(std::to_string(v)); }
  bool number_float(number_float_t, const string_t& raw) override { return primitive(raw); }
  bool string(string_t& v) override { return primitive(json(v).dump()); }
  bool binary(binary_t&) override { return primitive("null"); }
  bool start_object(std::size_t) override { return open(); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    idNext_ = depth_ == 1 && k == "id";
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

private:
  bool primitive(std::string text) {
    if (idNext_ && depth_ == 1) {
      found = std::move(text);
      return false; // nothing more is needed
    }
    return true;
  }
  bool open() {
    if (idNext_ && depth_ == 1) return false; // a structured id: not echoed from a prefix
    ++depth_;
    return true;
  }
  bool close() {
    --depth_;
    return true;
  }
  int depth_ = 0;
  bool idNext_ = false;
};

// The declared argument `name` of `op` (an undeclared one is named as the batch spells it).
OpArg argNamed(const BatchOp& op, std::string_view name) {
  for (const OpArg& a : op.args)
    if (a.name == name) return a;
  return OpArg(std::string(name));
}

std::optional<std::string> findIdText(std::string_view text) {
  IdFinder finder;
  json::sax_parse(text.begin(), text.end(), &finder, json::input_format_t::json, false);
  return finder.found;
}

} // namespace

BatchRequest::BatchRequest(std::string opName, const json& argsObject, const BatchOp* opSpec,
                           ArgSpelling argSpelling)
    : op(std::move(opName)), args(argsObject), spec(opSpec), spelling(argSpelling) {}

std::string BatchRequest::argPath(std::string_view name) const {
  return layout::argPath(spec ? argNamed(*spec, name) : OpArg(std::string(name)), spelling);
}

Expected<uint64_t> BatchRequest::uintArg(const char* name) const {
  LAYOUT_TRY_ASSIGN(j, findArg(args, name));
  return asUint(*j, argPath(name));
}

Expected<uint64_t> BatchRequest::uintArgOr(const char* name, uint64_t fallback) const {
  if (!args.contains(name)) return fallback;
  return uintArg(name);
}

Expected<std::string> BatchRequest::stringArg(const char* name) const {
  LAYOUT_TRY_ASSIGN(j, findArg(args, name));
  if (!j->is_string()) return makeError(argPath(name) + ": expected a string");
  return j->get<std::string>();
}

Expected<std::vector<int64_t>> BatchRequest::shapeArg(const char* name) const {
  LAYOUT_TRY_ASSIGN(j, findArg(args, name));
  return opargs::shapeFromJson(*j, argPath(name));
}

Expected<DimName> BatchRequest::dimArg(const char* name) const {
  LAYOUT_TRY_ASSIGN(j, findArg(args, name));
  return asDim(*j, argPath(name));
}

Expected<std::vector<DimName>> BatchRequest::dimListArg(const char* name) const {
  LAYOUT_TRY_ASSIGN(j, findArg(args, name));
  if (!j->is_array()) return makeError(argPath(name) + ": expected a list of dim names");
  std::vector<DimName> out;
  for (size_t i = 0; i < j->size(); ++i) {
    LAYOUT_TRY_ASSIGN(d, asDim((*j)[i], argPath(name) + "[" + std::to_string(i) + "]"));
    out.push_back(d);
  }
  return out;
}

Expected<std::vector<DimSize>> BatchRequest::dimSizeListArg(const char* name) const {
  LAYOUT_TRY_ASSIGN(pairs, dimValueListArg(name));
  std::vector<DimSize> out;
  for (auto& [n, s] : pairs) out.push_back({n, s});
  return out;
}

Expected<std::vector<std::pair<DimName, uint64_t>>>
BatchRequest::dimValueListArg(const char* name) const {
  LAYOUT_TRY_ASSIGN(j, findArg(args, name));
  return asPairList(*j, argPath(name));
}

// report.kernel (batch_report_ops.cpp).
void registerReportOps(BatchProcessor& p);

BatchProcessor::BatchProcessor() {
  registerAlgebraOps(*this);
  registerTritonOps(*this);
  registerXegpuOps(*this);
  registerXegpuPropagateOp(*this);
  registerBlockLoadOps(*this);
  registerConversionOps(*this);
  registerBankOps(*this);
  registerReportOps(*this);
}

void BatchProcessor::registerOp(std::string name, BatchOp op) {
  ops_[std::move(name)] = std::move(op);
}

void BatchProcessor::declareArgs(
    const std::vector<std::pair<std::string, std::vector<OpArg>>>& ops) {
  for (const auto& [name, args] : ops) ops_.at(name).args = args;
}

Expected<void> BatchProcessor::prepareArgs(const std::string& opName, const BatchOp& op, json& args,
                                           ArgSpelling spelling) {
  if (!op.checksOwnArgs)
    for (const auto& item : args.items()) {
      const std::string& key = item.key(); // not a structured binding: the lambda captures it
      const auto known = std::find_if(op.args.begin(), op.args.end(),
                                      [&](const OpArg& a) { return a.name == key; });
      if (known != op.args.end()) continue;
      std::string list;
      for (const OpArg& a : op.args) list += (list.empty() ? "" : ", ") + a.name;
      return makeError("args." + key + ": unknown argument (" + opName + " takes " +
                       (list.empty() ? std::string("none") : list) + ")");
    }
  for (const OpArg& a : op.args) {
    auto it = args.find(a.name);
    if (it == args.end()) {
      if (a.defaultText) {
        LAYOUT_TRY_ASSIGN(value, opArgFromText(a, *a.defaultText, spelling));
        it = args.emplace(a.name, std::move(value)).first;
      } else if (a.mandatory) {
        return missingOpArg(a, spelling);
      } else {
        continue;
      }
    }
    if (holdsIntegers(a.kind)) *it = withUnsignedIntegers(std::move(*it));
    LAYOUT_TRY(checkOpArg(a, *it, spelling));
  }
  for (const OpArg& a : op.args) {
    if (!args.contains(a.name)) continue;
    for (const std::string& other : a.together)
      if (!args.contains(other))
        return makeError(argPath(a, spelling) + ": needs " +
                         argPath(argNamed(op, other), spelling));
    for (const std::string& other : a.apart)
      if (args.contains(other))
        return makeError(argPath(a, spelling) + ": give either it or " +
                         argPath(argNamed(op, other), spelling) + ", not both");
  }
  return {};
}

std::string BatchProcessor::processLine(std::string_view line) const {
  auto parsed = detail::parseJsonText(line);
  // A line past a limit or malformed after its id still answers with that id.
  if (!parsed)
    return errorLine(findIdText(line).value_or("null"), "request: " + parsed.error().message);
  json request = std::move(*parsed);
  if (!request.is_object()) return errorLine("null", "a request must be a JSON object with \"op\"");
  std::string id = "null";
  if (auto it = request.find("id"); it != request.end())
    id = it->is_number_float() ? findIdText(line).value_or(dump(*it))
         // Only a literal with a minus sign parses as a signed integer: 0 there was written -0.
         : it->is_number_integer() && !it->is_number_unsigned() && it->get<int64_t>() == 0
             ? "-0"
             : dump(*it);
  try {
    auto op = request.find("op");
    if (op == request.end() || !op->is_string())
      return errorLine(id, "request: missing string field \"op\"");
    auto it = ops_.find(op->get<std::string>());
    if (it == ops_.end()) return errorLine(id, "unknown op \"" + op->get<std::string>() + "\"");
    json noArgs = json::object();
    auto args = request.find("args");
    if (args != request.end() && !args->is_object())
      return errorLine(id, "request: \"args\" must be an object");
    json& argsObject = args != request.end() ? *args : noArgs;
    if (auto ok = prepareArgs(it->first, it->second, argsObject, ArgSpelling::Batch); !ok)
      return errorLine(id, it->first + ": " + ok.error().message);
    BatchRequest req(it->first, argsObject, &it->second);
    if (auto inputs = request.find("inputs"); inputs != request.end()) {
      if (!inputs->is_array()) return errorLine(id, "request: \"inputs\" must be a list");
      for (size_t i = 0; i < inputs->size(); ++i) {
        auto l = layoutFromJson((*inputs)[i]);
        if (!l)
          return errorLine(id,
                           req.op + ": inputs[" + std::to_string(i) + "]: " + l.error().message);
        req.inputs.push_back(std::move(*l));
      }
    }
    if (int(req.inputs.size()) != it->second.arity)
      return errorLine(id, "op \"" + req.op + "\" takes " + std::to_string(it->second.arity) +
                               " input layout(s), got " + std::to_string(req.inputs.size()));
    auto result = it->second.run(req);
    if (!result) {
      const std::string& msg = result.error().message;
      bool named = msg.rfind(req.op + ":", 0) == 0;
      return errorLine(id, named ? msg : req.op + ": " + msg);
    }
    return respond(id, "result", *result);
  } catch (const LimitExceeded& e) {
    return errorLine(id, e.what());
  } catch (const std::bad_alloc&) {
    // The limits of docs/limits.md keep known requests far from this; anything left is reported
    // on its own line and the batch goes on.
    return errorLine(id, "out of memory: this request needs more memory than is available "
                         "(docs/limits.md lists the limits on request sizes)");
  } catch (const std::exception& e) {
    // Library exceptions must not end the batch.
    return errorLine(id, std::string("internal error: ") + e.what());
  }
}

bool BatchProcessor::run(std::istream& in, std::ostream& out) const {
  const uint64_t maxLine = resourceLimits().maxLineBytes;
  std::string line;
  for (;;) {
    LineRead read = readBoundedLine(in, line, maxLine);
    if (read == LineRead::End) break;
    if (read == LineRead::TooLong) {
      // Answered before the rest is skipped, so an endless line still gets its response.
      out << errorLine(findIdText(line).value_or("null"),
                       "request: the line is longer than the limit of " + describeBytes(maxLine) +
                           " (raise it with LAYOUT_MAX_LINE_BYTES)")
          << '\n';
      out.flush();
      skipRestOfLine(in);
    } else if (line.find_first_not_of(" \t\r") == std::string::npos) {
      out << errorLine("null", "empty request line") << '\n';
    } else {
      out << processLine(line) << '\n';
    }
    out.flush();
    if (!out) return false;
  }
  return bool(out);
}

} // namespace layout
