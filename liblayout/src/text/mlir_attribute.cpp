#include "layout/text/mlir_attribute.h"

#include "layout/core/resource_limits.h"
#include "layout/text/internal/quoted_input.h"

#include "text_cursor.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <optional>

namespace layout {

const AttrValue* AttrValue::find(std::string_view key) const {
  for (const auto& [k, v] : entries)
    if (k == key) return &v;
  return nullptr;
}

const char* kindName(AttrValue::Kind kind) {
  switch (kind) {
  case AttrValue::Kind::Integer:
    return "an integer";
  case AttrValue::Kind::Boolean:
    return "a boolean";
  case AttrValue::Kind::String:
    return "a string";
  case AttrValue::Kind::Keyword:
    return "a keyword";
  case AttrValue::Kind::List:
    return "a list";
  case AttrValue::Kind::Dict:
    return "a dictionary";
  case AttrValue::Kind::Padding:
    return "an interval:+pad pair";
  case AttrValue::Kind::Attribute:
    return "an attribute";
  }
  return "a value";
}

namespace {

// Recursive descent over the attribute grammar. Nesting is bounded so that hostile input cannot
// exhaust the stack.
class AttrParser {
public:
  // `values` counts the values made, alias expansions included, against maxAttrValues; an alias
  // file shares one count over all its definitions.
  AttrParser(std::string_view text, const AttrAliases& aliases, SourceLocation start,
             uint64_t& values)
      : text_(text), aliases_(aliases), values_(values),
        maxValues_(resourceLimits().maxAttrValues), cur_{0, start.line, start.column} {}

  Expected<AttrValue> parseWhole() {
    skipSpace();
    auto v = parseAttributeValue();
    if (!v) return v;
    skipSpace();
    if (cur_.pos < text_.size())
      return fail("unexpected " + describeNext() + " after the attribute");
    return v;
  }

  size_t position() const { return cur_.pos; }
  SourceLocation location() const { return {cur_.line, cur_.column}; }

  Expected<AttrValue> parseAttributeValue() {
    if (peek() != '#')
      return fail("expected an attribute starting with '#', got " + describeNext());
    return parseValue(0);
  }

private:
  static constexpr int kMaxDepth = 200;

