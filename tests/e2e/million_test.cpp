// One a2a-ref-agent, one million requests, memory flat (issue 17, item 2).
// The agent serves JSON-RPC and REST over HTTP, WebSocket and (in builds
// that have it) gRPC on one core and one task store; the test sends 10
// slices of 100 000 requests and reads VmRSS (/proc/PID/status) after each.
// A slice mixes what could leak:
// - the bulk: pipelined SendMessage over WebSocket (window 32 on 2
//   connections, opened and closed per slice), every 4th one an echo task
//   that goes through the store and evicts an older one, the others a
//   direct message (no task);
// - JSON-RPC SendMessage over 16 keep-alive HTTP connections;
// - connection churn: 1000 HTTP connections and 1000 WebSocket
//   connections of one request each;
// - 100 SSE streams of 23 events;
// - GetTask right after a send (found, COMPLETED) and GetTask of the very
//   first task (evicted long ago: TaskNotFound, -32001);
// - one a2a-ref-client process per binding (JSON-RPC, REST, WebSocket,
//   gRPC: a fresh connection or channel each): send, get, stream, cancel,
//   a multi-turn task completed by its follow-up, push config create and
//   delete.
// Every answer is checked: the bulk by bytes (its id, the result's kind,
// the state or role; a sample parsed whole), the rest parsed. The bound and
// why it is what it is: kRssSlackKiB below; docs/performance.md ("Under
// load") has the measured series. Nothing here asserts a speed; every loop
// is bounded in count and every wait by a deadline.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/http_agent.hpp"
#include "bench/http_load.hpp"
#include "runner/transport/http_client.hpp"
#include "runner/transport/ws_client.hpp"
#include "tests/e2e/run_command.hpp"
#include "tests/e2e/sanitized.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_million {

