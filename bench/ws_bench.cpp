// WebSocket against JSON-RPC over HTTP, one a2a-ref-agent serving both
// (--http 0 --websocket 0), measured side by side in one run: SendMessage
// requests per second and per agent CPU-second. HTTP is bench/http_load.hpp's
// closed loop (one request in flight per keep-alive connection: HTTP/1.1 has
// no multiplexing); WebSocket runs on the runner's own client
// (runner/transport/ws_client.hpp) with `window` requests in flight per
// connection, correlated by id, first 1 (the same closed loop as HTTP) then
// --window (pipelined). No WebSocket A2A SDK can be installed here, so the
// official SDK is measured on its fastest binding for the same operation:
// the @a2a-js/sdk agent of tests/interop/js (node agent.mjs, JSON-RPC over
// HTTP, the same closed loop and request bytes as our HTTP row), in the same
// run, and the bench prints ours-over-WebSocket / SDK-over-HTTP ratios.
// docs/performance.md, "WebSocket".
//
//   ws_bench [--connections 1,8] [--window 32] [--duration-ms 2000] [--warmup-ms 500] [--agent PATH]
//            [--no-sdk] [--js-dir DIR]
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench/http_agent.hpp"
#include "bench/http_load.hpp"
#include "bench/load_average.hpp"
#include "runner/transport/ws_client.hpp"

namespace {

using a2a::bench::HttpAgentProcess;
using a2a::bench::LoadMode;
using a2a::bench::LoadOptions;
using a2a::core::Deadline;
using a2a::core::Millis;
using a2a::transport::WsConnection;
using a2a::transport::WsFrame;

struct Args {
  std::vector<int> connections = {1, 8};
  int window = 32;  // below the agent's 64 requests in flight per connection (docs/websocket.md)
  long duration_ms = 2000;
  long warmup_ms = 500;
  std::string agent = A2A_BINARY_DIR "/bin/a2a-ref-agent";
  bool sdk = true;
  std::string js_dir = A2A_SOURCE_DIR "/tests/interop/js";
};

constexpr const char* kUsage =
    "usage: ws_bench [--connections 1,8] [--window 32] [--duration-ms 2000] [--warmup-ms 500] [--agent PATH]\n"
    "                [--no-sdk] [--js-dir DIR]\n"
    "\n"
    "Starts a2a-ref-agent --http 0 --websocket 0 and measures SendMessage on both bindings in one\n"
    "run: JSON-RPC over HTTP (one request in flight per keep-alive connection) and WebSocket with\n"
    "1 and then --window requests in flight per connection (at most 63: the agent answers a 65th\n"
    "concurrent request 'server busy'). There is no WebSocket A2A SDK to install, so the official\n"
    "SDK is measured on its fastest binding for the same request: the @a2a-js/sdk agent of\n"
    "tests/interop/js (node agent.mjs; needs node and `npm ci` there; --no-sdk leaves it out) over\n"
    "JSON-RPC over HTTP, in the same run. Prints req/s, req per agent CPU-second, the ratios\n"
    "WebSocket/HTTP on our agent and ours-over-WebSocket / SDK-over-HTTP. docs/performance.md\n"
    "has a run's figures. Exit 1 when an answer was wrong or an agent could not start.\n";

std::vector<int> int_list(const std::string& s) {
  std::vector<int> out;
  size_t pos = 0;
  while (pos < s.size()) {  // each pass takes one comma-separated number
    size_t comma = s.find(',', pos);
    out.push_back(std::atoi(s.substr(pos, comma - pos).c_str()));
    pos = comma == std::string::npos ? s.size() : comma + 1;
  }
  return out;
}

bool parse_args(int argc, char** argv, Args& a) {
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (k == "-h" || k == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (k == "--connections") a.connections = int_list(value());
    else if (k == "--window") a.window = std::atoi(value().c_str());
    else if (k == "--duration-ms") a.duration_ms = std::atol(value().c_str());
    else if (k == "--warmup-ms") a.warmup_ms = std::atol(value().c_str());
    else if (k == "--agent") a.agent = value();
    else if (k == "--no-sdk") a.sdk = false;
    else if (k == "--js-dir") a.js_dir = value();
    else {
      std::fprintf(stderr, "ws_bench: unknown argument '%s'\n%s", k.c_str(), kUsage);
      return false;
    }
  }
  if (a.window < 1 || a.window > 63 || a.connections.empty() || a.duration_ms <= 0) {
    std::fprintf(stderr, "ws_bench: --window must be 1..63, --connections and --duration-ms positive\n");
    return false;
  }
  for (int c : a.connections)
    if (c < 1 || c > 1000) {
      std::fprintf(stderr, "ws_bench: each --connections value must be 1..1000\n");
      return false;
    }
  return true;
}

struct Tally {
  std::atomic<long long> ok{0};
  std::atomic<long long> failures{0};
  std::string sample;  // the first failure (written once, under `once`)
  std::atomic<bool> once{false};
  void fail(const std::string& why) {
    ++failures;
    if (!once.exchange(true)) sample = why;
  }
};

// One connection: `window` SendMessage requests in flight until `duration`
// has passed, then the answers still owed. Every wait has a deadline.
void ws_connection(const std::string& url, int client, int window, Millis duration, Tally& t) {
  a2a::transport::WsOptions o;
  o.headers = {{"A2A-Version", "1.0"}};
  auto c = WsConnection::connect(url, o, Deadline::after(Millis(10000)));
  if (!c) return t.fail(c.error().message);
  LoadOptions lo;  // only for rpc_body: SendMessage "hello", the echo behaviour
  lo.mode = LoadMode::kUnary;
  auto stop = Deadline::after(duration);
  long long seq = 0;
  int in_flight = 0;
  auto send_next = [&] {
    auto s = (*c)->send(a2a::bench::detail::rpc_body(lo, client, ++seq), true, Deadline::after(Millis(10000)));
    if (!s) {
      t.fail(s.error().message);
      return false;
    }
    ++in_flight;
    return true;
  };
  for (int i = 0; i < window; ++i)
    if (!send_next()) return;
  while (in_flight > 0) {  // bounded: no new request after `stop`, each answer waits at most 10 s
    auto f = (*c)->take([](const WsFrame&) { return true; }, Deadline::after(Millis(10000)));
    if (!f) return t.fail("no answer within 10 s: " + (*c)->why());
    --in_flight;
    if (f->payload.find("\"result\":") != std::string::npos &&
        f->payload.find("\"TASK_STATE_COMPLETED\"") != std::string::npos)
      ++t.ok;
    else
      t.fail("not the COMPLETED echo task: " + f->payload.substr(0, 200));
    if (!stop.expired() && !send_next()) return;
  }
}

struct Row {
  long long ok = 0, failures = 0;
  double seconds = 0, cpu = 0;
  std::string sample;
  double rps() const { return seconds > 0 ? ok / seconds : 0; }
  double per_cpu() const { return cpu > 0 ? ok / cpu : 0; }
};

Row ws_run(const HttpAgentProcess& agent, const std::string& url, int connections, int window, long ms) {
  Tally t;
  Row r;
  double cpu0 = agent.cpu_seconds();
  auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int i = 0; i < connections; ++i)
    threads.emplace_back([&, i] { ws_connection(url, i, window, Millis(ms), t); });
  for (auto& th : threads) th.join();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.cpu = agent.cpu_seconds() - cpu0;
  r.ok = t.ok;
  r.failures = t.failures;
  r.sample = t.sample;
  return r;
}

