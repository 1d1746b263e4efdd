#include <gtest/gtest.h>

#include "runner/result/result.hpp"
#include "runner/result/sample_run.hpp"
#include "runner/result/utf8.hpp"

using namespace a2a::result;

namespace {

RunResult run_of(std::initializer_list<std::pair<Outcome, Level>> items) {
  RunResult r;
  int n = 0;
  for (auto [o, l] : items) {
    ScenarioResult s;
    s.id = "T-" + std::to_string(++n);
    s.outcome = o;
    s.level = l;
    r.scenarios.push_back(s);
  }
  return r;
}

}  // namespace

TEST(Outcome, NamesRoundTripAndParseCaseInsensitively) {
  for (Outcome o : kAllOutcomes) {
    auto back = outcome_from(to_string(o));
    ASSERT_TRUE(back.has_value()) << to_string(o);
    EXPECT_EQ(*back, o);
  }
  EXPECT_EQ(to_string(Outcome::kNonStrict), "NON_STRICT");
  EXPECT_EQ(outcome_from("xfail"), Outcome::kXFail);
  EXPECT_FALSE(outcome_from("PASSED").has_value());
  EXPECT_FALSE(outcome_from("").has_value());
}

TEST(Level, NamesRoundTripAndRejectUnknown) {
  for (Level l : kAllLevels) EXPECT_EQ(level_from(to_string(l)), l);
  EXPECT_EQ(to_string(Level::kShould), "should");
  EXPECT_EQ(level_from("MUST"), Level::kMust);
  EXPECT_FALSE(level_from("required").has_value());
}

struct ExitCase {
  std::string name;
  std::vector<Outcome> outcomes;
  int exit_code;
};

class ExitCode : public ::testing::TestWithParam<ExitCase> {};

TEST_P(ExitCode, FollowsTheDesignRules) {
  RunResult r;
  for (Outcome o : GetParam().outcomes) {
    ScenarioResult s;
    s.outcome = o;
    r.scenarios.push_back(s);
  }
  EXPECT_EQ(r.exit_code(), GetParam().exit_code);
}

using O = Outcome;
INSTANTIATE_TEST_SUITE_P(
    Rules, ExitCode,
    ::testing::Values(
        ExitCase{"EmptyRun", {}, 0}, ExitCase{"AllPass", {O::kPass, O::kPass}, 0},
        ExitCase{"NonStrictNeverFails", {O::kPass, O::kNonStrict}, 0},
        ExitCase{"InformationalNeverFails", {O::kInformational}, 0},
        ExitCase{"SkipNeverFails", {O::kSkip, O::kSkip}, 0},
        ExitCase{"XFailNeverFails", {O::kXFail, O::kPass}, 0},
        ExitCase{"FailFails", {O::kPass, O::kFail}, 1},
        ExitCase{"XPassFails", {O::kXPass, O::kXFail}, 1},
        ExitCase{"TimeoutFails", {O::kTimeout}, 1},
        ExitCase{"ErrorIsTwo", {O::kError}, 2},
        ExitCase{"ErrorWinsOverFail", {O::kFail, O::kError, O::kTimeout}, 2},
        ExitCase{"ErrorLastStillTwo", {O::kPass, O::kXPass, O::kError}, 2}),
    [](const auto& info) { return info.param.name; });

TEST(ExitCode, FailsRunMatchesExitCodeForEveryOutcome) {
  for (Outcome o : kAllOutcomes) {
    RunResult r = run_of({{o, Level::kMay}});
    EXPECT_EQ(fails_run(o), r.exit_code() != 0) << to_string(o);
    EXPECT_NE(fails_run(o), counts_as_passed(o) || o == Outcome::kSkip) << to_string(o);
  }
  EXPECT_EQ(describe_exit_code(2), "harness or scenario error");
  // Exit 0 beside NOT CONFORMANT (an XFAIL at MUST level) must not read as a
  // contradiction: the text says why the run still passed.
  EXPECT_NE(describe_exit_code(0).find("XFAIL"), std::string_view::npos) << describe_exit_code(0);
}