namespace {

using a2a::bench::HttpAgentProcess;
using a2a::bench::LoadMode;
using a2a::bench::LoadOptions;
using a2a::bench::LoadResult;
using a2a::core::Deadline;
using a2a::core::Millis;
using Json = nlohmann::json;

constexpr int kSlices = 10;
constexpr long kPerSlice = 100000;
constexpr long kTotal = kSlices * kPerSlice;

constexpr int kKeepAliveConnections = 16;
constexpr int kKeepAlivePerConnection = 250;
constexpr int kChurnHttp = 1000;
// Opened 250 at a time: both processes stay far below a default limit of
// 1024 open files (`ulimit -n`) whatever the machine.
constexpr int kChurnHttpAtOnce = 250;
static_assert(kChurnHttp % kChurnHttpAtOnce == 0);
constexpr int kChurnWs = 1000;
constexpr int kStreams = 100;
constexpr int kStreamEvents = 20;  // chunks: each stream has kStreamEvents + 3 events
constexpr int kGetPairs = 100;     // SendMessage then GetTask of its task
constexpr int kBulkConnections = 2;
constexpr long kWindow = 32;  // the agent allows 64 in flight per WebSocket connection
constexpr long kSampleEvery = 1000;  // bulk answers parsed whole

// The bound. The first slice fills the store many times over (it keeps
// about 1600 echo tasks; the slice makes 23 000), so from then on only a
// leak can raise VmRSS for good. A sample still moves by what the heap
// keeps between trims and by the mix of tasks the store holds at that
// moment: measured on the -O1 CI tree, samples after the store is full
// spread over up to 4.6 MiB, up and down, with no trend (docs/performance.md,
// "Under load"). So the early level is the higher of the first two samples,
// the late level the lowest of the last three, and a leak must raise the
// late level above the early one by kRssSlackKiB: noise does not (in ten
// runs the late level was 2.8 MiB below to 1.1 MiB above; a run of 3 million
// stayed within 54.9 to 58.8 MiB), a steady leak over the 7 to 8 slices
// between them does from about 7 bytes a request, 30 bytes a task (the bulk
// makes 23 000 a slice) or 700 bytes a connection (1000 HTTP and 1000
// WebSocket connections a slice). Tried: 1 KiB leaked
// per HTTP connection, or per WebSocket connection, fails it (late level
// +8.8 and +6.2 MiB); the store's bound lifted fails the eviction check at
// the second slice, and without it kRssRunawayKiB at the third (VmRSS
// 330, 637, 945 MiB). kRssRunawayKiB stops a run early when memory runs away.
constexpr long kRssSlackKiB = 5 * 1024;
constexpr long kRssRunawayKiB = 16 * 1024;
constexpr int kEarlySamples = 2;
constexpr int kLateSamples = 3;
constexpr Millis kStepDeadline{120000};

#ifdef A2A_WITH_GRPC
constexpr bool kWithGrpc = true;
#else
constexpr bool kWithGrpc = false;
#endif

HttpAgentProcess::Argv agent_argv() {
  HttpAgentProcess::Argv a = {A2A_REF_AGENT, "--http", "0", "--websocket", "0", "--quiet"};
  if (kWithGrpc) a.insert(a.end(), {"--grpc", "0"});
  return a;
}

std::string ws_url(const HttpAgentProcess& agent) {
  const std::string& out = agent.start_output();
  const std::string key = "websocket on ";
  auto at = out.find(key);
  if (at == std::string::npos) return "";
  auto eol = out.find('\n', at);
  return out.substr(at + key.size(), eol - at - key.size());
}

std::string failures(const LoadResult& r) {
  std::string out;
  for (const auto& s : r.samples) out += "\n  " + s;
  return out;
}

// The string at `ptr` in `j`, "" when there is none (j need not be an object).
std::string str_at(const Json& j, const Json::json_pointer& ptr) {
  if (!j.is_object() || !j.contains(ptr) || !j.at(ptr).is_string()) return "";
  return j.at(ptr).get<std::string>();
}

// Counts what was sent, by kind, for the report and the total.
struct Tally {
  long long bulk = 0, keep_alive = 0, churn_http = 0, churn_ws = 0, streams = 0, get_pairs = 0, evicted_gets = 0,
            ref_client = 0;
  long long total() const {
    return bulk + keep_alive + churn_http + churn_ws + streams + get_pairs + evicted_gets + ref_client;
  }
};

// --- the bulk: pipelined SendMessage over WebSocket ------------------------

std::string ws_send(long id, bool echo, const std::string& message_id) {
  return std::string(R"({"jsonrpc":"2.0","id":)") + std::to_string(id) +
         R"(,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","parts":[{"text":")" +
         (echo ? "hello" : "tck-message-response bulk") + R"("}],"messageId":")" + message_id + R"("}}})";
}

bool is_echo(long i) { return i % 4 == 0; }

// The id of a response written as {"jsonrpc":"2.0","id":N,...} or with "id" elsewhere; -1 if none.
long answer_id(const std::string& body) {
  auto at = body.find("\"id\":");
  while (at != std::string::npos) {
    size_t p = at + 5;
    long v = 0;
    size_t digits = 0;
    while (p < body.size() && body[p] >= '0' && body[p] <= '9' && digits < 12) v = v * 10 + (body[p++] - '0'), ++digits;
    if (digits > 0 && p < body.size() && (body[p] == ',' || body[p] == '}')) return v;
    at = body.find("\"id\":", at + 1);
  }
  return -1;
}

// "" when `body` is the right answer to request `i` of a bulk connection.
std::string check_bulk(const std::string& body, long i, bool parse) {
  if (body.find("\"error\"") != std::string::npos || body.find("\"result\":") == std::string::npos) {
    return "not a result: " + body.substr(0, 300);
  }
  bool echo = is_echo(i);
  bool ok = echo ? body.find("\"TASK_STATE_COMPLETED\"") != std::string::npos &&
                       body.find("Echo: hello") != std::string::npos
                 : body.find("\"ROLE_AGENT\"") != std::string::npos &&
                       body.find("\"TASK_STATE_") == std::string::npos;
  if (ok && parse) {
    Json j = Json::parse(body, nullptr, false);
    ok = j.is_object() && j.value("id", Json()) == Json(i) && !j.contains("error") &&
         (echo ? str_at(j, "/result/task/status/state"_json_pointer) == "TASK_STATE_COMPLETED"
               : str_at(j, "/result/message/role"_json_pointer) == "ROLE_AGENT");
  }
  return ok ? "" : std::string(echo ? "not the COMPLETED echo task: " : "not the agent's message: ") +
                       body.substr(0, 300);
}