Row http_run(const HttpAgentProcess& agent, int connections, long ms) {
  LoadOptions o;
  o.port = agent.port();
  o.path = agent.path();
  o.mode = LoadMode::kUnary;
  o.connections = connections;
  o.duration = Millis(ms);
  o.deadline = Millis(ms + 60000);
  Row r;
  double cpu0 = agent.cpu_seconds();
  auto res = a2a::bench::run_load(o);
  r.cpu = agent.cpu_seconds() - cpu0;
  r.ok = res.ok;
  r.failures = res.failures;
  r.seconds = res.seconds;
  if (!res.samples.empty()) r.sample = res.samples.front();
  return r;
}

void print_row(const std::string& name, const Row& r) {
  std::printf("  %-30s %9lld  %9.0f  %10.0f  %8lld\n", name.c_str(), r.ok, r.rps(), r.per_cpu(), r.failures);
  if (!r.sample.empty()) std::printf("    failure: %s\n", r.sample.c_str());
}

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

// Why the SDK agent cannot run here, or "" when it can.
std::string sdk_missing(const Args& a) {
  if (std::system("command -v node >/dev/null 2>&1") != 0) return "node is not installed";
  if (!std::filesystem::exists(a.js_dir + "/node_modules/@a2a-js/sdk"))
    return a.js_dir + "/node_modules has no @a2a-js/sdk (run scripts/interop-setup.sh)";
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (!parse_args(argc, argv, a)) return 2;
  HttpAgentProcess agent({a.agent, "--http", "0", "--websocket", "0"}, "/");
  if (!agent.ok()) {
    std::fprintf(stderr, "ws_bench: the agent did not start: %s\n", agent.error().c_str());
    return 1;
  }
  const std::string& out = agent.start_output();
  size_t at = out.find("websocket on ");
  if (at == std::string::npos) {
    std::fprintf(stderr, "ws_bench: no 'websocket on' line in the agent's output: %s\n", out.c_str());
    return 1;
  }
  std::string url = out.substr(at + 13, out.find('\n', at) - at - 13);
  while (!url.empty() && (url.back() == '\r' || url.back() == ' ')) url.pop_back();
  std::printf("a2a-ref-agent: http://127.0.0.1:%u/ and %s; SendMessage, %.1f s per row after %.1f s warm-up\n",
              agent.port(), url.c_str(), a.duration_ms / 1000.0, a.warmup_ms / 1000.0);
  std::unique_ptr<HttpAgentProcess> sdk;
  std::string missing = a.sdk ? sdk_missing(a) : "--no-sdk";
  if (missing.empty()) {
    sdk = std::make_unique<HttpAgentProcess>(std::vector<std::string>{"node", a.js_dir + "/agent.mjs", "--port", "0"},
                                             "/a2a/jsonrpc");
    if (!sdk->ok()) {
      std::fprintf(stderr, "ws_bench: the JS SDK agent did not start: %s\n", sdk->error().c_str());
      return 1;
    }
    std::printf("js-sdk-agent: http://127.0.0.1:%u/a2a/jsonrpc, JSON-RPC over HTTP: there is no WebSocket A2A SDK to "
                "install, so the SDK runs on its fastest binding for the same request\n",
                sdk->port());
  } else {
    std::printf("js-sdk-agent: skipped (%s); a2a-ref-agent alone\n", missing.c_str());
  }
  std::printf("load average at the start: %s\n", a2a::bench::load_average().c_str());
  bool ok = true;
  for (int c : a.connections) {
    if (a.warmup_ms > 0) {
      http_run(agent, c, a.warmup_ms);
      ws_run(agent, url, c, a.window, a.warmup_ms);
      if (sdk) http_run(*sdk, c, a.warmup_ms);
    }
    std::printf("\n%d connection%s\n  %-30s %9s  %9s  %10s  %8s\n", c, c == 1 ? "" : "s", "binding", "requests",
                "req/s", "req/cpu-s", "failures");
    Row h = http_run(agent, c, a.duration_ms);
    print_row("JSON-RPC over HTTP, 1 in flight", h);
    Row w1 = ws_run(agent, url, c, 1, a.duration_ms);
    print_row("WebSocket, 1 in flight", w1);
    Row wn = ws_run(agent, url, c, a.window, a.duration_ms);
    print_row("WebSocket, " + std::to_string(a.window) + " in flight", wn);
    std::printf("  ratio WebSocket/HTTP: 1 in flight req/s x%.2f (per CPU-s x%.2f); %d in flight req/s x%.2f (per CPU-s x%.2f)\n",
                ratio(w1.rps(), h.rps()), ratio(w1.per_cpu(), h.per_cpu()), a.window, ratio(wn.rps(), h.rps()),
                ratio(wn.per_cpu(), h.per_cpu()));
    if (sdk) {
      Row j = http_run(*sdk, c, a.duration_ms);
      print_row("SDK agent, JSON-RPC over HTTP", j);
      std::printf("  ratio ours WebSocket / SDK JSON-RPC over HTTP: 1 in flight req/s x%.2f (per agent CPU-s x%.2f); "
                  "%d in flight req/s x%.2f (per agent CPU-s x%.2f)\n",
                  ratio(w1.rps(), j.rps()), ratio(w1.per_cpu(), j.per_cpu()), a.window, ratio(wn.rps(), j.rps()),
                  ratio(wn.per_cpu(), j.per_cpu()));
      ok = ok && j.failures == 0 && j.ok > 0;
    }
    std::fflush(stdout);
    for (const Row* r : {&h, &w1, &wn}) ok = ok && r->failures == 0 && r->ok > 0;
  }
  std::printf("\nload average at the end: %s\n", a2a::bench::load_average().c_str());
  if (!agent.running()) {
    std::fprintf(stderr, "ws_bench: the agent exited during the run: %s\n", agent.stderr_text().c_str());
    return 1;
  }
  return ok ? 0 : 1;
}
