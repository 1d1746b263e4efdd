// a2a-ref-agent under load, bounded for CI (issue 5; the bigger run is
// `http_bench --load`, docs/performance.md): 200 concurrent HTTP clients
// doing SendMessage, 500 concurrent SSE streams, and a long pipelined stdio
// session. Every answer is parsed and checked (bench/http_load_check.hpp):
// no error response, no lost, duplicated or reordered event, every stream
// ends with its terminal event. Memory: the agent keeps a bounded store of
// finished tasks (task_store.hpp), so after a first round has filled it, more
// rounds of the same load must leave VmRSS within kRssSlackKiB of that level.
// Nothing here asserts a speed; every run is bounded in count and time.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "bench/http_agent.hpp"
#include "bench/http_load.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/transport/stdio_process.hpp"
#include "runner/wire/codec.hpp"
#include "tests/e2e/sanitized.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_load {

namespace {

using a2a::bench::HttpAgentProcess;
using a2a::bench::LoadMode;
using a2a::bench::LoadOptions;
using a2a::bench::LoadResult;
using a2a::core::Deadline;
using a2a::core::Millis;
using Json = nlohmann::json;

constexpr int kClients = 200;
constexpr int kRequestsPerClient = 10;
constexpr int kStreams = 500;
constexpr int kStreamEvents = 20;  // chunks: each stream has kStreamEvents + 3 events
constexpr long kRssSlackKiB = 12 * 1024;
// Under ASan (a 256 MiB quarantine of freed blocks) and TSan (shadow memory)
// VmRSS says nothing about what the agent keeps; LeakSanitizer checks leaks there.
constexpr bool kRssMeaningful = !a2a::e2e::kSanitized;
constexpr Millis kRunDeadline{60000};

std::string failures(const LoadResult& r) {
  std::string out;
  for (const auto& s : r.samples) out += "\n  " + s;
  return out;
}

LoadOptions load(const HttpAgentProcess& agent, LoadMode mode) {
  LoadOptions o;
  o.port = agent.port();
  o.path = agent.path();
  o.mode = mode;
  o.full_check = true;
  o.deadline = kRunDeadline;
  bool unary = mode == LoadMode::kUnary;
  o.connections = unary ? kClients : kStreams;
  o.per_connection = unary ? kRequestsPerClient : 1;
  o.stream_events = kStreamEvents;
  return o;
}

HttpAgentProcess::Argv agent_argv() { return {A2A_REF_AGENT, "--http", "0", "--quiet"}; }

TEST(RefAgentLoad, TwoHundredConcurrentClientsGetOnlySuccessfulResults) {
  HttpAgentProcess agent(agent_argv(), "/");
  ASSERT_TRUE(agent.ok()) << agent.error();
  LoadResult r = a2a::bench::run_load(load(agent, LoadMode::kUnary));
  EXPECT_EQ(r.failures, 0) << failures(r);
  EXPECT_EQ(r.ok, kClients * kRequestsPerClient) << failures(r);
  EXPECT_TRUE(agent.running()) << agent.stderr_text();
}

TEST(RefAgentLoad, FiveHundredConcurrentStreamsLoseAndReorderNothing) {
  HttpAgentProcess agent(agent_argv(), "/");
  ASSERT_TRUE(agent.ok()) << agent.error();
  LoadResult r = a2a::bench::run_load(load(agent, LoadMode::kStream));
  EXPECT_EQ(r.failures, 0) << failures(r);
  EXPECT_EQ(r.ok, kStreams) << failures(r);
  EXPECT_EQ(r.events, static_cast<long long>(kStreams) * (kStreamEvents + 3));
  EXPECT_TRUE(agent.running()) << agent.stderr_text();
}

// One round: the clients, then the streams; true when every answer was right.
bool round_ok(const HttpAgentProcess& agent, std::string& why) {
  for (LoadMode mode : {LoadMode::kUnary, LoadMode::kStream}) {
    LoadResult r = a2a::bench::run_load(load(agent, mode));
    if (r.failures != 0) {
      why = failures(r);
      return false;
    }
  }
  return true;
}

// VmRSS once it stopped falling (connections closing, buffers freed), within 3 s.
long settled_rss(const HttpAgentProcess& agent) {
  long last = agent.rss_kib();
  for (int i = 0; i < 30; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    long now = agent.rss_kib();
    if (now >= last && i >= 3) return now;
    last = now;
  }
  return last;
}

TEST(RefAgentLoad, MemoryReturnsToItsLevelAfterMoreRoundsOfTheSameLoad) {
  HttpAgentProcess agent(agent_argv(), "/");
  ASSERT_TRUE(agent.ok()) << agent.error();
  long fresh = settled_rss(agent);
  std::string why;
  ASSERT_TRUE(round_ok(agent, why)) << why;
  long baseline = settled_rss(agent);
  long peak = 0;
  for (int round = 0; round < 2; ++round) {
    ASSERT_TRUE(round_ok(agent, why)) << "round " << round + 2 << why;
    peak = std::max(peak, agent.status_field("VmHWM"));
  }
  long after = settled_rss(agent);
  RecordProperty("rss_fresh_kib", std::to_string(fresh));
  RecordProperty("rss_baseline_kib", std::to_string(baseline));
  RecordProperty("rss_peak_kib", std::to_string(peak));
  RecordProperty("rss_after_kib", std::to_string(after));
  std::printf("a2a-ref-agent VmRSS: fresh %ld KiB, after round 1 (baseline) %ld KiB, peak %ld KiB, "
              "after 3 rounds %ld KiB\n", fresh, baseline, peak, after);
  EXPECT_GT(baseline, 0);
  if (kRssMeaningful)
    EXPECT_LE(after, baseline + kRssSlackKiB) << "memory grows with every round of the same load";
  EXPECT_LE(agent.status_field("Threads"), 64) << "threads left over after the load";
}

// ---------------------------------------------------------------------------
// stdio: one long session, requests pipelined with a window.

constexpr long kStdioRequests = 20000;
constexpr long kWindow = 64;

struct StdioPeer {
  std::unique_ptr<a2a::transport::StdioProcess> proc;
  std::unique_ptr<a2a::wire::Decoder> decoder =
      a2a::wire::make_content_length_decoder(a2a::wire::ContentLengthRules::lenient_strict());