TEST(Counts, AddUpPerOutcomeAndPerLevel) {
  RunResult r = run_of({{O::kPass, Level::kMust}, {O::kFail, Level::kMust},
                        {O::kSkip, Level::kMust}, {O::kNonStrict, Level::kShould},
                        {O::kXFail, Level::kShould}, {O::kXPass, Level::kMay},
                        {O::kTimeout, Level::kMay}, {O::kError, Level::kMay},
                        {O::kInformational, Level::kMay}});
  Counts c = r.counts();
  EXPECT_EQ(c.total, 9);
  for (Outcome o : kAllOutcomes) EXPECT_EQ(c.of(o), 1) << to_string(o);
  EXPECT_EQ(c.passed(), 4);   // pass, non_strict, informational, xfail
  EXPECT_EQ(c.failed(), 4);   // fail, xpass, timeout, error
  EXPECT_EQ(c.skipped(), 1);
  EXPECT_EQ(c.passed() + c.failed() + c.skipped(), c.total);
  Counts must = r.counts_for(Level::kMust);
  EXPECT_EQ(must.total, 3);
  EXPECT_EQ(must.pass, 1);
  EXPECT_EQ(must.fail, 1);
  EXPECT_EQ(must.skip, 1);
  EXPECT_EQ(r.counts_for(Level::kShould).passed(), 2);
  EXPECT_EQ(r.counts_for(Level::kMay).failed(), 3);
}

TEST(Conformant, RequiresEveryMustLevelScenarioToMeetItsRequirement) {
  EXPECT_TRUE(run_of({}).conformant());
  EXPECT_TRUE(run_of({{O::kPass, Level::kMust}, {O::kSkip, Level::kMust},
                      {O::kNonStrict, Level::kMust}, {O::kXPass, Level::kMust},
                      {O::kFail, Level::kShould}, {O::kError, Level::kMay}})
                  .conformant());
  for (Outcome bad : {O::kFail, O::kXFail, O::kTimeout, O::kError})
    EXPECT_FALSE(run_of({{O::kPass, Level::kMust}, {bad, Level::kMust}}).conformant())
        << to_string(bad);
  // A known MUST failure passes the CI gate yet is not conformance.
  RunResult xfail = run_of({{O::kXFail, Level::kMust}});
  EXPECT_EQ(xfail.exit_code(), 0);
  EXPECT_FALSE(xfail.conformant());
}

TEST(Json, RoundTripsEveryFieldIncludingHostileBytes) {
  RunResult r = fixtures::sample_run();
  r.scenarios[0].transcript.push_back({7.125, "from-agent", std::string("\0\xff\xfe", 3)});
  nlohmann::json j = to_json(r);
  EXPECT_EQ(j["schema"], "a2a-conform-result");
  EXPECT_EQ(j["schema_version"], 2);
  EXPECT_EQ(j["role"], "agent");
  EXPECT_EQ(j["profile"], "p46");
  // dump() throws on invalid UTF-8; the writer must never produce any.
  std::string text = j.dump(2);
  RunResult back = run_result_from_json(nlohmann::json::parse(text));
  EXPECT_EQ(back, r);
  EXPECT_EQ(back.scenarios[1].failure->actual, fixtures::hostile_bytes());
}

TEST(Json, WritesComputedSummaryMembers) {
  RunResult r = fixtures::sample_run();
  nlohmann::json j = to_json(r);
  EXPECT_EQ(j["exit_code"], 2);
  EXPECT_EQ(j["conformant"], false);
  EXPECT_EQ(j["counts"]["total"], r.counts().total);
  EXPECT_EQ(j["counts"]["FAIL"], 1);
  EXPECT_EQ(j["counts"]["failed"], r.counts().failed());
  EXPECT_EQ(j["by_level"]["must"]["total"], r.counts_for(Level::kMust).total);
  const auto& fail = j["scenarios"][1];
  EXPECT_EQ(fail["outcome"], "FAIL");
  EXPECT_EQ(fail["level"], "must");
  EXPECT_TRUE(fail["failure"].contains("actual_b64"));
  EXPECT_FALSE(fail.contains("replay_command_b64"));
}

