// Errors as values: the result type of every liblayout entry point that takes user input.
//
//   layout::Expected<LinearLayout> r = LinearLayout::identity1D(8, reg, dim0);
//   if (!r) std::cerr << "error: " << r.error().message << "\n";
//   else use(*r);
#pragma once

#include <cassert>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace layout {

// A precise, user-facing diagnostic. The message names the offending field and the rule it breaks.
struct Error {
  std::string message;
};

// Either a T or an Error (a minimal std::expected, which C++20 lacks).
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T&& value) : storage_(std::in_place_index<0>, std::move(value)) {}
  Expected(const T& value) : storage_(std::in_place_index<0>, value) {}
  // Converting construction (e.g. from a type convertible to T).
  template <typename U, typename = std::enable_if_t<std::is_constructible_v<T, U&&> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    !std::is_same_v<std::decay_t<U>, Error> &&
                                                    !std::is_same_v<std::decay_t<U>, Expected>>>
  Expected(U&& value) : storage_(std::in_place_index<0>, std::forward<U>(value)) {}
  Expected(Error error) : storage_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return storage_.index() == 0; }
  explicit operator bool() const { return ok(); }

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

  const Error& error() const {
    assert(!ok() && "Expected::error() on a value");
    return std::get<1>(storage_);
  }

private:
  std::variant<T, Error> storage_;
};

inline Error makeError(std::string message) {
  return Error{std::move(message)};
}

} // namespace layout

// Propagates an error from an Expected-returning expression whose value is not needed (a check).
#define LAYOUT_TRY(expr)                                                                           \
  do {                                                                                             \
    auto layout_try_ = (expr);                                                                     \
    if (!layout_try_) return layout_try_.error();                                                  \
  } while (0)

// Propagates an error from an Expected-returning expression, else binds its value.
#define LAYOUT_TRY_ASSIGN(var, expr)                                                               \
  auto var##_expected_ = (expr);                                                                   \
  if (!var##_expected_) return var##_expected_.error();                                            \
  auto var = std::move(*var##_expected_)
