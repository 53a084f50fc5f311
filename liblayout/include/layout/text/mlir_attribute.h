// MLIR attribute text, as the TritonGPU, Triton Intel and XeGPU dialects print their layouts:
//
//   #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1],
//                 order = [1, 0]}>
//   #ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, ...}>, kWidth = 2}>
//   #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], lane_layout = [1, 16]>
//   #xegpu.slice<#layout_a, dims = [1]>
//   #ttg.padded_shared<[2:+1, 4:+2] {order = [1, 0], shape = [16, 32]}>
//
// Values inside may also be MLIR dense arrays (`order = array<i32: 1, 0>`, as ops print some
// attributes): they read as lists of integers, like `[1, 0]`.
//
// parseAttribute turns such text into a small tree; the encodings read their parameters from it.
// Errors carry the line and column and say what was expected:
//
//   auto attr = layout::parseAttribute("#ttg.blocked<{order = [1, 0}>");
//   // error: "line 1, column 28: expected ',' or ']' in a list, got '}'"
//
// Files of aliases (`#blocked = #ttg.blocked<{...}>`, one per line, later lines may use earlier
// aliases) are read with parseAliasFile.
#pragma once

#include "layout/core/expected.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace layout {

struct AttrEntry;

// One value of attribute text.
struct AttrValue {
  enum class Kind {
    Integer,   // 4, -1, 2 : i32 (the type is dropped)
    Boolean,   // true, false
    String,    // "text"
    Keyword,   // a bare identifier: slm, cached, fp16
    List,      // [a, b, ...]; a dense array array<i32: a, b> (i1: Booleans), array<i64>
    Dict,      // {key = value, ...}
    Padding,   // interval:+pad, as in #ttg.padded_shared<[2:+2]>
    Attribute, // #dialect.name<...> (an alias reference is replaced by its definition)
  };

  Kind kind = Kind::Integer;
  SourceLocation location;
  int64_t integer = 0;  // Integer; Padding: the interval
  int64_t padding = 0;  // Padding: the pad
  bool boolean = false; // Boolean
  std::string text;     // String, Keyword; Attribute: the name without '#', e.g. "ttg.blocked";
                        // List: a dense array's element type ("i32"), "" for [...]
  std::vector<AttrValue> items;   // List; Attribute: positional params
  std::vector<AttrEntry> entries; // Dict; Attribute: named params
  size_t bracedEntries = 0;       // Attribute: how many leading `entries` were written as `<{...}>`

  // Named parameter or dict entry, or nullptr.
  const AttrValue* find(std::string_view key) const;
};

// A named parameter or dictionary entry.
struct AttrEntry {
  std::string key;
  AttrValue value;
};

// "integer", "list", ... for messages.
const char* kindName(AttrValue::Kind kind);

// Known aliases: name without '#' -> definition.
using AttrAliases = std::map<std::string, AttrValue, std::less<>>;

// Parses one attribute (surrounding whitespace allowed, nothing else). Alias references are
// resolved in `aliases`.
Expected<AttrValue> parseAttribute(std::string_view text, const AttrAliases& aliases = {});

// A file of alias definitions, in file order.
struct AliasDefinition {
  std::string name;       // without '#'
  std::string definition; // the attribute text as written
  AttrValue value;
};
// Reads every line of the form `#name = <attribute>` (continuing over lines while brackets are
// open); other lines (comments, IR) are skipped. Errors give the line and column in the file.
Expected<std::vector<AliasDefinition>> parseAliasFile(std::string_view text);

// Canonical text of a value (MLIR spacing: `key = value`, `, ` separators).
std::string printAttrValue(const AttrValue& value);

} // namespace layout
