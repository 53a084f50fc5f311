#include "layout/io/batch.h"

#include "layout/io/layout_json.h"

#include "json_text.h"

#include <istream>
#include <ostream>

namespace layout {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

std::string argPath(const char* name) {
  return std::string("args.") + name;
}

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

Expected<std::vector<std::pair<DimName, uint64_t>>>
asPairList(const json& j, const std::string& path, bool wrapNegative) {
  if (!j.is_array()) return makeError(path + ": expected a list of [name, integer] pairs");
  std::vector<std::pair<DimName, uint64_t>> out;
  for (size_t i = 0; i < j.size(); ++i) {
    std::string p = path + "[" + std::to_string(i) + "]";
    if (!j[i].is_array() || j[i].size() != 2)
      return makeError(p + ": expected a [name, integer] pair");
    LAYOUT_TRY_ASSIGN(name, asDim(j[i][0], p + "[0]"));
    if (wrapNegative && j[i][1].is_number_integer() && !j[i][1].is_number_unsigned()) {
      out.push_back({name, static_cast<uint64_t>(j[i][1].get<int64_t>())});
      continue;
    }
    LAYOUT_TRY_ASSIGN(value, asUint(j[i][1], p + "[1]"));
    out.push_back({name, value});
  }
  return out;
}

std::string dump(const ordered_json& j) {
  return j.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

ordered_json errorLine(const json& id, const std::string& message) {
  ordered_json out;
  out["id"] = id;
  out["error"] = message;
  return out;
}

} // namespace

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
  if (!j->is_array()) return makeError(argPath(name) + ": expected a list of dim sizes");
  std::vector<int64_t> shape;
  for (size_t i = 0; i < j->size(); ++i) {
    const auto& d = (*j)[i];
    const std::string where = argPath(name) + "[" + std::to_string(i) + "]";
    if (!d.is_number_unsigned() || d.get<uint64_t>() == 0)
      return makeError(where + ": expected a positive integer");
    if (d.get<uint64_t>() > (uint64_t{1} << 40)) return makeError(where + ": size exceeds 2^40");
    shape.push_back(int64_t(d.get<uint64_t>()));
  }
  return shape;
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
BatchRequest::dimValueListArg(const char* name, bool wrapNegative) const {
  LAYOUT_TRY_ASSIGN(j, findArg(args, name));
  return asPairList(*j, argPath(name), wrapNegative);
}

BatchProcessor::BatchProcessor() {
  registerAlgebraOps(*this);
  registerTritonOps(*this);
  registerXegpuOps(*this);
  registerXegpuPropagateOp(*this);
  registerBlockLoadOps(*this);
  registerConversionOps(*this);
  registerBankOps(*this);
}

void BatchProcessor::registerOp(std::string name, BatchOp op) {
  ops_[std::move(name)] = std::move(op);
}

std::string BatchProcessor::processLine(std::string_view line) const {
  auto parsed = detail::parseJsonText(line);
  if (!parsed) return dump(errorLine(nullptr, "request: " + parsed.error().message));
  json request = std::move(*parsed);
  if (!request.is_object())
    return dump(errorLine(nullptr, "a request must be a JSON object with \"op\""));
  json id = request.contains("id") ? request["id"] : json(nullptr);
  try {
    auto op = request.find("op");
    if (op == request.end() || !op->is_string())
      return dump(errorLine(id, "request: missing string field \"op\""));
    auto it = ops_.find(op->get<std::string>());
    if (it == ops_.end())
      return dump(errorLine(id, "unknown op \"" + op->get<std::string>() + "\""));
    BatchRequest req;
    req.op = it->first;
    if (auto args = request.find("args"); args != request.end()) {
      if (!args->is_object()) return dump(errorLine(id, "request: \"args\" must be an object"));
      req.args = *args;
    }
    if (auto inputs = request.find("inputs"); inputs != request.end()) {
      if (!inputs->is_array()) return dump(errorLine(id, "request: \"inputs\" must be a list"));
      for (size_t i = 0; i < inputs->size(); ++i) {
        auto l = layoutFromJson((*inputs)[i]);
        if (!l)
          return dump(
              errorLine(id, req.op + ": inputs[" + std::to_string(i) + "]: " + l.error().message));
        req.inputs.push_back(std::move(*l));
      }
    }
    if (int(req.inputs.size()) != it->second.arity)
      return dump(errorLine(id, "op \"" + req.op + "\" takes " + std::to_string(it->second.arity) +
                                    " input layout(s), got " + std::to_string(req.inputs.size())));
    auto result = it->second.run(req);
    if (!result) {
      const std::string& msg = result.error().message;
      bool named = msg.rfind(req.op + ":", 0) == 0;
      return dump(errorLine(id, named ? msg : req.op + ": " + msg));
    }
    ordered_json out;
    out["id"] = id;
    out["result"] = std::move(*result);
    return dump(out);
  } catch (const std::exception& e) {
    // Allocation failures and library exceptions must not end the batch.
    return dump(errorLine(id, std::string("internal error: ") + e.what()));
  }
}

void BatchProcessor::run(std::istream& in, std::ostream& out) const {
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos)
      out << dump(errorLine(nullptr, "empty request line")) << '\n';
    else
      out << processLine(line) << '\n';
    out.flush();
  }
}

} // namespace layout
