/// \file
/// Errors as values: the result type of every liblayout entry point that takes user input.
/// `Expected<T>` carries a `T` or an Error; `Expected<void>` is the result of a check.
///
/// \code
///   layout::Expected<LinearLayout> r = LinearLayout::identity1D(8, reg, dim0);
///   if (!r) std::cerr << "error: " << r.error().message << "\n";
///   else use(*r);
/// \endcode
///
/// \code
///   layout::Expected<void> checked = validateBlockIo(target, request);
///   if (!checked && checked.error().location) point at checked.error().location->column;
/// \endcode
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace layout {

/// A place in input text, 1-based (MLIR attribute text, alias files).
struct SourceLocation {
  int line = 1;
  int column = 1;
};

/// A precise, user-facing diagnostic. The message names the offending field and the rule it breaks
/// (and starts with "line L, column C: " where the input was text). `location` holds that place
/// for programs (the explorer puts a caret under it); `context` the fields that led to the error,
/// outermost first (e.g. {"args", "src"} for a batch argument), each also a "name: " prefix of
/// the message.
struct Error {
  std::string message;
  std::optional<SourceLocation> location = std::nullopt;
  std::vector<std::string> context = {};
};

/// Either a T or an Error (a minimal std::expected, which C++20 lacks).
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T&& value) : storage_(std::in_place_index<0>, std::move(value)) {}
  Expected(const T& value) : storage_(std::in_place_index<0>, value) {}
  /// Converting construction (from a type convertible to T).
  template <typename U, typename = std::enable_if_t<std::is_constructible_v<T, U&&> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    !std::is_same_v<std::decay_t<U>, Error> &&
                                                    !std::is_same_v<std::decay_t<U>, Expected>>>
  Expected(U&& value) : storage_(std::in_place_index<0>, std::forward<U>(value)) {}
  Expected(Error error) : storage_(std::in_place_index<1>, std::move(error)) {}

  /// Whether this holds a value.
  bool ok() const { return storage_.index() == 0; }
  explicit operator bool() const { return ok(); }

  /// The value. Requires: ok() (asserted where NDEBUG is not defined).
  T& value() & {
    assert(ok() && "Expected::value() on an error");
    return std::get<0>(storage_);
  }
  const T& value() const& {
    assert(ok() && "Expected::value() on an error");
    return std::get<0>(storage_);
  }
  T&& value() && {
    assert(ok() && "Expected::value() on an error");
    return std::get<0>(std::move(storage_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  /// The error. Requires: !ok() (asserted where NDEBUG is not defined).
  const Error& error() const {
    assert(!ok() && "Expected::error() on a value");
    return std::get<1>(storage_);
  }

private:
  std::variant<T, Error> storage_;
};

/// The result of a check: nothing, or an Error. `return {};` is success.
template <> class [[nodiscard]] Expected<void> {
public:
  Expected() = default;
  Expected(Error error) : error_(std::move(error)) {}

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  void value() const { assert(ok() && "Expected::value() on an error"); }
  const Error& error() const {
    assert(!ok() && "Expected::error() on a value");
    return *error_;
  }

private:
  std::optional<Error> error_;
};

/// An Error with `message` and no location or context.
inline Error makeError(std::string message) {
  return Error{std::move(message)};
}

/// An error at a place in input text: the message is prefixed "line L, column C: ".
inline Error makeErrorAt(SourceLocation where, std::string message) {
  return Error{"line " + std::to_string(where.line) + ", column " + std::to_string(where.column) +
                   ": " + message,
               where};
}

/// The error one level out: "field: message", with `field` added to the context and the
/// location kept.
inline Error withContext(Error error, std::string_view field) {
  error.message = std::string(field) + ": " + error.message;
  error.context.insert(error.context.begin(), std::string(field));
  return error;
}

} // namespace layout

/// Propagates an error from an Expected-returning expression whose value is not needed (a check).
#define LAYOUT_TRY(expr)                                                                           \
  do {                                                                                             \
    auto layout_try_ = (expr);                                                                     \
    if (!layout_try_) return layout_try_.error();                                                  \
  } while (0)

/// Propagates an error from an Expected-returning expression, else binds its value.
#define LAYOUT_TRY_ASSIGN(var, expr)                                                               \
  auto var##_expected_ = (expr);                                                                   \
  if (!var##_expected_) return var##_expected_.error();                                            \
  auto var = std::move(*var##_expected_)
