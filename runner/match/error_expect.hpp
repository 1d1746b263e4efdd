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

}  // namespace a2a::match
