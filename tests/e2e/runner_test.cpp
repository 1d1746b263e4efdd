// The runner as users run it: the real a2a-conform binary against the real
// reference agent and scenario files with typos (hostile agents: hostile_test.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "runner/core/escape.hpp"
#include "tests/e2e/run_command.hpp"
#include "tests/e2e/sanitized.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_runner {

namespace fs = std::filesystem;
using a2a::testing::run_command;
using Json = nlohmann::json;

namespace {

const std::string kConform = A2A_CONFORM;
const std::string kAgent = A2A_REF_AGENT;
const std::string kSrc = A2A_SOURCE_DIR;

fs::path artifacts_dir() {
  fs::path d = fs::path(A2A_BINARY_DIR) / "test-artifacts";
  fs::create_directories(d);
  return d;
}

Json read_json(const fs::path& p) {
  std::ifstream in(p);
  return Json::parse(in);
}

}  // namespace

TEST(RunnerSelfTest, EveryStdioScenarioPassesAgainstTheReferenceAgent) {
  fs::path out = artifacts_dir() / "selftest";
  auto r = run_command({kConform, "run", "--agent", kAgent, "-j2", "-q", "--color", "never",
                        "--report-dir", out.string(), kSrc + "/suites/stdio", kSrc + "/suites/a2a"},
                       240000);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  auto report = read_json(out / "report.json");
  ASSERT_GT(report["scenarios"].size(), 90u);
  // The agent declares every capability, so only the scenarios for an agent
  // without one (suites/a2a/capabilities.acts.yaml) are skipped.
  for (const auto& s : report["scenarios"]) {
    if (s["outcome"] == "SKIP" && s.value("reason", "").find("precondition not met: agent card capability") == 0)
      continue;
    EXPECT_EQ(s["outcome"], "PASS") << s["id"] << ": " << s.value("reason", "");
  }
  EXPECT_NE(r.out.find("0 failed"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(out / "junit.xml"));
  EXPECT_TRUE(fs::exists(out / "report.html"));
}

// The same stdio suites under the other wire profile: every shared scenario
// passes, the P46-only ones are skipped by x-profiles with the reason, and the
// stdio-json suite runs too.
TEST(RunnerSelfTest, EveryStdioScenarioPassesOrIsProfileSkippedUnderStdioJson) {
  fs::path out = artifacts_dir() / "selftest-stdio-json";
  auto r = run_command({kConform, "run", "--agent", kAgent + " --profile stdio-json", "--profile", "stdio-json", "-j2",
                        "-q", "--color", "never", "--report-dir", out.string(), kSrc + "/suites/stdio",
                        kSrc + "/suites/a2a", kSrc + "/suites/stdio-json"},
                       240000);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  auto report = read_json(out / "report.json");
  int passed = 0, skipped = 0;
  for (const auto& s : report["scenarios"]) {
    const std::string outcome = s["outcome"], reason = s.value("reason", "");
    if (outcome == "SKIP") {
      ++skipped;
      EXPECT_TRUE(reason.find("not applicable to profile stdio-json") != std::string::npos ||
                  reason.find("precondition not met: agent card capability") == 0)
          << s["id"] << ": " << reason;
      continue;
    }
    ++passed;
    EXPECT_EQ(outcome, "PASS") << s["id"] << ": " << reason;
  }
  EXPECT_GT(passed, 90);
  EXPECT_GT(skipped, 0) << "the P46-only scenarios are selected out, not run";
}

TEST(RunnerCheck, TypoIsRejectedWithFileLineBeforeAnyAgentStarts) {
  fs::path dir = artifacts_dir() / "typo";
  fs::create_directories(dir);
  fs::path file = dir / "typo.acts.yaml";
  std::ofstream(file) << "acts_version: \"1.0\"\nspec_version: \"1.0\"\nsuites:\n"
                         "  - id: s\n    name: s\n    tests:\n"
                         "      - id: T-1\n        name: t\n        level: must\n        steps:\n"
                         "          - id: get\n            operation: get_task\n"
                         "            params: {id: x}\n            exepct: {body: {id: x}}\n";
  std::string marker = "A2A_TEST_MARKER=" + a2a::core::uuid_v7();
  // The agent would leave a marked process behind if it were started at all.
  auto r = run_command({kConform, "run", "--agent", "/bin/sleep 30", file.string()}, 20000,
                       {{"A2A_TEST_MARKER", marker.substr(16)}});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("typo.acts.yaml:14:13"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean 'expect'"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("running"), std::string::npos) << r.out;
  auto c = run_command({kConform, "check", file.string()}, 20000);
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_NE(c.err.find("typo.acts.yaml:14:13"), std::string::npos) << c.err;
}

TEST(RunnerCheck, ATestIdDefinedInTwoFilesIsRejectedWithBothPlaces) {
  fs::path dir = artifacts_dir() / "dup-ids";
  fs::create_directories(dir);
  for (const char* name : {"a.acts.yaml", "b.acts.yaml"}) {
    std::ofstream(dir / name) << "acts_version: \"1.0\"\nspec_version: \"1.0\"\nsuites:\n"
                                 "  - id: s\n    name: s\n    tests:\n"
                                 "      - id: T-DUP\n        name: t\n        level: must\n        steps:\n"
                                 "          - id: get\n            operation: get_task\n"
                                 "            params: {id: x}\n";
  }
  auto c = run_command({kConform, "check", (dir / "a.acts.yaml").string(), (dir / "b.acts.yaml").string()}, 20000);
  EXPECT_EQ(c.exit_code, 2) << c.out << c.err;
  EXPECT_NE(c.err.find("b.acts.yaml:7:"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("test id T-DUP is also defined at"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("a.acts.yaml:7:"), std::string::npos) << c.err;
}

// Issue 18: nine levels of ten aliases (10^9 strings in a kilobyte) took 24 GB
// and the OOM killer, or with a memory limit an uncaught std::bad_alloc (exit
// 134). Under a 200 MB address-space limit (RLIMIT_AS, set by the shell's
// ulimit -v in the child) the runner must refuse it with the limit's message.
TEST(RunnerCheck, TheAliasBombIsRefusedUnderAMemoryLimitWithoutExpanding) {
  const std::string bomb = kSrc + "/fixtures/scenarios/refused/alias-bomb.acts.yaml";
  // ASan and TSan reserve terabytes of address space: no RLIMIT_AS there.
  const std::string limit = a2a::e2e::kSanitized ? "" : "ulimit -v 204800 && ";
  auto r = run_command({"/bin/sh", "-c", limit + "exec \"$0\" check \"$1\"", kConform, bomb}, 20000);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("alias-bomb.acts.yaml:21:22: with this alias expanded, the document has more than 200000 "
                       "YAML nodes (scenario limit --max-scenario-nodes"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("out of memory"), std::string::npos) << r.err;
  EXPECT_GT(r.max_rss_kib, 0);
  EXPECT_LT(r.max_rss_kib, (a2a::e2e::kSanitized ? 512 : 100) * 1024L) << "peak RSS grew: the aliases were expanded";
}

// `check` means "this will run": an undefined variable (which a run only
// meets as that scenario's ERROR) and a folder with no scenario file are
// errors, exit 2; --var, as the run would get it, defines the variable.
TEST(RunnerCheck, UndefinedVariablesAndEmptyFoldersAreRefused) {
  fs::path dir = artifacts_dir() / "check-will-run";
  fs::remove_all(dir);
  fs::create_directories(dir / "empty");
  std::ofstream(dir / "v.acts.yaml") << "acts_version: \"1.0\"\nspec_version: \"1.0\"\nsuites:\n"
                                        "  - id: s\n    name: s\n    tests:\n"
                                        "      - id: T-VAR\n        name: t\n        level: may\n        steps:\n"
                                        "          - id: get\n            operation: get_task\n"
                                        "            params: {id: \"{{task_id}}\"}\n";
  auto c = run_command({kConform, "check", (dir / "v.acts.yaml").string()}, 20000);
  EXPECT_EQ(c.exit_code, 2) << c.out << c.err;
  EXPECT_NE(c.err.find("v.acts.yaml:13:27: undefined variable {{task_id}} in test 'T-VAR'"), std::string::npos)
      << c.err;
  auto ok = run_command({kConform, "check", "--var", "task_id=x", (dir / "v.acts.yaml").string()}, 20000);
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  auto empty = run_command({kConform, "check", (dir / "empty").string()}, 20000);
  EXPECT_EQ(empty.exit_code, 2) << empty.out << empty.err;
  EXPECT_NE(empty.err.find("empty: no *.acts.yaml scenario file under this folder"), std::string::npos) << empty.err;
  EXPECT_EQ(empty.out.find("ok:"), std::string::npos) << empty.out;
}

TEST(RunnerCheck, MustAndShouldTestsNeedTheirNormativeSentence) {
  fs::path dir = artifacts_dir() / "unquoted";
  fs::create_directories(dir);
  std::ofstream(dir / "u.acts.yaml") << "acts_version: \"1.0\"\nspec_version: \"1.0\"\nsuites:\n"
                                        "  - id: s\n    name: s\n    tests:\n"
                                        "      - id: T-UNQUOTED\n        name: t\n        level: should\n        steps:\n"
                                        "          - id: get\n            operation: get_task\n"
                                        "            params: {id: x}\n";
  auto c = run_command({kConform, "check", (dir / "u.acts.yaml").string()}, 20000);
  EXPECT_EQ(c.exit_code, 2) << c.out << c.err;
  EXPECT_NE(c.err.find("u.acts.yaml:7:9: test 'T-UNQUOTED' is level should but has no x-requirement"), std::string::npos)
      << c.err;
  auto ok = run_command({kConform, "check", "--allow-unquoted", (dir / "u.acts.yaml").string()}, 20000);
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  // Our own suites carry every sentence.
  auto ours = run_command({kConform, "check", kSrc + "/suites"}, 60000);
  EXPECT_EQ(ours.exit_code, 0) << ours.out << ours.err.substr(0, 4000);
}

// docs/requirements-audit.md is the registry's table for suites/: it must be
// regenerated when a suite changes (the command is in its first line).
TEST(RequirementAudit, TheCommittedTableIsCurrent) {
  fs::path out = artifacts_dir() / "requirements-audit.md";
  auto r = run_command({kConform, "requirements", "--markdown", out.string(), kSrc + "/suites"}, 60000);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto slurp = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  };
  EXPECT_TRUE(slurp(out) == slurp(fs::path(kSrc) / "docs" / "requirements-audit.md"))
      << "docs/requirements-audit.md is stale: run  build/bin/a2a-conform requirements --markdown "
         "docs/requirements-audit.md suites";
}

TEST(HtmlReport, RendersInHeadlessChromium) {
  // A run with failures (a faulty agent), so the page shows failure blocks,
  // transcripts and replay commands, not just a green summary.
  fs::path out = artifacts_dir() / "html";
  auto r = run_command({kConform, "run", "--agent", kAgent + " --fault hs-ignore-session-env", "-q",
                        "--id", "STDIO-HS-*", "--report-dir", out.string(), kSrc + "/suites/stdio"},
                       120000);
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  fs::path png = artifacts_dir() / "report.png";
  auto c = run_command({"bash", kSrc + "/reports/render_check.sh", (out / "report.html").string(),
                        png.string()},
                       120000);
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  EXPECT_TRUE(fs::exists(png));
  std::ifstream html(out / "report.html");
  std::string page((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("STDIO-HS-003"), std::string::npos);
  EXPECT_NE(page.find("a2a-conform run --agent"), std::string::npos) << "replay command missing";
}

TEST(RunnerReplay, TheReportedReplayCommandRunsJustThatScenario) {
  fs::path first = artifacts_dir() / "replay-first.json";
  auto r = run_command({kConform, "run", "--agent", kAgent, "-q", "--id", "STDIO-RPC-01*", "--json",
                        first.string(), kSrc + "/suites/stdio"},
                       120000);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto report = read_json(first);
  ASSERT_GT(report["scenarios"].size(), 5u);
  std::string replay = report["scenarios"][2]["replay_command"];
  std::string id = report["scenarios"][2]["id"];
  auto argv = a2a::transport::StdioProcess::split_command(replay);
  ASSERT_TRUE(argv.ok()) << replay;
  ASSERT_EQ((*argv)[0], "a2a-conform") << replay;
  (*argv)[0] = kConform;
  fs::path again = artifacts_dir() / "replay-again.json";
  argv->insert(argv->end() - 1, {"--json", again.string()});
  auto r2 = run_command(*argv, 120000);
  ASSERT_EQ(r2.exit_code, 0) << replay << "\n" << r2.out << r2.err;
  auto second = read_json(again);
  ASSERT_EQ(second["scenarios"].size(), 1u) << replay;
  EXPECT_EQ(second["scenarios"][0]["id"], id);
}

TEST(KnownFailures, ListedFailureIsXfailAndAStaleEntryIsXpass) {
  fs::path dir = artifacts_dir() / "known";
  fs::create_directories(dir);
  fs::path known = dir / "known.yaml";
  std::ofstream(known) << "expected_failures:\n"
                          "  - id: STDIO-HS-003\n    reason: \"agent ignores A2A_SESSION_ID (tracked upstream)\"\n"
                          "  - id: STDIO-HS-001\n    reason: \"stale entry: this one passes\"\n";
  fs::path json = dir / "report.json";
  auto r = run_command({kConform, "run", "--agent", kAgent + " --fault hs-ignore-session-env", "-q",
                        "--id", "STDIO-HS-00[13]", "--known-failures", known.string(), "--json",
                        json.string(), kSrc + "/suites/stdio"},
                       120000);
  EXPECT_EQ(r.exit_code, 1) << "an XPASS must fail the run\n" << r.out << r.err;
  auto report = read_json(json);
  ASSERT_EQ(report["scenarios"].size(), 2u);
  for (const auto& s : report["scenarios"]) {
    if (s["id"] == "STDIO-HS-003") EXPECT_EQ(s["outcome"], "XFAIL") << s.dump();
    if (s["id"] == "STDIO-HS-001") EXPECT_EQ(s["outcome"], "XPASS") << s.dump();
  }
  // Without the stale entry the same run is green: the known failure no longer fails it.
  std::ofstream(known) << "expected_failures:\n  - id: STDIO-HS-003\n    reason: tracked\n";
  auto r2 = run_command({kConform, "run", "--agent", kAgent + " --fault hs-ignore-session-env", "-q",
                         "--id", "STDIO-HS-00[13]", "--known-failures", known.string(),
                         kSrc + "/suites/stdio"},
                        120000);
  EXPECT_EQ(r2.exit_code, 0) << r2.out << r2.err;
}

// A URL binding's profile (suites/profiles/websocket.yaml) is no stdio wire:
// a stdio run under it is refused before any agent starts.
TEST(RunnerCheck, AUrlBindingProfileIsNotAStdioWire) {
  auto r = run_command({kConform, "run", "--agent", kAgent, "--profile", "websocket",
                        std::string(A2A_SOURCE_DIR) + "/suites/stdio"},
                       30000);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--profile websocket describes the websocket binding, not a stdio wire"), std::string::npos)
      << r.err;
}

}  // namespace e2e_runner
