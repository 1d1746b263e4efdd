// `a2a-conform load` (docs/load.md) end to end: real agent processes over
// real pipes and loopback sockets, each run bounded to about a second by
// --duration and --requests. Against a2a-ref-agent on every binding and the
// JS SDK agent, the counts add up, the percentiles are ordered and no
// answer is non-conformant; with a fault that breaks ids or stream order,
// the non-conformant answers are found with their transcript; bad flags,
// a closed port and a remote host are clear exit-2 errors; a signal stops
// the load and the reports are still written. Nothing asserts a speed.
#include <gtest/gtest.h>

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/e2e/http_peer.hpp"
#include "tests/e2e/run_command.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_load_mode {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using a2a::testing::CommandResult;
using a2a::testing::HttpPeer;
using a2a::testing::run_command;

const std::string kJsDir = std::string(A2A_SOURCE_DIR) + "/tests/interop/js";

fs::path load_dir(const std::string& name) { return a2a::testing::fresh_artifact_dir("load/" + name); }
Json read_report(const fs::path& p) { return a2a::testing::read_json_file(p); }

struct LoadRun {
  CommandResult cmd;
  Json report;
};

// a2a-conform load with `args`, a JSON and an HTML report in `name`'s folder.
LoadRun load(const std::string& name, std::vector<std::string> args, int timeout_ms = 60000) {
  fs::path d = load_dir(name);
  std::vector<std::string> argv = {A2A_CONFORM, "load", "--json", (d / "load.json").string(), "--html",
                                   (d / "load.html").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  LoadRun r;
  r.cmd = run_command(argv, timeout_ms);
  r.report = read_report(d / "load.json");
  return r;
}

// The invariants of every report: the counts add up, per operation and in
// total, and the percentiles are ordered within [min, max].
::testing::AssertionResult consistent(const Json& rep) {
  if (!rep.is_object() || !rep.contains("total")) return ::testing::AssertionFailure() << "no report: " << rep.dump();
  uint64_t sum = 0;
  for (const auto& st : rep["operations"]) {
    uint64_t req = st["requests"], c = st["conformant"], n = st["nonconformant"], t = st["transport_errors"],
             sh = st["shed"];
    if (c + n + t + sh != req) return ::testing::AssertionFailure() << "counts do not add up: " << st.dump();
    const auto& l = st["latency_us"];
    if (l["count"].get<uint64_t>() != c + n) return ::testing::AssertionFailure() << "latency count: " << st.dump();
    if (c + n > 0) {
      double mn = l["min"], p50 = l["p50"], p90 = l["p90"], p99 = l["p99"], mx = l["max"];
      if (!(mn <= p50 && p50 <= p90 && p90 <= p99 && p99 <= mx && mn > 0))
        return ::testing::AssertionFailure() << "percentiles out of order: " << l.dump();
      uint64_t in_bins = 0;
      for (const auto& b : st["histogram"]) in_bins += b["count"].get<uint64_t>();
      if (in_bins != c + n) return ::testing::AssertionFailure() << "histogram holds " << in_bins << ": " << st.dump();
    }
    sum += req;
  }
  if (sum != rep["total"]["requests"].get<uint64_t>()) return ::testing::AssertionFailure() << "total: " << rep["total"].dump();
  return ::testing::AssertionSuccess();
}

// Every operation ran and every answer was conformant.
void expect_clean(const LoadRun& r) {
  EXPECT_FALSE(r.cmd.timed_out);
  EXPECT_EQ(r.cmd.exit_code, 0) << r.cmd.out << r.cmd.err;
  ASSERT_TRUE(consistent(r.report)) << r.cmd.out;
  EXPECT_EQ(r.report["nonconformant"], 0) << r.report["findings"].dump(2);
  EXPECT_EQ(r.report["total"]["transport_errors"], 0) << r.report["transport_errors"].dump(2);
  EXPECT_EQ(r.report["shed"]["total"], 0) << r.report["shed"].dump(2);
  for (const auto& st : r.report["operations"]) EXPECT_GT(st["conformant"].get<uint64_t>(), 0u) << st.dump();
  EXPECT_GT(r.report["throughput_rps"].get<double>(), 0);
  EXPECT_NE(r.cmd.out.find("CONFORMANT: every answer"), std::string::npos) << r.cmd.out;
}

const std::vector<std::string> kAllOps = {"--ops", "send=2,stream=1,get=1", "--connections", "2",
                                          "--duration", "1s", "-q"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// A port on 127.0.0.1 that nothing listens on (bound, then closed).
int closed_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

bool node_ready() {
  return fs::exists(kJsDir + "/node_modules/@a2a-js/sdk") && run_command({"node", "--version"}, 10000).exit_code == 0;
}

}  // namespace

TEST(LoadMode, RefAgentOverStdioStaysConformant) {
  auto r = load("stdio", with({"--agent", A2A_REF_AGENT}, kAllOps));
  expect_clean(r);
  EXPECT_EQ(r.report["binding"], "stdio");
  EXPECT_EQ(r.report["operations"].size(), 3u);
}

TEST(LoadMode, RefAgentOverStdioJsonStaysConformant) {
  auto r = load("stdio-json", with({"--agent", std::string(A2A_REF_AGENT) + " --profile stdio-json", "--profile",
                                    "stdio-json", "-n", "60", "--warmup", "200ms"},
                                   kAllOps));
  expect_clean(r);
  // --requests counts the measured requests only; warmup ones are apart.
  EXPECT_EQ(r.report["total"]["requests"], 60);
  EXPECT_GT(r.report["warmup_requests"].get<uint64_t>(), 0u);
  EXPECT_EQ(r.report["stopped_by"], "requests");
}

class LoadRefBindings : public ::testing::TestWithParam<std::string> {};

TEST_P(LoadRefBindings, RefAgentStaysConformant) {
  std::vector<std::string> argv = {A2A_REF_AGENT, "--http", "0", "--websocket", "0", "-q"};
#ifdef A2A_WITH_GRPC
  argv.insert(argv.end(), {"--grpc", "0"});  // builds without gRPC (the TSan tree) refuse the flag
#endif
  HttpPeer agent(argv);
  ASSERT_TRUE(agent.ok()) << agent.error();
  auto r = load("ref-" + GetParam(), with({"--url", agent.url(), "--binding", GetParam()}, kAllOps));
  expect_clean(r);
  EXPECT_EQ(r.report["binding"], GetParam());
  // The HTML page is one self-contained file with the histogram inline.
  std::ifstream in(fs::path(A2A_BINARY_DIR) / "test-artifacts" / "load" / ("ref-" + GetParam()) / "load.html");
  std::string html((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Bindings, LoadRefBindings,
                         ::testing::Values("jsonrpc", "rest",
#ifdef A2A_WITH_GRPC
                                           "grpc",
#endif
                                           "websocket"),
                         [](const auto& info) { return info.param; });

TEST(LoadMode, OpenLoopMakesTheRequestsItWasAskedFor) {
  HttpPeer agent({A2A_REF_AGENT, "--http", "0", "-q"});
  ASSERT_TRUE(agent.ok()) << agent.error();
  auto r = load("open", {"--url", agent.url(), "--binding", "jsonrpc", "--rate", "50", "--duration", "1s", "-q"});
  expect_clean(r);
  EXPECT_EQ(r.report["mode"], "open");
  // 50 per second for 1 s: requests are due at 0, 20, ..., 980 ms.
  EXPECT_EQ(r.report["total"]["requests"], 50) << r.cmd.out;
}

class LoadJsBindings : public ::testing::TestWithParam<std::string> {};

// The SDK agent is the false-positive check: a correct agent we did not write.
TEST_P(LoadJsBindings, JsSdkAgentHasNoFalseNonConformance) {
  ASSERT_TRUE(node_ready()) << "node or tests/interop/js/node_modules is missing: run scripts/interop-setup.sh";
  std::vector<std::string> argv = {"node", kJsDir + "/agent.mjs", "--port", "0"};
  if (GetParam() == "grpc") argv.insert(argv.end(), {"--grpc-port", "0"});
  HttpPeer agent(argv, 30000);
  ASSERT_TRUE(agent.ok()) << agent.error();
  auto r = load("js-" + GetParam(), with({"--url", agent.url(), "--binding", GetParam()}, kAllOps));
  expect_clean(r);
}

INSTANTIATE_TEST_SUITE_P(Bindings, LoadJsBindings,
                         ::testing::Values("jsonrpc", "rest"
#ifdef A2A_WITH_GRPC
                                           ,
                                           "grpc"
#endif
                                           ),
                         [](const auto& info) { return info.param; });

// id-as-string: JSON-RPC answers echo our numeric id as a string.
TEST(LoadMode, AnIdThatIsNotEchoedIsFoundWithItsTranscript) {
  HttpPeer agent({A2A_REF_AGENT, "--http", "0", "-q", "--fault", "id-as-string"});
  ASSERT_TRUE(agent.ok()) << agent.error();
  auto r = load("fault-id", {"--url", agent.url(), "--binding", "jsonrpc", "-n", "30", "--max-findings", "5", "-q"});
  EXPECT_EQ(r.cmd.exit_code, 1) << r.cmd.out << r.cmd.err;
  ASSERT_TRUE(consistent(r.report));
  EXPECT_EQ(r.report["nonconformant"], 30);
  ASSERT_EQ(r.report["findings"].size(), 5u);
  EXPECT_EQ(r.report["findings_not_recorded"], 25);
  const auto& f = r.report["findings"][0];
  EXPECT_NE(f["reason"].get<std::string>().find("binding violation"), std::string::npos) << f.dump(2);
  bool sent = false, came = false;
  for (const auto& e : f["transcript"]) {
    sent = sent || (e["dir"] == "to-agent" && e["bytes"].get<std::string>().find("SendMessage") != std::string::npos);
    came = came || (e["dir"] == "from-agent" && e["bytes"].get<std::string>().find("\"id\":\"") != std::string::npos);
  }
  EXPECT_TRUE(sent && came) << f["transcript"].dump(2);
  EXPECT_NE(r.cmd.out.find("NON-CONFORMANT"), std::string::npos) << r.cmd.out;
  // The HTML page shows the agent's bytes escaped, never as markup.
  std::ifstream in(fs::path(A2A_BINARY_DIR) / "test-artifacts" / "load" / "fault-id" / "load.html");
  std::string html((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(html.find("&quot;id&quot;:&quot;"), std::string::npos);
  EXPECT_EQ(html.find("\"id\":\""), std::string::npos);
}

// ws-events-after-complete: after a stream's completion frame the agent
// sends its last event again. A load run does not wait after each stream
// for such frames (Session::watch_after_stream); its next call on the
// connection takes them, so every stream but possibly the last is judged.
TEST(LoadMode, OnWebSocketAFrameAfterTheStreamsCompletionIsFound) {
  HttpPeer agent({A2A_REF_AGENT, "--http", "0", "--websocket", "0", "-q", "--fault", "ws-events-after-complete"});
  ASSERT_TRUE(agent.ok()) << agent.error();
  auto r = load("fault-ws-late", {"--url", agent.url(), "--binding", "websocket", "--ops", "stream", "--connections",
                                  "1", "-n", "20", "--max-findings", "3", "-q"});
  EXPECT_EQ(r.cmd.exit_code, 1) << r.cmd.out << r.cmd.err;
  ASSERT_TRUE(consistent(r.report));
  EXPECT_GE(r.report["nonconformant"].get<uint64_t>(), 10u) << r.cmd.out;
  ASSERT_FALSE(r.report["findings"].empty());
  EXPECT_NE(r.report["findings"][0].dump().find("after its final frame"), std::string::npos)
      << r.report["findings"][0].dump(2);
}

// On stdio one request is in flight per connection, so an answer with
// another id answers no request: it is the finding at once, not after
// --timeout (8 requests would take 8 x 30 s).
TEST(LoadMode, OnStdioAnAnswerWithAnotherIdIsFoundAtOnce) {
  auto r = load("fault-id-stdio", {"--agent", std::string(A2A_REF_AGENT) + " --fault id-as-string", "--timeout",
                                   "30s", "-n", "8", "-q"});
  EXPECT_EQ(r.cmd.exit_code, 1) << r.cmd.out << r.cmd.err;
  EXPECT_LT(r.cmd.elapsed_ms, 20000) << "the wrong id waited for --timeout";
  ASSERT_TRUE(consistent(r.report));
  EXPECT_EQ(r.report["nonconformant"], 8);
  EXPECT_EQ(r.report["total"]["transport_errors"], 0);
  ASSERT_FALSE(r.report["findings"].empty());
  const auto& f = r.report["findings"][0];
  EXPECT_NE(f["reason"].get<std::string>().find("an id no request in flight has"), std::string::npos) << f.dump(2);
  EXPECT_EQ(f["quotes"][0]["source"], "jsonrpc-2.0");
  bool came = false;
  for (const auto& e : f["transcript"])
    came = came || (e["dir"] == "from-agent" && e["bytes"].get<std::string>().find("\"id\":\"") != std::string::npos);
  EXPECT_TRUE(came) << f["transcript"].dump(2);
}

// wrong-id-then-answer: every 3rd request first gets a response with another
// id, then its own. The stray one is the finding at once; the own answer that
// follows is a late answer to a call given up, dropped, and the connection's
// other requests stay conformant.
TEST(LoadMode, OnStdioAStrayAnswerLeavesTheOtherRequestsCorrect) {
  auto r = load("stdio-stray", {"--agent", std::string(A2A_HOSTILE_AGENT) + " wrong-id-then-answer", "--connections",
                                "1", "--ops", "send", "--timeout", "30s", "-n", "9", "-q"});
  EXPECT_EQ(r.cmd.exit_code, 1) << r.cmd.out << r.cmd.err;
  EXPECT_LT(r.cmd.elapsed_ms, 20000);
  ASSERT_TRUE(consistent(r.report));
  EXPECT_EQ(r.report["nonconformant"], 3) << r.report["findings"].dump(2);
  EXPECT_EQ(r.report["total"]["conformant"], 6);
  EXPECT_EQ(r.report["total"]["transport_errors"], 0);
  ASSERT_FALSE(r.report["findings"].empty());
  EXPECT_NE(r.report["findings"][0]["reason"].get<std::string>().find("other-"), std::string::npos)
      << r.report["findings"][0].dump(2);
}

// Load shedding (docs/load.md "Shed answers"): every 2nd request declined in
// a way the binding's own specification gives for it, well-formed. Counted
// apart with samples, not a verdict: exit 0 with the conformant answers.
struct ShedCase {
  const char* name;
  const char* mode;     // a2a-hostile-http, or a2a-load-double with `binding`
  const char* binding;
  const char* signal;   // the kind the report names
  bool http = true;     // a2a-hostile-http (else a2a-load-double)
};

void PrintTo(const ShedCase& c, std::ostream* os) { *os << c.name; }

class LoadShedding : public ::testing::TestWithParam<ShedCase> {};

TEST_P(LoadShedding, AShedAnswerIsCountedApartAndIsNoVerdict) {
  const auto& c = GetParam();
  std::vector<std::string> argv = c.http ? std::vector<std::string>{A2A_HOSTILE_HTTP, c.mode}
                                         : std::vector<std::string>{A2A_LOAD_DOUBLE, c.binding, c.mode};
  HttpPeer agent(argv);
  ASSERT_TRUE(agent.ok()) << agent.error();
  // The load double's scripted agents serve one connection at a time.
  auto r = load(std::string("shed-") + c.name, {"--url", agent.url(), "--binding", c.binding, "--ops", "send",
                                                "--connections", c.http ? "2" : "1", "-n", "20", "-q"});
  EXPECT_EQ(r.cmd.exit_code, 0) << r.cmd.out << r.cmd.err;
  ASSERT_TRUE(consistent(r.report)) << r.cmd.out;
  EXPECT_EQ(r.report["nonconformant"], 0) << r.report["findings"].dump(2);
  EXPECT_EQ(r.report["total"]["shed"], 10) << r.report.dump(2);
  EXPECT_EQ(r.report["total"]["conformant"], 10);
  EXPECT_EQ(r.report["shed"]["total"], 10);
  ASSERT_EQ(r.report["shed"]["kinds"].size(), 1u) << r.report["shed"].dump(2);
  EXPECT_EQ(r.report["shed"]["kinds"][0]["signal"], c.signal);
  ASSERT_FALSE(r.report["shed"]["samples"].empty());
  EXPECT_FALSE(r.report["shed"]["samples"][0]["transcript"].empty()) << r.report["shed"].dump(2);
  // Shed answers are not in the latencies: only the answers judged are.
  EXPECT_EQ(r.report["total"]["latency_us"]["count"], 10);
  EXPECT_NE(r.cmd.out.find(std::string("10 x ") + c.signal), std::string::npos) << r.cmd.out;
  EXPECT_NE(r.cmd.out.find("CONFORMANT: every answer"), std::string::npos) << r.cmd.out;
}

INSTANTIATE_TEST_SUITE_P(Kinds, LoadShedding,
                         ::testing::Values(ShedCase{"jsonrpc_503", "shed-503", "jsonrpc", "HTTP 503"},
                                           ShedCase{"rest_503", "shed-503", "rest", "HTTP 503"},
                                           ShedCase{"jsonrpc_429", "shed-429", "jsonrpc", "HTTP 429"},
                                           ShedCase{"rest_429", "shed-429", "rest", "HTTP 429"},
                                           ShedCase{"jsonrpc_32000", "shed-32000", "jsonrpc", "JSON-RPC -32000"},
                                           ShedCase{"websocket_32000", "shed-32000", "websocket", "JSON-RPC -32000", false},
                                           ShedCase{"websocket_1013", "shed-close-1013", "websocket",
                                                    "WebSocket close 1013", false}
#ifdef A2A_WITH_GRPC
                                           ,
                                           ShedCase{"grpc_resource_exhausted", "shed-resource-exhausted", "grpc",
                                                    "gRPC RESOURCE_EXHAUSTED", false},
                                           ShedCase{"grpc_unavailable", "shed-unavailable", "grpc", "gRPC UNAVAILABLE",
                                                    false}
#endif
                                           ),
                         [](const auto& info) { return std::string(info.param.name); });

// A 503 whose body is neither a JSON-RPC response nor a google.rpc.Status is
// not well-formed for the binding: non-conformant as before, not shed.
TEST(LoadMode, AMalformed503IsNonConformantNotShed) {
  HttpPeer agent({A2A_HOSTILE_HTTP, "shed-503-malformed"});
  ASSERT_TRUE(agent.ok()) << agent.error();
  for (const char* binding : {"jsonrpc", "rest"}) {
    auto r = load(std::string("shed-malformed-") + binding, {"--url", agent.url(), "--binding", binding, "--ops",
                                                             "send", "--connections", "2", "-n", "20", "-q"});
    EXPECT_EQ(r.cmd.exit_code, 1) << binding << r.cmd.out << r.cmd.err;
    ASSERT_TRUE(consistent(r.report)) << r.cmd.out;
    EXPECT_EQ(r.report["nonconformant"], 10) << binding;
    EXPECT_EQ(r.report["total"]["shed"], 0) << binding;
    ASSERT_FALSE(r.report["findings"].empty());
    EXPECT_NE(r.report["findings"][0]["reason"].get<std::string>().find("503"), std::string::npos)
        << r.report["findings"][0].dump(2);
  }
}

// life-crash-mid-frame: each agent process writes half a frame on its 3rd
// request and exits. Each connection restarts its agent 3 times, then stops.
TEST(LoadMode, AnAgentThatCrashesMidFrameIsFoundAndRestartsAreBounded) {
  auto r = load("fault-crash", {"--agent", std::string(A2A_REF_AGENT) + " --fault life-crash-mid-frame", "--duration",
                                "60s", "-q"});
  EXPECT_EQ(r.cmd.exit_code, 1) << r.cmd.out << r.cmd.err;
  ASSERT_TRUE(consistent(r.report));
  EXPECT_EQ(r.report["stopped_by"], "agent exits");
  EXPECT_EQ(r.report["total"]["requests"], 4 * 4 * 3);  // 4 connections x 4 processes x 3 requests
  EXPECT_EQ(r.report["nonconformant"], 4 * 4);
  EXPECT_NE(r.report["findings"][0]["reason"].get<std::string>().find("not valid framing"), std::string::npos);
  EXPECT_LT(r.cmd.elapsed_ms, 30000);  // it did not wait for --duration (16 agent starts, slow when sanitized)
}

// sem-stream-no-task-first: a task stream starts with a statusUpdate (stdio).
TEST(LoadMode, AStreamOutOfOrderIsFoundAndQuoted) {
  auto r = load("fault-stream", {"--agent", std::string(A2A_REF_AGENT) + " --fault sem-stream-no-task-first", "--ops",
                                 "send=1,stream=1", "-n", "20", "-q"});
  EXPECT_EQ(r.cmd.exit_code, 1) << r.cmd.out << r.cmd.err;
  ASSERT_TRUE(consistent(r.report));
  uint64_t stream_bad = 0, send_bad = 0;
  for (const auto& st : r.report["operations"])
    (st["op"] == "stream" ? stream_bad : send_bad) += st["nonconformant"].get<uint64_t>();
  EXPECT_EQ(stream_bad, 10u) << r.report["operations"].dump();
  EXPECT_EQ(send_bad, 0u);
  ASSERT_FALSE(r.report["findings"].empty());
  const auto& f = r.report["findings"][0];
  EXPECT_EQ(f["op"], "stream");
  EXPECT_NE(f["reason"].get<std::string>().find("events[0]"), std::string::npos) << f.dump(2);
  EXPECT_EQ(f["quotes"][0]["section"], "§3.1.2");
  EXPECT_FALSE(f["transcript"].empty());
}

TEST(LoadMode, BadFlagsAreUsageErrors) {
  const std::vector<std::vector<std::string>> cases = {
      {"--agent", A2A_REF_AGENT, "--duration", "10"},            // no unit
      {"--agent", A2A_REF_AGENT, "--duration", "2h"},            // above the bound
      {"--agent", A2A_REF_AGENT, "--ops", "cancel=1"},           // not a load operation
      {"--agent", A2A_REF_AGENT, "--ops", "send=0"},             // nothing to do
      {"--agent", A2A_REF_AGENT, "--connections", "100000"},     // above the bound
      {"--agent", A2A_REF_AGENT, "--rate", "0"},
      {"--agent", A2A_REF_AGENT, "--url", "http://127.0.0.1:1"}, // two targets
      {"--duration", "1s"},                                      // no target
      {"--agent", "/no/such/agent"},
      {"--url", "http://192.0.2.1:80", "--binding", "jsonrpc"},  // not this machine: refused before any connection
  };
  for (const auto& c : cases) {
    auto argv = with({A2A_CONFORM, "load", "-q"}, c);
    auto r = run_command(argv, 20000);
    std::string line;
    for (const auto& a : c) line += a + " ";
    EXPECT_EQ(r.exit_code, 2) << line << "\n" << r.out << r.err;
    EXPECT_FALSE(r.err.empty()) << line;
    EXPECT_LT(r.elapsed_ms, 10000) << line;
  }
}

TEST(LoadMode, AReportThatCannotBeWrittenIsAnErrorAndTheConsoleStillHasTheSummary) {
  auto r = run_command({A2A_CONFORM, "load", "--agent", A2A_REF_AGENT, "-n", "5", "-q", "--json", "/no/such/dir/load.json"},
                       20000);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--json"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("CONFORMANT: every answer"), std::string::npos) << r.out;
}

TEST(LoadMode, AClosedPortIsAClearErrorNotAHang) {
  std::string url = "http://127.0.0.1:" + std::to_string(closed_port());
  // With a binding the card is not needed: the requests are refused, the
  // load stops early and says no request got an answer.
  auto r = load("closed", {"--url", url, "--binding", "jsonrpc", "--duration", "30s", "-q"});
  EXPECT_EQ(r.cmd.exit_code, 2) << r.cmd.out << r.cmd.err;
  EXPECT_LT(r.cmd.elapsed_ms, 10000);
  EXPECT_NE(r.cmd.out.find("no request got an answer"), std::string::npos) << r.cmd.out;
  EXPECT_EQ(r.report["stopped_by"], "no answers");
  // Without one, the card cannot be had: a usage error naming the URL.
  auto c = run_command({A2A_CONFORM, "load", "--url", url, "-q"}, 20000);
  EXPECT_EQ(c.exit_code, 2) << c.out << c.err;
  EXPECT_NE(c.err.find(url), std::string::npos) << c.err;
}

// Hostile agents (tests/hostile/hostile_http.cpp): one that never answers
// costs --timeout per request and is no verdict; one whose answers cannot be
// read (10 MiB of nesting) is non-conformant, in bounded time.
TEST(LoadMode, HostileAgentsAreBoundedAndJudged) {
  {
    HttpPeer agent({A2A_HOSTILE_HTTP, "accept-never-answer"});
    ASSERT_TRUE(agent.ok()) << agent.error();
    auto r = load("hostile-silent", {"--url", agent.url(), "--binding", "jsonrpc", "--timeout", "300ms", "--duration",
                                     "500ms", "-q"});
    EXPECT_EQ(r.cmd.exit_code, 2) << r.cmd.out << r.cmd.err;
    EXPECT_LT(r.cmd.elapsed_ms, 6000);
    ASSERT_TRUE(consistent(r.report));
    EXPECT_GT(r.report["total"]["transport_errors"].get<uint64_t>(), 0u);
    EXPECT_EQ(r.report["nonconformant"], 0);
    EXPECT_NE(r.report["transport_errors"]["kinds"].dump().find("timed out"), std::string::npos);
  }
  {
    HttpPeer agent({A2A_HOSTILE_HTTP, "nesting-bomb"});
    ASSERT_TRUE(agent.ok()) << agent.error();
    auto r = load("hostile-bomb", {"--url", agent.url(), "--binding", "jsonrpc", "--ops", "send=1,stream=1", "-n", "8",
                                   "--max-findings", "2", "-q"});
    EXPECT_EQ(r.cmd.exit_code, 1) << r.cmd.out << r.cmd.err;
    EXPECT_LT(r.cmd.elapsed_ms, 20000);
    ASSERT_TRUE(consistent(r.report));
    EXPECT_EQ(r.report["nonconformant"], 8);
    EXPECT_LE(r.report["findings"][0]["transcript"].dump().size(), 600u * 1024);  // 256 KiB of bytes, escaped
  }
}

struct LoadSignal {
  int sig;
  const char* name;
};

void PrintTo(const LoadSignal& s, std::ostream* os) { *os << s.name; }

// `a2a-conform load ARGS` signalled with `sig` once its first progress
// line (stderr, about a second in) says the load runs; its exit (nullopt if
// it is still running `bound` after the signal), stdout and stderr, and
// how long it took to exit after the signal.
struct Signalled {
  std::optional<a2a::transport::ExitStatus> exit;
  std::string out;
  std::string err;
  std::chrono::milliseconds took{0};
};

Signalled signal_load_when_running(std::vector<std::string> argv, int sig, a2a::core::Millis bound) {
  Signalled r;
  a2a::transport::SpawnOptions o;
  o.argv = std::move(argv);
  o.stderr_keep_bytes = 1 << 20;
  auto p = a2a::transport::StdioProcess::spawn(o);
  if (!p) {
    r.err = "cannot start: " + p.error().message;
    return r;
  }
  (*p)->close_stdin();
  auto until = a2a::core::Deadline::after(a2a::core::Millis(15000));
  while (!until.expired() && (*p)->stderr_text().find("requests") == std::string::npos)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto signalled = std::chrono::steady_clock::now();
  ::kill((*p)->pid(), sig);
  auto by = a2a::core::Deadline::after(bound);
  for (;;) {
    auto rd = (*p)->read_some(by);
    if (rd.status != a2a::transport::ReadResult::Status::kData) break;
    r.out += rd.data;
  }
  r.exit = (*p)->wait_exit(by);
  r.took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - signalled);
  r.err = (*p)->stderr_text();
  return r;
}

class LoadSignals : public ::testing::TestWithParam<LoadSignal> {};

TEST_P(LoadSignals, ASignalStopsTheLoadAndTheReportsAreWritten) {
  fs::path d = load_dir(std::string("signal-") + GetParam().name);
  Signalled r = signal_load_when_running(
      {A2A_CONFORM, "load", "--agent", A2A_REF_AGENT, "--duration", "60s", "--json", (d / "load.json").string()},
      GetParam().sig, a2a::core::Millis(20000));
  ASSERT_TRUE(r.exit.has_value()) << r.err;
  EXPECT_EQ(r.exit->code, 128 + GetParam().sig) << r.out << r.err;
  auto rep = read_report(d / "load.json");
  ASSERT_TRUE(consistent(rep)) << r.out;
  EXPECT_EQ(rep["interrupted"], true);
  EXPECT_EQ(rep["stopped_by"], GetParam().name);
  EXPECT_GT(rep["total"]["conformant"].get<uint64_t>(), 0u);
  EXPECT_EQ(rep["nonconformant"], 0);
}

// An agent that never answers: at a signal the calls in flight end at once
// on every binding (the gRPC call cancelled, the WebSocket given up), not at
// --timeout (60 s here), and the reports are written.
class LoadSignalHung : public ::testing::TestWithParam<std::string> {};

TEST_P(LoadSignalHung, ASignalEndsCallsThatWouldWaitForTheTimeout) {
  const std::string binding = GetParam();
  std::vector<std::string> argv = binding == "jsonrpc" ? std::vector<std::string>{A2A_HOSTILE_HTTP, "never-answer-rpc"}
                                                       : std::vector<std::string>{A2A_LOAD_DOUBLE, binding, "never-answer"};
  HttpPeer agent(argv);
  ASSERT_TRUE(agent.ok()) << agent.error();
  fs::path d = load_dir("signal-hung-" + binding);
  // One connection: the load double's scripted agents serve one at a time.
  Signalled r = signal_load_when_running({A2A_CONFORM, "load", "--url", agent.url(), "--binding", binding,
                                          "--connections", "1", "--timeout", "60s", "--duration", "60s", "--json",
                                          (d / "load.json").string()},
                                         SIGINT, a2a::core::Millis(30000));
  ASSERT_TRUE(r.exit.has_value()) << "still running 30 s after the signal";
  EXPECT_EQ(r.exit->code, 130) << r.out << r.err;
  EXPECT_LT(r.took.count(), 15000) << "the calls in flight waited for --timeout";
  auto rep = read_report(d / "load.json");
  ASSERT_TRUE(consistent(rep)) << r.out;
  EXPECT_EQ(rep["interrupted"], true);
  EXPECT_EQ(rep["stopped_by"], "SIGINT");
  EXPECT_EQ(rep["nonconformant"], 0) << rep["findings"].dump(2);
}

INSTANTIATE_TEST_SUITE_P(Bindings, LoadSignalHung,
                         ::testing::Values("jsonrpc",
#ifdef A2A_WITH_GRPC
                                           "grpc",
#endif
                                           "websocket"),
                         [](const auto& info) { return info.param; });

INSTANTIATE_TEST_SUITE_P(Signals, LoadSignals,
                         ::testing::Values(LoadSignal{SIGINT, "SIGINT"}, LoadSignal{SIGTERM, "SIGTERM"}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace e2e_load_mode
