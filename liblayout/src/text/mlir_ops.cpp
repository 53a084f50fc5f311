#include "layout/text/mlir_ops.h"

#include "layout/core/resource_limits.h"
#include "layout/text/file_io.h"
#include "layout/text/internal/quoted_input.h"

#include "text_cursor.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <limits>
#include <optional>
#include <utility>

namespace layout {

std::string MlirType::printedEncoding() const {
  return encoding ? printAttrValue(*encoding) : encodingText;
}

const MlirNamedAttr* MlirOp::attribute(std::string_view key) const {
  for (const MlirNamedAttr& a : attributes)
    if (a.name == key) return &a;
  return nullptr;
}

namespace {

constexpr size_t kMaxNotes = 200;

bool isIdStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}
// Value and block names also take '-' (MLIR's suffix-id).
bool isSuffixChar(char c) {
  return isIdChar(c) || c == '-';
}
bool isDigit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The content of a string literal (quotes included in `s`), escapes decoded.
std::string unquote(std::string_view s) {
  std::string out;
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] != '\\' || i + 2 >= s.size()) {
      out += s[i];
      continue;
    }
    char e = s[++i];
    if (e == 'n')
      out += '\n';
    else if (e == 't')
      out += '\t';
    else if (std::isxdigit(static_cast<unsigned char>(e)) && i + 2 < s.size() &&
             std::isxdigit(static_cast<unsigned char>(s[i + 1]))) {
      out += char(std::stoi(std::string(s.substr(i, 2)), nullptr, 16));
      ++i;
    } else
      out += e;
  }
  return out;
}

// `s` split at the commas outside brackets and strings (`->` is no bracket). The text was
// checked balanced when it was read, so this only counts.
std::vector<std::string_view> splitTopLevel(std::string_view s) {
  std::vector<std::string_view> parts;
  size_t depth = 0, start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i)
        if (s[i] == '\\') ++i;
    } else if (c == '-' && i + 1 < s.size() && s[i + 1] == '>') {
      ++i;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      ++depth;
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0) {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  parts.push_back(trim(s.substr(start)));
  return parts;
}

std::string describeChar(char c) {
  if (std::isprint(static_cast<unsigned char>(c))) return std::string("'") + c + "'";
  return "byte " + std::to_string(int(static_cast<unsigned char>(c)));
}

// ---------------------------------------------------------------------------------------------
// Tokens. Types and attributes are single tokens: a word with its `<...>` (tensor<...>,
// #ttg.blocked<{...}>, dense<...>), so that op-level structure is only punctuation and names.

enum class Tok {
  End,
  Value,    // %4, %7#1
  Block,    // ^bb0
  Symbol,   // @name, @"name"
  String,   // "text"
  Word,     // bare words, numbers, #attr and !type words with their <...>
  Angle,    // <...> after no word (Triton's memdesc printed without "!ttg.memdesc")
  Props,    // <{...}>
  Dict,     // {key = value, ...}
  Loc,      // loc(...)
  Resource, // {-# ... #-}
  Punct,    // ( ) [ ] { } , : = * -> and any other single character
  Region,   // a whole region of an op (recorded when it closes)
};

struct Token {
  Tok kind = Tok::End;
  size_t begin = 0, end = 0;
  int line = 1, column = 1;
  bool newlineBefore = false;
};

struct Opener {
  char close;
  int line, column;
  bool region = false;
};

class Lexer {
public:
  Lexer(std::string_view text, uint64_t maxNesting) : text_(text), maxNesting_(maxNesting) {}

  std::string_view text(const Token& t) const { return text_.substr(t.begin, t.end - t.begin); }
  bool is(const Token& t, std::string_view punct) const {
    return t.kind == Tok::Punct && text(t) == punct;
  }

  Expected<Token> next() {
    if (peeked_) {
      Token t = *peeked_;
      peeked_.reset();
      return t;
    }
    return lex();
  }
  Expected<Token> peek() {
    if (!peeked_) {
      auto t = lex();
      if (!t) return t;
      peeked_ = *t;
    }
    return *peeked_;
  }
  // Whether a `// -----` line (mlir-opt's split marker) was passed since the last call.
  bool takeSplitMarker() { return std::exchange(split_, false); }

private:
  char at(size_t i) const { return i < text_.size() ? text_[i] : '\0'; }
  void advance() { cur_.advance(text_); }
  Error failAt(int line, int column, const std::string& message) const {
    return makeErrorAt({line, column}, message);
  }
  Error nestingError() const {
    return failAt(cur_.line, cur_.column,
                  "brackets nested more than " + describeLimit(maxNesting_) +
                      " deep (raise it with LAYOUT_MAX_MLIR_NESTING)");
  }

  // Skips spaces and comments; true when a line break was passed.
  bool skipTrivia() {
    bool newline = false;
    while (cur_.pos < text_.size()) {
      char c = text_[cur_.pos];
      if (c == '\n') {
        newline = true;
        advance();
      } else if (c == ' ' || c == '\t' || c == '\r') {
        advance();
      } else if (c == '/' && at(cur_.pos + 1) == '/') {
        size_t end = text_.find('\n', cur_.pos);
        if (end == std::string_view::npos) end = text_.size();
        if (cur_.column == 1 && trim(text_.substr(cur_.pos + 2, end - cur_.pos - 2)) == "-----")
          split_ = true;
        cur_.skipWithinLine(end);
      } else {
        break;
      }
    }
    return newline;
  }

  Expected<void> scanString() {
    const int line = cur_.line, column = cur_.column;
    advance();
    while (true) {
      char c = at(cur_.pos);
      if (cur_.pos >= text_.size() || c == '\n')
        return failAt(line, column,
                      "unterminated string: expected '\"' before the end of the line");
      advance();
      if (c == '"') return {};
      if (c == '\\') {
        if (cur_.pos >= text_.size() || at(cur_.pos) == '\n')
          return failAt(line, column,
                        "unterminated string: expected '\"' before the end of the line");
        advance();
      }
    }
  }

