// The suite against a correct agent unlike ours: `a2a-ref-agent
// --legal-variation` takes, wherever the spec leaves a choice, the other
// legal one (docs/legal-variation.md). Every scenario of every binding and
// profile must PASS or SKIP: a FAIL, TIMEOUT or ERROR is a scenario stricter
// than the spec (or a wrong variation). Each failure is listed with its
// binding and reason. Written before the suite was fixed: it fails until the
// scenarios stop requiring the reference agent's own choices.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "tests/e2e/http_peer.hpp"
#include "tests/e2e/run_command.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_legal_variation {

namespace fs = std::filesystem;
using a2a::testing::run_command;
using Json = nlohmann::json;

namespace {

const std::string kConform = A2A_CONFORM;
const std::string kAgent = A2A_REF_AGENT;
const std::string kSrc = A2A_SOURCE_DIR;
// Each run (the whole suites/ tree; scenarios of other bindings are skipped)
// takes 10-20 s at -j4: the variation's 5 s long-running task and 100 ms
// event gaps dominate. The bound is for a loaded CI machine.
constexpr int kRunTimeoutMs = 300000;

fs::path artifacts_dir() {
  fs::path d = fs::path(A2A_BINARY_DIR) / "test-artifacts";
  fs::create_directories(d);
  return d;
}

struct Outcomes {
  int pass = 0;
  int skip = 0;
  std::string bad;    // one line per FAIL / TIMEOUT / ERROR
  std::string other;  // NON_STRICT and other grades: reported, not failed
};

std::string line_of(const Json& s) {
  return "  " + s.value("outcome", "") + " " + s.value("id", "?") + " [" + s.value("binding", "") +
         "]: " + s.value("reason", "") + "\n";
}

Outcomes read_outcomes(const fs::path& report) {
  Outcomes o;
  std::ifstream in(report);
  if (!in) {
    o.bad = "no report at " + report.string();
    return o;
  }
  Json j = Json::parse(in);
  for (const auto& s : j["scenarios"]) {
    std::string outcome = s.value("outcome", "");
    if (outcome == "PASS") {
      ++o.pass;
    } else if (outcome == "SKIP") {
      ++o.skip;
    } else if (outcome == "FAIL" || outcome == "TIMEOUT" || outcome == "ERROR") {
      o.bad += line_of(s);
    } else {
      o.other += line_of(s);
    }
  }
  return o;
}

// Runs a2a-conform with `args` (target and paths), writing report.json to `name`.
// No behaviours file of ours is given on purpose: the variation behaves as an
// ACTS §11 agent (tck-long-running 5000 ms, no private delay=NNN), so the
// runner's ACTS defaults are the ones that describe it.
Outcomes run_suites(const std::string& name, std::vector<std::string> args) {
  fs::path json = artifacts_dir() / ("legal-variation-" + name + ".json");
  fs::remove(json);
  std::vector<std::string> argv = {kConform, "run", "-j4", "-q", "--color", "never", "--json", json.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = run_command(argv, kRunTimeoutMs);
  Outcomes o = read_outcomes(json);
  if (r.timed_out) o.bad += "  the run did not finish within " + std::to_string(kRunTimeoutMs) + " ms\n";
  if (!o.other.empty()) std::cout << "graded below PASS (not failed):\n" << o.other;
  return o;
}

}  // namespace

TEST(LegalVariation, StdioP46SuitesHaveNoFailure) {
  Outcomes o = run_suites("p46", {"--agent", kAgent + " -q --legal-variation", kSrc + "/suites"});
  EXPECT_GT(o.pass, 80);
  EXPECT_TRUE(o.bad.empty()) << "scenarios that fail a legal agent (docs/legal-variation.md):\n" << o.bad;
}

TEST(LegalVariation, StdioJsonSuitesHaveNoFailure) {
  Outcomes o = run_suites("stdio-json", {"--profile", "stdio-json", "--agent",
                                         kAgent + " -q --profile stdio-json --legal-variation", kSrc + "/suites"});
  EXPECT_GT(o.pass, 80);
  EXPECT_TRUE(o.bad.empty()) << "scenarios that fail a legal agent (docs/legal-variation.md):\n" << o.bad;
}

TEST(LegalVariation, HttpJsonRpcAndRestSuitesHaveNoFailure) {
  a2a::testing::HttpPeer agent({kAgent, "--http", "0", "-q", "--legal-variation"});
  ASSERT_TRUE(agent.ok()) << agent.error();
  Outcomes o = run_suites("http", {"--url", agent.url(), "--header", "Authorization: Bearer a2a-conform",
                                   kSrc + "/suites"});
  EXPECT_GT(o.pass, 60);
  EXPECT_TRUE(o.bad.empty()) << "scenarios that fail a legal agent (docs/legal-variation.md):\n" << o.bad;
}

// A2A 0.3 JSON-RPC served beside 1.0 (--serve-0.3): the 0.3 interface only
// (REST is served as 1.0 alone: --binding keeps the runner off rest@0.3).
TEST(LegalVariation, HttpJsonRpc03SuitesHaveNoFailure) {
  a2a::testing::HttpPeer agent({kAgent, "--http", "0", "-q", "--serve-0.3", "--legal-variation"});
  ASSERT_TRUE(agent.ok()) << agent.error();
  Outcomes o = run_suites("http-v03", {"--url", agent.url(), "--binding", "jsonrpc", "--a2a-version", "0.3",
                                       "--header", "Authorization: Bearer a2a-conform", kSrc + "/suites"});
  EXPECT_GT(o.pass, 20);
  EXPECT_TRUE(o.bad.empty()) << "scenarios that fail a legal agent (docs/legal-variation.md):\n" << o.bad;
}

}  // namespace e2e_legal_variation
