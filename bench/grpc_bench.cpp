// gRPC speed of a2a-ref-agent (--grpc) against the official JavaScript SDK's
// gRPC server (tests/interop/js/agent.mjs --grpc-port, @a2a-js/sdk on
// @grpc/grpc-js), side by side in one run, under the same closed-loop load
// (--client both: each measure with both clients, for comparing them).
// The default client (--client h2, bench/grpc_h2_load.hpp) is our own
// pipelined one on nghttp2: --connections HTTP/2 connections per agent,
// --window calls in flight on each, one thread, each call replaced as soon
// as it ends. --client grpcpp is the earlier one: --threads threads of
// grpc++ sync stubs sharing one channel (one HTTP/2 connection) per agent,
// each thread issuing its next call when the previous one ended; it costs
// about 40 µs of client CPU a call, so on 2 cores it, not the agent, was the
// bottleneck (docs/performance.md, "gRPC").
//
//   grpc_bench [--seconds 3] [--client h2|grpcpp|both] [--connections 1] [--window 32]
//              [--threads 8] [--warmup-ms 500] [--no-sdk]
//              [--only send,get,stream] [--agent PATH] [--js-dir DIR]
//
// Measures, for each agent in turn (ours first, then the SDK's, per measure):
//   unary SendMessage    "tck-message-response ..." (a Message back, no task)
//   unary GetTask        of one completed task created before the run
//   SendStreamingMessage "tck-stream-basic ..." (a few events per stream)
// calls (streams) per second, p50/p99 latency, events per second, work per
// agent CPU-second (/proc/PID/stat: neither the client nor the neighbours
// count in it), the client's own CPU per call ("cli us": on a 2-core machine
// the client shares the cores with the agent), then one ratio line per
// measure (ours / the SDK's). Every
// answer is checked; exit 1 when an answer was wrong, a call failed or an
// agent could not start, 2 on bad arguments. A benchmark, not a test: ctest
// never runs it. docs/performance.md ("gRPC") has the figures.
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "bench/grpc_h2_load.hpp"
#include "bench/http_agent.hpp"
#include "bench/load_average.hpp"
#include "lf/a2a/v1/a2a.grpc.pb.h"
#include "runner/grpc/status.hpp"

// CMake defines both; the defaults let a bare syntax check compile the file.
#ifndef A2A_BINARY_DIR
#define A2A_BINARY_DIR "build"
#endif
#ifndef A2A_SOURCE_DIR
#define A2A_SOURCE_DIR "."
#endif