  // From an opening bracket to its match, over nested brackets, strings and comments.
  Expected<void> scanGroup() {
    std::vector<Opener> stack;
    auto closer = [](char c) {
      return c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : c == '<' ? '>' : '\0';
    };
    do {
      char c = at(cur_.pos);
      if (cur_.pos >= text_.size()) {
        const Opener& o = stack.back();
        return failAt(cur_.line, cur_.column,
                      std::string("unexpected end of the text: expected '") + o.close +
                          "' to close the '" + openerOf(o.close) + "' at line " +
                          std::to_string(o.line) + ", column " + std::to_string(o.column));
      }
      if (c == '"') {
        LAYOUT_TRY(scanString());
        continue;
      }
      if (c == '/' && at(cur_.pos + 1) == '/') {
        skipTrivia();
        continue;
      }
      if (c == '-' && at(cur_.pos + 1) == '>') {
        advance();
        advance();
        continue;
      }
      if (char close = closer(c)) {
        if (stack.size() >= maxNesting_) return nestingError();
        stack.push_back({close, cur_.line, cur_.column});
      } else if (c == ')' || c == ']' || c == '}' || c == '>') {
        if (c != stack.back().close) {
          const Opener& o = stack.back();
          return failAt(cur_.line, cur_.column,
                        std::string("expected '") + o.close + "' to close the '" +
                            openerOf(o.close) + "' at line " + std::to_string(o.line) +
                            ", column " + std::to_string(o.column) + ", got '" + c + "'");
        }
        stack.pop_back();
      }
      advance();
    } while (!stack.empty());
    return {};
  }

  static char openerOf(char close) {
    return close == ')' ? '(' : close == ']' ? '[' : close == '}' ? '{' : '<';
  }

  // After '{': an attribute dictionary when the same line goes on with `}`, or with a name and
  // then `=`, `,` or `}`; else a region (whose ops begin on the next line, or with %, ^, ").
  bool dictionaryAhead() const {
    size_t p = cur_.pos + 1;
    while (at(p) == ' ' || at(p) == '\t') ++p;
    if (at(p) == '}') return true;
    if (at(p) == '"') {
      for (++p; p < text_.size() && at(p) != '"' && at(p) != '\n'; ++p)
        if (at(p) == '\\') ++p;
      if (at(p) != '"') return false;
      ++p;
    } else if (isIdStart(at(p))) {
      while (isIdChar(at(p))) ++p;
    } else {
      return false;
    }
    while (at(p) == ' ' || at(p) == '\t') ++p;
    return at(p) == '=' || at(p) == ',' || at(p) == '}';
  }

  Expected<Token> lex() {
    Token t;
    t.newlineBefore = skipTrivia();
    t.begin = cur_.pos;
    t.line = cur_.line;
    t.column = cur_.column;
    if (cur_.pos >= text_.size()) {
      t.kind = Tok::End;
      t.end = cur_.pos;
      return t;
    }
    const char c = text_[cur_.pos];
    if (c == '"') {
      LAYOUT_TRY(scanString());
      t.kind = Tok::String;
    } else if (c == '%' || c == '^') {
      advance();
      if (!isSuffixChar(at(cur_.pos)))
        return failAt(t.line, t.column,
                      std::string("expected a name after '") + c + "', got " + describeNext());
      while (isSuffixChar(at(cur_.pos))) advance();
      if (c == '%' && at(cur_.pos) == '#' && isDigit(at(cur_.pos + 1))) {
        advance();
        while (isDigit(at(cur_.pos))) advance();
      }
      t.kind = c == '%' ? Tok::Value : Tok::Block;
    } else if (c == '@') {
      advance();
      if (at(cur_.pos) == '"') {
        LAYOUT_TRY(scanString());
      } else {
        while (isSuffixChar(at(cur_.pos))) advance();
      }
      t.kind = Tok::Symbol;
    } else if (c == '#' || c == '!' || isIdStart(c)) {
      advance();
      while (isIdChar(at(cur_.pos))) advance();
      t.kind = Tok::Word;
      if (text_.substr(t.begin, cur_.pos - t.begin) == "loc" && at(cur_.pos) == '(') {
        LAYOUT_TRY(scanGroup());
        t.kind = Tok::Loc;
      } else if (at(cur_.pos) == '<') {
        LAYOUT_TRY(scanGroup());
      }
    } else if (isDigit(c) || (c == '-' && isDigit(at(cur_.pos + 1)))) {
      advance();
      while (true) {
        char d = at(cur_.pos);
        char prev = text_[cur_.pos - 1];
        if (isIdChar(d) ||
            ((d == '+' || d == '-') && (prev == 'e' || prev == 'E') && isDigit(at(cur_.pos + 1)))) {
          advance();
        } else {
          break;
        }
      }
      t.kind = Tok::Word;
    } else if (c == '-' && at(cur_.pos + 1) == '>') {
      advance();
      advance();
      t.kind = Tok::Punct;
    } else if (c == '<') {
      t.kind = at(cur_.pos + 1) == '{' ? Tok::Props : Tok::Angle;
      LAYOUT_TRY(scanGroup());
    } else if (c == '{' && at(cur_.pos + 1) == '-' && at(cur_.pos + 2) == '#') {
      size_t end = text_.find("#-}", cur_.pos + 3);
      if (end == std::string_view::npos)
        return failAt(t.line, t.column,
                      "unexpected end of the text: expected '#-}' to close the '{-#' here");
      while (cur_.pos < end + 3) advance();
      t.kind = Tok::Resource;
    } else if (c == '{' && dictionaryAhead()) {
      LAYOUT_TRY(scanGroup());
      t.kind = Tok::Dict;
    } else {
      advance();
      t.kind = Tok::Punct;
    }
    t.end = cur_.pos;
    return t;
  }

  std::string describeNext() const {
    if (cur_.pos >= text_.size()) return "the end of the text";
    return describeChar(text_[cur_.pos]);
  }

  std::string_view text_;
  uint64_t maxNesting_;
  detail::TextCursor cur_;
  std::optional<Token> peeked_;
  bool split_ = false;
};

// ---------------------------------------------------------------------------------------------
// Locations.

struct Site {
  std::string file;
  int line = 0, column = 0;
  // The outermost call site with a file, when the loc is a callsite (the user's line).
  std::string callerFile;
  int callerLine = 0, callerColumn = 0;
};

// Resolves loc(...) bodies through the aliases of their part of the file. Each alias is resolved
// once (cycles resolve to unknown); nesting and alias hops are bounded, so hostile input cannot
// exhaust the stack.
class LocResolver {
public:
  static constexpr int kMaxDepth = 512;

