// Hostile agents against the real runner: stdio agents (fixtures/hostile/*.sh,
// tests/hostile/hostile_agent.cpp) and HTTP agents (tests/hostile/hostile_http.cpp).
// For each: the run ends well within a stated bound, every scenario is FAIL or
// TIMEOUT with a reason that tells a user what happened, the runner's peak RSS
// stays bounded even when the agent sends 1 GiB, and no process the agent
// started outlives the run. docs/runner.md "Hostile agents" lists them.
#include <gtest/gtest.h>

#include <dirent.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "runner/core/escape.hpp"
#include "tests/e2e/http_peer.hpp"
#include "tests/e2e/run_command.hpp"
#include "tests/e2e/sanitized.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_hostile {

namespace fs = std::filesystem;
using a2a::testing::CommandResult;
using a2a::testing::run_command;
using Json = nlohmann::json;

namespace {

const std::string kConform = A2A_CONFORM;
const std::string kRefAgent = A2A_REF_AGENT;
const std::string kHostileAgent = A2A_HOSTILE_AGENT;
const std::string kHostileHttp = A2A_HOSTILE_HTTP;
const std::string kSrc = A2A_SOURCE_DIR;
const std::string kScenarios = kSrc + "/fixtures/scenarios/";

// A hung runner is what this bound catches, not a slow one: every case is
// expected to end in a few seconds (two scenarios at --timeout-scale 0.4 or less).
constexpr int kRunBoundMs = 60000;

using a2a::e2e::kSanitized;
// The runner's own baseline is ~10 MiB and a flood may queue 64 MiB of
// frames (counted with their parsed JSON); sanitizers add shadow memory and
// a 256 MiB quarantine of freed blocks.
constexpr long kMaxRssKib = (kSanitized ? 1024 : 200) * 1024;

fs::path artifacts_dir() {
  fs::path d = fs::path(A2A_BINARY_DIR) / "test-artifacts" / "hostile";
  fs::create_directories(d);
  return d;
}

Json read_json(const fs::path& p) {
  std::ifstream in(p);
  return Json::parse(in, nullptr, false);
}

// Processes whose environment carries `marker` (hostile agents and anything
// they forked); an orphan shows up here after the runner has finished.
std::vector<int> processes_with_marker(const std::string& marker) {
  std::vector<int> out;
  DIR* d = opendir("/proc");
  if (!d) return out;
  while (auto* e = readdir(d)) {
    int pid = atoi(e->d_name);
    if (pid <= 0) continue;
    std::ifstream env("/proc/" + std::string(e->d_name) + "/environ", std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(env)), std::istreambuf_iterator<char>());
    std::ifstream stat("/proc/" + std::string(e->d_name) + "/stat");
    std::string st;
    std::getline(stat, st);
    bool zombie = st.find(") Z ") != std::string::npos;
    if (!zombie && all.find(marker) != std::string::npos) out.push_back(pid);
  }
  closedir(d);
  return out;
}

// What every scenario of a run must show.
struct Expect {
  std::string outcome;      // FAIL / TIMEOUT (PASS for the controls)
  std::string reason;       // a substring of its reason
  std::string exit_status;  // a substring of the agent's exit status ("" = any)
};

