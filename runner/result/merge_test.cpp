// merge_runs: shards of one run join into the unsharded result; anything
// that makes the inputs not one whole run is named.
#include <gtest/gtest.h>

#include "runner/core/shard_of.hpp"
#include "runner/result/merge.hpp"

using namespace a2a::result;

namespace {

const std::vector<std::string> kSelection = {"A-1", "A-2", "A-3", "A-4", "A-5", "A-6", "A-7", "A-8"};
const std::vector<std::string> kBindings = {"jsonrpc", "rest"};

ScenarioResult scenario(const std::string& id, const std::string& binding, Outcome o = Outcome::kPass) {
  ScenarioResult s;
  s.id = id;
  s.binding = binding;
  s.outcome = o;
  return s;
}

// The whole run as the engine orders it: binding by binding, selection order.
RunResult whole_run() {
  RunResult r;
  r.tool_version = "0.1.0";
  r.target = "http://127.0.0.1:1";
  r.profile = "1.0";
  r.protocol_versions = {"1.0"};
  r.bindings = kBindings;
  r.command_line = "a2a-conform run --url http://127.0.0.1:1 -j2";
  for (const auto& b : kBindings)
    for (const auto& id : kSelection) r.scenarios.push_back(scenario(id, b, id == "A-3" ? Outcome::kFail : Outcome::kPass));
  return r;
}

MergeInput shard_of_run(const RunResult& whole, int k, int n, long long start_s) {
  MergeInput in;
  in.source = "s" + std::to_string(k) + ".json";
  in.run = whole;
  in.run.scenarios.clear();
  for (const auto& s : whole.scenarios)
    if (a2a::core::shard_of(s.id, n) == k) in.run.scenarios.push_back(s);
  in.run.shard = ShardInfo{k, n, kSelection};
  in.run.command_line = "a2a-conform run --url http://127.0.0.1:1 --shard " + std::to_string(k) + "/" +
                        std::to_string(n) + " -j2";
  in.run.started_at = "2026-11-26T08:00:0" + std::to_string(start_s) + ".000Z";
  in.run.duration_ms = 1500;
  return in;
}

bool mentions(const std::vector<std::string>& errors, const std::string& text) {
  for (const auto& e : errors)
    if (e.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(MergeRuns, ShardsInAnyOrderGiveTheUnshardedResult) {
  auto whole = whole_run();
  auto m = merge_runs({shard_of_run(whole, 3, 3, 2), shard_of_run(whole, 1, 3, 0), shard_of_run(whole, 2, 3, 1)});
  ASSERT_TRUE(m.errors.empty()) << m.errors.front();
  ASSERT_EQ(m.targets.size(), 1u);
  const auto& r = m.targets.front().run;
  EXPECT_EQ(r.scenarios, whole.scenarios);
  EXPECT_EQ(r.bindings, whole.bindings);
  EXPECT_EQ(r.exit_code(), whole.exit_code());
  EXPECT_EQ(r.counts(), whole.counts());
  EXPECT_FALSE(r.shard.has_value());
  EXPECT_EQ(r.command_line, "a2a-conform run --url http://127.0.0.1:1 -j2");
  EXPECT_EQ(r.started_at, "2026-11-26T08:00:00.000Z");
  EXPECT_EQ(r.duration_ms, 3500);  // from the first start to the last end
}

TEST(MergeRuns, AMissingShardIsNamedWithItsScenarios) {
  auto whole = whole_run();
  auto m = merge_runs({shard_of_run(whole, 1, 3, 0), shard_of_run(whole, 3, 3, 0)});
  EXPECT_TRUE(mentions(m.errors, "shard 2/3 is missing")) << (m.errors.empty() ? "" : m.errors.front());
  std::string some_id;
  for (const auto& id : kSelection)
    if (a2a::core::shard_of(id, 3) == 2) some_id = id;
  if (!some_id.empty()) EXPECT_TRUE(mentions(m.errors, some_id));
}

TEST(MergeRuns, ADoubledScenarioOrShardIsAnError) {
  auto whole = whole_run();
  auto m = merge_runs({shard_of_run(whole, 1, 2, 0), shard_of_run(whole, 2, 2, 0), shard_of_run(whole, 2, 2, 0)});
  EXPECT_TRUE(mentions(m.errors, "shard 2/2 is given twice"));
  EXPECT_TRUE(mentions(m.errors, "is in both s2.json and s2.json"));
}

TEST(MergeRuns, ALostScenarioOfAPresentShardIsNamed) {
  auto whole = whole_run();
  auto s1 = shard_of_run(whole, 1, 2, 0), s2 = shard_of_run(whole, 2, 2, 0);
  std::string lost = s2.run.scenarios.front().id;
  // Every binding's result of that scenario is gone.
  std::erase_if(s2.run.scenarios, [&](const ScenarioResult& s) { return s.id == lost; });
  auto m = merge_runs({s1, s2});
  EXPECT_TRUE(mentions(m.errors, "no result for " + lost)) << (m.errors.empty() ? "" : m.errors.front());
}

TEST(MergeRuns, ShardsOfDifferentSelectionsOrCountsDoNotMerge) {
  auto whole = whole_run();
  auto s1 = shard_of_run(whole, 1, 2, 0), s2 = shard_of_run(whole, 2, 2, 0);
  s2.run.shard->selection.pop_back();
  EXPECT_TRUE(mentions(merge_runs({s1, s2}).errors, "shard different selections"));
  auto t2 = shard_of_run(whole, 2, 3, 0);
  EXPECT_TRUE(mentions(merge_runs({s1, t2}).errors, "is one of 2"));
}

TEST(MergeRuns, AWholeRunBesideShardsOfTheSameTargetIsAnError) {
  auto whole = whole_run();
  MergeInput w{"whole.json", whole};
  EXPECT_TRUE(mentions(merge_runs({w, shard_of_run(whole, 1, 2, 0)}).errors, "whole.json is a whole run"));
}

TEST(MergeRuns, OtherTargetsStaySeparate) {
  auto a = whole_run(), b = whole_run();
  b.target = "http://127.0.0.1:2";
  auto m = merge_runs({{"a.json", a}, {"b.json", b}});
  EXPECT_TRUE(m.errors.empty());
  ASSERT_EQ(m.targets.size(), 2u);
  EXPECT_EQ(m.targets[0].run.target, a.target);
  EXPECT_EQ(m.targets[1].run.scenarios, b.scenarios);
}

TEST(MergeRuns, ShardInfoRoundTripsThroughJson) {
  auto in = shard_of_run(whole_run(), 2, 3, 0);
  auto back = parse_run_result(to_json(in.run));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->shard, in.run.shard);
  auto j = to_json(in.run);
  j["shard"]["index"] = 4;
  EXPECT_FALSE(parse_run_result(j).ok()) << "shard 4 of 3 must not read";
}

TEST(WithoutShardFlag, DropsBothSpellings) {
  EXPECT_EQ(without_shard_flag("a2a-conform run --shard 2/3 --agent x"), "a2a-conform run --agent x");
  EXPECT_EQ(without_shard_flag("a2a-conform run --shard=2/3 --agent x"), "a2a-conform run --agent x");
  EXPECT_EQ(without_shard_flag("a2a-conform run --agent x"), "a2a-conform run --agent x");
}

TEST(MergeRuns, AShardsInterruptionAndDiagnosisHoldForTheMergedRun) {
  auto whole = whole_run();
  auto a = shard_of_run(whole, 1, 2, 0), b = shard_of_run(whole, 2, 2, 1);
  a.run.interrupted = RunResult::Interruption{"SIGTERM", 15, 2};
  b.run.interrupted = RunResult::Interruption{"SIGTERM", 15, 3};
  b.run.diagnosis = "rest: the interface refused or failed every connection";
  auto m = merge_runs({a, b});
  ASSERT_EQ(m.targets.size(), 1u);
  const auto& r = m.targets.front().run;
  ASSERT_TRUE(r.interrupted.has_value());
  EXPECT_EQ(r.interrupted->not_run, 5);
  EXPECT_EQ(r.exit_code(), 143);
  EXPECT_EQ(r.diagnosis, b.run.diagnosis);
}

TEST(MergeRuns, NotApplicableScenariosOfEveryShardAreJoinedAndNotLost) {
  auto whole = whole_run();
  auto a = shard_of_run(whole, 1, 2, 0), b = shard_of_run(whole, 2, 2, 1);
  // A-9 is selected, applies to no binding of the run, and falls in one shard.
  for (auto* s : {&a, &b}) s->run.shard->selection.push_back("A-9");
  (a2a::core::shard_of("A-9", 2) == 1 ? a : b).run.add_not_applicable("written for the stdio binding", "A-9");
  auto m = merge_runs({a, b});
  ASSERT_TRUE(m.errors.empty()) << m.errors.front();
  const auto& r = m.targets.front().run;
  ASSERT_EQ(r.not_applicable.size(), 1u);
  EXPECT_EQ(r.not_applicable[0].ids, std::vector<std::string>{"A-9"});
}