  explicit LocResolver(const std::map<std::pair<int, std::string>, std::string>& aliases)
      : aliases_(aliases) {}

  std::optional<Site> resolve(std::string_view body, int chunk, int depth = 0) {
    if (depth > kMaxDepth) {
      tooDeep = true;
      return std::nullopt;
    }
    body = trim(body);
    if (body.empty()) return std::nullopt;
    if (body[0] == '#') {
      std::string name(body.substr(1));
      auto key = std::make_pair(chunk, name);
      if (auto m = memo_.find(key); m != memo_.end()) return m->second;
      auto a = aliases_.find(key);
      if (a == aliases_.end()) return std::nullopt;
      memo_[key] = std::nullopt; // in progress: a cycle resolves to unknown
      std::optional<Site> site = resolve(a->second, chunk, depth + 1);
      memo_[key] = site;
      return site;
    }
    if (body.starts_with("callsite(") && body.back() == ')') {
      std::string_view inner = body.substr(9, body.size() - 10);
      size_t split = findAt(inner);
      if (split == std::string_view::npos) return std::nullopt;
      std::optional<Site> caller = resolve(inner.substr(split + 4), chunk, depth + 1);
      std::optional<Site> callee = resolve(inner.substr(0, split), chunk, depth + 1);
      if (!callee) return caller;
      if (caller && callee->callerFile.empty()) {
        // The caller's own outermost caller, else the caller itself.
        const bool nested = !caller->callerFile.empty();
        callee->callerFile = nested ? caller->callerFile : caller->file;
        callee->callerLine = nested ? caller->callerLine : caller->line;
        callee->callerColumn = nested ? caller->callerColumn : caller->column;
      }
      return callee;
    }
    if (body.starts_with("fused")) {
      size_t open = body.find('[');
      // fused<metadata>[...]: the list is the last bracketed part.
      if (body.back() != ']' || open == std::string_view::npos) return std::nullopt;
      if (body[5] == '<') open = afterAngle(body, 5);
      if (open >= body.size() || body[open] != '[') return std::nullopt;
      for (std::string_view part : splitTopLevel(body.substr(open + 1, body.size() - open - 2)))
        if (auto site = resolve(part, chunk, depth + 1)) return site;
      return std::nullopt;
    }
    if (body[0] == '"') {
      size_t close = 1;
      for (; close < body.size() && body[close] != '"'; ++close)
        if (body[close] == '\\') ++close;
      if (close >= body.size()) return std::nullopt;
      std::string_view rest = trim(body.substr(close + 1));
      if (rest.starts_with("(") && rest.back() == ')')
        return resolve(rest.substr(1, rest.size() - 2), chunk, depth + 1); // a name of a loc
      if (!rest.starts_with(":")) return std::nullopt;                     // a bare name
      Site site;
      site.file = unquote(body.substr(0, close + 1));
      rest.remove_prefix(1);
      if (!readInt(rest, site.line)) return std::nullopt;
      if (rest.starts_with(":")) {
        rest.remove_prefix(1);
        if (!readInt(rest, site.column)) return std::nullopt;
      }
      return site;
    }
    return std::nullopt; // unknown, or a form this reader does not know
  }

  bool tooDeep = false;

private:
  // Where the ` at ` of callsite(a at b) is, outside brackets and strings.
  static size_t findAt(std::string_view s) {
    size_t depth = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (c == '"') {
        for (++i; i < s.size() && s[i] != '"'; ++i)
          if (s[i] == '\\') ++i;
      } else if (c == '(' || c == '[' || c == '<' || c == '{') {
        ++depth;
      } else if ((c == ')' || c == ']' || c == '>' || c == '}') && depth) {
        --depth;
      } else if (depth == 0 && c == ' ' && s.substr(i, 4) == " at ") {
        return i;
      }
    }
    return std::string_view::npos;
  }
  static size_t afterAngle(std::string_view s, size_t open) {
    size_t depth = 0;
    for (size_t i = open; i < s.size(); ++i) {
      if (s[i] == '"') {
        for (++i; i < s.size() && s[i] != '"'; ++i)
          if (s[i] == '\\') ++i;
      } else if (s[i] == '-' && i + 1 < s.size() && s[i + 1] == '>') {
        ++i;
      } else if (s[i] == '<') {
        ++depth;
      } else if (s[i] == '>' && --depth == 0) {
        return i + 1;
      }
    }
    return s.size();
  }
  static bool readInt(std::string_view& s, int& out) {
    size_t i = 0;
    int64_t v = 0;
    while (i < s.size() && isDigit(s[i])) {
      v = v * 10 + (s[i] - '0');
      if (v > INT_MAX) return false;
      ++i;
    }
    if (i == 0) return false;
    out = int(v);
    s.remove_prefix(i);
    return true;
  }

  const std::map<std::pair<int, std::string>, std::string>& aliases_;
  std::map<std::pair<int, std::string>, std::optional<Site>> memo_;
};

// ---------------------------------------------------------------------------------------------
// The reader.

struct OpBuild {
  size_t index; // into MlirModule::ops
  int chunk;    // the split-file part (for location aliases)
  Token nameToken;
  std::vector<Token> tokens;    // after the name; each region is one Region token
  std::vector<Opener> brackets; // open ( [ and regions
};

class Reader {
public:
  explicit Reader(std::string_view text)
      : text_(text), limits_(resourceLimits()), lex_(text, limits_.maxMlirNesting) {}

