#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <thread>

#include "reports/console.hpp"
#include "runner/result/sample_run.hpp"

using namespace a2a::reports;
using namespace a2a::result;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string strip_ansi(const std::string& s) {
  return std::regex_replace(s, std::regex("\x1b\\[[0-9;]*m"), "");
}

}  // namespace

TEST(Console, PrintsOneAlignedLinePerScenario) {
  std::ostringstream out;
  ConsoleReporter rep(out, {.color = ColorMode::kNever});
  rep.on_start(140);
  RunResult r = fixtures::sample_run();
  r.scenarios[1].duration_ms = 3;
  rep.on_scenario_done(r.scenarios[1], 12);
  rep.on_scenario_done(r.scenarios[3], 13);
  auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "running 140 scenarios");
  EXPECT_EQ(lines[1], "[ 12/140] FAIL          STDIO-FRAME-004  lower-case header name accepted  (3 ms)");
  EXPECT_EQ(lines[2].find("STDIO-INFO-001"), lines[1].find("STDIO-FRAME-004"));
  EXPECT_EQ(lines[2].substr(0, 24), "[ 13/140] INFORMATIONAL ");
}

TEST(Console, ColoursOnlyTheOutcomeWordAndKeepsColumns) {
  std::ostringstream plain, colored;
  ConsoleReporter a(plain, {.color = ColorMode::kNever});
  ConsoleReporter b(colored, {.color = ColorMode::kAlways});
  EXPECT_FALSE(a.colored());
  EXPECT_TRUE(b.colored());
  for (auto* rep : {&a, &b}) {
    rep->on_start(2);
    rep->on_scenario_done(fixtures::sample_run().scenarios[0], 1);
  }
  EXPECT_EQ(plain.str().find('\x1b'), std::string::npos);
  EXPECT_NE(colored.str().find("\x1b[32mPASS\x1b[0m"), std::string::npos);
  EXPECT_EQ(strip_ansi(colored.str()), plain.str());
}

TEST(Console, AutoColourIsOffForAStringStream) {
  std::ostringstream out;
  EXPECT_FALSE(stream_wants_color(out));
  EXPECT_FALSE(ConsoleReporter(out).colored());
}

TEST(Console, NumbersInFinishOrderWhenIndexIsZero) {
  std::ostringstream out;
  ConsoleReporter rep(out, {.color = ColorMode::kNever});
  rep.on_start(9);
  for (int i = 0; i < 2; ++i) rep.on_scenario_done(fixtures::sample_run().scenarios[0]);
  auto lines = lines_of(out.str());
  EXPECT_EQ(lines[1].substr(0, 6), "[1/9] ");
  EXPECT_EQ(lines[2].substr(0, 6), "[2/9] ");
}

TEST(Console, FinishRecapsNonPassingInOrderAndEndsWithTheCountsLine) {
  std::ostringstream out;
  ConsoleReporter rep(out, {.color = ColorMode::kNever});
  RunResult r = fixtures::sample_run();
  rep.finish(r);
  std::string text = out.str();
  auto pos = [&](const std::string& s) { return text.find(s); };
  // FAIL, TIMEOUT, XPASS, ERROR, then NON_STRICT; passing outcomes are not recapped.
  EXPECT_LT(pos("FAIL  STDIO-FRAME-004"), pos("TIMEOUT  STDIO-STREAM-003"));
  EXPECT_LT(pos("TIMEOUT  STDIO-STREAM-003"), pos("XPASS  CORE-CANCEL-001"));
  EXPECT_LT(pos("XPASS  CORE-CANCEL-001"), pos("ERROR  CORE-SEND-009"));
  EXPECT_LT(pos("ERROR  CORE-SEND-009"), pos("NON_STRICT  STDIO-FRAME-010"));
  EXPECT_EQ(pos("SKIP  CORE-PUSH-001"), std::string::npos);
  EXPECT_NE(pos("  expected: {\"jsonrpc\":\"2.0\"}"), std::string::npos);
  EXPECT_NE(pos("  replay:   a2a-conform run --agent ./agent --only STDIO-FRAME-004"), std::string::npos);
  EXPECT_NE(pos("  at:       result.status.state"), std::string::npos);
  EXPECT_NE(pos("MUST:     2/5 passed (3 failed, 1 xfail)"), std::string::npos) << text;
  EXPECT_NE(pos("NOT CONFORMANT"), std::string::npos);
  // 4 passed (PASS, NON_STRICT, INFORMATIONAL, XFAIL), 4 failed (FAIL, XPASS, TIMEOUT, ERROR).
  EXPECT_EQ(lines_of(text).back(), "4 passed, 4 failed, 1 skipped");
  EXPECT_EQ(text.back(), '\n');
}