namespace {

namespace v1 = lf::a2a::v1;
using a2a::bench::GrpcH2Load;
using a2a::bench::HttpAgentProcess;
using Clock = std::chrono::steady_clock;

// Bounds on every loop, beyond the measured duration.
constexpr long kMaxCallsPerThread = 5'000'000;
constexpr int kMaxEventsPerStream = 1000;
constexpr auto kCallTimeout = std::chrono::seconds(10);

struct Args {
  double seconds = 3;
  bool h2 = true, grpcpp = false;    // --client h2 (default), grpcpp, or both
  int connections = 1, window = 32;  // --client h2
  int threads = 8;                   // --client grpcpp
  long warmup_ms = 500;
  bool sdk = true;
  bool only_send = true, only_get = true, only_stream = true;  // --only: the measures run
  std::string agent = A2A_BINARY_DIR "/bin/a2a-ref-agent";
  std::string js_dir = A2A_SOURCE_DIR "/tests/interop/js";
};

constexpr const char* kUsage =
    "usage: grpc_bench [--seconds 3] [--client h2|grpcpp|both] [--connections 1] [--window 32]\n"
    "                  [--threads 8] [--warmup-ms 500] [--no-sdk]\n"
    "                  [--only send,get,stream] [--agent PATH] [--js-dir DIR]\n"
    "\n"
    "Compares a2a-ref-agent's gRPC server (--grpc 0) with the @a2a-js/sdk agent of\n"
    "tests/interop/js (node agent.mjs --grpc-port 0; needs node and `npm ci` there; --no-sdk\n"
    "measures ours alone). Both are started here on 127.0.0.1 and stopped at the end. For\n"
    "each agent, the same load: --client h2 (the default) keeps --window calls in flight on\n"
    "each of --connections HTTP/2 connections (our nghttp2 client, one thread); --client\n"
    "grpcpp runs --threads grpc++ sync-stub threads over one channel (both: each measure with\n"
    "each client, h2 first). Each measure runs for\n"
    "--seconds after --warmup-ms of the same load: unary SendMessage (tck-message-response), unary GetTask\n"
    "of one existing task, and SendStreamingMessage (tck-stream-basic). Prints calls/s,\n"
    "p50/p99 latency, events/s, work per agent CPU-second, and the ratio ours/SDK per\n"
    "measure (--only: a comma list of the measures to run, e.g. for a profile of one). Exit 1\n"
    "when a call failed or an agent could not start.\n";

bool parse_args(int argc, char** argv, Args& a) {
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    if (k == "-h" || k == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (k == "--seconds") a.seconds = std::atof(value().c_str());
    else if (k == "--threads") a.threads = std::atoi(value().c_str());
    else if (k == "--connections") a.connections = std::atoi(value().c_str());
    else if (k == "--window") a.window = std::atoi(value().c_str());
    else if (k == "--client") {
      std::string v = value();
      if (v != "h2" && v != "grpcpp" && v != "both") {
        std::fprintf(stderr, "grpc_bench: --client takes h2, grpcpp or both\n");
        return false;
      }
      a.h2 = v != "grpcpp";
      a.grpcpp = v != "h2";
    }
    else if (k == "--warmup-ms") a.warmup_ms = std::atol(value().c_str());
    else if (k == "--no-sdk") a.sdk = false;
    else if (k == "--only") {
      std::string v = "," + value() + ",";
      a.only_send = v.find(",send,") != std::string::npos;
      a.only_get = v.find(",get,") != std::string::npos;
      a.only_stream = v.find(",stream,") != std::string::npos;
      if (!a.only_send && !a.only_get && !a.only_stream) {
        std::fprintf(stderr, "grpc_bench: --only takes a comma list of send, get, stream\n");
        return false;
      }
    } else if (k == "--agent") a.agent = value();
    else if (k == "--js-dir") a.js_dir = value();
    else {
      std::fprintf(stderr, "grpc_bench: unknown argument '%s'\n%s", k.c_str(), kUsage);
      return false;
    }
  }
  if (a.seconds <= 0 || a.seconds > 600 || a.threads < 1 || a.threads > 256 || a.warmup_ms < 0 ||
      a.warmup_ms > 60000 || a.connections < 1 || a.connections > 64 || a.window < 1 || a.window > 1000) {
    std::fprintf(stderr, "grpc_bench: --seconds must be in (0, 600], --threads in [1, 256], "
                         "--warmup-ms in [0, 60000], --connections in [1, 64], --window in [1, 1000]\n");
    return false;
  }
  return true;
}

// Why the SDK agent cannot run here, or "" when it can.
std::string sdk_missing(const Args& a) {
  if (std::system("command -v node >/dev/null 2>&1") != 0) return "node is not installed";
  if (!std::filesystem::exists(a.js_dir + "/node_modules/@a2a-js/sdk") ||
      !std::filesystem::exists(a.js_dir + "/node_modules/@grpc/grpc-js")) {
    return a.js_dir + "/node_modules has no @a2a-js/sdk or @grpc/grpc-js (run `npm ci --no-audit --no-fund` there)";
  }
  return "";
}

// "NAME grpc on HOST:PORT" among an agent's start-up lines: the port, or 0.
uint16_t grpc_port_of(const std::string& start_output) {
  auto at = start_output.find("grpc on ");
  if (at == std::string::npos) return 0;
  auto eol = start_output.find('\n', at);
  std::string addr = start_output.substr(at + 8, eol == std::string::npos ? std::string::npos : eol - at - 8);
  auto colon = addr.rfind(':');
  if (colon == std::string::npos) return 0;
  long port = std::strtol(addr.c_str() + colon + 1, nullptr, 10);
  return port > 0 && port < 65536 ? static_cast<uint16_t>(port) : 0;
}

// One agent under test: its process and one channel to its gRPC server.
struct Target {
  std::string name;
  std::unique_ptr<HttpAgentProcess> proc;
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<v1::A2AService::Stub> stub;
  std::string task_id;  // the task GetTask reads
  std::unique_ptr<GrpcH2Load> load;  // --client h2
};

void add_metadata(grpc::ClientContext& ctx) {
  ctx.AddMetadata("a2a-version", "1.0");  // the SDK refuses a call without it
  ctx.set_deadline(std::chrono::system_clock::now() + kCallTimeout);
}

v1::SendMessageRequest send_request(const std::string& text, const std::string& id) {
  v1::SendMessageRequest req;
  auto* m = req.mutable_message();
  m->set_message_id(id);
  m->set_role(v1::ROLE_USER);
  m->add_parts()->set_text(text);
  return req;
}

std::string describe(const grpc::Status& st) {
  std::string s = a2a::grpcwire::code_name(static_cast<int>(st.error_code())) + ": " + st.error_message();
  return s;
}

// Starts the agent, reads its gRPC port, connects, creates the GetTask task.
bool start(Target& t, std::vector<std::string> argv, const std::string& path, const Args& a, std::string& error) {
  t.proc = std::make_unique<HttpAgentProcess>(std::move(argv), path);
  if (!t.proc->ok()) {
    error = t.proc->error();
    return false;
  }
  uint16_t port = grpc_port_of(t.proc->start_output());
  if (port == 0) {
    error = "no 'grpc on HOST:PORT' line before 'listening on'; stdout: " + t.proc->start_output();
    return false;
  }
  t.channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials());
  if (!t.channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(10))) {
    error = "could not connect to its gRPC port " + std::to_string(port);
    return false;
  }
  t.stub = v1::A2AService::NewStub(t.channel);
  grpc::ClientContext ctx;
  add_metadata(ctx);
  v1::SendMessageResponse resp;
  grpc::Status st = t.stub->SendMessage(&ctx, send_request("tck-artifact-text bench setup", "bench-setup-1"), &resp);
  if (!st.ok() || !resp.has_task() || resp.task().id().empty()) {
    error = "SendMessage tck-artifact-text did not create a task: " +
            (st.ok() ? "answer " + resp.ShortDebugString() : describe(st));
    return false;
  }
  t.task_id = resp.task().id();
  if (a.h2) {
    t.load = std::make_unique<GrpcH2Load>(port, a.connections, a.window);
    std::string err = t.load->connect();
    if (!err.empty()) {
      error = "the h2 load client: " + err;
      return false;
    }
  }
  std::printf("%s: pid %d, grpc 127.0.0.1:%u, GetTask reads task %s\n", t.name.c_str(), t.proc->pid(), port,
              t.task_id.c_str());
  return true;
}