  Expected<MlirModule> run() {
    if (text_.size() > limits_.maxInputBytes)
      return makeError("the MLIR text has " + std::to_string(text_.size()) +
                       " bytes, more than the limit of " + describeBytes(limits_.maxInputBytes) +
                       " (raise it with LAYOUT_MAX_INPUT_BYTES)");
    while (true) {
      if (atRegionLevel()) {
        LAYOUT_TRY_ASSIGN(tok, lex_.next());
        if (lex_.takeSplitMarker() && stack_.empty()) newChunk();
        if (tok.kind == Tok::End) {
          if (stack_.empty()) break;
          const Opener& o = stack_.back().brackets.back();
          return failAt(tok, "unexpected end of the text: expected '}' to close the region of '" +
                                 module_.ops[stack_.back().index].name + "' opened at line " +
                                 std::to_string(o.line) + ", column " + std::to_string(o.column));
        }
        if (lex_.is(tok, "}")) {
          if (stack_.empty()) return failAt(tok, "unexpected '}': no region is open");
          OpBuild& b = stack_.back();
          b.brackets.pop_back();
          --regionDepth_;
          Token region = tok;
          region.kind = Tok::Region;
          b.tokens.push_back(region);
          continue;
        }
        if (tok.kind == Tok::Block) {
          LAYOUT_TRY(skipBlockLabel(tok));
          continue;
        }
        if (tok.kind == Tok::Resource) {
          note(tok.line, "a dialect resource section ({-# ... #-}) is skipped");
          continue;
        }
        if (stack_.empty() && tok.kind == Tok::Word) {
          std::string_view w = lex_.text(tok);
          LAYOUT_TRY_ASSIGN(after, lex_.peek());
          if ((w[0] == '#' || w[0] == '!') && w.find('<') == std::string_view::npos &&
              lex_.is(after, "=")) {
            LAYOUT_TRY(readAliasDefinition(tok));
            continue;
          }
        }
        LAYOUT_TRY(startOp(tok));
        continue;
      }
      // Inside an op.
      OpBuild& b = stack_.back();
      LAYOUT_TRY_ASSIGN(tok, lex_.peek());
      if (b.brackets.empty() && (tok.kind == Tok::End || lex_.is(tok, "}") ||
                                 (tok.newlineBefore && !continues(b, tok)))) {
        finishOp(b);
        stack_.pop_back();
        continue;
      }
      (void)lex_.next();
      if (tok.kind == Tok::End) {
        const Opener& o = b.brackets.back();
        return failAt(tok, std::string("unexpected end of the text: expected '") + o.close +
                               "' to close the '" + (o.close == ')' ? '(' : '[') + "' at line " +
                               std::to_string(o.line) + ", column " + std::to_string(o.column));
      }
      std::string_view p = tok.kind == Tok::Punct ? lex_.text(tok) : std::string_view();
      if (p == "(" || p == "[") {
        if (b.brackets.size() >= limits_.maxMlirNesting)
          return failAt(tok, "brackets nested more than " + describeLimit(limits_.maxMlirNesting) +
                                 " deep (raise it with LAYOUT_MAX_MLIR_NESTING)");
        b.brackets.push_back({p == "(" ? ')' : ']', tok.line, tok.column});
      } else if (p == ")" || p == "]" || p == "}" || p == ">") {
        if (b.brackets.empty())
          return failAt(tok, "unexpected '" + std::string(p) + "' in '" +
                                 module_.ops[b.index].name + "': no bracket is open");
        const Opener& o = b.brackets.back();
        if (p[0] != o.close)
          return failAt(tok, std::string("expected '") + o.close + "' to close the '" +
                                 (o.close == ')' ? '(' : '[') + "' at line " +
                                 std::to_string(o.line) + ", column " + std::to_string(o.column) +
                                 ", got '" + std::string(p) + "'");
        b.brackets.pop_back();
      } else if (p == "{") {
        if (uint64_t(regionDepth_) >= limits_.maxMlirNesting)
          return failAt(tok, "regions nested more than " + describeLimit(limits_.maxMlirNesting) +
                                 " deep (raise it with LAYOUT_MAX_MLIR_NESTING)");
        ++regionDepth_;
        b.brackets.push_back({'}', tok.line, tok.column, true});
        ++module_.ops[b.index].regions;
        continue; // the Region token is recorded when it closes
      }
      b.tokens.push_back(tok);
    }
    resolveLocations();
    return std::move(module_);
  }

private:
  bool atRegionLevel() const {
    return stack_.empty() ||
           (!stack_.back().brackets.empty() && stack_.back().brackets.back().region);
  }

  Error failAt(const Token& t, const std::string& message) const {
    return makeErrorAt({t.line, t.column}, message);
  }

  void note(int line, const std::string& message) {
    if (module_.notes.size() < kMaxNotes) {
      module_.notes.push_back("line " + std::to_string(line) + ": " + message);
    } else {
      ++notesLeftOut_;
    }
  }

  void newChunk() {
    ++chunk_;
    aliases_.clear();
    typeAliases_.clear();
    definedAt_.clear();
    valueCache_.clear();
    encodingCache_.clear();
  }

  // ^bb0(%a: f32 loc(...), ...):  or  ^bb1:
  Expected<void> skipBlockLabel(const Token& label) {
    LAYOUT_TRY_ASSIGN(tok, lex_.next());
    if (lex_.is(tok, "(")) {
      std::vector<Opener> open{{')', tok.line, tok.column}};
      while (!open.empty()) {
        LAYOUT_TRY_ASSIGN(t, lex_.next());
        if (t.kind == Tok::End)
          return failAt(t, "unexpected end of the text: expected ')' to close the arguments of '" +
                               std::string(lex_.text(label)) + "'");
        std::string_view p = t.kind == Tok::Punct ? lex_.text(t) : std::string_view();
        if (p == "(" || p == "[") {
          if (open.size() >= limits_.maxMlirNesting)
            return failAt(t, "brackets nested more than " + describeLimit(limits_.maxMlirNesting) +
                                 " deep (raise it with LAYOUT_MAX_MLIR_NESTING)");
          open.push_back({p == "(" ? ')' : ']', t.line, t.column});
        } else if (p == ")" || p == "]" || p == "{" || p == "}") {
          if (p[0] != open.back().close)
            return failAt(t, std::string("expected '") + open.back().close +
                                 "' in the arguments of '" + std::string(lex_.text(label)) +
                                 "', got '" + std::string(p) + "'");
          open.pop_back();
        }
      }
      LAYOUT_TRY_ASSIGN(colon, lex_.next());
      tok = colon;
    }
    if (!lex_.is(tok, ":"))
      return failAt(tok, "expected ':' after the block label '" + std::string(lex_.text(label)) +
                             "', got " + describe(tok));
    return {};
  }

  std::string describe(const Token& t) const {
    if (t.kind == Tok::End) return "the end of the text";
    return detail::quoteInput(lex_.text(t));
  }

