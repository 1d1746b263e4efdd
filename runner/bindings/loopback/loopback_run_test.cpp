// `a2a-conform run --binding loopback`, in process (the CLI's main with
// arguments): suites/a2a against the reference agent's core and its faults.
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "runner/cli/cli.hpp"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const std::string kSrc = A2A_SOURCE_DIR;

struct ConformRun {
  int exit_code = -1;
  std::string err;
  Json report = Json::object();  // report.json ({} when none was written)
};

ConformRun conform(std::vector<std::string> args) {
  // One file per test (parameterised names contain '/').
  std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  for (char& c : name)
    if (c == '/') c = '_';
  fs::path json = fs::temp_directory_path() / ("a2a-loopback-run-" + std::to_string(::getpid()) + "-" + name + ".json");
  std::vector<std::string> all = {"a2a-conform", "run", "--binding", "loopback", "-q", "--color", "never", "--json",
                                  json.string()};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  ConformRun r;
  ::testing::internal::CaptureStderr();
  ::testing::internal::CaptureStdout();
  r.exit_code = a2a::cli::main_with_args(static_cast<int>(argv.size()), argv.data());
  (void)::testing::internal::GetCapturedStdout();
  r.err = ::testing::internal::GetCapturedStderr();
  if (std::ifstream in(json); in) r.report = Json::parse(in, nullptr, false);
  if (!r.report.is_object()) r.report = Json::object();
  fs::remove(json);
  return r;
}

// Every result: id -> outcome; and no SKIP without its reason, no other binding.
std::map<std::string, std::string> outcomes(const ConformRun& r) {
  std::map<std::string, std::string> out;
  EXPECT_TRUE(r.report.is_object() && r.report.contains("scenarios")) << r.err;
  if (!r.report.is_object() || !r.report.contains("scenarios")) return out;
  for (const auto& s : r.report["scenarios"]) {
    std::string id = s.value("id", ""), outcome = s.value("outcome", "");
    out[id] = outcome;
    EXPECT_EQ(s.value("binding", ""), "loopback") << id;
    if (outcome == "SKIP") EXPECT_FALSE(s.value("reason", "").empty()) << id << " is skipped without a reason";
  }
  return out;
}

std::set<std::string> failing(const std::map<std::string, std::string>& outcomes) {
  std::set<std::string> out;
  for (const auto& [id, o] : outcomes)
    if (o != "PASS" && o != "SKIP" && o != "INFORMATIONAL") out.insert(id);
  return out;
}

TEST(LoopbackRun, A2aSuitePassesOnTheInProcessAgentWithReasonedSkips) {
  ConformRun r = conform({"-j", "4", kSrc + "/suites/a2a"});
  auto o = outcomes(r);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(failing(o).empty()) << "first: " << (failing(o).empty() ? "" : *failing(o).begin() + " " +
                                                                                  o[*failing(o).begin()]);
  size_t passed = 0;
  for (const auto& [id, outcome] : o) passed += outcome == "PASS";
  EXPECT_GE(passed, 20u) << "the abstract-operation scenarios run, not only skip";
  // Push delivery is not wired: the push scenarios skip, saying why.
  for (const auto& s : r.report.value("scenarios", Json::array()))
    if (s.value("id", "") == "A2A-PUSH-001")
      EXPECT_NE(s.value("reason", "").find("pushNotifications"), std::string::npos) << s.dump();
}

// The official ACTS files, as tests/e2e/acts_http_test.cpp runs them over
// HTTP: every test that applies passes, or is a known ACTS-vs-spec
// disagreement (fixtures/acts-known-failures.yaml, docs/acts.md).
TEST(LoopbackRun, OfficialActsFilesPassOrAreKnownSpecDisagreements) {
  const std::string acts = std::string(A2A_SHARED_DIR) + "/acts";
  ASSERT_TRUE(fs::exists(acts)) << acts << " is missing";
  ConformRun r = conform({"-j", "4", "--known-failures", kSrc + "/fixtures/acts-known-failures.yaml", acts});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // SHOULD/MAY tests that contradict the spec (acts_http_test.cpp's list),
  // and PUSH-CFG-004 (MAY), which runs only where the card declares no push
  // notifications: it wants UnsupportedOperationError, spec §3.3.4
  // PushNotificationNotSupportedError.
  const std::set<std::string> acts_wrong = {"CORE-ERR-007", "DM-ART-003", "DM-ART-004", "REST-PD-001",
                                            "VER-NEG-002", "PUSH-CFG-004"};
  int ran = 0;
  for (const auto& [id, outcome] : outcomes(r)) {
    if (outcome == "SKIP") continue;
    ++ran;
    bool ok = outcome == "PASS" || outcome == "XFAIL" ||
              ((outcome == "NON_STRICT" || outcome == "INFORMATIONAL") && acts_wrong.count(id));
    EXPECT_TRUE(ok) << id << " " << outcome;
  }
  EXPECT_GT(ran, 50) << "too few ACTS tests ran";
}