TEST(Console, AgentBytesInTheRecapCannotReachTheTerminal) {
  std::ostringstream out;
  ConsoleReporter rep(out, {.color = ColorMode::kNever});
  rep.finish(fixtures::sample_run());
  EXPECT_EQ(out.str().find('\x1b'), std::string::npos);
  EXPECT_EQ(out.str().find('\x00'), std::string::npos);
  EXPECT_NE(out.str().find("\\x1b[31mred"), std::string::npos);
}

TEST(Console, LevelLinesFollowActsStyle) {
  Counts c;
  for (int i = 0; i < 45; ++i) c.add(Outcome::kPass);
  c.add(Outcome::kSkip);
  c.add(Outcome::kSkip);
  EXPECT_EQ(level_summary_line(Level::kMust, c), "MUST:   45/47 passed (2 skipped)");
  Counts may;
  for (int i = 0; i < 8; ++i) may.add(Outcome::kPass);
  may.add(Outcome::kFail);
  may.add(Outcome::kSkip);
  EXPECT_EQ(level_summary_line(Level::kMay, may), "MAY:     8/10 passed (1 failed, 1 skipped)");
  EXPECT_EQ(level_summary_line(Level::kShould, Counts{}), "SHOULD:   0/0 passed");
}

TEST(Console, LinesStayWholeWhenScenariosFinishOnManyThreads) {
  std::ostringstream out;
  ConsoleReporter rep(out, {.color = ColorMode::kNever});
  rep.on_start(800);
  ScenarioResult s = fixtures::sample_run().scenarios[0];
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 100; ++i) rep.on_scenario_done(s);
    });
  for (auto& t : threads) t.join();
  auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 801u);
  std::regex line(R"(\[ *\d+/800\] PASS {10}STDIO-FRAME-001  header and body  \(3 ms\))");
  std::set<std::string> numbers;
  for (size_t i = 1; i < lines.size(); ++i) {
    ASSERT_TRUE(std::regex_match(lines[i], line)) << lines[i];
    numbers.insert(lines[i].substr(0, 9));
  }
  EXPECT_EQ(numbers.size(), 800u);
}

TEST(Console, ProgressLineNamesTheBindingWhenNotStdio) {
  std::ostringstream out;
  ConsoleReporter rep(out, {.color = ColorMode::kNever});
  RunResult r = fixtures::sample_run();
  ScenarioResult s = r.scenarios[1];
  s.duration_ms = 3;
  s.binding = "rest";
  rep.on_scenario_done(s, 1);
  s.binding = "stdio";
  rep.on_scenario_done(s, 2);
  auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("STDIO-FRAME-004 [rest]  lower-case"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].find("[rest]"), std::string::npos) << lines[1];
}

TEST(Console, StatesTheRoleProfileAndTargetInHeaderAndSummary) {
  std::ostringstream out;
  ConsoleReporter rep(out, {.color = ColorMode::kNever});
  RunResult r = fixtures::sample_run();
  r.role = "client";
  r.profile = "stdio-json";
  r.target = "./client \x1b[31m";
  rep.on_target(r.role, r.profile, r.target);
  rep.finish(r);
  auto lines = lines_of(out.str());
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "testing client ./client \\x1b[31m (profile stdio-json)");
  EXPECT_NE(out.str().find("\ntested: client ./client \\x1b[31m (profile stdio-json)\n"), std::string::npos)
      << out.str();
  EXPECT_EQ(out.str().find('\x1b'), std::string::npos);
  std::ostringstream multi;
  ConsoleReporter(multi, {.color = ColorMode::kNever}).on_target("agent", "p46", "./a", 2, 3);
  EXPECT_EQ(multi.str(), "\n=== target 2/3: agent ./a (profile p46)\n");
}
