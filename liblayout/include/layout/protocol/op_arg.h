// One argument of a registered op, described once for both front ends: its batch key, what it
// holds, its default, and how the command line spells it. The registry checks every declared
// argument before the op runs, so `layoutctl batch` and the CLI subcommands bound to the op
// (layoutctl convert, blockload, banks, swizzle, propagate) apply one rule in the same words;
// only the name differs ("args.elemBits" in a batch response, "--element-bits" on a command line).
//
//   std::vector<layout::OpArg> args = {
//       layout::OpArg("src", layout::OpArgKind::Operand).needed(),
//       layout::OpArg("elemBits", layout::OpArgKind::ElementBits).needed().oneOf(kElementBits)
//           .spelled("element-bits").alsoSpelled("elem-bits"),
//       layout::OpArg("target", layout::OpArgKind::Target).defaultsTo("nvidia"),
//       layout::OpArg("transposedInMemory", layout::OpArgKind::Flag).spelled("transposed")};
//   // the CLI: --src, --element-bits (or --elem-bits), --target (value options) and
//   // --transposed (a flag)
#pragma once

#include "layout/core/expected.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace layout {

enum class OpArgKind {
  Any,         // the op reads and checks it itself
  String,      // text (the CLI also reads @file)
  Operand,     // encoding text or a layout JSON object (CLI: either as text, or @file)
  Shape,       // [64, 32] (CLI: 64x32 or tensor<64x32xf16>)
  Count,       // a non-negative integer
  Flag,        // true or false (CLI: a flag without a value)
  ElementBits, // one of the declared choices
  Target,      // a hardware target: a built-in name or @file.json
  Instruction, // a bank instruction: a built-in name or a model object (CLI: name, JSON, @file)
  Addresses,   // [[lane, byte], ...] (CLI: 0:0,1:144, the JSON, or @file)
  IntList,     // [1, 0] (CLI: 1,0 or 256x128)
};

// How errors name an argument: as the batch protocol ("args.elemBits") or as the command line
// ("--element-bits").
enum class ArgSpelling { Batch, CommandLine };

struct OpArg {
  OpArg(std::string key, OpArgKind k = OpArgKind::Any);
  OpArg(const char* key) : OpArg(std::string(key)) {}

  OpArg& needed();                        // missing is an error
  OpArg& defaultsTo(std::string cliText); // filled in (as the CLI would read it) when absent
  OpArg& spelled(std::string option);     // the CLI option, when not the kebab-case of the key
  // Another CLI spelling that means the same (an older name kept working): messages name the
  // option as it was given.
  OpArg& alsoSpelled(std::string option);
  OpArg& oneOf(std::span<const int> allowed);
  OpArg& asPositional(); // the CLI takes it as the one positional argument
  // A rule beyond the kind (a target with 2D block I/O): checked after the kind; the error gets
  // the argument's name in front.
  OpArg& satisfying(std::function<Expected<void>(const nlohmann::json&)> rule);
  OpArg& requiring(std::string other);     // given only together with `other`
  OpArg& excluding(std::string other);     // never together with `other`
  OpArg& within(uint64_t lo, uint64_t hi); // a Count in [lo, hi]

  std::string name;
  OpArgKind kind;
  bool mandatory = false;
  std::optional<std::string> defaultText;
  std::string cliOption;                    // "element-bits"
  std::vector<std::string> cliAliases = {}; // "elem-bits"
  std::vector<int> choices = {};
  bool positional = false;
  std::function<Expected<void>(const nlohmann::json&)> validator = {};
  std::vector<std::string> together = {};
  std::vector<std::string> apart = {};
  std::optional<std::pair<uint64_t, uint64_t>> range;
};

// "elemBits" -> "elem-bits".
std::string kebabCase(std::string_view camel);
// The argument as `spelling` names it: "args.elemBits" or "--element-bits" ("OP" when positional).
std::string argPath(const OpArg& arg, ArgSpelling spelling);

// Checks a present value against the argument's kind (and choices, and that a target exists).
// Integers count by value: 12 built as a signed JSON integer is the same as 12u.
Expected<void> checkOpArg(const OpArg& arg, const nlohmann::json& value, ArgSpelling spelling);
// The value with every non-negative integer stored unsigned, as parsed JSON text holds it.
nlohmann::json withUnsignedIntegers(nlohmann::json value);
// Kinds whose values hold integers (and are normalised by withUnsignedIntegers before checks).
bool holdsIntegers(OpArgKind kind);

// The JSON value of a command-line text (after @file was read, except for Target, whose @file
// is the target's own syntax). A Flag's text is "true".
Expected<nlohmann::json> opArgFromText(const OpArg& arg, std::string_view text,
                                       ArgSpelling spelling);

// Kinds whose values are data the user wrote (a layout, an instruction model, an address list):
// a bad one is invalid input, where a bad count, shape or choice is a usage error.
bool holdsData(OpArgKind kind);

// "--src: missing (encoding text or layout JSON)": the argument and what it takes.
Error missingOpArg(const OpArg& arg, ArgSpelling spelling);

} // namespace layout
