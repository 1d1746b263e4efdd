// What executing one step produced, before the scenario-level grading.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runner/match/match_result.hpp"
#include "runner/result/result.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::engine {

struct StepOutcome {
  result::Outcome outcome = result::Outcome::kPass;
  std::optional<result::Failure> failure;
  std::string note;

  bool ok() const {
    return outcome == result::Outcome::kPass || outcome == result::Outcome::kNonStrict ||
           outcome == result::Outcome::kInformational;
  }
  static StepOutcome pass() { return {}; }
  static StepOutcome fail(std::string message, std::string expected = {}, std::string actual = {},
                          std::string path = {});
  static StepOutcome error(std::string message);   // the scenario is broken
  static StepOutcome timeout(std::string message);
};

// A match result as a step outcome: ERROR for a malformed assertion (the
// scenario is broken), FAIL with the first mismatch's details otherwise.
StepOutcome from_match(const match::MatchResult& m, const std::string& what);

// x-grades: tries the alternatives in order; the first whose check passes
// decides the outcome (its grade and note). ERROR and TIMEOUT of a check end
// the search; when none matches, the first one's failure is returned.
StepOutcome grade_alternatives(const std::vector<scenario::Grade>& grades,
                               const std::function<StepOutcome(const scenario::Grade&)>& check);

// Severity order for combining: ERROR > TIMEOUT > FAIL > NON_STRICT > INFORMATIONAL > PASS.
int severity(result::Outcome o);

}  // namespace a2a::engine
