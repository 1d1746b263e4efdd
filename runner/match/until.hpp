// `repeat.until` conditions (ACTS §9.1):
//   path == value      path != value      path in [v1, v2, ...]
// A value is a number, true / false / null, a quoted string ("..." with JSON
// escapes, or '...' taken literally) or a bare word (a string:
// TASK_STATE_COMPLETED). Numbers compare by value, strings case-sensitively.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runner/core/expected.hpp"
#include "runner/match/path.hpp"

namespace a2a::match {

struct UntilExpr {
  enum class Op { kEq, kNe, kIn };
  std::string text;  // as written, for reports
  Path path;
  Op op = Op::kEq;
  std::vector<Json> values;  // exactly one for == and !=
};

// ErrorKind::kParse with the offending text.
core::Expected<UntilExpr> parse_until(std::string_view text);

struct UntilResult {
  bool satisfied = false;
  // Why, for the report after the last attempt:
  // "status.state is TASK_STATE_WORKING, want one of [TASK_STATE_COMPLETED, TASK_STATE_FAILED]".
  std::string detail;
};

// A path the response lacks makes every form false (keep polling), with the
// reason in `detail`.
UntilResult eval_until(const UntilExpr& expr, const Json& response);

}  // namespace a2a::match
