// Meta-tests for the HTTP bindings: for every row of
// fixtures/fault-matrix-http.yaml, start a2a-ref-agent --http 0 with that
// fault, run the suites that apply to URL agents (suites/a2a, suites/http,
// suites/a2a-0.3; the 0.3 ones run on rows with agent_args --serve-0.3) on
// every binding the card declares, and assert that exactly the listed
// (scenario, binding) results do not pass, for the stated reason, and all
// others pass. Entries are "ID" (every binding it ran on) or "ID@binding".
// A coverage test proves every (scenario, binding) is failed by some fault.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "runner/scenario/selection.hpp"
#include "tests/e2e/http_peer.hpp"
#include "tests/e2e/run_command.hpp"

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

const std::string kMatrix = std::string(A2A_SOURCE_DIR) + "/fixtures/fault-matrix-http.yaml";

struct Entry {
  std::string id;       // glob
  std::string binding;  // "" = any
  std::vector<std::string> reasons;
};

struct HttpFaultCase {
  std::string fault;
  std::vector<std::string> agent_args;
  std::vector<std::string> runner_args;  // e.g. --binding, for a card that hides its interfaces
  std::vector<Entry> fails;
};
void PrintTo(const HttpFaultCase& c, std::ostream* os) { *os << c.fault; }

std::vector<std::string> strings_of(const YAML::Node& n) {
  std::vector<std::string> out;
  if (!n) return out;
  if (n.IsScalar()) return {n.as<std::string>()};
  for (const auto& r : n) out.push_back(r.as<std::string>());
  return out;
}

Entry entry_of(const std::string& text, std::vector<std::string> reasons) {
  Entry e;
  auto at = text.find('@');
  e.id = text.substr(0, at);
  if (at != std::string::npos) e.binding = text.substr(at + 1);
  e.reasons = std::move(reasons);
  return e;
}

std::vector<HttpFaultCase> load_matrix() {
  std::vector<HttpFaultCase> out;
  YAML::Node doc;
  try {
    doc = YAML::LoadFile(kMatrix);
  } catch (const YAML::Exception&) {
    return out;  // reported by the coverage test
  }
  for (const auto& f : doc["faults"]) {
    HttpFaultCase c;
    c.fault = f["fault"].as<std::string>();
    c.agent_args = strings_of(f["agent_args"]);
    c.runner_args = strings_of(f["runner_args"]);
    for (const auto& e : f["fails"]) {
      if (e.IsScalar())
        c.fails.push_back(entry_of(e.as<std::string>(), strings_of(f["reason"])));
      else
        c.fails.push_back(entry_of(e["id"].as<std::string>(),
                                   e["reason"] ? strings_of(e["reason"]) : strings_of(f["reason"])));
    }
    out.push_back(std::move(c));
  }
  return out;
}

const Entry* expected_for(const HttpFaultCase& c, const std::string& id, const std::string& binding) {
  for (const auto& e : c.fails)
    if (a2a::scenario::glob_match(e.id, id) && (e.binding.empty() || e.binding == binding)) return &e;
  return nullptr;
}

