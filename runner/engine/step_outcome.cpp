#include "runner/engine/step_outcome.hpp"

namespace a2a::engine {

StepOutcome StepOutcome::fail(std::string message, std::string expected, std::string actual,
                              std::string path) {
  StepOutcome o;
  o.outcome = result::Outcome::kFail;
  o.failure = result::Failure{std::move(message), "", std::move(expected), std::move(actual),
                              std::move(path)};
  return o;
}

StepOutcome StepOutcome::error(std::string message) {
  StepOutcome o;
  o.outcome = result::Outcome::kError;
  o.failure = result::Failure{std::move(message), "", "", "", ""};
  return o;
}

StepOutcome StepOutcome::timeout(std::string message) {
  StepOutcome o;
  o.outcome = result::Outcome::kTimeout;
  o.failure = result::Failure{std::move(message), "", "", "", ""};
  return o;
}

StepOutcome from_match(const match::MatchResult& m, const std::string& what) {
  if (m.malformed()) return StepOutcome::error(what + ": malformed assertion: " + m.error);
  if (m.ok) return StepOutcome::pass();
  const auto& first = m.mismatches.front();
  return StepOutcome::fail(what + ": " + m.summary(8), first.expected, first.actual, first.path);
}

int severity(result::Outcome o) {
  switch (o) {
    case result::Outcome::kError: return 6;
    case result::Outcome::kTimeout: return 5;
    case result::Outcome::kFail: return 4;
    case result::Outcome::kNonStrict: return 3;
    case result::Outcome::kInformational: return 2;
    default: return 1;
  }
}

}  // namespace a2a::engine
