// expect_error (ACTS §6.2) against a JSON-RPC error object {code, message, data}.
//
//   error_type   an abstract error name: the code must be its JSON-RPC code
//   code         what the official ACTS files write instead: a name, a number,
//                or an assertion over them ({one_of: [TaskNotFoundError, ...]})
//   message      assertion on error.message
//   data         assertion on error.data as a whole
//   details      {key: assertion} that at least one ErrorInfo entry must match
//                (entries: the array error.data, or error.details of the
//                google.rpc.Status shape used by REST)
// x-* keys are ignored; any other key is an error.
//
// Names map to codes by the A2A specification, not by the ACTS table where the
// two disagree (the spec wins, DESIGN.md). When an agent answers with the code
// the ACTS table gives instead, the mismatch says so.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/match/match_result.hpp"

namespace a2a::match {

class ErrorNames {
 public:
  // The A2A 1.0.1 table (spec §5.4), the JSON-RPC 2.0 codes and the
  // ACTS-only names mapped to their 1.0 equivalents.
  static const ErrorNames& a2a();

  // Adds or overrides a name (profiles state their own codes).
  void set(std::string name, int code);
  void set_acts_code(std::string name, int acts_code);

  std::optional<int> code_of(std::string_view name) const;
  // The specification's name for a code ("TaskNotFoundError"), "" if none.
  std::string name_of(int code) const;
  // The code ACTS §6.2 gives a name where it contradicts the spec.
  std::optional<int> acts_code_of(std::string_view name) const;

 private:
  std::vector<std::pair<std::string, int>> names_;  // first entry for a code is its canonical name
  std::map<std::string, int, std::less<>> acts_codes_;
};

MatchResult match_error(const Json& error_object, const Json& expect_error,
                        const ErrorNames& names = ErrorNames::a2a());

// The same expectation against an error of the HTTP+JSON/REST binding: the
// `error` member of a google.rpc.Status body ({code, status, message,
// details}) and the response's HTTP status. An error name matches by its
// google.rpc.ErrorInfo `reason` first (TASK_NOT_FOUND: the name in
// UPPER_SNAKE_CASE without "Error"; REST A2A errors MUST carry one,
// a2a-protocol.md §6.4), then by the HTTP status of the v1.0.1 table (§6.1,
// §6.3). A status from ACTS §6.2's table or the v1.0.0 table is a mismatch
// whose message says so. `code` may also be an HTTP status (100..599) or a
// JSON-RPC code (its error name is used); `data` applies to `details`.
MatchResult match_rest_error(const Json& error_object, int http_status, const Json& expect_error,
                             const ErrorNames& names = ErrorNames::a2a());

// What the REST binding says about one error name.
struct RestErrorSpec {
  std::string name;           // canonical (spec) name
  std::string reason;         // ErrorInfo reason; "" for the JSON-RPC standard errors
  std::vector<int> statuses;  // allowed HTTP statuses (v1.0.1)
};
std::optional<RestErrorSpec> rest_error_spec(std::string_view name, const ErrorNames& names = ErrorNames::a2a());
// "TaskNotFoundError" -> "TASK_NOT_FOUND".
std::string error_reason(std::string_view name);

namespace detail {
// Shared by both matchers: key check (false: stop) and message/data/details.
bool check_error_keys(const Json& error, const Json& expect, MatchResult& out);
void check_error_fields(const Json& error, const Json& expect, MatchResult& out);
// The REST and gRPC matchers' `error_type` / `code`: one alternative or
// {one_of | any_of: [...]}. `judge` says why an alternative does not describe
// the actual error ("" when it does), or sets `err` for one that is malformed;
// `actual` describes the actual error in the mismatch.
void check_code_alternatives(const Json& assertion, std::string_view key, const std::string& actual,
                             const std::function<std::string(const Json& alt, std::string& err)>& judge,
                             MatchResult& out);
}  // namespace detail

}  // namespace a2a::match