enum class Measure { kSendMessage, kGetTask, kStream };

const char* measure_name(Measure m) {
  switch (m) {
    case Measure::kSendMessage: return "unary SendMessage";
    case Measure::kGetTask: return "unary GetTask";
    case Measure::kStream: return "SendStreamingMessage";
  }
  return "?";
}

struct Result {
  long long ok = 0, failures = 0, events = 0;
  double seconds = 0, agent_cpu = 0, client_cpu = 0;
  std::vector<double> latency_ms;  // one per successful call or stream
  std::vector<std::string> samples;  // the first failures
  double per_second(long long n) const { return seconds > 0 ? static_cast<double>(n) / seconds : 0; }
  double per_cpu(long long n) const { return agent_cpu > 0 ? static_cast<double>(n) / agent_cpu : 0; }
  // The client's own CPU per call (or stream), in microseconds.
  double client_us(long long n) const { return n > 0 ? client_cpu * 1e6 / static_cast<double>(n) : 0; }
  double percentile(double p) {
    if (latency_ms.empty()) return 0;
    size_t k = std::min(latency_ms.size() - 1, static_cast<size_t>(p / 100.0 * static_cast<double>(latency_ms.size())));
    std::nth_element(latency_ms.begin(), latency_ms.begin() + static_cast<long>(k), latency_ms.end());
    return latency_ms[k];
  }
};