  // The next frame's body; "" on EOF, error or deadline.
  std::string next(Deadline deadline) {
    for (;;) {
      auto r = decoder->next();
      if (r.status == a2a::wire::DecodeResult::Status::kFrame) return r.frame.body;
      if (r.status != a2a::wire::DecodeResult::Status::kNeedMore) return "";
      auto rd = proc->read_some(deadline);
      if (rd.status != a2a::transport::ReadResult::Status::kData) return "";
      decoder->feed(rd.data);
    }
  }
};

std::string send_frame(long id) {
  Json params = {{"message",
                  {{"messageId", "stdio-" + std::to_string(id)},
                   {"role", "ROLE_USER"},
                   {"parts", {{{"text", "hello"}}}}}}};
  return a2a::wire::encode_content_length(a2a::jsonrpc::dump(a2a::jsonrpc::make_request(id, "message/send", params)));
}

// "" when `body` is the COMPLETED echo task answering a request not yet answered.
std::string check_answer(const std::string& body, std::vector<char>& answered) {
  Json j = Json::parse(body, nullptr, false);
  if (!j.is_object() || !j.contains("id") || !j["id"].is_number_integer()) return "not a response: " + body;
  long id = j["id"].get<long>();
  if (id < 0 || id >= static_cast<long>(answered.size()) || answered[id]) return "unknown or repeated id: " + body;
  answered[id] = 1;
  if (j.contains("error") || j.value("/result/task/status/state"_json_pointer, Json()) != "TASK_STATE_COMPLETED") {
    return "not the COMPLETED task: " + body.substr(0, 300);
  }
  return "";
}

TEST(RefAgentLoad, LongPipelinedStdioSessionAnswersEveryRequestOnceInBoundedMemory) {
  a2a::transport::SpawnOptions so;
  so.argv = {A2A_REF_AGENT, "--quiet"};
  so.transcript_max_bytes = 64u << 10;
  auto p = a2a::transport::StdioProcess::spawn(so);
  ASSERT_TRUE(p) << p.error().message;
  StdioPeer peer{std::move(*p)};
  auto deadline = Deadline::after(kRunDeadline);
  std::string hs = peer.next(deadline);
  ASSERT_NE(hs.find("handshake"), std::string::npos) << hs;
  ASSERT_TRUE(peer.proc->write(a2a::wire::encode_content_length(
                                   R"({"type":"handshakeAck","selectedVariant":"a2a/v1","accept":true})"),
                               deadline));
  std::vector<char> answered(kStdioRequests, 0);
  long sent = 0, received = 0, rss_quarter = 0;
  while (received < kStdioRequests) {
    std::string batch;
    for (; sent < kStdioRequests && sent - received < kWindow; ++sent) batch += send_frame(sent);
    if (!batch.empty()) ASSERT_TRUE(peer.proc->write(batch, deadline)) << "after " << received << " answers";
    std::string body = peer.next(deadline);
    ASSERT_FALSE(body.empty()) << "no answer after " << received << " (EOF, bad frame or deadline); stderr: "
                               << peer.proc->stderr_text();
    std::string why = check_answer(body, answered);
    ASSERT_TRUE(why.empty()) << why;
    if (++received == kStdioRequests / 4) rss_quarter = a2a::bench::proc_status_field(peer.proc->pid(), "VmRSS");
  }
  long rss_end = a2a::bench::proc_status_field(peer.proc->pid(), "VmRSS");
  std::printf("a2a-ref-agent stdio: %ld pipelined requests (window %ld), VmRSS %ld KiB at a quarter, "
              "%ld KiB at the end\n", kStdioRequests, kWindow, rss_quarter, rss_end);
  EXPECT_GT(rss_quarter, 0);
  if (kRssMeaningful)
    EXPECT_LE(rss_end, rss_quarter + kRssSlackKiB) << "memory grows with the session";
  peer.proc->close_stdin();
  auto exit = peer.proc->wait_exit(Deadline::after(Millis(5000)));
  EXPECT_TRUE(exit.has_value()) << "the agent did not exit after stdin closed";
}

}  // namespace

}  // namespace e2e_load
