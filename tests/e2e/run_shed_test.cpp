// `a2a-conform run` against an agent that declines requests (docs/runner.md
// "When the agent declines a request"), with the shed-* modes of
// tests/hostile/hostile_http.cpp: a 503 once is retried and the scenario
// PASSes; a 503 every time is ERROR with a reason that names it, not FAIL;
// JSON-RPC -32000 is not retried and still FAILs; the bundle of a retried
// run regrades with its verdicts reproduced (every attempt is in the record).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/e2e/http_peer.hpp"
#include "tests/e2e/run_command.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_run_shed {

namespace fs = std::filesystem;
using a2a::testing::CommandResult;
using a2a::testing::run_command;
using Json = nlohmann::json;

namespace {

const std::string kConform = A2A_CONFORM;
const std::string kHostileHttp = A2A_HOSTILE_HTTP;
const std::string kSrc = A2A_SOURCE_DIR;
const std::string kScenarios = kSrc + "/fixtures/scenarios/shed-run.acts.yaml";

fs::path fresh_dir(const std::string& name) { return a2a::testing::fresh_artifact_dir(name); }
Json read_report(const fs::path& p) { return a2a::testing::read_json_file(p); }

struct ShedRun {
  CommandResult cmd;
  Json report;
};

// The two scenarios of shed-run.acts.yaml against a2a-hostile-http MODE, -j2.
ShedRun run_against(const std::string& mode, const std::vector<std::string>& extra = {}) {
  a2a::testing::HttpPeer agent({kHostileHttp, mode});
  EXPECT_TRUE(agent.ok()) << agent.error();
  fs::path json = fresh_dir("run-shed-" + mode) / "report.json";
  std::vector<std::string> argv{kConform, "run", "--url", agent.url(), kScenarios, "-j2", "-q",
                                "--color", "never", "--json", json.string()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  ShedRun r{run_command(argv, 120000), Json()};
  r.report = read_report(json);
  return r;
}

TEST(RunShed, A503OnceIsRetriedAndTheScenarioPasses) {
  auto r = run_against("shed-503-once");
  ASSERT_FALSE(r.cmd.timed_out);
  EXPECT_EQ(r.cmd.exit_code, 0) << r.cmd.out << r.cmd.err;
  ASSERT_TRUE(r.report.is_object() && r.report.contains("scenarios")) << r.cmd.out << r.cmd.err;
  ASSERT_EQ(r.report["scenarios"].size(), 2u);
  for (const auto& s : r.report["scenarios"]) EXPECT_EQ(s["outcome"], "PASS") << s.dump();
}

TEST(RunShed, A503EveryTimeIsErrorNotFailWithTheReason) {
  auto r = run_against("shed-503-always");
  ASSERT_FALSE(r.cmd.timed_out);
  EXPECT_EQ(r.cmd.exit_code, 2) << r.cmd.out << r.cmd.err;  // ERROR: nothing was tested
  ASSERT_TRUE(r.report.is_object() && r.report.contains("scenarios")) << r.cmd.out << r.cmd.err;
  ASSERT_EQ(r.report["scenarios"].size(), 2u);
  for (const auto& s : r.report["scenarios"]) {
    EXPECT_EQ(s["outcome"], "ERROR") << s.dump();
    EXPECT_NE(s.value("reason", "").find("the agent declined the request 3 times (HTTP 503): nothing was tested"),
              std::string::npos)
        << s.dump();
  }
}

TEST(RunShed, JsonRpcMinus32000IsNotRetriedAndStillFails) {
  auto r = run_against("shed-32000-always");
  ASSERT_FALSE(r.cmd.timed_out);
  EXPECT_EQ(r.cmd.exit_code, 1) << r.cmd.out << r.cmd.err;
  ASSERT_TRUE(r.report.is_object() && r.report.contains("scenarios")) << r.cmd.out << r.cmd.err;
  ASSERT_EQ(r.report["scenarios"].size(), 2u);
  for (const auto& s : r.report["scenarios"]) {
    EXPECT_EQ(s["outcome"], "FAIL") << s.dump();
    EXPECT_EQ(s.value("reason", "").find("declined"), std::string::npos) << s.dump();
  }
}

// A run against MODE with --bundle exits `exit_code`, and `verify --regrade`
// of its bundle reproduces both scenarios' verdicts.
void expect_bundle_regrades(const std::string& mode, int exit_code) {
  fs::path bundle = fresh_dir("run-shed-bundle-" + mode) / "bundle";
  auto r = run_against(mode, {"--bundle", bundle.string()});
  ASSERT_EQ(r.cmd.exit_code, exit_code) << r.cmd.out << r.cmd.err;
  auto regrade = run_command({kConform, "verify", bundle.string(), "--regrade"}, 120000);
  EXPECT_EQ(regrade.exit_code, 0) << regrade.out << regrade.err;
  EXPECT_NE(regrade.out.find("regrade: 2 verdict(s) reproduced, 0 not reproduced, 0 not re-derived"),
            std::string::npos)
      << regrade.out;
}

TEST(RunShed, TheBundleOfARetriedRunRegradesWithEveryVerdictReproduced) {
  expect_bundle_regrades("shed-503-once", 0);
  // And of a run that was declined throughout: the ERRORs are reproduced too.
  expect_bundle_regrades("shed-503-always", 2);
}

}  // namespace

}  // namespace e2e_run_shed