  char peek() const { return cur_.pos < text_.size() ? text_[cur_.pos] : '\0'; }
  void advance() { cur_.advance(text_); }
  void skipSpace() {
    while (cur_.pos < text_.size()) {
      char c = text_[cur_.pos];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        advance();
      } else if (c == '/' && cur_.pos + 1 < text_.size() && text_[cur_.pos + 1] == '/') {
        while (cur_.pos < text_.size() && text_[cur_.pos] != '\n') advance();
      } else {
        break;
      }
    }
  }
  std::string describeNext() const {
    if (cur_.pos >= text_.size()) return "the end of the text";
    unsigned char c = static_cast<unsigned char>(text_[cur_.pos]);
    if (std::isprint(c)) return std::string("'") + char(c) + "'";
    return "byte " + std::to_string(int(c));
  }
  Error fail(const std::string& message) const {
    return makeErrorAt({cur_.line, cur_.column}, message);
  }
  static bool isIdentStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
  }
  static bool isIdentChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
  }
  std::string identifier() {
    std::string s;
    while (cur_.pos < text_.size() && isIdentChar(text_[cur_.pos])) {
      s += text_[cur_.pos];
      advance();
    }
    return s;
  }
  bool consume(char c) {
    skipSpace();
    if (peek() != c) return false;
    advance();
    return true;
  }

  // Counts `n` more values; false past the limit.
  bool spend(uint64_t n) {
    values_ += n;
    return values_ <= maxValues_;
  }
  Error overBudget() const {
    return fail("the attribute text expands to more than " + describeLimit(maxValues_) +
                " values (aliases included; raise it with LAYOUT_MAX_ATTR_VALUES)");
  }

  // The number of values in `v` (stopping once past `cap`) and its nesting depth.
  static void measure(const AttrValue& v, int depth, uint64_t cap, uint64_t& count, int& maxDepth) {
    if (++count > cap) return;
    maxDepth = std::max(maxDepth, depth);
    for (const AttrValue& item : v.items) measure(item, depth + 1, cap, count, maxDepth);
    for (const AttrEntry& e : v.entries) measure(e.value, depth + 1, cap, count, maxDepth);
  }

  Expected<AttrValue> parseValue(int depth) {
    if (depth > kMaxDepth) return fail("attribute nested more than 200 levels deep");
    if (!spend(1)) return overBudget();
    skipSpace();
    AttrValue v;
    v.location = location();
    char c = peek();
    if (c == '#') return parseAttribute(depth);
    if (c == '[') return parseList(depth);
    if (c == '{') {
      v.kind = AttrValue::Kind::Dict;
      if (auto err = parseEntries(v.entries, '}', depth); !err) return err.error();
      return v;
    }
    if (c == '"') return parseString();
    if (c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c))) return parseNumber();
    if (isIdentStart(c)) {
      std::string word = identifier();
      if (word == "array" && peek() == '<') return parseDenseArray(depth);
      if (word == "true" || word == "false") {
        v.kind = AttrValue::Kind::Boolean;
        v.boolean = word == "true";
      } else {
        v.kind = AttrValue::Kind::Keyword;
        v.text = word;
      }
      return v;
    }
    return fail("expected a value (integer, list, dictionary, string, keyword or attribute), got " +
                describeNext());
  }

  Expected<int64_t> parseInteger() {
    skipSpace();
    bool negative = false;
    if (peek() == '-' || peek() == '+') {
      negative = peek() == '-';
      advance();
    }
    if (!std::isdigit(static_cast<unsigned char>(peek())))
      return fail("expected digits, got " + describeNext());
    uint64_t magnitude = 0;
    const uint64_t limit = uint64_t(std::numeric_limits<int64_t>::max()) + (negative ? 1 : 0);
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      uint64_t digit = uint64_t(peek() - '0');
      if (magnitude > (limit - digit) / 10) return fail("integer does not fit in 64 bits");
      magnitude = magnitude * 10 + digit;
      advance();
    }
    if (std::isalpha(static_cast<unsigned char>(peek())) || peek() == '.')
      return fail("expected an integer, got " + describeNext() + " inside a number");
    return negative ? int64_t(0 - magnitude) : int64_t(magnitude);
  }

  Expected<AttrValue> parseNumber() {
    AttrValue v;
    v.location = location();
    auto n = parseInteger();
    if (!n) return n.error();
    v.integer = *n;
    // `interval:+pad` (padded_shared) or `value : type` (a typed integer).
    const detail::TextCursor save = cur_;
    skipSpace();
    if (peek() == ':') {
      advance();
      skipSpace();
      if (peek() == '+') {
        auto pad = parseInteger();
        if (!pad) return pad.error();
        v.kind = AttrValue::Kind::Padding;
        v.padding = *pad;
        return v;
      }
      if (!isIdentStart(peek()))
        return fail("expected a type or '+pad' after ':', got " + describeNext());
      identifier(); // the integer's type, e.g. i32: not needed
      return v;
    }
    cur_ = save;
    return v;
  }

  Expected<AttrValue> parseString() {
    AttrValue v;
    v.location = location();
    v.kind = AttrValue::Kind::String;
    advance(); // opening quote
    while (peek() != '"') {
      if (cur_.pos >= text_.size() || peek() == '\n') return fail("unterminated string");
      if (peek() == '\\') {
        advance();
        if (cur_.pos >= text_.size()) return fail("unterminated string");
      }
      v.text += peek();
      advance();
    }
    advance();
    return v;
  }

  Expected<AttrValue> parseList(int depth) {
    AttrValue v;
    v.location = location();
    v.kind = AttrValue::Kind::List;
    advance(); // [
    if (consume(']')) return v;
    while (true) {
      auto item = parseValue(depth + 1);
      if (!item) return item;
      v.items.push_back(std::move(*item));
      if (consume(']')) return v;
      if (!consume(',')) return fail("expected ',' or ']' in a list, got " + describeNext());
    }
  }

  // The bit width of a dense array's integer element type (`i32`, `si8`, `ui64`), else 0.
  static int denseIntegerBits(std::string_view type) {
    if (type.starts_with("si") || type.starts_with("ui"))
      type.remove_prefix(2);
    else if (type.starts_with("i"))
      type.remove_prefix(1);
    else
      return 0;
    if (type.empty() || type.size() > 2 || type[0] == '0' ||
        !std::all_of(type.begin(), type.end(),
                     [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }))
      return 0;
    const int bits = std::stoi(std::string(type));
    return bits <= 64 ? bits : 0;
  }

  // The values an element may take: siN [-2^(N-1), 2^(N-1) - 1], uiN [0, 2^N - 1], signless iN
  // either, as MLIR reads them (64-bit bounds are those of the int64 read).
  static std::pair<int64_t, int64_t> denseRange(std::string_view type, int bits) {
    const int64_t max = std::numeric_limits<int64_t>::max();
    const int64_t signedMax = bits == 64 ? max : (int64_t{1} << (bits - 1)) - 1;
    const int64_t unsignedMax = bits >= 63 ? max : (int64_t{1} << bits) - 1;
    if (type[0] == 's') return {-signedMax - 1, signedMax};
    if (type[0] == 'u') return {0, unsignedMax};
    return {-signedMax - 1, unsignedMax};
  }

  // `array<i32: 1, 0>` or `array<i64>` (an MLIR dense array, as ops print their `order`,
  // `boundaryCheck` or `transpose`): a List of Integers (Booleans for i1) like `[1, 0]`, with the
  // element type in `text`. The cursor is on the '<' after `array`.
  Expected<AttrValue> parseDenseArray(int depth) {
    AttrValue v;
    v.location = location();
    v.kind = AttrValue::Kind::List;
    advance(); // <
    skipSpace();
    if (!isIdentStart(peek()))
      return fail("expected the element type of a dense array (i32, i64, ...), got " +
                  describeNext());
    const SourceLocation typeAt = location();
    v.text = identifier();
    const int bits = denseIntegerBits(v.text);
    if (bits == 0)
      return makeErrorAt(typeAt, "dense array element type " + detail::quoteInput(v.text) +
                                     " is not read (only integer types up to 64 bits: i1 to i64)");
    const std::string what = "dense array " + detail::quoteInput("array<" + v.text + ": ...>");
    if (consume('>')) return v;
    if (!consume(':'))
      return fail("expected ':' or '>' after the element type of the " + what + ", got " +
                  describeNext());
    if (depth + 1 > kMaxDepth) return fail("attribute nested more than 200 levels deep");
    while (true) {
      if (!spend(1)) return overBudget();
      skipSpace();
      AttrValue item;
      item.location = location();
      const char c = peek();
      if (bits == 1 && isIdentStart(c)) {
        const std::string word = identifier();
        if (word != "true" && word != "false")
          return makeErrorAt(item.location, "expected true or false in the " + what + ", got " +
                                                detail::quoteInput(word));
        item.kind = AttrValue::Kind::Boolean;
        item.boolean = word == "true";
      } else if (c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c))) {
        auto n = parseInteger();
        if (!n) return n.error();
        const auto [low, high] = denseRange(v.text, bits);
        if (*n < low || *n > high)
          return makeErrorAt(item.location,
                             std::to_string(*n) + " does not fit in " + v.text + " in the " + what);
        item.integer = *n;
      } else {
        return fail("expected an integer in the " + what + ", got " + describeNext());
      }
      v.items.push_back(std::move(item));
      if (consume('>')) return v;
      if (!consume(','))
        return fail("expected ',' or '>' in the " + what + ", got " + describeNext());
    }
  }

  // `key = value, ...` up to `close` (the opening character is at the cursor when close is '}').
  Expected<void> parseEntries(std::vector<AttrEntry>& entries, char close, int depth) {
    advance(); // {
    if (consume(close)) return {};
    while (true) {
      skipSpace();
      if (!isIdentStart(peek())) return fail("expected a parameter name, got " + describeNext());
      std::string key = identifier();
      for (const auto& [k, unused] : entries)
        if (k == key) return fail("parameter " + detail::quoteInput(key) + " is given twice");
      if (!consume('='))
        return fail("expected '=' after " + detail::quoteInput(key) + ", got " + describeNext());
      auto value = parseValue(depth + 1);
      if (!value) return value.error();
      entries.push_back({key, std::move(*value)});
      if (consume(close)) return {};
      if (!consume(','))
        return fail(std::string("expected ',' or '") + close + "' after parameter " +
                    detail::quoteInput(key) + ", got " + describeNext());
    }
  }

  Expected<AttrValue> parseAttribute(int depth) {
    AttrValue v;
    v.location = location();
    v.kind = AttrValue::Kind::Attribute;
    advance(); // #
    if (!isIdentStart(peek()))
      return fail("expected an attribute name after '#', got " + describeNext());
    std::string name = identifier();
    while (peek() == '.') {
      advance();
      if (!isIdentStart(peek()))
        return fail("expected a name after '.' in " + detail::quoteInput("#" + name + ".") +
                    ", got " + describeNext());
      name += "." + identifier();
    }
    v.text = name;
    if (peek() != '<') {
      if (name.find('.') != std::string::npos) return v; // a parameterless dialect attribute
      auto it = aliases_.find(name);
      if (it == aliases_.end())
        return makeErrorAt(v.location, "unknown attribute alias " + detail::quoteInput("#" + name) +
                                           " (define it earlier with " +
                                           detail::quoteInput("#" + name + " = ...") + ")");
      // An alias stands for a copy of its definition: bound the copy's size and depth before
      // making it (41 aliases that each use the previous one twice would expand to 2^41 values).
      uint64_t count = 0;
      int aliasDepth = 0;
      measure(it->second, 0, maxValues_, count, aliasDepth);
      if (!spend(count - 1)) return overBudget();
      if (depth + aliasDepth > kMaxDepth)
        return fail("attribute nested more than 200 levels deep once alias " +
                    detail::quoteInput("#" + name) + " is expanded");
      AttrValue resolved = it->second;
      resolved.location = v.location;
      return resolved;
    }
    advance(); // <
    if (consume('>')) return v;
    while (true) {
      skipSpace();
      if (peek() == '{') {
        // `<{k = v, ...}>`, possibly after positional values (padded_shared).
        if (!v.entries.empty())
          return fail("a '{...}' dictionary must come before the named parameters of " +
                      detail::quoteInput("#" + name));
        if (auto err = parseEntries(v.entries, '}', depth); !err) return err.error();
        v.bracedEntries = v.entries.size();
      } else if (isIdentStart(peek()) && nextNonSpaceAfterIdentIs('=')) {
        std::string key = identifier();
        for (const auto& [k, unused] : v.entries)
          if (k == key) return fail("parameter " + detail::quoteInput(key) + " is given twice");
        consume('=');
        auto value = parseValue(depth + 1);
        if (!value) return value;
        v.entries.push_back({key, std::move(*value)});
      } else {
        auto value = parseValue(depth + 1);
        if (!value) return value;
        v.items.push_back(std::move(*value));
      }
      if (consume('>')) return v;
      skipSpace();
      if (peek() == '{') continue; // `<[2:+2] {...}>`: a dictionary follows without a comma
      if (!consume(','))
        return fail("expected ',' or '>' in the parameters of " + detail::quoteInput("#" + name) +
                    ", got " + describeNext());
    }
  }

  bool nextNonSpaceAfterIdentIs(char c) const {
    size_t p = cur_.pos;
    while (p < text_.size() && isIdentChar(text_[p])) ++p;
    while (p < text_.size() &&
           (text_[p] == ' ' || text_[p] == '\t' || text_[p] == '\n' || text_[p] == '\r'))
      ++p;
    return p < text_.size() && text_[p] == c;
  }

  std::string_view text_;
  const AttrAliases& aliases_;
  uint64_t& values_;
  uint64_t maxValues_;
  detail::TextCursor cur_;
};

