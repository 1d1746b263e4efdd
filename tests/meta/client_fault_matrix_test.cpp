// Meta-tests of the client suites: for every fault of a2a-ref-client listed in
// fixtures/client-fault-matrix.yaml, run the client suites (stdio, JSON-RPC, REST)
// against the faulty client and assert that exactly the listed scenarios fail,
// for the stated reason, and every other one passes; and that every client
// scenario is failed by some fault. The same for the stdio-json profile with
// fixtures/client-fault-matrix-stdio-json.yaml (stdio only, runner and client
// both with --profile stdio-json). A reason may list alternatives: "a | b".
#include <gtest/gtest.h>

#include <set>

#include <yaml-cpp/yaml.h>

#include "runner/scenario/selection.hpp"
#include "tests/e2e/client_run.hpp"

namespace {

struct Row {
  std::string fault;
  std::vector<std::string> fails;
  std::string reason;
};
void PrintTo(const Row& r, std::ostream* os) { *os << r.fault; }

bool reason_matches(const std::string& reason, const std::string& want) {
  for (size_t at = 0;;) {
    size_t bar = want.find(" | ", at);
    if (reason.find(want.substr(at, bar == std::string::npos ? bar : bar - at)) != std::string::npos) return true;
    if (bar == std::string::npos) return false;
    at = bar + 3;
  }
}

std::vector<Row> load_rows(const std::string& file = "client-fault-matrix.yaml") {
  std::vector<Row> out;
  try {
    for (const auto& f : YAML::LoadFile(std::string(A2A_SOURCE_DIR) + "/fixtures/" + file)["faults"])
      out.push_back({f["fault"].as<std::string>(), f["fails"].as<std::vector<std::string>>(),
                     f["reason"].as<std::string>()});
  } catch (const YAML::Exception&) {
  }
  return out;
}

const std::string kSuites = std::string(A2A_SOURCE_DIR) + "/suites/client";

class ClientFaultMatrix : public ::testing::TestWithParam<Row> {};

}  // namespace

namespace {

// One run's results against a row: listed scenarios fail for the stated
// reason (a SHOULD scenario that does not pass is NON_STRICT, e.g.
// CLIENT-SJ-STREAM-002), all others pass; the ids that failed go to `failed`.
void check_run(const Row& row, const nlohmann::json& report, const std::string& label, std::set<std::string>& failed) {
  for (const auto& s : report["scenarios"]) {
    std::string id = s["id"], outcome = s["outcome"], reason = s.value("reason", "");
    if (outcome == "SKIP") continue;
    bool listed = false;
    for (const auto& g : row.fails) listed = listed || a2a::scenario::glob_match(g, id);
    if (!listed) {
      EXPECT_EQ(outcome, "PASS") << id << " should be unaffected by " << row.fault << label << ": " << reason;
      continue;
    }
    failed.insert(id);
    EXPECT_TRUE(outcome == "FAIL" || (outcome == "NON_STRICT" && s["level"] == "should"))
        << id << " under " << row.fault << label << ": " << outcome << ": " << reason;
    EXPECT_TRUE(reason_matches(reason, row.reason)) << id << " failed for another reason: " << reason;
  }
}

// Every glob of the row matched a scenario that failed.
void check_globs_matched(const Row& row, const std::set<std::string>& failed, const std::string& label) {
  for (const auto& g : row.fails) {
    bool matched = false;
    for (const auto& id : failed) matched = matched || a2a::scenario::glob_match(g, id);
    EXPECT_TRUE(matched) << label << "matrix entry " << g << " of " << row.fault << " matches no scenario";
  }
}

}  // namespace

