// Command-line parsing for layoutctl: positionals, `--name value` / `--name=value` options and
// flags, and the exit-code conventions of interchange §3.
#pragma once

#include "layout/core/linear_layout.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace layoutctl {

// Exit statuses (interchange §3).
enum ExitCode : int {
  kOk = 0,
  kInvalidInput = 1, // understood, but invalid or a precondition fails
  kUsage = 2,
  kNoDevice = 3,
};

// Thrown inside the CLI only (caught in main) to leave with a status and a message.
struct CliExit {
  int code;
  std::string message;
};

// An option a subcommand takes: one name, and the other spellings that mean the same (older
// names kept working, triton-tensor-layout's -l).
struct Option {
  std::string name;                      // "element-bits": --element-bits
  std::vector<std::string> aliases = {}; // "elem-bits"
  bool flag = false;                     // takes no value
};

class Args {
public:
  // `options` take a value unless they are flags; each is also taken under its aliases. Anything
  // else starting with "--" is a usage error. --format is text or json, csv where `allowCsv`
  // and sarif where `allowSarif`.
  Args(const std::vector<std::string>& argv, const std::vector<Option>& options,
       bool allowCsv = false, bool allowSarif = false);

  const std::vector<std::string>& positionals() const { return positionals_; }
  // An option or flag by its name: given under that name, else under one of its aliases (the
  // first in declaration order). An alias names only itself.
  bool flag(const std::string& name) const { return flags_.count(given(name)) > 0; }
  std::optional<std::string> option(const std::string& name) const;
  bool help() const { return help_; }
  // The option or flag `name` as the user spelled it ("-l", "--layout"): messages name it so.
  // "--name" when it was not given.
  std::string spelling(const std::string& name) const;
  // The name (or alias) `name` was given under, without dashes ("elem-bits"); `name` when it was
  // not given.
  std::string given(const std::string& name) const;
  // --format text|json (default text).
  bool json() const;

private:
  std::vector<std::string> positionals_;
  std::map<std::string, std::string> options_; // by the name given under
  std::set<std::string> flags_;
  std::map<std::string, std::string> spellings_;
  std::map<std::string, std::vector<std::string>> aliases_;
  bool help_ = false;
};

// A layout argument: inline layout JSON, `@file` (or `@-` for stdin) holding JSON.
layout::LinearLayout readLayoutArg(const std::string& text, const std::string& what);

// The contents of `path` ("-": standard input), bounded by LAYOUT_MAX_INPUT_BYTES; directories
// and devices are refused (error: "<what>: '/dev/zero' is a character device, not a file").
std::string readFile(const std::string& path, const std::string& what);
// `@file` (`@-`: standard input) -> the file's text; anything else is the text itself.
std::string readTextArg(const std::string& text, const std::string& what);
// Writes `text` to `path`; a failed open or write (a full disk) is an error naming the file.
void writeTextFile(const std::string& path, const std::string& text, const std::string& what);
// "16x32", or triton-tensor-layout's "tensor<16x32xf16>". `option` names the option in messages:
// "shape" (as --shape) or a spelling ("-t", from Args::spelling).
std::vector<int64_t> parseShape(std::string text, const std::string& option);
// --NAME TARGET (layout/target/hardware_target.h: a built-in target's name or @file.json), or
// `fallback` when absent. An unknown name is a usage error (2), a broken file invalid input (1).
std::string targetOption(const Args& args, const std::string& name, const std::string& fallback);
// "TARGET" in usage lines: "pvc|bmg|arc|nvidia|cdna3|cdna4|@FILE".
std::string targetChoices();

// A positive decimal integer option value (usage error otherwise). `option`: as for parseShape.
uint64_t positiveCount(const std::string& text, const std::string& option);

// The value of `r`, or exit 1 with its message.
template <typename T> T orFail(layout::Expected<T> r) {
  if (!r) throw CliExit{kInvalidInput, r.error().message};
  return std::move(*r);
}

// "a,b,c" -> dim names.
std::vector<layout::DimName> parseDimList(const std::string& text, const std::string& option);
// "a=4,b=8" -> dims with sizes.
std::vector<layout::DimSize> parseDimSizeList(const std::string& text, const std::string& option);

} // namespace layoutctl