// The fault, and the suites/a2a scenarios it must fail through loopback
// with a text of their reason: fixtures/fault-matrix-http.yaml's rows minus
// those of push scenarios (they SKIP here: A2A-PUSH-005, A2A-PUSH-MULTI-001,
// A2A-CORE-014) and of raw REST / JSON-RPC steps (not applicable here).
struct FaultCase {
  std::string fault;
  std::map<std::string, std::string> fails;  // id -> text of its reason
};

void PrintTo(const FaultCase& c, std::ostream* os) { *os << c.fault; }

class LoopbackFaultRun : public ::testing::TestWithParam<FaultCase> {};

TEST_P(LoopbackFaultRun, FailsExactlyTheScenariosThatCheckItForTheirReason) {
  ConformRun r = conform({"-j", "4", "--loopback-fault", GetParam().fault, kSrc + "/suites/a2a"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  std::set<std::string> expected;
  for (const auto& [id, reason] : GetParam().fails) expected.insert(id);
  EXPECT_EQ(failing(outcomes(r)), expected);
  for (const auto& s : r.report.value("scenarios", Json::array())) {
    auto it = GetParam().fails.find(s.value("id", ""));
    if (it == GetParam().fails.end()) continue;
    EXPECT_NE(s.value("reason", "").find(it->second), std::string::npos) << s.value("reason", "");
    // The replay command brings the same in-process agent back, fault and all.
    EXPECT_NE(s.value("replay_command", "").find("a2a-conform run --binding loopback --loopback-fault " +
                                                  GetParam().fault),
              std::string::npos)
        << s.value("replay_command", "");
  }
}

INSTANTIATE_TEST_SUITE_P(
    SemanticFaults, LoopbackFaultRun,
    ::testing::Values(FaultCase{"sem-cancel-noop", {{"A2A-CORE-009", "TASK_STATE_CANCELED"}}},
                      FaultCase{"sem-list-no-next-token",
                                {{"A2A-CORE-007", "nextPageToken: missing"}, {"A2A-CORE-008", "nextPageToken: missing"}}},
                      FaultCase{"err-not-found-code", {{"A2A-CORE-005", "expected -32001"}}}),
    [](const auto& info) {
      std::string n = info.param.fault;
      for (char& c : n)
        if (c == '-') c = '_';
      return n;
    });

// One agent serves every worker, as one process serves a run: each scenario
// scopes itself to its own tasks, so the verdicts do not depend on -j.
TEST(LoopbackRun, VerdictsAreTheSameAtJ1AndJ8) {
  auto one = outcomes(conform({"-j", "1", kSrc + "/suites/a2a"}));
  auto eight = outcomes(conform({"-j", "8", kSrc + "/suites/a2a"}));
  EXPECT_FALSE(one.empty());
  EXPECT_EQ(one, eight);
}

TEST(LoopbackRun, WireFaultIsRefusedWithExitTwoSayingWhy) {
  ConformRun r = conform({"--loopback-fault", "http-sse-close-early", kSrc + "/suites/a2a"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("http-sse-close-early"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("HTTP wire"), std::string::npos) << r.err;
  EXPECT_FALSE(r.report.contains("scenarios")) << "nothing ran";
}

TEST(LoopbackRun, LoopbackWithAUrlIsAUsageError) {
  ConformRun r = conform({"--url", "http://127.0.0.1:1", kSrc + "/suites/a2a"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("inside the runner"), std::string::npos) << r.err;
}

}  // namespace