// One connection's share of a slice: `count` requests, kWindow in flight.
// Returns "" or the first thing wrong.
std::string bulk_connection(const std::string& url, int slice, int conn, long count) {
  a2a::transport::WsOptions o;
  o.headers = {{"A2A-Version", "1.0"}};
  auto deadline = Deadline::after(kStepDeadline);
  auto c = a2a::transport::WsConnection::connect(url, o, deadline);
  if (!c) return "connect: " + c.error().message;
  auto& ws = **c;
  std::vector<char> answered(static_cast<size_t>(count), 0);
  const std::string prefix = "m-" + std::to_string(slice) + "-" + std::to_string(conn) + "-";
  long sent = 0, received = 0;
  while (received < count) {
    for (; sent < count && sent - received < kWindow; ++sent) {
      auto s = ws.send(ws_send(sent, is_echo(sent), prefix + std::to_string(sent)), true, deadline);
      if (!s) return "send " + std::to_string(sent) + ": " + s.error().message;
    }
    auto f = ws.take([](const a2a::transport::WsFrame&) { return true; }, deadline);
    if (!f) return "no answer after " + std::to_string(received) + " of " + std::to_string(count) + ": " + ws.why();
    long id = answer_id(f->payload);
    if (id < 0 || id >= count || answered[static_cast<size_t>(id)]) {
      return "unknown or repeated id: " + f->payload.substr(0, 300);
    }
    answered[static_cast<size_t>(id)] = 1;
    std::string why = check_bulk(f->payload, id, received % kSampleEvery == 0);
    if (!why.empty()) return "request " + std::to_string(id) + ": " + why;
    ++received;
  }
  ws.close();
  return "";
}

// --- JSON-RPC over HTTP, one call at a time --------------------------------

struct RpcClient {
  a2a::transport::HttpClient http;
  long next_id = 1;

  explicit RpcClient(uint16_t port)
      : http(*a2a::transport::Url::parse("http://127.0.0.1:" + std::to_string(port))) {}

  // The parsed response; a JSON null when the call failed on the wire.
  Json call(const std::string& method, const Json& params) {
    Json req = {{"jsonrpc", "2.0"}, {"id", next_id++}, {"method", method}, {"params", params}};
    a2a::transport::HttpRequest r;
    r.method = "POST";
    r.target = "/";
    r.headers = {{"Content-Type", "application/json"}, {"A2A-Version", "1.0"}};
    r.body = req.dump();
    auto res = http.request(r, Deadline::after(Millis(10000)));
    if (!res || res->status != 200) return nullptr;
    return Json::parse(res->body, nullptr, false);
  }
};

Json user_message(const std::string& text, const std::string& message_id) {
  return {{"message", {{"role", "ROLE_USER"}, {"parts", {{{"text", text}}}}, {"messageId", message_id}}}};
}

// SendMessage then GetTask of its task, kGetPairs times; "" or what was wrong.
std::string send_then_get(RpcClient& rpc, int slice, std::string& first_task) {
  for (int i = 0; i < kGetPairs; ++i) {
    Json sent = rpc.call("SendMessage", user_message("tck-complete-task get", "g-" + std::to_string(slice) + "-" +
                                                                                std::to_string(i)));
    std::string id = str_at(sent, "/result/task/id"_json_pointer);
    if (id.empty()) return "SendMessage: " + sent.dump().substr(0, 300);
    if (first_task.empty()) first_task = id;
    Json got = rpc.call("GetTask", {{"id", id}});
    if (str_at(got, "/result/id"_json_pointer) != id ||
        str_at(got, "/result/status/state"_json_pointer) != "TASK_STATE_COMPLETED") {
      return "GetTask " + id + ": " + got.dump().substr(0, 300);
    }
  }
  return "";
}

// --- connection churn -------------------------------------------------------

