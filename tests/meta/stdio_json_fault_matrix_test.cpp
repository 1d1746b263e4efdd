// Meta-tests for the stdio-json profile: for every row of
// fixtures/fault-matrix-stdio-json.yaml, run suites/stdio-json under
// `--profile stdio-json` against a2a-ref-agent --profile stdio-json with that
// fault, and assert that exactly the listed scenarios do not pass (for the
// stated reason) and every other one passes. A coverage test proves every
// stdio-json scenario is failed by some fault. The shared suites (suites/stdio,
// suites/a2a) under this profile are the self-test's job (runner_test.cpp);
// their fault rows are the P46 matrix's.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "runner/scenario/selection.hpp"
#include "tests/e2e/run_command.hpp"

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

const std::string kMatrix = std::string(A2A_SOURCE_DIR) + "/fixtures/fault-matrix-stdio-json.yaml";
const std::string kSuite = std::string(A2A_SOURCE_DIR) + "/suites/stdio-json";
const std::string kAgent = std::string(A2A_REF_AGENT) + " --profile stdio-json";

struct Entry {
  std::string id;                    // glob
  std::vector<std::string> reasons;  // the scenario's reason contains one of them; empty = any
};

struct JsonFaultCase {
  std::string fault;
  std::vector<Entry> fails;
};
void PrintTo(const JsonFaultCase& c, std::ostream* os) { *os << c.fault; }

std::vector<std::string> reasons_of(const YAML::Node& n) {
  std::vector<std::string> out;
  if (!n) return out;
  if (n.IsScalar()) return {n.as<std::string>()};
  for (const auto& r : n) out.push_back(r.as<std::string>());
  return out;
}

std::vector<JsonFaultCase> load_matrix() {
  std::vector<JsonFaultCase> out;
  YAML::Node doc;
  try {
    doc = YAML::LoadFile(kMatrix);
  } catch (const YAML::Exception&) {
    return out;  // reported by the coverage test (an empty matrix covers nothing)
  }
  for (const auto& f : doc["faults"]) {
    JsonFaultCase c;
    c.fault = f["fault"].as<std::string>();
    for (const auto& e : f["fails"]) {
      if (e.IsScalar())
        c.fails.push_back({e.as<std::string>(), reasons_of(f["reason"])});
      else
        c.fails.push_back({e["id"].as<std::string>(), e["reason"] ? reasons_of(e["reason"]) : reasons_of(f["reason"])});
    }
    out.push_back(std::move(c));
  }
  return out;
}

const Entry* expected_for(const JsonFaultCase& c, const std::string& id) {
  for (const auto& e : c.fails)
    if (a2a::scenario::glob_match(e.id, id)) return &e;
  return nullptr;
}

// The matrix's timeout_scale for fault rows; the fault-free run uses "1".
std::string matrix_scale() {
  try {
    YAML::Node doc = YAML::LoadFile(kMatrix);
    if (doc["timeout_scale"]) return doc["timeout_scale"].as<std::string>();
  } catch (const YAML::Exception&) {
  }
  return "1";
}

Json run_suite(const std::string& agent, const std::string& tag, const std::string& scale) {
  fs::path dir = fs::path(A2A_BINARY_DIR) / "test-artifacts" / "faults-stdio-json";
  fs::create_directories(dir);
  fs::path json = dir / (tag + ".json");
  auto r = a2a::testing::run_command({A2A_CONFORM, "run", "--agent", agent, "--profile", "stdio-json", "-j2", "-q",
                                      "--color", "never", "--timeout-scale", scale, "--json", json.string(), kSuite},
                                     300000);
  EXPECT_FALSE(r.timed_out) << "runner hung under " << tag;
  std::ifstream in(json);
  return Json::parse(in);
}

class JsonFaultMatrix : public ::testing::TestWithParam<JsonFaultCase> {};

}  // namespace

TEST(JsonSelfTest, EveryStdioJsonScenarioPassesAgainstTheReferenceAgent) {
  Json report = run_suite(kAgent, "no-fault", "1");
  int passed = 0;
  for (const auto& s : report["scenarios"]) {
    EXPECT_EQ(s["outcome"], "PASS") << s["id"] << ": " << s.value("reason", "");
    passed += s["outcome"] == "PASS" ? 1 : 0;
  }
  EXPECT_GE(passed, 20);
}

TEST_P(JsonFaultMatrix, ListedScenariosFailForTheStatedReasonAndAllOthersPass) {
  const auto& c = GetParam();
  Json report = run_suite(kAgent + " --fault " + c.fault, c.fault, matrix_scale());
  std::set<std::string> matched;
  for (const auto& s : report["scenarios"]) {
    std::string id = s["id"], outcome = s["outcome"], reason = s.value("reason", "");
    const Entry* e = expected_for(c, id);
    if (!e) {
      EXPECT_EQ(outcome, "PASS") << id << " should be unaffected by " << c.fault << ": " << reason;
      continue;
    }
    matched.insert(e->id);
    EXPECT_NE(outcome, "PASS") << id << " must not pass under " << c.fault;
    EXPECT_NE(outcome, "ERROR") << id << ": a fault must fail a scenario, not break it: " << reason;
    bool stated = e->reasons.empty();
    for (const auto& want : e->reasons) stated = stated || reason.find(want) != std::string::npos;
    if (outcome != "PASS") EXPECT_TRUE(stated) << id << " failed for another reason than the matrix states: " << reason;
  }
  for (const auto& e : c.fails) EXPECT_TRUE(matched.count(e.id)) << "matrix entry " << e.id << " matches no scenario";
}

INSTANTIATE_TEST_SUITE_P(Faults, JsonFaultMatrix, ::testing::ValuesIn(load_matrix()), [](const auto& info) {
  std::string n = info.param.fault;
  for (auto& ch : n)
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
});

TEST(JsonFaultMatrixCoverage, EveryStdioJsonScenarioIsFailedBySomeFault) {
  auto matrix = load_matrix();
  auto r = a2a::testing::run_command({A2A_CONFORM, "list", kSuite}, 60000);
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
  EXPECT_GE(n, 20);
}