// The checks both clients make of an answer: "" when it is right, else why not.
std::string send_answer_problem(const v1::SendMessageResponse& resp) {
  if (!resp.has_message() || resp.message().role() != v1::ROLE_AGENT) return "not an agent Message: " + resp.ShortDebugString();
  return "";
}
std::string task_answer_problem(const Target& t, const v1::Task& resp) {
  if (resp.id() != t.task_id || resp.status().state() != v1::TASK_STATE_COMPLETED)
    return "not the completed task: " + resp.ShortDebugString();
  return "";
}
bool completes_stream(const v1::StreamResponse& ev) {
  return ev.has_status_update() && ev.status_update().status().state() == v1::TASK_STATE_COMPLETED;
}
std::string incomplete_stream(size_t events) {
  return "the stream's last of " + std::to_string(events) + " events is not COMPLETED";
}

// The request of a SendMessage or SendStreamingMessage call named `id`.
v1::SendMessageRequest measure_request(Measure m, const std::string& id) {
  const char* behaviour = m == Measure::kStream ? "tck-stream-basic bench " : "tck-message-response bench ";
  return send_request(behaviour + id, id);
}

// One call of the measure; "" when it succeeded and its answer was right.
std::string one_call(Target& t, Measure m, int thread, long i, long long& events) {
  grpc::ClientContext ctx;
  add_metadata(ctx);
  std::string id = "bench-" + std::to_string(thread) + "-" + std::to_string(i);
  switch (m) {
    case Measure::kSendMessage: {
      v1::SendMessageResponse resp;
      grpc::Status st = t.stub->SendMessage(&ctx, measure_request(m, id), &resp);
      if (!st.ok()) return describe(st);
      return send_answer_problem(resp);
    }
    case Measure::kGetTask: {
      v1::GetTaskRequest req;
      req.set_id(t.task_id);
      v1::Task resp;
      grpc::Status st = t.stub->GetTask(&ctx, req, &resp);
      if (!st.ok()) return describe(st);
      return task_answer_problem(t, resp);
    }
    case Measure::kStream: {
      auto reader = t.stub->SendStreamingMessage(&ctx, measure_request(m, id));
      v1::StreamResponse ev;
      int n = 0;
      bool completed = false;
      while (n < kMaxEventsPerStream && reader->Read(&ev)) {
        ++n;
        completed = completes_stream(ev);
      }
      if (n >= kMaxEventsPerStream) ctx.TryCancel();
      grpc::Status st = reader->Finish();
      if (!st.ok()) return describe(st);
      if (!completed) return incomplete_stream(static_cast<size_t>(n));
      events += n;
      return "";
    }
  }
  return "unknown measure";
}

constexpr const char* kService = "/lf.a2a.v1.A2AService/";