struct Case {
  std::string name;
  std::vector<std::string> target;  // --agent CMD or --url URL (filled for HTTP cases) and options
  std::string scenarios;            // file in fixtures/scenarios/
  std::vector<Expect> expect;       // per scenario, in order; one entry applies to all
  std::string timeout_scale = "0.4";  // lower where the agent only makes the runner wait
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::string test_name(const ::testing::TestParamInfo<Case>& info) {
  std::string n = info.param.name;
  for (auto& ch : n)
    if (ch == '-' || ch == '.') ch = '_';
  return n;
}

// Runs the runner on `c` with a fresh marker; checks the bound, the exit code,
// RSS, every scenario's outcome and reason, and that nothing was left behind.
void run_case(const Case& c, const std::vector<std::string>& target) {
  std::string marker = a2a::core::uuid_v7();
  fs::path json = artifacts_dir() / (c.name + ".json");
  fs::remove(json);
  std::vector<std::string> argv = {kConform, "run"};
  argv.insert(argv.end(), target.begin(), target.end());
  argv.insert(argv.end(), {"--timeout-scale", c.timeout_scale, "-q", "--json", json.string()});
  argv.push_back(kScenarios + c.scenarios);
  CommandResult r = run_command(argv, kRunBoundMs, {{"A2A_TEST_MARKER", marker}});
  ASSERT_FALSE(r.timed_out) << "the runner itself hung (bound " << kRunBoundMs << " ms)";
  bool all_pass = c.expect.size() == 1 && c.expect[0].outcome == "PASS";
  EXPECT_EQ(r.exit_code, all_pass ? 0 : 1) << "a crash or a harness error, not a verdict: " << r.err;
  std::cout << "[ hostile  ] " << c.name << ": " << r.elapsed_ms << " ms, runner peak RSS "
            << r.max_rss_kib / 1024 << " MiB\n";
  EXPECT_GT(r.max_rss_kib, 0) << "wait4 gave no peak RSS";
  EXPECT_LT(r.max_rss_kib, kMaxRssKib) << "the runner's memory grew with what the agent sent";
  auto report = read_json(json);
  ASSERT_TRUE(report.is_object() && report.contains("scenarios")) << r.out << r.err;
  const auto& scenarios = report["scenarios"];
  ASSERT_EQ(scenarios.size(), std::max<size_t>(c.expect.size(), 2)) << "the run must go on after a hostile scenario";
  for (size_t i = 0; i < scenarios.size(); ++i) {
    const auto& s = scenarios[i];
    const Expect& e = c.expect[std::min(i, c.expect.size() - 1)];
    std::string reason = s.value("reason", "");
    EXPECT_EQ(s["outcome"], e.outcome) << s["id"] << ": " << reason;
    EXPECT_NE(reason.find(e.reason), std::string::npos) << s["id"] << ": " << reason;
    EXPECT_NE(s.value("exit_status", "").find(e.exit_status), std::string::npos) << s["id"] << ": " << s["exit_status"];
  }
  EXPECT_TRUE(processes_with_marker(marker).empty()) << "a process outlived the run";
}

class HostileStdioAgent : public ::testing::TestWithParam<Case> {};

TEST_P(HostileStdioAgent, ScenariosFailWithAReasonWithinBoundsAndNothingIsLeftBehind) {
  const Case& c = GetParam();
  run_case(c, c.target);
}

std::vector<std::string> script(const std::string& name) {
  return {"--agent", kSrc + "/fixtures/hostile/" + name};
}

std::vector<std::string> program(const std::string& mode) { return {"--agent", kHostileAgent + " " + mode}; }

const char* kNoAnswer = "no response with id 1 before the step deadline";
// The flood cases race the reader (64 MiB of frames to take in) against the
// step deadline; instrumented, the runner and the agent are 3-5x slower.
const char* kFloodScale = kSanitized ? "2" : "0.4";

INSTANTIATE_TEST_SUITE_P(
    Fixtures, HostileStdioAgent,
    ::testing::Values(
        Case{"hang", script("hang.sh"), "hostile.acts.yaml", {{"TIMEOUT", "no handshake frame", "SIGTERM"}}},
        Case{"hang-after-handshake", script("hang-after-handshake.sh"), "hostile.acts.yaml", {{"FAIL", kNoAnswer, ""}}},
        Case{"flood-stdout", script("flood-stdout.sh"), "hostile.acts.yaml", {{"FAIL", "not valid framing", ""}}},
        Case{"flood-frames", program("flood-frames"), "hostile.acts.yaml",
             {{"FAIL", "agent flooded stdout: ", ""}}, kFloodScale},
        Case{"huge-length", script("huge-length.sh"), "hostile.acts.yaml", {{"FAIL", "body_too_large", ""}}},
        Case{"exit-mid-frame", script("exit-mid-frame.sh"), "hostile.acts.yaml",
             {{"FAIL", "truncated_body", "exit 3"}}},
        Case{"close-stdin-mid-frame", script("close-stdin-mid-frame.sh"), "hostile.acts.yaml",
             {{"FAIL", "truncated_body", "exit 3"}}},
        Case{"grandchild", script("grandchild.sh"), "hostile.acts.yaml", {{"FAIL", kNoAnswer, "SIGKILL"}}},
        Case{"grandchild-after-exit", script("grandchild-after-exit.sh"), "hostile.acts.yaml",
             {{"FAIL", "agent exited (exit 0) but a process it left behind keeps its stdout open", "exit 0"}}},
        Case{"ignore-sigterm", program("ignore-sigterm"), "hostile.acts.yaml", {{"FAIL", kNoAnswer, "SIGKILL"}}},
        Case{"stderr-flood", script("stderr-flood.sh"), "hostile.acts.yaml", {{"FAIL", kNoAnswer, ""}}},
        Case{"stderr-flood-endless", program("stderr-flood"), "hostile.acts.yaml", {{"FAIL", kNoAnswer, ""}}},
        Case{"never-read-stdin", program("never-read-stdin"), "hostile-large.acts.yaml",
             {{"FAIL", "the peer is not reading its stdin", ""}}},
        Case{"nesting-bomb", program("nesting-bomb"), "hostile.acts.yaml",
             {{"FAIL", "(not JSON: nesting deeper than 512 levels) {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[[[[", ""}}},
        Case{"wide-bomb", program("wide-bomb"), "hostile.acts.yaml",
             {{"FAIL", "(not JSON: more than 1000000 values) {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[{},{},", ""}}},
        Case{"notification-flood", program("notification-flood"), "hostile.acts.yaml",
             {{"FAIL", "frames nobody asked for took more than 64 MiB of memory", ""}}, kFloodScale}),
    test_name);

// The other side of C4 (stdio-binding.md): unsolicited notifications are
// legal and ignored, so thousands of them before each answer still pass,
// with the runner's memory bounded all the same.
TEST(HostileStdioAgentControl, ThousandsOfUnsolicitedNotificationsBeforeEachAnswerStillPass) {
  run_case(Case{"notifications-then-answer", {}, "hostile.acts.yaml", {{"PASS", "", "exit 0"}}},
           program("notifications-then-answer"));
}

TEST(HostileStdioAgentControl, TheProbeScenariosPassAgainstTheReferenceAgent) {
  run_case(Case{"reference-stdio", {}, "hostile.acts.yaml", {{"PASS", "", "exit 0"}}}, {"--agent", kRefAgent});
  // A correct agent parses each 4 MiB request within the scenario's 8 s;
  // at the default 0.4 that is 3.2 s, which an ASan-built agent on a loaded
  // 2-core machine missed once in CI (the sanitized runs use the full 8 s).
  run_case(Case{"reference-stdio-large", {}, "hostile-large.acts.yaml", {{"PASS", "", "exit 0"}},
                kSanitized ? "1" : "0.4"},
           {"--agent", kRefAgent});
}

class HostileHttpAgent : public ::testing::TestWithParam<Case> {};

TEST_P(HostileHttpAgent, ScenariosFailWithAReasonWithinBounds) {
  const Case& c = GetParam();
  // c.target[0] is the server's mode; the rest are runner options.
  a2a::testing::HttpPeer server({kHostileHttp, c.target[0]});
  ASSERT_TRUE(server.ok()) << server.error();
  std::vector<std::string> target = {"--url", server.url()};
  target.insert(target.end(), c.target.begin() + 1, c.target.end());
  run_case(c, target);
}

const char* kHttpProbes = "hostile-http.acts.yaml";

INSTANTIATE_TEST_SUITE_P(
    Fixtures, HostileHttpAgent,
    ::testing::Values(
        // No card either: the binding is forced, so the probes still run.
        Case{"http-accept-never-answer", {"accept-never-answer", "--binding", "jsonrpc"}, kHttpProbes,
             {{"FAIL", "timed out waiting for the response header (0 bytes received)", ""}}, "0.2"},
        Case{"http-trickle", {"trickle", "--binding", "jsonrpc"}, kHttpProbes,
             {{"FAIL", "timed out waiting for the response header (", ""}}, "0.2"},
        Case{"http-endless-sse", {"endless-sse"}, kHttpProbes,
             {{"FAIL", "the HTTP 200 body did not end within 16 MiB; the rest was not read", ""},
              {"FAIL", "the stream did not end within 10000 events; the rest was not read", ""}}},
        Case{"http-close-mid-chunk", {"close-mid-chunk"}, kHttpProbes,
             {{"FAIL", "connection closed mid-body after 23 bytes (chunked body without its last chunk)", ""}}},
        Case{"http-nesting-bomb", {"nesting-bomb"}, kHttpProbes,
             {{"FAIL", "(not JSON: nesting deeper than 512 levels): {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[[[[", ""}}}),
    test_name);

TEST(HostileHttpAgentControl, TheProbeScenariosPassAgainstTheReferenceAgent) {
  a2a::testing::HttpPeer server({kRefAgent, "--http", "0"});
  ASSERT_TRUE(server.ok()) << server.error();
  run_case(Case{"reference-http", {}, kHttpProbes, {{"PASS", "", ""}}}, {"--url", server.url()});
}

}  // namespace

}  // namespace e2e_hostile