TEST(Json, RejectsAnotherSchemaOrVersion) {
  nlohmann::json j = to_json(RunResult{});
  j["schema_version"] = 3;
  auto r = parse_run_result(j);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, a2a::core::ErrorKind::kSchema);
  EXPECT_NE(r.error().message.find("schema_version 3"), std::string::npos);
  j["schema_version"] = 0;
  EXPECT_FALSE(parse_run_result(j).ok());
  j["schema"] = "something-else";
  EXPECT_FALSE(parse_run_result(j).ok());
  EXPECT_FALSE(parse_run_result(nlohmann::json::array()).ok());
  EXPECT_THROW(run_result_from_json(j), std::invalid_argument);
}

TEST(Json, NamesTheJsonPointerOfAWrongType) {
  nlohmann::json j = to_json(fixtures::sample_run());
  j["scenarios"][2]["steps"][0]["duration_ms"] = "slow";
  auto r = parse_run_result(j);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "/scenarios/2/steps/0/duration_ms must be an integer");
  j = to_json(fixtures::sample_run());
  j["scenarios"][0]["outcome"] = "GREAT";
  r = parse_run_result(j);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "/scenarios/0/outcome has the unknown value \"GREAT\"");
}

TEST(Json, MissingMembersKeepDefaults) {
  nlohmann::json j = {{"schema", "a2a-conform-result"}, {"schema_version", 1},
                      {"scenarios", {{{"id", "X-1"}, {"future_member", true}}}}};
  auto r = parse_run_result(j);
  ASSERT_TRUE(r.ok()) << r.error().str();
  ASSERT_EQ(r->scenarios.size(), 1u);
  EXPECT_EQ(r->scenarios[0].id, "X-1");
  EXPECT_EQ(r->scenarios[0].outcome, Outcome::kPass);
  EXPECT_EQ(r->scenarios[0].role, "agent");
  // A version 1 document has no run-level role / profile: the defaults.
  EXPECT_EQ(r->role, "agent");
  EXPECT_EQ(r->profile, "");
}

TEST(Json, WritesTheRoleProfileAndTargetTested) {
  RunResult r = fixtures::sample_run();
  r.role = "client";
  r.profile = "1.0";
  r.protocol_versions = {"1.0"};
  r.target = "./client --agent {target}";
  nlohmann::json j = to_json(r);
  EXPECT_EQ(j["role"], "client");
  EXPECT_EQ(j["profile"], "1.0");
  EXPECT_EQ(j["protocol_versions"], nlohmann::json::array({"1.0"}));
  EXPECT_EQ(j["target"], "./client --agent {target}");
  EXPECT_EQ(run_result_from_json(j), r);
}