  // #name = <attribute>, #loc3 = loc(...), !name = <type>.
  Expected<void> readAliasDefinition(const Token& nameTok) {
    const std::string_view word = lex_.text(nameTok);
    const std::string name(word.substr(1));
    (void)lex_.next(); // '='
    LAYOUT_TRY_ASSIGN(first, lex_.next());
    if (first.kind == Tok::End || first.newlineBefore)
      return failAt(first, "expected a definition after '" + std::string(word) + " =', got " +
                               (first.kind == Tok::End ? "the end of the text" : "a line break"));
    Token last = first;
    while (true) {
      LAYOUT_TRY_ASSIGN(t, lex_.peek());
      if (t.kind == Tok::End || t.newlineBefore) break;
      last = t;
      (void)lex_.next();
    }
    const std::string_view definition = text_.substr(first.begin, last.end - first.begin);
    if (name.empty() || name.find('.') != std::string::npos) {
      note(nameTok.line, "alias definition " + detail::quoteInput(word) + " is skipped");
      return {};
    }
    if (word[0] == '!') {
      typeAliases_[name] = std::string(definition);
      return {};
    }
    if (first.kind == Tok::Loc && first.end == last.end) {
      locAliases_[{chunk_, name}] = std::string(definition.substr(4, definition.size() - 5));
      return {};
    }
    if (auto it = definedAt_.find(name); it != definedAt_.end())
      return failAt(nameTok, "redefinition of alias " + detail::quoteInput("#" + name) +
                                 " (first defined at line " + std::to_string(it->second.line) +
                                 ", column " + std::to_string(it->second.column) + ")");
    definedAt_[name] = {nameTok.line, nameTok.column};
    auto value = parseAttribute(definition, aliases_);
    if (!value) {
      note(nameTok.line,
           "alias " + detail::quoteInput("#" + name) + " is not read: " + value.error().message);
      return {};
    }
    if (!spend(*value))
      return failAt(nameTok, "the aliases and attributes of the file expand to more than " +
                                 describeLimit(limits_.maxAttrValues) +
                                 " values (raise it with LAYOUT_MAX_ATTR_VALUES)");
    aliases_[name] = *value;
    module_.aliases.push_back({name, std::string(definition), std::move(*value)});
    return {};
  }

  // Counts the values of `v` against the file's budget; false once it is spent.
  bool spend(const AttrValue& v) {
    uint64_t count = 0;
    measure(v, count);
    valuesSpent_ += count;
    return valuesSpent_ <= limits_.maxAttrValues;
  }
  static void measure(const AttrValue& v, uint64_t& count) {
    ++count;
    for (const AttrValue& item : v.items) measure(item, count);
    for (const AttrEntry& e : v.entries) measure(e.value, count);
  }

  struct Cached {
    std::shared_ptr<const AttrValue> value;
    std::string error;
  };

  // An attribute text read once per distinct text (null when it is not attribute text
  // parseAttribute reads, or the file's value budget is spent).
  const Cached& cachedParse(std::map<std::string, Cached, std::less<>>& cache,
                            std::string_view text, bool wrapped, int line) {
    if (auto it = cache.find(text); it != cache.end()) return it->second;
    Cached c;
    if (budgetSpent_) {
      c.error = "the file's attribute value budget is spent";
    } else if (wrapped) {
      // Any value (dictionary, list, typed integer) as the positional parameter of a wrapper.
      auto v = parseAttribute("#mlir_ops.value<[" + std::string(text) + "]>", aliases_);
      if (v && v->items.size() == 1 && v->items[0].items.size() == 1) {
        c.value = std::make_shared<const AttrValue>(std::move(v->items[0].items[0]));
      } else {
        c.error = v ? "not one value" : v.error().message;
      }
    } else {
      auto v = parseAttribute(text, aliases_);
      if (v)
        c.value = std::make_shared<const AttrValue>(std::move(*v));
      else
        c.error = v.error().message;
    }
    if (c.value && !spend(*c.value)) {
      c.value.reset();
      c.error = "the file's attribute value budget is spent";
      budgetSpent_ = true;
      note(line, "the attributes read reach the limit of " + describeLimit(limits_.maxAttrValues) +
                     " values (raise it with LAYOUT_MAX_ATTR_VALUES); later attributes and "
                     "encodings are kept as text");
    }
    return cache.emplace(std::string(text), std::move(c)).first->second;
  }

  Expected<void> startOp(const Token& first) {
    if (module_.ops.size() >= limits_.maxMlirOps)
      return failAt(first, "the file has more than " + describeLimit(limits_.maxMlirOps) +
                               " operations (raise it with LAYOUT_MAX_MLIR_OPS)");
    MlirOp op;
    op.line = first.line;
    op.column = first.column;
    Token tok = first;
    if (tok.kind == Tok::Value) {
      while (true) {
        const std::string name(lex_.text(tok));
        if (name.find('#') != std::string::npos)
          return failAt(tok, "expected a result name, got " + describe(tok));
        LAYOUT_TRY_ASSIGN(t, lex_.next());
        uint64_t count = 1;
        bool pack = false;
        if (lex_.is(t, ":")) {
          LAYOUT_TRY_ASSIGN(n, lex_.next());
          std::string_view digits = lex_.text(n);
          if (n.kind != Tok::Word || digits.empty() || digits.size() > 18 ||
              !std::all_of(digits.begin(), digits.end(), [](char c) { return isDigit(c); }))
            return failAt(n, "expected the number of results after '" + name + ":', got " +
                                 describe(n));
          count = std::stoull(std::string(digits));
          pack = true;
          LAYOUT_TRY_ASSIGN(after, lex_.next());
          t = after;
        }
        valuesNamed_ += count;
        if (valuesNamed_ > limits_.maxMlirOps)
          return failAt(tok, "the file names more than " + describeLimit(limits_.maxMlirOps) +
                                 " results (raise it with LAYOUT_MAX_MLIR_OPS)");
        if (!pack) op.results.push_back(name);
        for (uint64_t i = 0; pack && i < count; ++i)
          op.results.push_back(name + "#" + std::to_string(i));
        if (lex_.is(t, "=")) break;
        if (!lex_.is(t, ","))
          return failAt(t, "expected ',' or '=' after the result " + detail::quoteInput(name) +
                               ", got " + describe(t));
        LAYOUT_TRY_ASSIGN(nextResult, lex_.next());
        if (nextResult.kind != Tok::Value)
          return failAt(nextResult,
                        "expected a result name after ',', got " + describe(nextResult));
        tok = nextResult;
      }
      LAYOUT_TRY_ASSIGN(nameTok, lex_.next());
      tok = nameTok;
    }
    if (tok.kind == Tok::String) {
      op.name = unquote(lex_.text(tok));
    } else if (tok.kind == Tok::Word && isIdStart(lex_.text(tok)[0]) &&
               lex_.text(tok).find('<') == std::string_view::npos) {
      op.name = std::string(lex_.text(tok));
    } else {
      return failAt(tok, "expected an operation name, got " + describe(tok));
    }
    op.depth = int(stack_.size());
    op.parent = stack_.empty() ? -1 : int(stack_.back().index);
    module_.ops.push_back(std::move(op));
    stack_.push_back({module_.ops.size() - 1, chunk_, tok, {}, {}});
    return {};
  }

