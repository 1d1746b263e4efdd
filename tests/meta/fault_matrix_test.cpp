// Meta-tests: the suite can fail. One parameterised test runs every row of
// every fault-matrix file (kMatrices below): it starts the reference peer
// with that fault, runs the suites the matrix names against it, and asserts
// that exactly the listed (scenario, binding) results do not pass, for the
// stated reason, and that every other result passes. Per matrix, a coverage
// test runs the clean peer: every result passes and is failed by some row
// (no decoration). Two more tests prove every fault of each peer has a row.
//
// Rows run in parallel (ctest -j, docs/ci.md): each waits on the deadlines
// its fault breaks, scaled by the matrix's timeout_scale.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "runner/scenario/selection.hpp"
#include "tests/e2e/client_run.hpp"
#include "tests/e2e/http_peer.hpp"
#include "tests/e2e/run_command.hpp"

namespace fs = std::filesystem;
using Json = nlohmann::json;

// Named, not anonymous: the fixtures below derive from TestWithParam<Row>,
// and a test class with external linkage must not have internal-linkage bases.
namespace fault_matrix {

// A2A_META_SOURCE_DIR / A2A_META_BIN_DIR point the meta-tests at another
// checkout's suites and fixtures, or at another build's peers (to try a suite
// edit against a fixed set of binaries); by default, this build's.
std::string source_dir() {
  const char* e = std::getenv("A2A_META_SOURCE_DIR");
  return e && *e ? e : A2A_SOURCE_DIR;
}
std::string bin_of(const char* built, const char* name) {
  const char* e = std::getenv("A2A_META_BIN_DIR");
  return e && *e ? std::string(e) + "/" + name : built;
}

enum class Peer {
  kStdioAgent,  // a2a-ref-agent spawned per scenario by `run --agent`
  kHttpAgent,   // a2a-ref-agent --http 0, certified by `run --url` on every binding its card declares
  kClient,      // a2a-ref-client under `a2a-conform client`, once per binding
};

// One fault-matrix file and how its rows are run.
struct Matrix {
  std::string name;                   // prefix of the test names
  std::string file;                   // under fixtures/
  Peer peer;
  std::string profile;                // stdio profile of runner and peer; "" = p46
  std::vector<std::string> suites;    // under the source dir
  std::vector<std::string> bindings;  // kClient: the bindings to run on
  // kClient: a listed scenario must FAIL (a SHOULD one may be NON_STRICT).
  // The agents: it must not PASS and not be an ERROR.
  bool strict_outcomes = false;
  // Every run of the matrix, the clean one included (the gRPC matrix: the
  // agent also serves gRPC, the runner tests only that binding).
  std::vector<std::string> agent_args = {};
  std::vector<std::string> runner_args = {};
  // Coverage: a scenario a row of one of these matrices fails (on any of
  // their bindings) counts as failable here too. The gRPC matrix holds the
  // faults of the gRPC wire; the A2A semantics its suites share with the HTTP
  // bindings are proven failable by the http matrix's semantic faults.
  std::vector<std::string> also_covered_by = {};
  // The clean run must produce more results than this (a matrix over one
  // small suite, e.g. the WebSocket client suite, sets its own).
  int min_results = 20;
};

const std::vector<Matrix> kMatrices = {
    {"p46", "fault-matrix.yaml", Peer::kStdioAgent, "", {"suites/stdio", "suites/a2a"}, {}, false},
    {"stdio_json", "fault-matrix-stdio-json.yaml", Peer::kStdioAgent, "stdio-json", {"suites/stdio-json"}, {}, false},
    {"http", "fault-matrix-http.yaml", Peer::kHttpAgent, "", {"suites/a2a", "suites/http", "suites/a2a-0.3"}, {}, false},
#ifdef A2A_WITH_GRPC
    {"grpc", "fault-matrix-grpc.yaml", Peer::kHttpAgent, "", {"suites/a2a", "suites/grpc"}, {}, false,
     {"--grpc", "0"}, {"--binding", "grpc"}, {"http"}},
#endif
    // The WebSocket wire's faults over suites/a2a (the semantics are the http
    // matrix's) and suites/websocket; rows may run fewer suites (`suites:`).
    {"websocket", "fault-matrix-websocket.yaml", Peer::kHttpAgent, "", {"suites/a2a", "suites/websocket"}, {}, false,
     {"--websocket", "0"}, {"--binding", "websocket"}, {"http"}},
#ifdef A2A_WITH_GRPC
    {"client", "client-fault-matrix.yaml", Peer::kClient, "", {"suites/client"}, {"stdio", "jsonrpc", "rest", "grpc"},
     true},
#else
    {"client", "client-fault-matrix.yaml", Peer::kClient, "", {"suites/client"}, {"stdio", "jsonrpc", "rest"}, true},
#endif
    {"client_stdio_json", "client-fault-matrix-stdio-json.yaml", Peer::kClient, "stdio-json", {"suites/client"},
     {"stdio"}, true},
    // The WebSocket client suite alone, on its binding: a matrix of its own
    // so the ~30 rows of "client" do not each run it (docs/websocket.md).
    {"client_websocket", "client-fault-matrix-websocket.yaml", Peer::kClient, "", {"suites/client/websocket.acts.yaml"},
     {"websocket"}, true, {}, {}, {}, 4},
};

struct Entry {
  std::string id;       // glob
  std::string binding;  // "" = any ("ID@binding" in the file)
  std::vector<std::string> reasons;  // the reason contains one of them; empty = any
};

struct Row {
  const Matrix* matrix = nullptr;
  std::string fault;                     // "" = the clean peer
  std::vector<Entry> fails;
  std::string timeout_scale = "1";       // the row's, else the matrix's
  std::vector<std::string> agent_args;   // e.g. --serve-0.3
  std::vector<std::string> runner_args;  // e.g. --binding, for a card that hides its interfaces
  // The row's suites (`suites:`), instead of the matrix's: a fault that only
  // raw frames reach need not rerun the suites it cannot change.
  std::vector<std::string> suites;
};
// Test names and failure messages show the row, not the struct's bytes.
void PrintTo(const Row& r, std::ostream* os) { *os << r.matrix->name << ":" << r.fault; }

std::vector<std::string> strings_of(const YAML::Node& n) {
  std::vector<std::string> out;
  if (!n) return out;
  if (n.IsScalar()) return {n.as<std::string>()};
  for (const auto& r : n) out.push_back(r.as<std::string>());
  return out;
}

// Alternatives come as a list or as one string "a | b".
std::vector<std::string> reasons_of(const YAML::Node& n) {
  std::vector<std::string> out;
  for (const auto& s : strings_of(n))
    for (size_t at = 0;;) {
      size_t bar = s.find(" | ", at);
      out.push_back(s.substr(at, bar == std::string::npos ? bar : bar - at));
      if (bar == std::string::npos) break;
      at = bar + 3;
    }
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

std::string path_of(const Matrix& m) { return source_dir() + "/fixtures/" + m.file; }

// The rows of one matrix; empty when the file does not load (the coverage
// test of that matrix says so).
std::vector<Row> load_rows(const Matrix& m) {
  std::vector<Row> out;
  YAML::Node doc;
  try {
    doc = YAML::LoadFile(path_of(m));
  } catch (const YAML::Exception&) {
    return out;
  }
  std::string scale = doc["timeout_scale"] ? doc["timeout_scale"].as<std::string>() : "1";
  for (const auto& f : doc["faults"]) {
    Row r;
    r.matrix = &m;
    r.fault = f["fault"].as<std::string>();
    r.timeout_scale = f["timeout_scale"] ? f["timeout_scale"].as<std::string>() : scale;
    r.agent_args = strings_of(f["agent_args"]);
    r.runner_args = strings_of(f["runner_args"]);
    r.suites = strings_of(f["suites"]);
    for (const auto& e : f["fails"]) {
      if (e.IsScalar()) r.fails.push_back(entry_of(e.as<std::string>(), reasons_of(f["reason"])));
      else
        r.fails.push_back(entry_of(e["id"].as<std::string>(),
                                   e["reason"] ? reasons_of(e["reason"]) : reasons_of(f["reason"])));
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<Row> all_rows() {
  std::vector<Row> out;
  for (const auto& m : kMatrices) {
    auto rows = load_rows(m);
    out.insert(out.end(), rows.begin(), rows.end());
  }
  return out;
}

const Entry* expected_for(const Row& r, const std::string& id, const std::string& binding) {
  for (const auto& e : r.fails)
    if (a2a::scenario::glob_match(e.id, id) && (e.binding.empty() || e.binding == binding)) return &e;
  return nullptr;
}

std::string safe(std::string n) {
  for (auto& ch : n)
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

Json read_report(const fs::path& json) {
  std::ifstream in(json);
  if (!in) return Json::object();
  return Json::parse(in, nullptr, false);
}

std::vector<std::string> suite_paths(const Matrix& m, const std::vector<std::string>& only = {}) {
  std::vector<std::string> out;
  for (const auto& s : only.empty() ? m.suites : only) out.push_back(source_dir() + "/" + s);
  return out;
}

// The reports of one row's run(s): one for an agent, one per binding for a client.
std::vector<Json> run_row(const Row& r) {
  const Matrix& m = *r.matrix;
  std::string tag = m.name + "-" + (r.fault.empty() ? std::string("clean") : r.fault);
  fs::path dir = fs::path(A2A_BINARY_DIR) / "test-artifacts" / "faults";
  fs::create_directories(dir);
  fs::path json = dir / (tag + ".json");
  fs::remove(json);
  std::string fault = r.fault.empty() ? "" : " --fault " + r.fault;
  std::vector<Json> out;
  if (m.peer == Peer::kClient) {
    for (const auto& b : m.bindings) {
      auto c = a2a::testing::run_client_suite(b, suite_paths(m).front(), tag, fault, m.profile);
      EXPECT_TRUE(c.report.is_object()) << tag << " on " << b << ": " << c.cmd.out << c.cmd.err;
      out.push_back(c.report);
    }
    return out;
  }
  std::vector<std::string> argv = {bin_of(A2A_CONFORM, "a2a-conform"), "run", "-j2", "-q", "--color", "never", "--timeout-scale",
                                   r.timeout_scale, "--json", json.string()};
  std::unique_ptr<a2a::testing::HttpPeer> http;
  if (m.peer == Peer::kHttpAgent) {
    std::vector<std::string> agent = {bin_of(A2A_REF_AGENT, "a2a-ref-agent"), "--http", "0", "-q"};
    agent.insert(agent.end(), m.agent_args.begin(), m.agent_args.end());
    agent.insert(agent.end(), r.agent_args.begin(), r.agent_args.end());
    if (!r.fault.empty()) agent.insert(agent.end(), {"--fault", r.fault});
    http = std::make_unique<a2a::testing::HttpPeer>(agent);
    EXPECT_TRUE(http->ok()) << http->error();
    if (!http->ok()) return out;
    argv.insert(argv.end(), {"--url", http->url(), "--header", "Authorization: Bearer a2a-conform"});
  } else {
    std::string agent = bin_of(A2A_REF_AGENT, "a2a-ref-agent") + (m.profile.empty() ? "" : " --profile " + m.profile) + fault;
    argv.insert(argv.end(), {"--agent", agent});
    if (!m.profile.empty()) argv.insert(argv.end(), {"--profile", m.profile});
  }
  argv.insert(argv.end(), m.runner_args.begin(), m.runner_args.end());
  argv.insert(argv.end(), r.runner_args.begin(), r.runner_args.end());
  for (const auto& s : suite_paths(m, r.suites)) argv.push_back(s);
  auto run = a2a::testing::run_command(argv, 600000);
  EXPECT_FALSE(run.timed_out) << "runner hung under " << tag;
  EXPECT_NE(run.exit_code, 2) << "harness error under " << tag << ": " << run.out << run.err;
  out.push_back(read_report(json));
  EXPECT_TRUE(out.back().contains("scenarios")) << "no report under " << tag;
  return out;
}

class FaultMatrix : public ::testing::TestWithParam<Row> {};
class FaultMatrixCoverage : public ::testing::TestWithParam<Matrix> {};

}  // namespace fault_matrix

using namespace fault_matrix;

TEST_P(FaultMatrix, ListedResultsFailForTheStatedReasonAndAllOthersPass) {
  const Row& r = GetParam();
  const Matrix& m = *r.matrix;
  std::set<const Entry*> matched;
  for (const auto& report : run_row(r)) {
    for (const auto& s : report.value("scenarios", Json::array())) {
      std::string id = s["id"], binding = s.value("binding", ""), outcome = s["outcome"];
      std::string reason = s.value("reason", ""), at = id + "@" + binding;
      // A fault can hide a capability from the card: a scenario that needs it
      // is then SKIP (its precondition unmet), which is right, not a failure.
      // A fault that breaks the start or the handshake gets the run's
      // diagnosis: the scenarios after two such failures are SKIPped as "not
      // run: the target is broken" (docs/behaviors.md), which counts for a
      // listed entry (whichever two ran first depends on scheduling).
      const Entry* e = expected_for(r, id, binding);
      bool short_cut = outcome == "SKIP" && reason.rfind("not run: the target is broken", 0) == 0;
      if (outcome == "SKIP" && !(short_cut && e)) continue;
      if (short_cut) {
        matched.insert(e);
        bool stated = e->reasons.empty();
        for (const auto& want : e->reasons) stated = stated || reason.find(want) != std::string::npos;
        EXPECT_TRUE(stated) << at << " was not run for another reason than " << m.file << " states: " << reason;
        continue;
      }
      if (!e) {
        EXPECT_EQ(outcome, "PASS") << at << " should be unaffected by " << r.fault << ": " << reason;
        continue;
      }
      matched.insert(e);
      if (m.strict_outcomes) {
        // The outcome a broken requirement has at the scenario's level:
        // FAIL (must), NON_STRICT (should), INFORMATIONAL (may).
        EXPECT_TRUE(outcome == "FAIL" || (outcome == "NON_STRICT" && s["level"] == "should") ||
                    (outcome == "INFORMATIONAL" && s["level"] == "may"))
            << at << " under " << r.fault << ": " << outcome << ": " << reason;
      } else {
        EXPECT_NE(outcome, "PASS") << at << " must not pass under " << r.fault;
        EXPECT_NE(outcome, "ERROR") << at << ": a fault must fail a scenario, not break it: " << reason;
      }
      bool stated = e->reasons.empty();
      for (const auto& want : e->reasons) stated = stated || reason.find(want) != std::string::npos;
      if (outcome != "PASS")
        EXPECT_TRUE(stated) << at << " failed for another reason than " << m.file << " states: " << reason;
    }
  }
  for (const auto& e : r.fails) {
    // "ID@grpc" entries of a build without the gRPC binding have no result.
    if (m.peer == Peer::kClient && !e.binding.empty() &&
        std::find(m.bindings.begin(), m.bindings.end(), e.binding) == m.bindings.end())
      continue;
    EXPECT_TRUE(matched.count(&e)) << m.file << ": entry " << e.id << (e.binding.empty() ? "" : "@" + e.binding)
                                   << " of " << r.fault << " matches no result";
  }
}

INSTANTIATE_TEST_SUITE_P(Faults, FaultMatrix, ::testing::ValuesIn(all_rows()), [](const auto& info) {
  return safe(info.param.matrix->name + "_" + info.param.fault);
});

// The clean peer passes every result, and some row fails each of them.
TEST_P(FaultMatrixCoverage, TheCleanPeerPassesAndEveryResultIsFailedBySomeRow) {
  const Matrix& m = GetParam();
  auto rows = load_rows(m);
  ASSERT_FALSE(rows.empty()) << "cannot read " << path_of(m);
  for (const auto& other : m.also_covered_by)
    for (const auto& om : kMatrices)
      if (om.name == other)
        for (auto r : load_rows(om)) {
          for (auto& e : r.fails) e.binding.clear();  // any binding of that matrix
          rows.push_back(std::move(r));
        }
  Row clean;
  clean.matrix = &m;
  int ran = 0;
  for (const auto& report : run_row(clean)) {
    for (const auto& s : report.value("scenarios", Json::array())) {
      std::string id = s["id"], binding = s.value("binding", ""), outcome = s["outcome"];
      if (outcome == "SKIP") continue;
      ++ran;
      EXPECT_EQ(outcome, "PASS") << id << "@" << binding << ": " << s.value("reason", "");
      bool covered = false;
      for (const auto& r : rows) covered = covered || expected_for(r, id, binding) != nullptr;
      EXPECT_TRUE(covered) << id << "@" << binding << " is failed by no row of " << m.file
                           << ": add a fault to the reference peer or drop the scenario";
    }
  }
  EXPECT_GT(ran, m.min_results) << m.name;
}

INSTANTIATE_TEST_SUITE_P(Matrices, FaultMatrixCoverage, ::testing::ValuesIn(kMatrices),
                         [](const auto& info) { return info.param.name; });

namespace {

// Every fault a peer lists (`--list-faults`, one name per line, details
// indented) has a row in one of that peer's matrices.
void expect_every_fault_listed(const std::string& peer, Peer kind_a, Peer kind_b) {
  std::set<std::string> rows;
  for (const auto& m : kMatrices)
    if (m.peer == kind_a || m.peer == kind_b)
      for (const auto& r : load_rows(m)) rows.insert(r.fault);
  auto listed = a2a::testing::run_command({peer, "--list-faults"}, 20000);
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  std::istringstream lines(listed.out);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == ' ') continue;
    std::string name = line.substr(0, line.find(' '));
    EXPECT_TRUE(rows.count(name)) << peer << " fault " << name << " has no row in any of its fault matrices";
    ++n;
  }
  EXPECT_GT(n, 10);
}

}  // namespace

TEST(FaultMatrixFaults, EveryAgentFaultHasARow) {
  expect_every_fault_listed(bin_of(A2A_REF_AGENT, "a2a-ref-agent"), Peer::kStdioAgent, Peer::kHttpAgent);
}

TEST(FaultMatrixFaults, EveryClientFaultHasARow) {
  expect_every_fault_listed(bin_of(A2A_REF_CLIENT, "a2a-ref-client"), Peer::kClient, Peer::kClient);
}
