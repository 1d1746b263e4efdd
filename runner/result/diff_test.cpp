// diff_runs on small reports written by hand in the JSON report format: what
// counts as a regression, a fix, new, removed, another change and a changed
// reason, the counts by level, and the inputs it refuses.
#include <gtest/gtest.h>

#include "runner/result/diff.hpp"

using namespace a2a::result;

namespace {

// One scenario of a hand-written report: id, binding, outcome, level, reason.
struct Row {
  std::string id, binding, outcome, level = "must", reason = "";
};

RunResult report(const std::vector<Row>& rows, const std::string& target = "./agent") {
  nlohmann::json j = {{"schema", "a2a-conform-result"}, {"schema_version", 2}, {"target", target},
                      {"scenarios", nlohmann::json::array()}};
  for (const auto& r : rows)
    j["scenarios"].push_back({{"id", r.id}, {"name", r.id + " name"}, {"binding", r.binding},
                              {"outcome", r.outcome}, {"level", r.level}, {"reason", r.reason}});
  auto run = parse_run_result(j);
  EXPECT_TRUE(run) << run.error().message;
  return run ? *run : RunResult{};
}

RunDiff diff_of(const RunResult& before, const RunResult& after) {
  auto d = diff_runs("old.json", {before}, "new.json", {after});
  EXPECT_TRUE(d) << d.error().message;
  return d ? *d : RunDiff{};
}

std::vector<std::string> ids(const RunDiff& d, ChangeKind k) {
  std::vector<std::string> out;
  for (const auto& c : d.changes)
    if (c.kind == k) out.push_back(c.id + "@" + c.binding);
  return out;
}

}  // namespace

TEST(DiffRuns, ARunAgainstItselfHasNoChangesAndExitsZero) {
  auto run = report({{"A", "stdio", "PASS"}, {"B", "stdio", "FAIL", "must", "no reply"}, {"C", "stdio", "SKIP"}});
  auto d = diff_of(run, run);
  EXPECT_TRUE(d.changes.empty());
  EXPECT_EQ(d.unchanged, 3);
  EXPECT_FALSE(d.regressed());
  EXPECT_EQ(d.exit_code(), 0);
}

struct OutcomeCase {
  const char* name;
  const char* before;
  const char* after;
  ChangeKind kind;
};

class DiffOutcomes : public ::testing::TestWithParam<OutcomeCase> {};