LoadResult http_load(uint16_t port, LoadMode mode, int connections, long long per_connection) {
  LoadOptions o;
  o.port = port;
  o.mode = mode;
  o.connections = connections;
  o.per_connection = per_connection;
  o.stream_events = kStreamEvents;
  o.full_check = true;
  o.deadline = kStepDeadline;
  return a2a::bench::run_load(o);
}

// kChurnWs WebSocket connections, one SendMessage each, then closed.
std::string ws_churn(const std::string& url, int slice) {
  a2a::transport::WsOptions o;
  o.headers = {{"A2A-Version", "1.0"}};
  for (int i = 0; i < kChurnWs; ++i) {
    auto deadline = Deadline::after(Millis(10000));
    auto c = a2a::transport::WsConnection::connect(url, o, deadline);
    if (!c) return "connect " + std::to_string(i) + ": " + c.error().message;
    auto s = (*c)->send(ws_send(0, true, "w-" + std::to_string(slice) + "-" + std::to_string(i)), true, deadline);
    if (!s) return "send: " + s.error().message;
    auto f = (*c)->take([](const a2a::transport::WsFrame&) { return true; }, deadline);
    if (!f) return "no answer: " + (*c)->why();
    std::string why = check_bulk(f->payload, 0, true);
    if (!why.empty()) return why;
    (*c)->close();
  }
  return "";
}

// --- a2a-ref-client per binding --------------------------------------------

// The script each a2a-ref-client runs (9 operations, each answered or the
// client exits non-zero): every result line it prints is checked below.
constexpr int kScriptOps = 9;

std::string script(const std::string& tag) {
  auto msg = [&](const std::string& n, const std::string& text, const std::string& extra = "") {
    return R"({"message":{"messageId":")" + tag + "-" + n + R"(","role":"ROLE_USER",)" + extra +
           R"("parts":[{"text":")" + text + R"("}]})";
  };
  return "{\"op\":\"send\",\"params\":" + msg("1", "hello") + "},\"as\":\"a\"}\n" +
         "{\"op\":\"get\",\"params\":{\"id\":\"${a.task.id}\"}}\n" +
         "{\"op\":\"stream\",\"params\":" + msg("2", "tck-stream-basic") + "}}\n" +
         "{\"op\":\"send\",\"params\":" + msg("3", "tck-cancel") +
         ",\"configuration\":{\"returnImmediately\":true}},\"as\":\"c\"}\n" +
         "{\"op\":\"cancel\",\"params\":{\"id\":\"${c.task.id}\"}}\n" +
         "{\"op\":\"send\",\"params\":" + msg("4", "tck-input-required") + "},\"as\":\"i\"}\n" +
         "{\"op\":\"send\",\"params\":" + msg("5", "done", "\"taskId\":\"${i.task.id}\",") + "}}\n" +
         "{\"op\":\"push-create\",\"params\":{\"taskId\":\"${a.task.id}\",\"id\":\"p1\","
         "\"url\":\"http://127.0.0.1:9/hook\"}}\n" +
         "{\"op\":\"push-delete\",\"params\":{\"taskId\":\"${a.task.id}\",\"id\":\"p1\"}}\n";
}