  // Whether a token after a line break at bracket depth 0 goes on with the op: hand-written IR
  // puts `: type`, `-> type`, `{attrs}` or `dense<...>` on the next line; a new op starts with a
  // result, a quoted name, a dialect-qualified name, a block label, '}' or an alias.
  bool continues(const OpBuild& b, const Token& t) const {
    if (!b.tokens.empty()) {
      const Token& last = b.tokens.back();
      if (last.kind == Tok::Punct) {
        std::string_view p = lex_.text(last);
        if (p == "," || p == ":" || p == "->" || p == "=" || p == "*") return true;
      }
    }
    switch (t.kind) {
    case Tok::Value:
    case Tok::Block:
    case Tok::String:
    case Tok::Resource:
    case Tok::End:
    case Tok::Region:
      return false;
    case Tok::Punct:
      return lex_.text(t) != "}";
    case Tok::Word: {
      std::string_view w = lex_.text(t);
      if (w[0] == '#') return false;
      if (w[0] == '!' || isDigit(w[0]) || w[0] == '-') return true;
      if (w == "return" || w == "module" || w == "func") return false;
      size_t angle = w.find('<');
      return w.substr(0, angle).find('.') == std::string_view::npos;
    }
    default:
      return true;
    }
  }

  std::string_view span(const std::vector<Token>& t, size_t from, size_t to) const {
    if (from >= to) return {};
    return text_.substr(t[from].begin, t[to - 1].end - t[from].begin);
  }

  // Dictionary text `{k = v, "k2" = v2, unit}` into attributes.
  void readDictionary(std::string_view dict, int line, std::vector<MlirNamedAttr>& out) {
    std::string_view inner = trim(dict.substr(1, dict.size() - 2));
    if (inner.empty()) return;
    for (std::string_view entry : splitTopLevel(inner)) {
      MlirNamedAttr a;
      size_t p = 0;
      if (!entry.empty() && entry[0] == '"') {
        for (p = 1; p < entry.size() && entry[p] != '"'; ++p)
          if (entry[p] == '\\') ++p;
        if (p >= entry.size()) {
          note(line, "attribute entry " + detail::quoteInput(entry) + " is not read");
          continue;
        }
        a.name = unquote(entry.substr(0, ++p));
      } else {
        while (p < entry.size() && (isIdChar(entry[p]) || entry[p] == '-')) ++p;
        a.name = std::string(entry.substr(0, p));
      }
      std::string_view rest = trim(entry.substr(p));
      if (a.name.empty() || (!rest.empty() && rest[0] != '=')) {
        note(line, "attribute entry " + detail::quoteInput(entry) + " is not read");
        continue;
      }
      if (rest.empty()) {
        AttrValue unit;
        unit.kind = AttrValue::Kind::Keyword;
        unit.text = "unit";
        a.value = std::make_shared<const AttrValue>(std::move(unit));
      } else {
        a.text = std::string(trim(rest.substr(1)));
        if (!a.text.empty()) a.value = cachedParse(valueCache_, a.text, true, line).value;
      }
      out.push_back(std::move(a));
    }
  }

  // One type of a signature.
  MlirType readType(std::string_view text, int line) {
    MlirType t;
    t.text = std::string(text);
    std::string_view body = text;
    // Type aliases (`!desc = !xegpu.tensor_desc<...>`), a few hops at most.
    for (int hop = 0; hop < 8 && body.starts_with("!") && body.find_first_of(".<") == body.npos;
         ++hop) {
      auto it = typeAliases_.find(body.substr(1));
      if (it == typeAliases_.end()) break;
      body = it->second;
    }
    auto innerOf = [&](size_t prefix) { return body.substr(prefix, body.size() - prefix - 1); };
    const bool closed = body.ends_with(">");
    if (closed && body.starts_with("tensor<")) {
      t.kind = MlirType::Kind::Tensor;
      readShaped(innerOf(7), t, line);
    } else if (closed && body.starts_with("vector<")) {
      t.kind = MlirType::Kind::Vector;
      readShaped(innerOf(7), t, line);
    } else if (closed && body.starts_with("memref<")) {
      t.kind = MlirType::Kind::MemRef;
      readShaped(innerOf(7), t, line);
    } else if (closed && (body.starts_with("!tt.ptr<tensor<") || body.starts_with("<tensor<"))) {
      // A block pointer (tt.make_tensor_ptr; Triton prints some without "!tt.ptr"): the
      // tensor it points to, then an optional address space.
      t.kind = MlirType::Kind::TensorDesc;
      std::string_view inner = innerOf(body.find('<') + 1);
      std::vector<std::string_view> parts = splitTopLevel(inner);
      std::string_view tensor = trim(parts[0]);
      if (tensor.starts_with("tensor<") && tensor.ends_with(">"))
        readShaped(tensor.substr(7, tensor.size() - 8), t, line);
    } else if (closed && (body.starts_with("!ttg.memdesc<") || body.starts_with("<"))) {
      t.kind = MlirType::Kind::MemDesc;
      readShaped(innerOf(body.find('<') + 1), t, line);
    } else if (closed && body.starts_with("!triton_gpu.memdesc<")) {
      t.kind = MlirType::Kind::MemDesc;
      readShaped(innerOf(20), t, line);
    } else if (closed && body.starts_with("!xegpu.tensor_desc<")) {
      t.kind = MlirType::Kind::TensorDesc;
      readShaped(innerOf(19), t, line, true);
    } else if (closed && body.starts_with("!tt.tensordesc<")) {
      t.kind = MlirType::Kind::TensorDesc;
      std::string_view inner = trim(innerOf(15));
      if (inner.starts_with("tensor<") && inner.ends_with(">"))
        inner = inner.substr(7, inner.size() - 8);
      readShaped(inner, t, line);
    } else if (mlirElementBits(body) > 0 || body == "index" ||
               (closed && body.starts_with("!tt.ptr<"))) {
      t.kind = MlirType::Kind::Scalar;
      t.elementType = std::string(body);
      t.elementBits = mlirElementBits(body);
    }
    return t;
  }

