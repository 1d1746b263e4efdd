// A broken target is diagnosed at once (docs/behaviors.md "A broken target"):
// the scenarios after two identical start / handshake / connect failures are
// reported with that cause without being run, and every report opens with
// the diagnosis. The bound on time follows from the count of scenarios that
// waited, which these tests check (a timed assertion would be a flaky test).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/e2e/run_command.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_broken_target {

using a2a::testing::run_command;

namespace fs = std::filesystem;

namespace {

const std::string kConform = A2A_CONFORM;
const std::string kAgent = A2A_REF_AGENT;
const std::string kSrc = A2A_SOURCE_DIR;

struct Broken {
  nlohmann::json report;
  std::string html;
  std::string console;
  long elapsed_ms = 0;
};

Broken run_broken(const std::vector<std::string>& target, const std::string& tag, int exit_code = 1) {
  fs::path dir = fs::path(A2A_BINARY_DIR) / "test-artifacts" / "broken" / tag;
  fs::remove_all(dir);
  std::vector<std::string> argv = {kConform, "run", "-q", "--color", "never", "--report-dir", dir.string()};
  argv.insert(argv.end(), target.begin(), target.end());
  argv.push_back(kSrc + "/suites");
  auto r = run_command(argv, 120000);
  Broken b;
  b.console = r.out;
  b.elapsed_ms = r.elapsed_ms;
  EXPECT_EQ(r.exit_code, exit_code) << r.out.substr(0, 2000) << r.err;
  std::ifstream in(dir / "report.json");
  b.report = nlohmann::json::parse(in, nullptr, false);
  std::ifstream h(dir / "report.html");
  b.html.assign(std::istreambuf_iterator<char>(h), {});
  return b;
}

// Scenarios that really ran against the target (not skipped, not short-cut).
int waited(const nlohmann::json& report) {
  int n = 0;
  for (const auto& s : report["scenarios"]) {
    std::string reason = s.value("reason", "");
    if (s["outcome"] != "SKIP" && reason.rfind("not run: the target is broken", 0) != 0) ++n;
  }
  return n;
}

}  // namespace

TEST(BrokenTarget, AnAgentThatNeverHandshakesIsDiagnosedAfterTwoWaits) {
  auto b = run_broken({"--agent", kAgent + " --fault hs-missing"}, "no-handshake");
  ASSERT_TRUE(b.report.is_object());
  std::string diagnosis = b.report.value("diagnosis", "");
  EXPECT_NE(diagnosis.find("stdio: the agent never completed its handshake"), std::string::npos) << diagnosis;
  // The card probe is the first strike, one scenario the second; the rest
  // (about a hundred) are reported without running.
  EXPECT_LE(waited(b.report), 1) << diagnosis;
  int not_run = 0;
  for (const auto& s : b.report["scenarios"])
    not_run += s.value("reason", "").rfind("not run: the target is broken on this binding (handshake", 0) == 0;
  EXPECT_GT(not_run, 50);
  EXPECT_NE(b.html.find("Diagnosis: the target is broken."), std::string::npos);
  EXPECT_NE(b.console.find("DIAGNOSIS  stdio: the agent never completed its handshake"), std::string::npos);
  std::cout << "diagnosed in " << b.elapsed_ms << " ms\n";
}

TEST(BrokenTarget, AnAgentThatCannotStartIsOneDiagnosis) {
  // Found before the first scenario (docs/runner.md "A target that cannot be
  // started"): nothing is started, every scenario is SKIP with the cause, the
  // diagnosis names the command once, and the run exits 1 (not conformant).
  auto b = run_broken({"--agent", "/nonexistent/agent --stdio"}, "no-start", 1);
  ASSERT_TRUE(b.report.is_object());
  std::string diagnosis = b.report.value("diagnosis", "");
  EXPECT_NE(diagnosis.find("stdio: the agent cannot be started: '/nonexistent/agent'"), std::string::npos) << diagnosis;
  EXPECT_NE(diagnosis.find("(command: /nonexistent/agent --stdio)"), std::string::npos) << diagnosis;
  EXPECT_EQ(waited(b.report), 0);
  // Every scenario is SKIP: "not run", or skipped for its own reason first
  // (a behaviour or capability the target does not declare).
  int not_run = 0;
  for (const auto& s : b.report["scenarios"]) {
    EXPECT_EQ(s["outcome"], "SKIP") << s.dump();
    not_run += s.value("reason", "").rfind("not run: the agent cannot be started", 0) == 0;
  }
  EXPECT_GT(not_run, 50);
  // One diagnosis on the console, no block per scenario.
  size_t mentions = 0;
  for (size_t at = b.console.find("/nonexistent/agent"); at != std::string::npos;
       at = b.console.find("/nonexistent/agent", at + 1))
    ++mentions;
  EXPECT_LE(mentions, 4u) << b.console.substr(0, 3000);  // header, diagnosis (twice), "tested:"
  EXPECT_EQ(b.console.find("ERROR  "), std::string::npos) << b.console.substr(0, 3000);
}

TEST(BrokenTarget, AUrlThatRefusesConnectionsIsDiagnosed) {
  // Port 9 (discard): nothing listens on it on loopback.
  auto b = run_broken({"--url", "http://127.0.0.1:9", "--binding", "jsonrpc"}, "refused");
  ASSERT_TRUE(b.report.is_object());
  EXPECT_NE(b.report.value("diagnosis", "").find("jsonrpc: the interface refused or failed every connection"),
            std::string::npos)
      << b.report.value("diagnosis", "");
  EXPECT_LE(waited(b.report), 2);
}

}  // namespace e2e_broken_target