TEST_P(ClientFaultMatrix, ListedScenariosFailForTheStatedReasonAndAllOthersPass) {
  const Row& row = GetParam();
  std::set<std::string> failed;
  for (const std::string binding : {"stdio", "jsonrpc", "rest"}) {
    auto r = a2a::testing::run_client_suite(binding, kSuites, row.fault, "--fault " + row.fault);
    ASSERT_TRUE(r.report.is_object()) << r.cmd.out << r.cmd.err;
    check_run(row, r.report, " (" + binding + ")", failed);
  }
  check_globs_matched(row, failed, "");
}

INSTANTIATE_TEST_SUITE_P(Faults, ClientFaultMatrix, ::testing::ValuesIn(load_rows()), [](const auto& info) {
  std::string n = info.param.fault;
  for (auto& ch : n)
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
});

class ClientFaultMatrixStdioJson : public ::testing::TestWithParam<Row> {};

TEST_P(ClientFaultMatrixStdioJson, ListedScenariosFailForTheStatedReasonAndAllOthersPass) {
  const Row& row = GetParam();
  std::set<std::string> failed;
  auto r = a2a::testing::run_client_suite("stdio", kSuites, row.fault, "--fault " + row.fault, "stdio-json");
  ASSERT_TRUE(r.report.is_object()) << r.cmd.out << r.cmd.err;
  check_run(row, r.report, " (stdio-json)", failed);
  check_globs_matched(row, failed, "stdio-json ");
}

INSTANTIATE_TEST_SUITE_P(Faults, ClientFaultMatrixStdioJson,
                         ::testing::ValuesIn(load_rows("client-fault-matrix-stdio-json.yaml")), [](const auto& info) {
                           std::string n = info.param.fault;
                           for (auto& ch : n)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

// Every scenario the clean client runs under stdio-json (not SKIP) is failed
// by some fault of the stdio-json matrix.
TEST(ClientFaultMatrixCoverage, EveryStdioJsonClientScenarioIsFailedBySomeFault) {
  auto rows = load_rows("client-fault-matrix-stdio-json.yaml");
  ASSERT_FALSE(rows.empty());
  auto r = a2a::testing::run_client_suite("stdio", kSuites, "coverage", "", "stdio-json");
  ASSERT_TRUE(r.report.is_object()) << r.cmd.out << r.cmd.err;
  int n = 0;
  for (const auto& s : r.report["scenarios"]) {
    if (s["outcome"] == "SKIP") continue;
    std::string id = s["id"];
    bool covered = false;
    for (const auto& row : rows)
      for (const auto& g : row.fails) covered = covered || a2a::scenario::glob_match(g, id);
    EXPECT_TRUE(covered) << id << " is failed by no client fault under stdio-json";
    ++n;
  }
  EXPECT_GE(n, 23);
}

TEST(ClientFaultMatrixCoverage, EveryClientScenarioAndEveryClientFaultIsInTheMatrix) {
  auto rows = load_rows();
  auto json_rows = load_rows("client-fault-matrix-stdio-json.yaml");
  auto listed = a2a::testing::run_command({A2A_CONFORM, "list", kSuites}, 60000);
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  std::istringstream lines(listed.out);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    std::string id = line.substr(0, line.find(' '));
    bool covered = false;
    for (const auto* m : {&rows, &json_rows})
      for (const auto& r : *m)
        for (const auto& g : r.fails) covered = covered || a2a::scenario::glob_match(g, id);
    EXPECT_TRUE(covered) << id << " is failed by no client fault";
    ++n;
  }
  EXPECT_GE(n, 29);
  auto faults = a2a::testing::run_command({A2A_REF_CLIENT, "--list-faults"}, 20000);
  ASSERT_EQ(faults.exit_code, 0) << faults.err;
  std::istringstream fl(faults.out);
  while (std::getline(fl, line)) {
    std::string name = line.substr(0, line.find(' '));
    bool in = false;
    for (const auto* m : {&rows, &json_rows})
      for (const auto& r : *m) in = in || r.fault == name;
    EXPECT_TRUE(in) << "client fault " << name << " has no row in fixtures/client-fault-matrix*.yaml";
  }
}