  // `128x64xf16, #enc, extras...` of a shaped type.
  void readShaped(std::string_view inner, MlirType& t, int line, bool xegpuDesc = false) {
    std::vector<std::string_view> parts = splitTopLevel(inner);
    std::string_view dims = parts[0];
    size_t p = 0;
    bool overflow = false, unread = false;
    if (dims.starts_with("*x")) p = 2; // unranked: no shape
    while (p < dims.size() && (isDigit(dims[p]) || dims[p] == '?' || dims[p] == '[')) {
      size_t q = p;
      int64_t dim = -1;
      if (dims[q] == '?') {
        ++q;
      } else if (dims[q] == '[') {
        unread = true; // a scalable vector dim
        while (q < dims.size() && dims[q] != ']') ++q;
        ++q;
      } else {
        uint64_t v = 0;
        for (; q < dims.size() && isDigit(dims[q]); ++q) {
          if (v > (uint64_t(std::numeric_limits<int64_t>::max()) - uint64_t(dims[q] - '0')) / 10)
            overflow = true;
          else
            v = v * 10 + uint64_t(dims[q] - '0');
        }
        dim = int64_t(v);
      }
      if (q >= dims.size() || dims[q] != 'x') break; // not a dim: the element type
      t.shape.push_back(dim);
      p = q + 1;
    }
    if (overflow || unread) {
      t.shape.clear();
      note(line, "the shape of " + detail::quoteInput(t.text) +
                     (overflow ? " has a dim over 2^63 - 1" : " has scalable dims") +
                     "; it is not read");
    }
    t.elementType = std::string(trim(dims.substr(p)));
    t.elementBits = mlirElementBits(t.elementType);
    for (size_t i = 1; i < parts.size(); ++i) {
      std::string_view part = parts[i];
      bool isEncoding = false;
      if (t.encodingText.empty() && part.starts_with("#")) {
        if (t.kind == MlirType::Kind::Tensor || t.kind == MlirType::Kind::MemDesc) {
          isEncoding = i == 1;
        } else if (t.kind == MlirType::Kind::TensorDesc) {
          // xegpu: the layout among the descriptor's attributes; Triton's tensordesc: the first.
          const Cached& c = cachedParse(encodingCache_, part, false, line);
          isEncoding = i == 1 && !xegpuDesc;
          if (c.value)
            isEncoding |= c.value->text == "xegpu.layout" || c.value->text == "xegpu.slice";
        }
      }
      if (!isEncoding) {
        t.extras.push_back(std::string(part));
        // A descriptor's other attributes (#xegpu.block_tdesc_attr<array_length = 2>) are
        // read too: consumers look their parameters up instead of scanning the text.
        if (t.kind == MlirType::Kind::TensorDesc)
          t.extraValues.push_back(part.starts_with("#")
                                      ? cachedParse(encodingCache_, part, false, line).value
                                      : nullptr);
        continue;
      }
      t.encodingText = std::string(part);
      const Cached& c = cachedParse(encodingCache_, part, false, line);
      t.encoding = c.value;
      if (!c.value) note(line, "encoding " + detail::quoteInput(part) + " is not read: " + c.error);
    }
  }

  // Types of a run of tokens, split at depth-0 ',' (and '*', tt.dot's operand separator); a
  // run that is one parenthesized list is unwrapped. False when a type is missing.
  bool readTypeList(const std::vector<Token>& t, size_t from, size_t to, int line,
                    std::vector<MlirType>& out) {
    if (from < to && lex_.is(t[from], "(") && lex_.is(t[to - 1], ")")) {
      // Unwrap only when the first '(' closes at the end.
      int depth = 0;
      size_t close = from;
      for (size_t i = from; i < to; ++i) {
        if (lex_.is(t[i], "(") || lex_.is(t[i], "[")) ++depth;
        if ((lex_.is(t[i], ")") || lex_.is(t[i], "]")) && --depth == 0) {
          close = i;
          break;
        }
      }
      if (close == to - 1) {
        ++from;
        --to;
        if (from == to) return true; // ()
      }
    }
    int depth = 0;
    size_t start = from;
    for (size_t i = from; i <= to; ++i) {
      const bool end = i == to;
      if (!end) {
        if (lex_.is(t[i], "(") || lex_.is(t[i], "["))
          ++depth;
        else if (lex_.is(t[i], ")") || lex_.is(t[i], "]"))
          --depth;
      }
      if (end || (depth == 0 && (lex_.is(t[i], ",") || lex_.is(t[i], "*")))) {
        if (i == start) return false;
        out.push_back(readType(span(t, start, i), line));
        start = i + 1;
      }
    }
    return true;
  }