TEST_P(DiffOutcomes, ClassifiesTheMove) {
  const auto& c = GetParam();
  auto d = diff_of(report({{"A", "stdio", c.before}}), report({{"A", "stdio", c.after}}));
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].kind, c.kind) << to_string(d.changes[0].kind);
  EXPECT_EQ(d.exit_code(), c.kind == ChangeKind::kRegression ? 1 : 0);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, DiffOutcomes,
    ::testing::Values(OutcomeCase{"PassToFail", "PASS", "FAIL", ChangeKind::kRegression},
                      OutcomeCase{"PassToError", "PASS", "ERROR", ChangeKind::kRegression},
                      OutcomeCase{"PassToTimeout", "PASS", "TIMEOUT", ChangeKind::kRegression},
                      OutcomeCase{"PassToXfail", "PASS", "XFAIL", ChangeKind::kRegression},
                      OutcomeCase{"NonStrictToFail", "NON_STRICT", "FAIL", ChangeKind::kRegression},
                      OutcomeCase{"SkipToFail", "SKIP", "FAIL", ChangeKind::kRegression},
                      OutcomeCase{"InformationalToError", "INFORMATIONAL", "ERROR", ChangeKind::kRegression},
                      OutcomeCase{"PassToNonStrict", "PASS", "NON_STRICT", ChangeKind::kDegraded},
                      OutcomeCase{"FailToPass", "FAIL", "PASS", ChangeKind::kFix},
                      OutcomeCase{"ErrorToNonStrict", "ERROR", "NON_STRICT", ChangeKind::kFix},
                      OutcomeCase{"XfailToXpass", "XFAIL", "XPASS", ChangeKind::kFix},
                      OutcomeCase{"NonStrictToPass", "NON_STRICT", "PASS", ChangeKind::kFix},
                      OutcomeCase{"PassToSkip", "PASS", "SKIP", ChangeKind::kChanged},
                      OutcomeCase{"FailToSkip", "FAIL", "SKIP", ChangeKind::kChanged},
                      OutcomeCase{"FailToError", "FAIL", "ERROR", ChangeKind::kChanged},
                      OutcomeCase{"PassToXpass", "PASS", "XPASS", ChangeKind::kChanged},
                      OutcomeCase{"SkipToPass", "SKIP", "PASS", ChangeKind::kChanged}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(DiffRuns, ListsNewAndRemovedScenariosWithoutRegressing) {
  auto d = diff_of(report({{"A", "stdio", "PASS"}, {"GONE", "stdio", "FAIL"}}),
                   report({{"A", "stdio", "PASS"}, {"FRESH", "stdio", "FAIL"}}));
  EXPECT_EQ(ids(d, ChangeKind::kNew), std::vector<std::string>{"FRESH@stdio"});
  EXPECT_EQ(ids(d, ChangeKind::kRemoved), std::vector<std::string>{"GONE@stdio"});
  EXPECT_FALSE(d.regressed());
  const auto& removed = d.changes[1];
  EXPECT_EQ(removed.old_outcome, Outcome::kFail);
  EXPECT_FALSE(removed.new_outcome);
}

TEST(DiffRuns, KeysResultsByScenarioAndBinding) {
  auto d = diff_of(report({{"A", "jsonrpc", "PASS"}, {"A", "rest", "PASS"}}),
                   report({{"A", "jsonrpc", "PASS"}, {"A", "rest", "FAIL"}, {"A", "grpc", "PASS"}}));
  EXPECT_EQ(ids(d, ChangeKind::kRegression), std::vector<std::string>{"A@rest"});
  EXPECT_EQ(ids(d, ChangeKind::kNew), std::vector<std::string>{"A@grpc"});
}

TEST(DiffRuns, SameOutcomeWithAnotherReasonIsAChangedReason) {
  auto d = diff_of(report({{"A", "stdio", "SKIP", "may", "no streaming"}, {"B", "stdio", "FAIL", "must", "x"}}),
                   report({{"A", "stdio", "SKIP", "may", "no push"}, {"B", "stdio", "FAIL", "must", "x"}}));
  ASSERT_EQ(ids(d, ChangeKind::kReason), std::vector<std::string>{"A@stdio"});
  EXPECT_EQ(d.changes[0].old_reason, "no streaming");
  EXPECT_EQ(d.changes[0].new_reason, "no push");
  EXPECT_EQ(d.unchanged, 1);
  EXPECT_FALSE(d.regressed());
}

TEST(DiffRuns, ReasonIncludesTheFailureMessage) {
  ScenarioResult s;
  s.reason = "timed out";
  s.failure = Failure{"no reply", "send", "", "", ""};
  EXPECT_EQ(why_of(s), "timed out / no reply");
  s.reason = "no reply";
  EXPECT_EQ(why_of(s), "no reply");
}

TEST(DiffRuns, OrdersRegressionsFirstThenFixesNewRemovedReasons) {
  auto d = diff_of(report({{"R", "s", "PASS"}, {"F", "s", "FAIL"}, {"GONE", "s", "PASS"}, {"W", "s", "FAIL", "must", "a"}}),
                   report({{"W", "s", "FAIL", "must", "b"}, {"NEW", "s", "PASS"}, {"F", "s", "PASS"}, {"R", "s", "ERROR"}}));
  std::vector<ChangeKind> kinds;
  for (const auto& c : d.changes) kinds.push_back(c.kind);
  EXPECT_EQ(kinds, (std::vector<ChangeKind>{ChangeKind::kRegression, ChangeKind::kFix, ChangeKind::kNew,
                                            ChangeKind::kRemoved, ChangeKind::kReason}));
}

TEST(DiffRuns, CountsEachLevelOfBothSides) {
  auto d = diff_of(report({{"A", "s", "PASS"}, {"B", "s", "PASS", "should"}, {"C", "s", "SKIP", "may"}}),
                   report({{"A", "s", "FAIL"}, {"B", "s", "NON_STRICT", "should"}}));
  ASSERT_EQ(d.counts.size(), 4u);
  EXPECT_EQ(d.counts[0].level, Level::kMust);
  EXPECT_EQ(d.counts[0].old_counts.pass, 1);
  EXPECT_EQ(d.counts[0].new_counts.fail, 1);
  EXPECT_EQ(d.counts[1].new_counts.non_strict, 1);
  EXPECT_EQ(d.counts[2].old_counts.skip, 1);
  EXPECT_EQ(d.counts[2].new_counts.total, 0);
  EXPECT_FALSE(d.counts[3].level);
  EXPECT_EQ(d.counts[3].old_counts.total, 3);
  EXPECT_EQ(d.counts[3].new_counts.total, 2);
}

TEST(DiffRuns, PairsSeveralTargetsByPosition) {
  auto a = report({{"A", "stdio", "PASS"}}, "./a");
  auto b = report({{"A", "stdio", "PASS"}}, "./b");
  auto b_broken = report({{"A", "stdio", "FAIL"}}, "./b --new");
  auto d = diff_runs("old.json", {a, b}, "new.json", {a, b_broken});
  ASSERT_TRUE(d) << d.error().message;
  ASSERT_EQ(d->changes.size(), 1u);
  EXPECT_EQ(d->changes[0].target, 1u);
  EXPECT_EQ(d->new_side.targets, (std::vector<std::string>{"./a", "./b --new"}));
  EXPECT_EQ(d->counts[3].new_counts.total, 2);
}

TEST(DiffRuns, RefusesADifferentNumberOfTargets) {
  auto a = report({{"A", "stdio", "PASS"}});
  auto d = diff_runs("old.json", {a}, "new.json", {a, a});
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().kind, a2a::core::ErrorKind::kInvalidArgument);
  EXPECT_NE(d.error().message.find("old.json has 1 target(s), new.json has 2"), std::string::npos);
}