// Runs the URL suites against a2a-ref-agent --http 0 with extra args; the JSON report.
Json run_http_suites(const std::vector<std::string>& agent_args, const std::string& tag,
                     const std::vector<std::string>& runner_args = {}) {
  std::vector<std::string> argv = {A2A_REF_AGENT, "--http", "0", "-q"};
  argv.insert(argv.end(), agent_args.begin(), agent_args.end());
  a2a::testing::HttpPeer agent(argv);
  EXPECT_TRUE(agent.ok()) << agent.error();
  if (!agent.ok()) return Json::object();
  fs::path dir = fs::path(A2A_BINARY_DIR) / "test-artifacts" / "http-faults";
  fs::create_directories(dir);
  fs::path json = dir / (tag + ".json");
  YAML::Node doc = YAML::LoadFile(kMatrix);
  std::string scale = doc["timeout_scale"] ? doc["timeout_scale"].as<std::string>() : "1";
  std::vector<std::string> argv_run = {A2A_CONFORM, "run", "--url", agent.url(), "--header",
                                       "Authorization: Bearer a2a-conform", "-j2", "-q", "--color", "never",
                                       "--timeout-scale", scale, "--json", json.string()};
  argv_run.insert(argv_run.end(), runner_args.begin(), runner_args.end());
  argv_run.push_back(std::string(A2A_SOURCE_DIR) + "/suites/a2a");
  argv_run.push_back(std::string(A2A_SOURCE_DIR) + "/suites/http");
  argv_run.push_back(std::string(A2A_SOURCE_DIR) + "/suites/a2a-0.3");
  auto r = a2a::testing::run_command(argv_run, 600000);
  EXPECT_FALSE(r.timed_out) << "runner hung under " << tag;
  EXPECT_NE(r.exit_code, 2) << "harness error under " << tag << ": " << r.out << r.err;
  std::ifstream in(json);
  if (!in) return Json::object();
  return Json::parse(in, nullptr, false);
}

class HttpFaultMatrix : public ::testing::TestWithParam<HttpFaultCase> {};

}  // namespace

TEST_P(HttpFaultMatrix, ListedResultsFailForTheStatedReasonAndAllOthersPass) {
  const auto& c = GetParam();
  std::vector<std::string> args = c.agent_args;
  args.push_back("--fault");
  args.push_back(c.fault);
  Json report = run_http_suites(args, c.fault, c.runner_args);
  ASSERT_TRUE(report.contains("scenarios")) << "no report under " << c.fault;
  std::set<const Entry*> matched;
  for (const auto& s : report["scenarios"]) {
    std::string id = s["id"], binding = s.value("binding", ""), outcome = s["outcome"];
    std::string reason = s.value("reason", "");
    if (outcome == "SKIP") continue;
    const Entry* e = expected_for(c, id, binding);
    if (!e) {
      EXPECT_EQ(outcome, "PASS") << id << "@" << binding << " should be unaffected by " << c.fault << ": "
                                 << reason;
      continue;
    }
    matched.insert(e);
    EXPECT_NE(outcome, "PASS") << id << "@" << binding << " must not pass under " << c.fault;
    EXPECT_NE(outcome, "ERROR") << id << "@" << binding << ": a fault must fail a scenario, not break it: "
                                << reason;
    bool stated = e->reasons.empty();
    for (const auto& want : e->reasons) stated = stated || reason.find(want) != std::string::npos;
    if (outcome != "PASS")
      EXPECT_TRUE(stated) << id << "@" << binding << " failed for another reason than the matrix states: "
                          << reason;
  }
  for (const auto& e : c.fails)
    EXPECT_TRUE(matched.count(&e)) << "matrix entry " << e.id << (e.binding.empty() ? "" : "@" + e.binding)
                                   << " matches no result";
}

INSTANTIATE_TEST_SUITE_P(Faults, HttpFaultMatrix, ::testing::ValuesIn(load_matrix()),
                         [](const auto& info) {
                           std::string n = info.param.fault;
                           for (auto& ch : n)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

TEST(HttpFaultMatrixCoverage, EveryResultOfTheCleanAgentPassesAndIsFailedBySomeFault) {
  auto matrix = load_matrix();
  ASSERT_FALSE(matrix.empty()) << "cannot read " << kMatrix;
  Json report = run_http_suites({}, "baseline");
  ASSERT_TRUE(report.contains("scenarios"));
  int ran = 0;
  for (const auto& s : report["scenarios"]) {
    std::string id = s["id"], binding = s.value("binding", ""), outcome = s["outcome"];
    if (outcome == "SKIP") continue;
    ++ran;
    EXPECT_EQ(outcome, "PASS") << id << "@" << binding << ": " << s.value("reason", "");
    bool covered = false;
    for (const auto& c : matrix) covered = covered || expected_for(c, id, binding) != nullptr;
    EXPECT_TRUE(covered) << id << "@" << binding << " is failed by no fault: add a fault or drop the scenario";
  }
  EXPECT_GT(ran, 60);
}