TEST(Utf8, AcceptsValidAndRejectsMalformedSequences) {
  EXPECT_TRUE(valid_utf8("plain \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  EXPECT_FALSE(valid_utf8("\xff"));
  EXPECT_FALSE(valid_utf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(valid_utf8("\xed\xa0\x80"));      // encoded surrogate
  EXPECT_FALSE(valid_utf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(valid_utf8("\xe2\x82"));          // truncated
  EXPECT_EQ(to_valid_utf8("a\xff" "b"), "a\xef\xbf\xbd" "b");
}

// The ASCII fast path (eight bytes at a step) sees a bad byte anywhere: in a
// full word, in the tail, and in the last byte of a word.
TEST(Utf8, LongAsciiIsValidAndOneBadByteAnywhereIsNot) {
  std::string ascii(64, 'a');
  EXPECT_TRUE(valid_utf8(ascii));
  for (size_t at : {size_t{0}, size_t{7}, size_t{8}, size_t{31}, size_t{63}}) {
    std::string bad = ascii;
    bad[at] = '\xff';
    EXPECT_FALSE(valid_utf8(bad)) << at;
    std::string two = ascii;
    two.replace(at, 1, "\xc3\xa9");
    EXPECT_TRUE(valid_utf8(two)) << at;
  }
  EXPECT_FALSE(valid_utf8(ascii + "\xe2\x82"));  // truncated in the tail
}

TEST(Base64, RoundTripsEveryLengthAndRejectsGarbage) {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  for (size_t n = 0; n < 8; ++n) {
    std::string out;
    ASSERT_TRUE(base64_decode(base64_encode(all.substr(250 - n)), out));
    EXPECT_EQ(out, all.substr(250 - n));
  }
  EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
  std::string out;
  EXPECT_FALSE(base64_decode("Zm9", out));
  EXPECT_FALSE(base64_decode("Zm=v", out));
  EXPECT_FALSE(base64_decode("Z!9v", out));
}

TEST(Interrupted, ExitsWithTheSignalRoundTripsAndMakesNoClaim) {
  RunResult r = run_of({{Outcome::kPass, Level::kMust}});
  EXPECT_TRUE(r.conformant());
  EXPECT_EQ(interruption_text(r), "");
  r.interrupted = RunResult::Interruption{"SIGINT", 2, 7};
  EXPECT_EQ(r.exit_code(), 130);
  EXPECT_FALSE(r.conformant());
  EXPECT_EQ(interruption_text(r),
            "stopped by SIGINT: 1 of 8 scenarios finished; 7 were not run or were cut short (their agents killed), "
            "so the run makes no conformance claim");
  EXPECT_EQ(describe_exit_code(130), "interrupted by SIGINT: the results so far");
  nlohmann::json j = to_json(r);
  EXPECT_EQ(j["interrupted"], (nlohmann::json{{"signal", "SIGINT"}, {"number", 2}, {"not_run", 7}}));
  EXPECT_EQ(j["exit_code"], 130);
  EXPECT_EQ(run_result_from_json(j), r);
  EXPECT_FALSE(to_json(RunResult{}).contains("interrupted"));
  j["interrupted"]["number"] = 0;
  auto bad = parse_run_result(j);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "/interrupted/number must be a signal number (1 to 64)");
}

TEST(NotApplicable, GroupsByReasonOnceEachRoundTripsAndCountsNowhere) {
  RunResult r = run_of({{Outcome::kPass, Level::kMust}});
  r.add_not_applicable("written for the stdio binding; this run is jsonrpc, rest", "STDIO-1");
  r.add_not_applicable("client test (this run tests an agent)", "CLIENT-1");
  r.add_not_applicable("written for the stdio binding; this run is jsonrpc, rest", "STDIO-2");
  r.add_not_applicable("written for the stdio binding; this run is jsonrpc, rest", "STDIO-1");
  ASSERT_EQ(r.not_applicable.size(), 2u);
  EXPECT_EQ(r.not_applicable[0].ids, (std::vector<std::string>{"STDIO-1", "STDIO-2"}));
  EXPECT_EQ(r.not_applicable_count(), 3u);
  EXPECT_EQ(r.counts().total, 1);
  EXPECT_EQ(r.counts().skip, 0);
  EXPECT_TRUE(r.conformant());
  nlohmann::json j = to_json(r);
  EXPECT_EQ(j["not_applicable"][0]["count"], 2);
  EXPECT_EQ(j["not_applicable"][1]["reason"], "client test (this run tests an agent)");
  EXPECT_EQ(run_result_from_json(j), r);
  EXPECT_FALSE(to_json(RunResult{}).contains("not_applicable"));
}
