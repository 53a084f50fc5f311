// typedOp: registers an op whose result has a C++ type (protocol-internal; the templates need
// the full JSON header, which public headers keep out).
#pragma once

#include "layout/protocol/batch.h"

#include <nlohmann/json.hpp>

namespace layout {

// An op whose result has a C++ type, printed as JSON for the batch protocol and as text (and
// csv, where given) by the CLI subcommand bound to it:
//
//   p.registerOp("convert.plan", typedOp<conversion::ConversionPlan>(
//       summary, args, planFromRequest, conversion::conversionPlanToJson,
//       conversion::conversionPlanText));
template <typename T>
BatchOp typedOp(std::string summary, std::vector<OpArg> args,
                std::function<Expected<T>(const BatchRequest&)> compute,
                std::function<nlohmann::ordered_json(const T&)> toJson,
                std::function<std::string(const T&)> toText,
                std::function<std::string(const T&)> toCsv = {}) {
  BatchOp op;
  op.summary = std::move(summary);
  op.args = std::move(args);
  op.run = [compute, toJson](const BatchRequest& r) -> Expected<nlohmann::ordered_json> {
    auto value = compute(r);
    if (!value) return value.error();
    return toJson(*value);
  };
  op.render = [compute, toJson, toText, toCsv](const BatchRequest& r,
                                               OutputFormat format) -> Expected<std::string> {
    auto value = compute(r);
    if (!value) return value.error();
    if (format == OutputFormat::Json) return toJson(*value).dump() + "\n";
    if (format == OutputFormat::Csv && toCsv) return toCsv(*value);
    return toText(*value);
  };
  return op;
}

} // namespace layout
