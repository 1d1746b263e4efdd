// Verdicts must not change with -j (issue 13, docs/behaviors.md): the whole
// suite at -j1 and at -j8 against the same agent gives the same outcome for
// every (scenario, binding). A scenario that reads state other scenarios
// create (a ListTasks count, say) or a wait tuned to an idle machine shows up
// here as a difference.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "tests/e2e/http_peer.hpp"
#include "tests/e2e/run_command.hpp"
#include "tests/e2e/sanitized.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_parallel_verdicts {

using a2a::testing::HttpPeer;
using a2a::testing::run_command;

namespace fs = std::filesystem;

namespace {

const std::string kConform = A2A_CONFORM;
const std::string kAgent = A2A_REF_AGENT;
const std::string kSrc = A2A_SOURCE_DIR;

using Outcomes = std::map<std::string, std::string>;  // "id@binding" -> "OUTCOME: reason head"

Outcomes run_at(const std::vector<std::string>& target, int jobs, const std::string& tag) {
  fs::path dir = fs::path(A2A_BINARY_DIR) / "test-artifacts" / "parallel";
  fs::create_directories(dir);
  fs::path json = dir / (tag + "-j" + std::to_string(jobs) + ".json");
  fs::remove(json);
  std::vector<std::string> argv = {kConform, "run", "-q", "--color", "never", "-j", std::to_string(jobs),
                                   "--json", json.string()};
  argv.insert(argv.end(), target.begin(), target.end());
  argv.push_back(kSrc + "/suites");
  auto r = run_command(argv, 600000);
  EXPECT_FALSE(r.timed_out) << tag << " -j" << jobs;
  Outcomes out;
  std::ifstream in(json);
  auto j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object()) {
    ADD_FAILURE() << tag << " -j" << jobs << ": no report; exit " << r.exit_code << "\n" << r.err.substr(0, 2000);
    return out;
  }
  for (const auto& s : j["scenarios"]) {
    std::string outcome = s.value("outcome", "");
    // SKIP reasons are the same whatever -j is; for the rest the outcome is
    // what must not change (a reason may name a port or a time).
    out[s.value("id", "") + "@" + s.value("binding", "")] =
        outcome == "SKIP" ? outcome + ": " + s.value("reason", "") : outcome;
  }
  return out;
}

void expect_same(const Outcomes& a, const Outcomes& b, const std::string& tag) {
  ASSERT_FALSE(a.empty()) << tag;
  EXPECT_EQ(a.size(), b.size()) << tag;
  int diffs = 0;
  for (const auto& [key, outcome] : a) {
    auto it = b.find(key);
    std::string other = it == b.end() ? "(missing)" : it->second;
    if (other != outcome && ++diffs <= 20) ADD_FAILURE() << tag << ": " << key << " is " << outcome << " at -j1 but " << other << " at -j8";
  }
  EXPECT_EQ(diffs, 0) << tag;
}

}  // namespace

TEST(ParallelVerdicts, StdioP46SameAtJ1AndJ8) {
  std::vector<std::string> target = {"--agent", kAgent};
  expect_same(run_at(target, 1, "p46"), run_at(target, a2a::e2e::kSanitized ? 4 : 8, "p46"), "p46");
}

TEST(ParallelVerdicts, HttpSameAtJ1AndJ8) {
  HttpPeer agent({kAgent, "--http", "0", "-q"});
  ASSERT_TRUE(agent.ok()) << agent.error();
  std::vector<std::string> target = {"--url", agent.url(), "--header", "Authorization: Bearer a2a-conform"};
  expect_same(run_at(target, 1, "http"), run_at(target, a2a::e2e::kSanitized ? 4 : 8, "http"), "http");
}

}  // namespace e2e_parallel_verdicts