// Runs the script over `binding`; "" when every operation succeeded with the expected result.
std::string ref_client(const HttpAgentProcess& agent, const std::string& binding, const std::string& path,
                       int slice) {
  {
    std::ofstream f(path, std::ios::trunc);
    f << script("r-" + binding + "-" + std::to_string(slice));
  }
  auto r = a2a::testing::run_command({A2A_REF_CLIENT, "--url", "http://127.0.0.1:" + std::to_string(agent.port()),
                                      "--binding", binding, "script", path},
                                     30000);
  if (r.exit_code != 0) return binding + ": exit " + std::to_string(r.exit_code) + "\n" + r.out + r.err;
  // The states the results must show, in order: echo COMPLETED, its GetTask,
  // the stream's last status, CANCELED, INPUT_REQUIRED, COMPLETED.
  const char* want[] = {"TASK_STATE_COMPLETED", "TASK_STATE_COMPLETED", "TASK_STATE_COMPLETED",
                        "TASK_STATE_CANCELED",  "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_COMPLETED"};
  int results = 0, stream_end = 0;
  size_t next_want = 0;
  std::string last_stream_state;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    Json j = Json::parse(line, nullptr, false);
    if (!j.is_object()) continue;
    if (j.contains("error") || j.contains("streamError")) return binding + ": " + line;
    if (j.value("op", "") == "stream") {
      if (j.value("end", false)) {
        ++stream_end;
        if (next_want < std::size(want) && last_stream_state == want[next_want]) ++next_want;
      } else {
        std::string s = str_at(j, "/event/statusUpdate/status/state"_json_pointer);
        if (!s.empty()) last_stream_state = s;
      }
      continue;
    }
    if (!j.contains("result")) continue;
    ++results;
    const Json& res = j["result"];
    std::string state = str_at(res, "/task/status/state"_json_pointer);
    if (state.empty()) state = str_at(res, "/status/state"_json_pointer);
    if (!state.empty() && next_want < std::size(want) && state == want[next_want]) ++next_want;
  }
  if (results != kScriptOps - 1 || stream_end != 1 || next_want != std::size(want)) {
    return binding + ": " + std::to_string(results) + " results, " + std::to_string(stream_end) +
           " stream ends, " + std::to_string(next_want) + " expected states in order:\n" + r.out;
  }
  return "";
}

// VmRSS once it stops falling (closed connections' buffers freed, the trim
// after the last HTTP connection), within 1 s.
long settled_rss(const HttpAgentProcess& agent) {
  long last = agent.rss_kib();
  for (int i = 0; i < 10; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    long now = agent.rss_kib();
    if (now >= last && i >= 1) return now;
    last = now;
  }
  return last;
}