TEST(DiffRuns, RefusesAShard) {
  auto a = report({{"A", "stdio", "PASS"}});
  auto shard = a;
  shard.shard = ShardInfo{1, 2, {"A", "B"}};
  auto d = diff_runs("old.json", {a}, "s1.json", {shard});
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("s1.json: shard 1/2"), std::string::npos);
  EXPECT_NE(d.error().message.find("a2a-conform merge"), std::string::npos);
}

TEST(DiffRuns, RefusesAScenarioTwiceInOneTarget) {
  auto a = report({{"A", "stdio", "PASS"}, {"A", "stdio", "FAIL"}});
  auto d = diff_runs("old.json", {a}, "new.json", {report({{"A", "stdio", "PASS"}})});
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().kind, a2a::core::ErrorKind::kSchema);
  EXPECT_NE(d.error().message.find("old.json: scenario A (binding stdio) is in the report twice"), std::string::npos);
}

TEST(DiffRuns, RefusesASideWithoutTargets) {
  auto d = diff_runs("old.json", {}, "new.json", {report({})});
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("old.json: no target"), std::string::npos);
}

TEST(DiffRuns, AnInterruptedOrBrokenNewRunFailsTheGateThoughNothingRegressed) {
  auto old_run = report({{"A", "stdio", "PASS"}, {"B", "stdio", "PASS"}});
  auto cut = report({{"A", "stdio", "PASS"}});
  cut.interrupted = RunResult::Interruption{"SIGINT", 2, 1};
  auto d = diff_of(old_run, cut);
  EXPECT_FALSE(d.regressed());
  EXPECT_EQ(ids(d, ChangeKind::kRemoved), std::vector<std::string>{"B@stdio"});
  ASSERT_EQ(d.new_incomplete.size(), 1u);
  EXPECT_EQ(d.new_incomplete[0].rfind("new.json: stopped by SIGINT: 1 of 2 scenarios finished", 0), 0u)
      << d.new_incomplete[0];
  EXPECT_EQ(d.exit_code(), 1);

  auto broken = report({{"A", "stdio", "PASS"}, {"B", "stdio", "SKIP", "must", "not run: the target is broken"}});
  broken.diagnosis = "stdio: the agent could not be started";
  d = diff_of(old_run, broken);
  EXPECT_FALSE(d.regressed());
  ASSERT_EQ(d.new_incomplete.size(), 1u);
  EXPECT_EQ(d.new_incomplete[0], "new.json: the target is broken: stdio: the agent could not be started");
  EXPECT_EQ(d.exit_code(), 1);
  // OLD's own state does not matter: the gate is about NEW.
  EXPECT_EQ(diff_of(cut, old_run).exit_code(), 0);
}
