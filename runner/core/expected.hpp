// Expected<T>: a value or an Error. Harness and config failures travel as
// values (DESIGN.md: only main picks an exit code). std::expected is not used
// because clang 14 (our libFuzzer compiler) cannot compile libstdc++'s <expected>.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

#include "runner/core/error.hpp"

namespace a2a::core {

struct Unexpected {
  Error error;
};

inline Unexpected fail(ErrorKind kind, std::string message, SourceLocation where = {}) {
  return Unexpected{Error{kind, std::move(message), std::move(where)}};
}
inline Unexpected fail(Error e) { return Unexpected{std::move(e)}; }

template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT implicit by design
  Expected(Unexpected u) : v_(std::in_place_index<1>, std::move(u.error)) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { assert(ok()); return std::get<0>(v_); }
  const T& value() const& { assert(ok()); return std::get<0>(v_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const { assert(!ok()); return std::get<1>(v_); }
  Error& error() { assert(!ok()); return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Expected<void> {
 public:
  Expected() = default;
  Expected(Unexpected u) : err_(std::move(u.error)), ok_(false) {}  // NOLINT
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { assert(!ok_); return err_; }

 private:
  Error err_{};
  bool ok_ = true;
};

}  // namespace a2a::core