TEST(RefAgentMillion, MemoryStaysFlatOverAMillionRequestsOnEveryBinding) {
  if (a2a::e2e::kSanitized) {
    GTEST_SKIP() << "VmRSS says nothing under a sanitizer, and a million requests take too long there";
  }
  HttpAgentProcess agent(agent_argv(), "/");
  ASSERT_TRUE(agent.ok()) << agent.error();
  const std::string url = ws_url(agent);
  ASSERT_FALSE(url.empty()) << agent.start_output();
  char dir_template[] = "/tmp/a2a-million-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string script_path = std::string(dir_template) + "/script.jsonl";
  std::vector<std::string> bindings = {"jsonrpc", "rest", "websocket"};
  if (kWithGrpc) bindings.push_back("grpc");

  // What each slice sends besides the bulk: the bulk makes up the rest.
  const long side = kKeepAliveConnections * kKeepAlivePerConnection + kChurnHttp + kChurnWs + kStreams +
                    2 * kGetPairs + 1 + static_cast<long>(bindings.size()) * (kScriptOps + 1);
  const long bulk = kPerSlice - side;
  ASSERT_GT(bulk, 0);

  Tally tally;
  std::string first_task;
  std::vector<long> rss;
  const long fresh = agent.rss_kib();
  auto t0 = std::chrono::steady_clock::now();
  for (int slice = 0; slice < kSlices; ++slice) {
    // The bulk, on kBulkConnections threads.
    std::vector<std::string> why(kBulkConnections);
    std::vector<std::thread> threads;
    for (int c = 0; c < kBulkConnections; ++c) {
      long count = bulk / kBulkConnections + (c < bulk % kBulkConnections ? 1 : 0);
      threads.emplace_back([&why, &url, slice, c, count] { why[c] = bulk_connection(url, slice, c, count); });
    }
    for (auto& t : threads) t.join();
    for (const auto& w : why) ASSERT_TRUE(w.empty()) << "slice " << slice << ", bulk: " << w;
    tally.bulk += bulk;

    LoadResult k = http_load(agent.port(), LoadMode::kUnary, kKeepAliveConnections, kKeepAlivePerConnection);
    ASSERT_EQ(k.failures, 0) << failures(k);
    ASSERT_EQ(k.ok, kKeepAliveConnections * kKeepAlivePerConnection);
    tally.keep_alive += k.ok;

    for (int done = 0; done < kChurnHttp; done += kChurnHttpAtOnce) {
      LoadResult ch = http_load(agent.port(), LoadMode::kUnary, kChurnHttpAtOnce, 1);
      ASSERT_EQ(ch.failures, 0) << failures(ch);
      ASSERT_EQ(ch.ok, kChurnHttpAtOnce);
      tally.churn_http += ch.ok;
    }

    LoadResult st = http_load(agent.port(), LoadMode::kStream, kStreams, 1);
    ASSERT_EQ(st.failures, 0) << failures(st);
    ASSERT_EQ(st.ok, kStreams);
    ASSERT_EQ(st.events, static_cast<long long>(kStreams) * (kStreamEvents + 3));
    tally.streams += st.ok;

    std::string w = ws_churn(url, slice);
    ASSERT_TRUE(w.empty()) << "slice " << slice << ", WebSocket churn: " << w;
    tally.churn_ws += kChurnWs;

    // A connection of its own per slice: one held open for the whole run
    // keeps the agent from ever being idle, so it never trims its heap and
    // levels off higher (about 88 MiB instead of 55; docs/performance.md,
    // "Under load"): flat too, but only from about the fourth slice.
    RpcClient rpc(agent.port());
    w = send_then_get(rpc, slice, first_task);
    ASSERT_TRUE(w.empty()) << "slice " << slice << ": " << w;
    tally.get_pairs += 2 * kGetPairs;

    // The first task of the run: kept while the store had room, then
    // forgotten for good (docs/ref-agent.md, "Bounded store").
    Json gone = rpc.call("GetTask", {{"id", first_task}});
    tally.evicted_gets += 1;
    if (slice > 0) {
      ASSERT_TRUE(gone.is_object() && gone.contains("error") && gone["error"].value("code", 0) == -32001)
          << "slice " << slice << ": the first task should be evicted: " << gone.dump().substr(0, 300);
    }

    for (const auto& b : bindings) {
      w = ref_client(agent, b, script_path, slice);
      ASSERT_TRUE(w.empty()) << "slice " << slice << ", a2a-ref-client " << w;
      tally.ref_client += kScriptOps + 1;  // + the card fetch
    }

    rss.push_back(settled_rss(agent));
    std::printf("slice %d: %lld requests, VmRSS %ld KiB, threads %ld, %.1f s\n", slice + 1, tally.total(),
                rss.back(), agent.status_field("Threads"),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    std::fflush(stdout);
    if (slice >= kEarlySamples) {
      long early = *std::max_element(rss.begin(), rss.begin() + kEarlySamples);
      ASSERT_LE(rss.back(), early + kRssRunawayKiB)
          << "VmRSS runs away: " << early << " KiB early, " << rss.back() << " KiB after slice " << slice + 1;
    }
  }
  const long early = *std::max_element(rss.begin(), rss.begin() + kEarlySamples);
  const long late = *std::min_element(rss.end() - kLateSamples, rss.end());
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string series;
  for (long v : rss) series += (series.empty() ? "" : " ") + std::to_string(v);
  std::printf("a2a-ref-agent, %lld requests in %.1f s (bulk %lld, keep-alive %lld, HTTP churn %lld, WebSocket "
              "churn %lld, streams %lld, send+get %lld, evicted gets %lld, a2a-ref-client %lld): VmRSS fresh %ld "
              "KiB, per 100k: %s KiB, VmHWM %ld KiB\n",
              tally.total(), seconds, tally.bulk, tally.keep_alive, tally.churn_http, tally.churn_ws, tally.streams,
              tally.get_pairs, tally.evicted_gets, tally.ref_client, fresh, series.c_str(),
              agent.status_field("VmHWM"));
  RecordProperty("rss_series_kib", series);
  EXPECT_LE(late, early + kRssSlackKiB) << "VmRSS grows with the load: early level (the higher of the first "
                                        << kEarlySamples << " samples) " << early << " KiB, late level (the lowest "
                                        << "of the last " << kLateSamples << ") " << late << " KiB; series " << series;
  EXPECT_EQ(tally.total(), kTotal);
  EXPECT_TRUE(agent.running()) << agent.stderr_text();
  EXPECT_LE(agent.status_field("Threads"), 64) << "threads left over after the load";
  std::remove(script_path.c_str());
  rmdir(dir_template);
}

}  // namespace

}  // namespace e2e_million