// --client h2: t's connections, `window` calls in flight on each, for `seconds`.
// The same requests and the same checks as one_call.
Result run_h2(Target& t, Measure m, double seconds) {
  static long run_no = 0;
  std::string prefix = "bench-r" + std::to_string(++run_no) + "-";
  GrpcH2Load::MakeCall make = [&](long seq, std::string& path, std::string& framed) {
    std::string id = prefix + std::to_string(seq);
    switch (m) {
      case Measure::kSendMessage:
        path = std::string(kService) + "SendMessage";
        framed = a2a::bench::grpc_frame(measure_request(m, id).SerializeAsString());
        return;
      case Measure::kGetTask: {
        path = std::string(kService) + "GetTask";
        v1::GetTaskRequest req;
        req.set_id(t.task_id);
        framed = a2a::bench::grpc_frame(req.SerializeAsString());
        return;
      }
      case Measure::kStream:
        path = std::string(kService) + "SendStreamingMessage";
        framed = a2a::bench::grpc_frame(measure_request(m, id).SerializeAsString());
        return;
    }
  };
  GrpcH2Load::Check check = [&](const a2a::bench::GrpcAnswer& ans, long long& events) -> std::string {
    switch (m) {
      case Measure::kSendMessage: {
        if (ans.messages.size() != 1) return std::to_string(ans.messages.size()) + " messages in a unary answer";
        v1::SendMessageResponse resp;
        if (!resp.ParseFromArray(ans.messages[0].data(), static_cast<int>(ans.messages[0].size())))
          return "the answer does not parse as a SendMessageResponse";
        return send_answer_problem(resp);
      }
      case Measure::kGetTask: {
        if (ans.messages.size() != 1) return std::to_string(ans.messages.size()) + " messages in a unary answer";
        v1::Task resp;
        if (!resp.ParseFromArray(ans.messages[0].data(), static_cast<int>(ans.messages[0].size())))
          return "the answer does not parse as a Task";
        return task_answer_problem(t, resp);
      }
      case Measure::kStream: {
        size_t n = ans.messages.size();
        if (n > static_cast<size_t>(kMaxEventsPerStream)) return std::to_string(n) + " events in a stream";
        bool completed = false;
        v1::StreamResponse ev;
        for (size_t k = 0; k < n; ++k) {
          if (!ev.ParseFromArray(ans.messages[k].data(), static_cast<int>(ans.messages[k].size())))
            return "event " + std::to_string(k) + " does not parse as a StreamResponse";
          completed = completes_stream(ev);
        }
        if (!completed) return incomplete_stream(n);
        events += static_cast<long long>(n);
        return "";
      }
    }
    return "unknown measure";
  };
  GrpcH2Load::Stats st = t.load->run(seconds, make, check);
  Result r;
  r.ok = st.ok;
  r.failures = st.failures;
  r.events = st.events;
  r.seconds = st.seconds;
  r.latency_ms = std::move(st.latency_ms);
  r.samples = std::move(st.samples);
  return r;
}

