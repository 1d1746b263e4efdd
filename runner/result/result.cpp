#include "runner/result/result.hpp"

#include <algorithm>

#include <cctype>

namespace a2a::result {

namespace {

struct OutcomeName {
  Outcome outcome;
  std::string_view name;
};

constexpr OutcomeName kOutcomeNames[] = {
    {Outcome::kPass, "PASS"},       {Outcome::kFail, "FAIL"},
    {Outcome::kNonStrict, "NON_STRICT"}, {Outcome::kInformational, "INFORMATIONAL"},
    {Outcome::kSkip, "SKIP"},       {Outcome::kXFail, "XFAIL"},
    {Outcome::kXPass, "XPASS"},     {Outcome::kTimeout, "TIMEOUT"},
    {Outcome::kError, "ERROR"},
};

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(a[i])) !=
        std::toupper(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

}  // namespace

std::string_view to_string(Outcome o) {
  for (const auto& n : kOutcomeNames)
    if (n.outcome == o) return n.name;
  return "ERROR";
}

// Case-insensitive so hand-written known-failure lists may say "xfail".
std::optional<Outcome> outcome_from(std::string_view s) {
  for (const auto& n : kOutcomeNames)
    if (iequals(n.name, s)) return n.outcome;
  return std::nullopt;
}

bool fails_run(Outcome o) {
  return o == Outcome::kFail || o == Outcome::kXPass || o == Outcome::kTimeout ||
         o == Outcome::kError;
}

bool counts_as_passed(Outcome o) {
  return o == Outcome::kPass || o == Outcome::kNonStrict || o == Outcome::kInformational ||
         o == Outcome::kXFail;
}

bool breaks_conformance(Outcome o) {
  return o == Outcome::kFail || o == Outcome::kXFail || o == Outcome::kTimeout ||
         o == Outcome::kError;
}

std::string_view to_string(Level l) {
  switch (l) {
    case Level::kMust: return "must";
    case Level::kShould: return "should";
    case Level::kMay: return "may";
  }
  return "must";
}

std::optional<Level> level_from(std::string_view s) {
  for (Level l : kAllLevels)
    if (iequals(to_string(l), s)) return l;
  return std::nullopt;
}

void Counts::add(Outcome o) {
  ++total;
  switch (o) {
    case Outcome::kPass: ++pass; break;
    case Outcome::kFail: ++fail; break;
    case Outcome::kNonStrict: ++non_strict; break;
    case Outcome::kInformational: ++informational; break;
    case Outcome::kSkip: ++skip; break;
    case Outcome::kXFail: ++xfail; break;
    case Outcome::kXPass: ++xpass; break;
    case Outcome::kTimeout: ++timeout; break;
    case Outcome::kError: ++error; break;
  }
}

int Counts::of(Outcome o) const {
  switch (o) {
    case Outcome::kPass: return pass;
    case Outcome::kFail: return fail;
    case Outcome::kNonStrict: return non_strict;
    case Outcome::kInformational: return informational;
    case Outcome::kSkip: return skip;
    case Outcome::kXFail: return xfail;
    case Outcome::kXPass: return xpass;
    case Outcome::kTimeout: return timeout;
    case Outcome::kError: return error;
  }
  return 0;
}

Counts RunResult::counts() const {
  Counts c;
  for (const auto& s : scenarios) c.add(s.outcome);
  return c;
}

Counts RunResult::counts_for(Level l) const {
  Counts c;
  for (const auto& s : scenarios)
    if (s.level == l) c.add(s.outcome);
  return c;
}

size_t RunResult::not_applicable_count() const {
  size_t n = 0;
  for (const auto& na : not_applicable) n += na.ids.size();
  return n;
}

void RunResult::add_not_applicable(const std::string& reason, const std::string& id) {
  auto it = std::find_if(not_applicable.begin(), not_applicable.end(),
                         [&](const NotApplicable& na) { return na.reason == reason; });
  if (it == not_applicable.end()) it = not_applicable.insert(not_applicable.end(), NotApplicable{reason, {}});
  if (std::find(it->ids.begin(), it->ids.end(), id) == it->ids.end()) it->ids.push_back(id);
}

int RunResult::exit_code() const {
  if (interrupted) return 128 + interrupted->number;
  bool failed = !diagnosis.empty();  // a broken target fails the run whatever was skipped
  for (const auto& s : scenarios)
    if (s.outcome == Outcome::kError) return 2;
  for (const auto& s : scenarios) failed = failed || fails_run(s.outcome);
  return failed ? 1 : 0;
}

bool RunResult::conformant() const {
  if (!diagnosis.empty()) return false;  // the target could not be tested
  if (interrupted) return false;         // not every selected scenario ran
  for (const auto& s : scenarios)
    if (s.level == Level::kMust && breaks_conformance(s.outcome)) return false;
  return true;
}

std::string_view verdict_text(const RunResult& r) {
  return r.conformant() ? "CONFORMANT" : "NOT CONFORMANT";
}

std::string_view describe_exit_code(int code) {
  switch (code) {
    case 0: return "nothing failed the run (XFAIL, NON_STRICT and SKIP never do)";
    case 1: return "conformance failures";
    case 2: return "harness or scenario error";
    case 129: return "interrupted by SIGHUP: the results so far";
    case 130: return "interrupted by SIGINT: the results so far";
    case 143: return "interrupted by SIGTERM: the results so far";
  }
  return "unknown exit code";
}

std::string interruption_text(const RunResult& r) {
  if (!r.interrupted) return "";
  const auto& in = *r.interrupted;
  auto ran = static_cast<long long>(r.scenarios.size());
  return "stopped by " + in.signal + ": " + std::to_string(ran) + " of " + std::to_string(ran + in.not_run) +
         " scenarios finished; " + std::to_string(in.not_run) +
         " were not run or were cut short (their agents killed), so the run makes no conformance claim";
}

}  // namespace a2a::result
