// Meta-tests: the suite can fail. For every fault of a2a-ref-agent listed in
// fixtures/fault-matrix.yaml, run the stdio suites against the faulty agent and
// assert that exactly the listed scenarios do not pass (for the stated reason)
// and that every other scenario passes. A final check proves that every
// scenario is made to fail by at least one fault (no decoration).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "runner/scenario/selection.hpp"
#include "tests/e2e/run_command.hpp"

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

struct Expected {
  std::string id;                    // glob
  std::vector<std::string> reasons;  // the scenario's reason contains one of them; empty = any
};

std::vector<std::string> reasons_of(const YAML::Node& n) {
  std::vector<std::string> out;
  if (!n) return out;
  if (n.IsScalar()) return {n.as<std::string>()};
  for (const auto& r : n) out.push_back(r.as<std::string>());
  return out;
}

struct FaultCase {
  std::string fault;
  std::vector<Expected> fails;
  std::string timeout_scale;  // "" = the matrix's; a fault that makes every
                              // scenario wait out a deadline runs shorter ones
};

// Test names and failure messages show the fault, not the struct's bytes.
void PrintTo(const FaultCase& c, std::ostream* os) { *os << c.fault; }

const std::string kMatrix = std::string(A2A_SOURCE_DIR) + "/fixtures/fault-matrix.yaml";

std::vector<FaultCase> load_matrix() {
  std::vector<FaultCase> out;
  YAML::Node doc;
  try {
    doc = YAML::LoadFile(kMatrix);
  } catch (const YAML::Exception& e) {
    // Reported by FaultMatrixCoverage (an empty matrix covers nothing).
    return out;
  }
  for (const auto& f : doc["faults"]) {
    FaultCase c;
    c.fault = f["fault"].as<std::string>();
    if (f["timeout_scale"]) c.timeout_scale = f["timeout_scale"].as<std::string>();
    for (const auto& e : f["fails"]) {
      if (e.IsScalar())
        c.fails.push_back({e.as<std::string>(), reasons_of(f["reason"])});
      else
        c.fails.push_back({e["id"].as<std::string>(),
                           e["reason"] ? reasons_of(e["reason"]) : reasons_of(f["reason"])});
    }
    out.push_back(std::move(c));
  }
  return out;
}

const Expected* expected_for(const FaultCase& c, const std::string& id) {
  for (const auto& e : c.fails)
    if (a2a::scenario::glob_match(e.id, id)) return &e;
  return nullptr;
}

Json run_suite(const std::string& agent, const std::string& tag, const std::string& row_scale) {
  fs::path dir = fs::path(A2A_BINARY_DIR) / "test-artifacts" / "faults";
  fs::create_directories(dir);
  fs::path json = dir / (tag + ".json");
  YAML::Node doc = YAML::LoadFile(kMatrix);
  std::string scale = doc["timeout_scale"] ? doc["timeout_scale"].as<std::string>() : "1";
  if (!row_scale.empty()) scale = row_scale;
  auto r = a2a::testing::run_command(
      {A2A_CONFORM, "run", "--agent", agent, "-j2", "-q", "--color", "never", "--timeout-scale", scale,
       "--json", json.string(), std::string(A2A_SOURCE_DIR) + "/suites/stdio",
       std::string(A2A_SOURCE_DIR) + "/suites/a2a"},
      900000);
  EXPECT_FALSE(r.timed_out) << "runner hung under " << tag;
  std::ifstream in(json);
  return Json::parse(in);
}

class FaultMatrix : public ::testing::TestWithParam<FaultCase> {};

}  // namespace

TEST_P(FaultMatrix, ListedScenariosFailForTheStatedReasonAndAllOthersPass) {
  const auto& c = GetParam();
  Json report = run_suite(std::string(A2A_REF_AGENT) + " --fault " + c.fault, c.fault, c.timeout_scale);
  std::set<std::string> matched;
  for (const auto& s : report["scenarios"]) {
    std::string id = s["id"], outcome = s["outcome"], reason = s.value("reason", "");
    const Expected* e = expected_for(c, id);
    // A card fault can hide a capability, so a scenario that needs it is SKIP
    // (its precondition is unmet), which is right, not a failure.
    if (!e && outcome == "SKIP") continue;
    if (!e) {
      EXPECT_EQ(outcome, "PASS") << id << " should be unaffected by " << c.fault << ": " << reason;
      continue;
    }
    matched.insert(e->id);
    EXPECT_NE(outcome, "PASS") << id << " must not pass under " << c.fault;
    EXPECT_NE(outcome, "ERROR") << id << ": a fault must fail a scenario, not break it: " << reason;
    bool stated = e->reasons.empty();
    for (const auto& want : e->reasons) stated = stated || reason.find(want) != std::string::npos;
    if (outcome != "PASS")
      EXPECT_TRUE(stated) << id << " failed for another reason than the matrix states: " << reason;
  }
  for (const auto& e : c.fails)
    EXPECT_TRUE(matched.count(e.id)) << "matrix entry " << e.id << " matches no scenario";
}

INSTANTIATE_TEST_SUITE_P(Faults, FaultMatrix, ::testing::ValuesIn(load_matrix()),
                         [](const auto& info) {
                           std::string n = info.param.fault;
                           for (auto& ch : n)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

TEST(FaultMatrixCoverage, EveryScenarioIsFailedBySomeFault) {
  auto matrix = load_matrix();
  auto r = a2a::testing::run_command({A2A_CONFORM, "list", std::string(A2A_SOURCE_DIR) + "/suites/stdio",
                                         std::string(A2A_SOURCE_DIR) + "/suites/a2a"},
                                        60000);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    std::string id = line.substr(0, line.find(' '));
    bool covered = false;
    for (const auto& c : matrix) covered = covered || expected_for(c, id) != nullptr;
    EXPECT_TRUE(covered) << id << " is failed by no fault: add a fault to a2a-ref-agent or drop the scenario";
    ++n;
  }
  EXPECT_GT(n, 90);
}

TEST(FaultMatrixCoverage, EveryAgentFaultIsInTheMatrix) {
  auto matrix = load_matrix();
  // HTTP-level faults have their rows in the HTTP matrix (http_fault_matrix_test.cpp).
  std::set<std::string> http_rows;
  // stdio-json faults have theirs in the stdio-json matrix (stdio_json_fault_matrix_test.cpp).
  for (const char* other : {"/fixtures/fault-matrix-http.yaml", "/fixtures/fault-matrix-stdio-json.yaml"}) {
    try {
      for (const auto& f : YAML::LoadFile(std::string(A2A_SOURCE_DIR) + other)["faults"])
        http_rows.insert(f["fault"].as<std::string>());
    } catch (const YAML::Exception&) {
    }
  }
  auto r = a2a::testing::run_command({A2A_REF_AGENT, "--list-faults"}, 20000);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == ' ') continue;
    bool listed = http_rows.count(line) > 0;
    for (const auto& c : matrix) listed = listed || c.fault == line;
    EXPECT_TRUE(listed) << "fault " << line
                        << " has no row in fixtures/fault-matrix.yaml, fault-matrix-http.yaml or "
                           "fault-matrix-stdio-json.yaml";
  }
}