// `threads` threads calling for `seconds`, all over t's one channel.
Result run(Target& t, Measure m, int threads, double seconds) {
  struct PerThread {
    long long ok = 0, failures = 0, events = 0;
    std::vector<double> lat;
  };
  std::vector<PerThread> per(static_cast<size_t>(threads));
  std::mutex samples_mu;
  std::vector<std::string> samples;
  auto t0 = Clock::now();
  auto end = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  std::vector<std::thread> pool;
  for (int k = 0; k < threads; ++k) {
    pool.emplace_back([&, k] {
      PerThread& me = per[static_cast<size_t>(k)];
      me.lat.reserve(65536);
      for (long i = 0; i < kMaxCallsPerThread; ++i) {
        auto c0 = Clock::now();
        if (c0 >= end) break;
        std::string err = one_call(t, m, k, i, me.events);
        auto c1 = Clock::now();
        if (err.empty()) {
          ++me.ok;
          me.lat.push_back(std::chrono::duration<double, std::milli>(c1 - c0).count());
        } else {
          ++me.failures;
          std::lock_guard<std::mutex> lock(samples_mu);
          if (samples.size() < 5) samples.push_back(std::move(err));
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  Result r;
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  for (auto& p : per) {
    r.ok += p.ok;
    r.failures += p.failures;
    r.events += p.events;
    r.latency_ms.insert(r.latency_ms.end(), p.lat.begin(), p.lat.end());
  }
  r.samples = std::move(samples);
  return r;
}

// This process's user + system CPU seconds (all threads: the client's cost).
double self_cpu_seconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto sec = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6; };
  return sec(ru.ru_utime) + sec(ru.ru_stime);
}

Result measure(Target& t, Measure m, const Args& a, bool h2) {
  auto go = [&](double seconds) { return h2 ? run_h2(t, m, seconds) : run(t, m, a.threads, seconds); };
  if (a.warmup_ms > 0) go(static_cast<double>(a.warmup_ms) / 1000.0);
  double cpu0 = t.proc->cpu_seconds(), self0 = self_cpu_seconds();
  Result r = go(a.seconds);
  r.agent_cpu = t.proc->cpu_seconds() - cpu0;
  r.client_cpu = self_cpu_seconds() - self0;
  return r;
}

void print_row(const std::string& name, const char* client, Measure m, Result& r) {
  if (m == Measure::kStream) {
    double per_stream = r.ok > 0 ? static_cast<double>(r.events) / static_cast<double>(r.ok) : 0;
    std::printf("  %-14s %-6s %9lld  %9.0f  %9.0f  %5.1f  %7.2f  %7.2f  %9.0f  %7.0f  %8lld\n", name.c_str(), client, r.ok,
                r.per_second(r.ok), r.per_second(r.events), per_stream, r.percentile(50), r.percentile(99),
                r.per_cpu(r.ok), r.client_us(r.ok), r.failures);
  } else {
    std::printf("  %-14s %-6s %9lld  %9.0f  %7.2f  %7.2f  %11.0f  %7.0f  %8lld\n", name.c_str(), client, r.ok,
                r.per_second(r.ok),
                r.percentile(50), r.percentile(99), r.per_cpu(r.ok), r.client_us(r.ok), r.failures);
  }
  for (const auto& s : r.samples) std::printf("    failure: %s\n", s.c_str());
  std::fflush(stdout);
}

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

void raise_fd_limit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (!parse_args(argc, argv, a)) return 2;
  raise_fd_limit();
  if (!std::filesystem::exists(a.agent)) {
    std::fprintf(stderr, "grpc_bench: no agent at %s (ninja -C build a2a-ref-agent)\n", a.agent.c_str());
    return 1;
  }
  Target ref{"a2a-ref-agent", nullptr, nullptr, nullptr, "", nullptr};
  std::string error;
  if (!start(ref, {a.agent, "--http", "0", "--grpc", "0", "-q"}, "/", a, error)) {
    std::fprintf(stderr, "grpc_bench: a2a-ref-agent: %s\n", error.c_str());
    return 1;
  }
  std::unique_ptr<Target> sdk;
  std::string missing = a.sdk ? sdk_missing(a) : "--no-sdk";
  if (missing.empty()) {
    sdk = std::make_unique<Target>(Target{"js-sdk-agent", nullptr, nullptr, nullptr, "", nullptr});
    if (!start(*sdk, {"node", a.js_dir + "/agent.mjs", "--port", "0", "--grpc-port", "0"}, "/a2a/jsonrpc", a,
               error)) {
      std::fprintf(stderr, "grpc_bench: the JS SDK agent: %s\n", error.c_str());
      return 1;  // both agents are stopped by their destructors
    }
  } else {
    std::printf("js-sdk-agent: skipped (%s); a2a-ref-agent alone\n", missing.c_str());
  }
  if (a.h2) {
    std::printf("client h2: ours (nghttp2 %s, one thread), %d connection%s per agent, window %d calls in flight per "
                "connection, closed loop, %.1f s per measure after %.1f s warm-up, a2a-version: 1.0\n",
                nghttp2_version(0)->version_str, a.connections, a.connections == 1 ? "" : "s", a.window, a.seconds,
                static_cast<double>(a.warmup_ms) / 1000.0);
  }
  if (a.grpcpp) {
    std::printf("client grpcpp: grpc++ %s sync stub, %d threads over one channel per agent, closed loop, "
                "%.1f s per measure after %.1f s warm-up, a2a-version: 1.0\n",
                grpc::Version().c_str(), a.threads, a.seconds, static_cast<double>(a.warmup_ms) / 1000.0);
  }
  std::printf("load average at the start: %s\n", a2a::bench::load_average().c_str());

  bool ok = true;
  struct Summary {
    Measure m;
    const char* client;
    double ref = 0, sdk = 0, ref_cpu = 0, sdk_cpu = 0, ref_p50 = 0, sdk_p50 = 0, ref_ev = 0, sdk_ev = 0;
  };
  std::vector<Summary> summary;
  for (Measure m : {Measure::kSendMessage, Measure::kGetTask, Measure::kStream}) {
    if ((m == Measure::kSendMessage && !a.only_send) || (m == Measure::kGetTask && !a.only_get) ||
        (m == Measure::kStream && !a.only_stream))
      continue;
    bool stream = m == Measure::kStream;
    std::printf("\n%s\n", measure_name(m));
    if (stream) {
      std::printf("  %-14s %-6s %9s  %9s  %9s  %5s  %7s  %7s  %9s  %7s  %8s\n", "agent", "client", "streams",
                  "streams/s", "events/s", "ev/st", "p50 ms", "p99 ms", "st/cpu-s", "cli us", "failures");
    } else {
      std::printf("  %-14s %-6s %9s  %9s  %7s  %7s  %11s  %7s  %8s\n", "agent", "client", "calls", "calls/s",
                  "p50 ms", "p99 ms", "calls/cpu-s", "cli us", "failures");
    }
    for (bool h2 : {true, false}) {
      if ((h2 && !a.h2) || (!h2 && !a.grpcpp)) continue;
      const char* client = h2 ? "h2" : "grpcpp";
      Summary s{m, client};
      Result r = measure(ref, m, a, h2);
      print_row(ref.name, client, m, r);
      ok = ok && r.failures == 0 && r.ok > 0;
      s.ref = r.per_second(r.ok);
      s.ref_cpu = r.per_cpu(r.ok);
      s.ref_p50 = r.percentile(50);
      s.ref_ev = r.per_second(r.events);
      if (sdk) {
        Result j = measure(*sdk, m, a, h2);
        print_row(sdk->name, client, m, j);
        ok = ok && j.failures == 0 && j.ok > 0;
        s.sdk = j.per_second(j.ok);
        s.sdk_cpu = j.per_cpu(j.ok);
        s.sdk_p50 = j.percentile(50);
        s.sdk_ev = j.per_second(j.events);
      }
      summary.push_back(s);
    }
  }

  std::printf("\nagent memory after the runs: a2a-ref-agent VmRSS %ld KiB, VmHWM %ld KiB", ref.proc->rss_kib(),
              ref.proc->status_field("VmHWM"));
  if (sdk) {
    std::printf("; js-sdk-agent VmRSS %ld KiB, VmHWM %ld KiB", sdk->proc->rss_kib(),
                sdk->proc->status_field("VmHWM"));
  }
  std::printf("\n");
  std::printf("load average at the end: %s\n", a2a::bench::load_average().c_str());
  if (sdk) {
    std::printf("\nratios ours/SDK:\n");
    for (const auto& s : summary) {
      std::string label = a.h2 && a.grpcpp ? std::string(measure_name(s.m)) + " [" + s.client + "]" : measure_name(s.m);
      if (s.m == Measure::kStream) {
        std::printf("  %s: ref %.0f streams/s (%.0f events/s), sdk %.0f streams/s (%.0f events/s), ratio %.1fx "
                    "streams, %.1fx events; per agent CPU-second %.1fx; p50 %.1fx lower\n",
                    label.c_str(), s.ref, s.ref_ev, s.sdk, s.sdk_ev, ratio(s.ref, s.sdk), ratio(s.ref_ev, s.sdk_ev),
                    ratio(s.ref_cpu, s.sdk_cpu), ratio(s.sdk_p50, s.ref_p50));
      } else {
        std::printf("  %s: ref %.0f/s, sdk %.0f/s, ratio %.1fx; per agent CPU-second %.1fx; p50 %.1fx lower\n",
                    label.c_str(), s.ref, s.sdk, ratio(s.ref, s.sdk), ratio(s.ref_cpu, s.sdk_cpu),
                    ratio(s.sdk_p50, s.ref_p50));
      }
    }
  }
  if (!ok) std::printf("\ngrpc_bench: some calls failed (see 'failure:' lines)\n");
  return ok ? 0 : 1;
}