void printValue(const AttrValue& v, std::string& out);

void printEntries(const std::vector<AttrEntry>& entries, std::string& out) {
  for (size_t i = 0; i < entries.size(); ++i) {
    out += (i ? ", " : "") + entries[i].key + " = ";
    printValue(entries[i].value, out);
  }
}

void printValue(const AttrValue& v, std::string& out) {
  switch (v.kind) {
  case AttrValue::Kind::Integer:
    out += std::to_string(v.integer);
    return;
  case AttrValue::Kind::Boolean:
    out += v.boolean ? "true" : "false";
    return;
  case AttrValue::Kind::String:
    out += "\"" + v.text + "\"";
    return;
  case AttrValue::Kind::Keyword:
    out += v.text;
    return;
  case AttrValue::Kind::Padding:
    out += std::to_string(v.integer) + ":+" + std::to_string(v.padding);
    return;
  case AttrValue::Kind::List:
    if (!v.text.empty()) { // a dense array: `array<i32: 1, 0>`, `array<i64>`
      out += "array<" + v.text + (v.items.empty() ? "" : ": ");
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ", ";
        printValue(v.items[i], out);
      }
      out += ">";
      return;
    }
    out += "[";
    for (size_t i = 0; i < v.items.size(); ++i) {
      if (i) out += ", ";
      printValue(v.items[i], out);
    }
    out += "]";
    return;
  case AttrValue::Kind::Dict:
    out += "{";
    printEntries(v.entries, out);
    out += "}";
    return;
  case AttrValue::Kind::Attribute:
    out += "#" + v.text;
    if (v.items.empty() && v.entries.empty()) {
      if (v.text.find('.') != std::string::npos) return;
      out += "<>";
      return;
    }
    out += "<";
    for (size_t i = 0; i < v.items.size(); ++i) {
      if (i) out += ", ";
      printValue(v.items[i], out);
    }
    const std::vector<AttrEntry> braced(v.entries.begin(), v.entries.begin() + v.bracedEntries),
        named(v.entries.begin() + v.bracedEntries, v.entries.end());
    if (!braced.empty()) {
      out += v.items.empty() ? "{" : " {";
      printEntries(braced, out);
      out += "}";
    }
    if (!named.empty()) {
      if (!v.items.empty() || !braced.empty()) out += ", ";
      printEntries(named, out);
    }
    out += ">";
    return;
  }
}

} // namespace