  void finishOp(OpBuild& b) {
    MlirOp& op = module_.ops[b.index];
    const std::vector<Token>& t = b.tokens;
    int depth = 0;
    std::optional<size_t> colon, arrowBeforeColon, firstRegion;
    std::string_view locText;
    for (size_t i = 0; i < t.size(); ++i) {
      const Token& k = t[i];
      if (lex_.is(k, "(") || lex_.is(k, "[")) {
        ++depth;
        continue;
      }
      if (lex_.is(k, ")") || lex_.is(k, "]")) {
        --depth;
        continue;
      }
      if (k.kind == Tok::Value) {
        const bool defined =
            i + 1 < t.size() && (lex_.is(t[i + 1], "=") || (depth > 0 && lex_.is(t[i + 1], ":")));
        if (!defined) op.operands.push_back(std::string(lex_.text(k)));
      } else if (depth == 0 && k.kind == Tok::Props) {
        std::string_view props = lex_.text(k);
        readDictionary(props.substr(1, props.size() - 2), k.line, op.attributes);
      } else if (depth == 0 && k.kind == Tok::Dict) {
        readDictionary(lex_.text(k), k.line, op.attributes);
      } else if (depth == 0 && k.kind == Tok::Loc) {
        locText = lex_.text(k);
      } else if (depth == 0 && k.kind == Tok::Region) {
        if (!firstRegion) firstRegion = i;
      } else if (depth == 0 && lex_.is(k, ":")) {
        colon = i;
      } else if (depth == 0 && lex_.is(k, "->") && !colon && !firstRegion && !arrowBeforeColon) {
        arrowBeforeColon = i;
      }
    }
    op.loc.text = std::string(locText);
    locOf_.push_back({b.index, b.chunk});

    // Where a run of signature tokens stops: a region, a dictionary, a loc, `attributes`.
    auto stopAfter = [&](size_t from) {
      int d = 0;
      for (size_t i = from; i < t.size(); ++i) {
        if (lex_.is(t[i], "(") || lex_.is(t[i], "["))
          ++d;
        else if (lex_.is(t[i], ")") || lex_.is(t[i], "]"))
          --d;
        else if (d == 0 && (t[i].kind == Tok::Region || t[i].kind == Tok::Dict ||
                            t[i].kind == Tok::Loc || lex_.is(t[i], ":") ||
                            (t[i].kind == Tok::Word && lex_.text(t[i]) == "attributes")))
          return i;
      }
      return t.size();
    };
    bool ok = true;
    if (colon) {
      const size_t from = *colon + 1, to = stopAfter(from);
      // The arrow (or `to`) at depth 0 splits operand from result types.
      std::optional<size_t> arrow;
      int d = 0;
      for (size_t i = from; i < to && !arrow; ++i) {
        if (lex_.is(t[i], "(") || lex_.is(t[i], "["))
          ++d;
        else if (lex_.is(t[i], ")") || lex_.is(t[i], "]"))
          --d;
        else if (d == 0 &&
                 (lex_.is(t[i], "->") || (t[i].kind == Tok::Word && lex_.text(t[i]) == "to")))
          arrow = i;
      }
      if (from == to) {
        ok = false;
      } else if (arrow) {
        ok = readTypeList(t, from, *arrow, t[from].line, op.operandTypes) && *arrow + 1 < to &&
             readTypeList(t, *arrow + 1, to, t[from].line, op.resultTypes);
      } else {
        // tt.make_tensor_ptr writes only its result's type after its operands.
        const bool resultOnly = op.operands.empty() || op.name == "tt.make_tensor_ptr";
        ok = readTypeList(t, from, to, t[from].line, resultOnly ? op.resultTypes : op.operandTypes);
      }
    }
    if (ok && !op.results.empty() && op.resultTypes.empty() && arrowBeforeColon) {
      const size_t from = *arrowBeforeColon + 1, to = stopAfter(from);
      ok = from < to && readTypeList(t, from, to, t[from].line, op.resultTypes);
    }
    if (!ok) {
      op.operandTypes.clear();
      op.resultTypes.clear();
      note(op.line, "the signature of '" + op.name + "' is not read");
    }
    if (op.depth == 0 && !moduleRead_ && (op.name == "module" || op.name == "builtin.module")) {
      moduleRead_ = true;
      for (const MlirNamedAttr& a : op.attributes)
        if (a.value) module_.moduleAttributes.emplace(a.name, *a.value);
    }
  }

  void resolveLocations() {
    LocResolver resolver(locAliases_);
    for (const auto& [index, chunk] : locOf_) {
      MlirOp& op = module_.ops[index];
      if (op.loc.text.size() < 5) continue;
      std::string_view body = op.loc.text;
      body = body.substr(4, body.size() - 5);
      if (auto site = resolver.resolve(body, chunk)) {
        op.loc.file = site->file;
        op.loc.line = site->line;
        op.loc.column = site->column;
        op.loc.callerFile = site->callerFile;
        op.loc.callerLine = site->callerLine;
        op.loc.callerColumn = site->callerColumn;
      }
    }
    if (resolver.tooDeep)
      module_.notes.push_back("locations nested or aliased more than " +
                              std::to_string(LocResolver::kMaxDepth) + " deep are left unresolved");
    if (notesLeftOut_)
      module_.notes.push_back("and " + std::to_string(notesLeftOut_) + " more notes");
  }

  std::string_view text_;
  ResourceLimits limits_;
  Lexer lex_;
  MlirModule module_;
  std::vector<OpBuild> stack_;
  int regionDepth_ = 0;
  int chunk_ = 0;
  AttrAliases aliases_;
  std::map<std::string, std::string, std::less<>> typeAliases_;
  std::map<std::string, SourceLocation, std::less<>> definedAt_;
  std::map<std::pair<int, std::string>, std::string> locAliases_;
  std::map<std::string, Cached, std::less<>> valueCache_, encodingCache_;
  std::vector<std::pair<size_t, int>> locOf_; // op index, chunk
  uint64_t valuesSpent_ = 0;
  uint64_t valuesNamed_ = 0;
  bool budgetSpent_ = false;
  bool moduleRead_ = false;
  size_t notesLeftOut_ = 0;
};

} // namespace

int mlirElementBits(std::string_view e) {
  if (e == "f16" || e == "bf16") return 16;
  if (e == "f32" || e == "tf32") return 32;
  if (e == "f64") return 64;
  if (e == "f80") return 80;
  if (e == "f128") return 128;
  if (e.starts_with("f8E")) return 8;
  if (e.starts_with("f6E")) return 6;
  if (e.starts_with("f4E")) return 4;
  std::string_view digits;
  if (e.starts_with("i"))
    digits = e.substr(1);
  else if (e.starts_with("si") || e.starts_with("ui"))
    digits = e.substr(2);
  // At most 7 digits: std::stoi cannot overflow.
  if (digits.empty() || digits.size() > 7 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return isDigit(c); }))
    return 0;
  return std::stoi(std::string(digits));
}

Expected<MlirModule> readMlirOps(std::string_view text) {
  return Reader(text).run();
}

} // namespace layout
