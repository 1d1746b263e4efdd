// The runner against URL agents: the real a2a-conform binary against the
// reference agent serving JSON-RPC and REST over HTTP (`--http 0`).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/e2e/http_peer.hpp"
#include "tests/e2e/run_command.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_http_runner {

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

// The reference agent on an HTTP port the system picks; stopped at the end.
class HttpAgent : public a2a::testing::HttpPeer {
 public:
  HttpAgent() : HttpPeer({kAgent, "--http", "0", "-q"}) {}
};

}  // namespace

TEST(HttpRunner, SmokeSuitePassesOnBothBindingsOfTheReferenceAgent) {
  HttpAgent agent;
  ASSERT_TRUE(agent.url().starts_with("http://127.0.0.1:")) << "agent did not say where it listens";
  fs::path json = artifacts_dir() / "http-smoke.json";
  auto r = run_command({kConform, "run", "--url", agent.url(), "-q", "--color", "never", "--json", json.string(),
                        kSrc + "/suites/http/smoke.acts.yaml"},
                       120000);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("binding jsonrpc: " + agent.url()), std::string::npos) << r.out;
  auto report = read_json(json);
  EXPECT_EQ(report["bindings"], (Json{"jsonrpc", "rest"}));
  std::map<std::string, int> passed;
  for (const auto& s : report["scenarios"]) {
    EXPECT_EQ(s["outcome"], "PASS") << s["id"] << " [" << s["binding"] << "]: " << s.value("reason", "");
    if (s["outcome"] == "PASS") ++passed[s["binding"].get<std::string>()];
  }
  EXPECT_EQ(passed["jsonrpc"], 4);
  EXPECT_EQ(passed["rest"], 4);
}

TEST(HttpRunner, ReplayCommandRunsTheScenarioOnItsBindingOnly) {
  HttpAgent agent;
  ASSERT_FALSE(agent.url().empty());
  fs::path first = artifacts_dir() / "http-replay-first.json";
  auto r = run_command({kConform, "run", "--url", agent.url(), "-q", "--id", "HTTP-SMOKE-004", "--json",
                        first.string(), kSrc + "/suites/http/smoke.acts.yaml"},
                       60000);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto report = read_json(first);
  ASSERT_EQ(report["scenarios"].size(), 2u);
  const auto& rest = report["scenarios"][1];
  ASSERT_EQ(rest["binding"], "rest");
  auto argv = a2a::transport::StdioProcess::split_command(rest["replay_command"].get<std::string>());
  ASSERT_TRUE(argv.ok());
  (*argv)[0] = kConform;
  fs::path again = artifacts_dir() / "http-replay-again.json";
  argv->insert(argv->begin() + 2, {"-q", "--json", again.string()});
  auto r2 = run_command(*argv, 60000);
  ASSERT_EQ(r2.exit_code, 0) << r2.out << r2.err;
  auto second = read_json(again);
  ASSERT_EQ(second["scenarios"].size(), 1u);
  EXPECT_EQ(second["scenarios"][0]["binding"], "rest");
  EXPECT_EQ(second["scenarios"][0]["id"], "HTTP-SMOKE-004");
}

TEST(HttpRunner, NothingListeningExitsTwoSayingWhatFailed) {
  auto r = run_command({kConform, "run", "--url", "http://127.0.0.1:1", "-q", kSrc + "/suites/http/smoke.acts.yaml"},
                       60000);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("GET http://127.0.0.1:1/.well-known/agent-card.json failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--binding"), std::string::npos) << r.err;
}

TEST(HttpRunner, ForcedBindingWithoutACardRunsAndFailsTheDiscoveryScenario) {
  HttpAgent agent;
  ASSERT_FALSE(agent.url().empty());
  // A path under the agent where no card is served: discovery fails, --binding goes on.
  fs::path json = artifacts_dir() / "http-forced.json";
  auto r = run_command({kConform, "run", "--url", agent.url() + "/nowhere", "--binding", "jsonrpc", "-q", "--id",
                        "HTTP-SMOKE-001", "--json", json.string(), kSrc + "/suites/http/smoke.acts.yaml"},
                       60000);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("testing " + agent.url() + "/nowhere itself as the jsonrpc interface"), std::string::npos)
      << r.out;
  auto report = read_json(json);
  ASSERT_EQ(report["scenarios"].size(), 1u);
  EXPECT_EQ(report["scenarios"][0]["outcome"], "FAIL");
}

// --agent and --url together are two targets, run in turn; a URL whose card
// cannot be had is that target's harness error (exit 2), the other still runs.
TEST(HttpRunner, AgentAndUrlTogetherAreTwoTargets) {
  auto r = run_command({kConform, "run", "--agent", kAgent, "--url", "http://127.0.0.1:1", "-q", "--color", "never",
                        "--id", "HTTP-SMOKE-001", kSrc + "/suites/http/smoke.acts.yaml"},
                       60000);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.out.find("=== target 1/2: agent " + kAgent), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("=== target 2/2: agent http://127.0.0.1:1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("targets (2):"), std::string::npos) << r.out;
}

}  // namespace e2e_http_runner