Expected<AttrValue> parseAttribute(std::string_view text, const AttrAliases& aliases) {
  uint64_t values = 0;
  return AttrParser(text, aliases, {1, 1}, values).parseWhole();
}

Expected<std::vector<AliasDefinition>> parseAliasFile(std::string_view text) {
  std::vector<AliasDefinition> defs;
  AttrAliases aliases;
  // Where each alias is defined (line, column of its '#'): MLIR refuses a second definition.
  std::map<std::string, std::pair<int, int>, std::less<>> definedAt;
  uint64_t values = 0; // over the whole file: each definition is kept
  size_t pos = 0;
  int line = 1;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view row = text.substr(pos, end - pos);
    size_t first = row.find_first_not_of(" \t\r");
    // `#name = ...` where name has no '.': an alias definition.
    if (first != std::string_view::npos && row[first] == '#') {
      size_t eq = row.find('=', first);
      std::string_view name =
          eq == std::string_view::npos ? std::string_view() : row.substr(first + 1, eq - first - 1);
      while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
      bool isAlias = !name.empty() && name.find_first_of(".<> \t") == std::string_view::npos;
      if (isAlias) {
        const int column = int(first) + 1;
        if (auto it = definedAt.find(name); it != definedAt.end())
          return makeError("line " + std::to_string(line) + ", column " + std::to_string(column) +
                           ": redefinition of alias " +
                           detail::quoteInput("#" + std::string(name)) +
                           " (first defined at line " + std::to_string(it->second.first) +
                           ", column " + std::to_string(it->second.second) + ")");
        definedAt.emplace(std::string(name), std::make_pair(line, column));
        // The definition may span lines: parse from after '=' to the end of the attribute.
        const size_t defStart = pos + eq + 1;
        std::string_view rest = text.substr(defStart);
        size_t lead = rest.find_first_not_of(" \t");
        if (lead == std::string_view::npos || rest[lead] != '#')
          return makeError("line " + std::to_string(line) + ": alias " +
                           detail::quoteInput("#" + std::string(name)) +
                           " must be defined as an attribute starting with '#'");
        AttrParser p(rest.substr(lead), aliases, {line, int(eq + 2 + lead)}, values);
        auto value = p.parseAttributeValue();
        if (!value) return value.error();
        std::string definition(rest.substr(lead, p.position()));
        aliases[std::string(name)] = *value;
        defs.push_back({std::string(name), definition, std::move(*value)});
        // Continue on the line after the definition's last line.
        const size_t consumed = defStart + lead + p.position();
        end = text.find('\n', consumed);
        if (end == std::string_view::npos) end = text.size();
        for (size_t i = pos; i < end; ++i) line += text[i] == '\n';
      }
    }
    pos = end + 1;
    ++line;
  }
  return defs;
}

std::string printAttrValue(const AttrValue& value) {
  std::string out;
  printValue(value, out);
  return out;
}

} // namespace layout
