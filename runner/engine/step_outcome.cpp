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

namespace {

result::Outcome grade_outcome(scenario::GradeKind g) {
  switch (g) {
    case scenario::GradeKind::kPass: return result::Outcome::kPass;
    case scenario::GradeKind::kNonStrict: return result::Outcome::kNonStrict;
    case scenario::GradeKind::kInformational: return result::Outcome::kInformational;
    case scenario::GradeKind::kFail: return result::Outcome::kFail;
  }
  return result::Outcome::kFail;
}

}  // namespace

StepOutcome grade_alternatives(const std::vector<scenario::Grade>& grades,
                               const std::function<StepOutcome(const scenario::Grade&)>& check) {
  StepOutcome first_failure;
  bool have_first = false;
  for (const auto& g : grades) {
    StepOutcome o = check(g);
    if (o.outcome == result::Outcome::kError || o.outcome == result::Outcome::kTimeout) return o;
    if (o.ok()) {
      StepOutcome out;
      out.outcome = grade_outcome(g.grade);
      out.note = g.note;
      if (out.outcome == result::Outcome::kFail || out.outcome == result::Outcome::kNonStrict)
        out.failure = result::Failure{g.note.empty() ? "graded " + std::string(to_string(g.grade)) : g.note,
                                      "", "", "", ""};
      return out;
    }
    if (!have_first) {
      first_failure = o;
      have_first = true;
    }
  }
  if (!have_first) return StepOutcome::pass();
  if (first_failure.failure)
    first_failure.failure->message = "no graded alternative matched; first: " + first_failure.failure->message;
  return first_failure;
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
