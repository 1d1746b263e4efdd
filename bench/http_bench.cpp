// HTTP speed of a2a-ref-agent against an agent built on the official
// JavaScript SDK (tests/interop/js/agent.mjs), under the same closed-loop load
// (bench/http_load.hpp) at the same concurrency, on both HTTP bindings
// (JSON-RPC, and HTTP+JSON/REST unless --no-rest): SendMessage requests per
// second with p50/p99 latency, and streamed SendMessage events per second.
// Each measure runs both agents in the same minute (ours, the SDK's, and
// again alternating with --rounds), and a summary prints one ratio line per
// measure. The goal (docs/performance.md, "HTTP"): the reference agent at least 10x.
//
//   http_bench [--connections 16,64] [--duration-ms 3000] [--warmup-ms 1000] [--rounds 1]
//              [--events K] [--agent PATH] [--agent-arg ARG]... [--js-dir DIR] [--no-js] [--no-rest]
//              [--unary-only | --stream-only]
//   http_bench --load [--clients 2000] [--requests 20] [--streams 5000] [--events K]
//
// --load is the big run of the reference agent alone (the bounded one is
// tests/e2e/load_test.cpp): that many concurrent clients doing SendMessage,
// then that many concurrent streams, with every answer and event checked,
// and the agent's memory before, at peak and after. Exit status 1 when any
// answer was wrong or an agent could not start.
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench/http_agent.hpp"
#include "bench/http_load.hpp"
#include "bench/load_average.hpp"

namespace {

using a2a::bench::HttpAgentProcess;
using a2a::bench::LoadMode;
using a2a::bench::LoadOptions;
using a2a::bench::LoadResult;
using a2a::core::Millis;

struct Args {
  std::vector<int> connections = {16, 64};
  long duration_ms = 3000;
  long warmup_ms = 1000;
  int events = 100;
  std::string agent = A2A_BINARY_DIR "/bin/a2a-ref-agent";
  std::vector<std::string> agent_args;  // more arguments for a2a-ref-agent
  std::string js_dir = A2A_SOURCE_DIR "/tests/interop/js";
  bool js = true;
  bool unary = true;
  bool stream = true;
  bool rest = true;
  int rounds = 1;
  bool load = false;
  int clients = 2000;
  long requests = 20;
  int streams = 5000;
};

std::vector<int> int_list(const std::string& s) {
  std::vector<int> out;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t comma = s.find(',', pos);
    out.push_back(std::atoi(s.substr(pos, comma - pos).c_str()));
    pos = comma == std::string::npos ? s.size() : comma + 1;
  }
  return out;
}

constexpr const char* kUsage =
    "usage: http_bench [--connections 16,64] [--duration-ms 3000] [--warmup-ms 1000] [--rounds 1] [--events K]\n"
    "                  [--agent PATH] [--agent-arg ARG]... [--js-dir DIR] [--no-js] [--no-rest]\n"
    "                  [--unary-only | --stream-only]\n"
    "       http_bench --load [--clients 2000] [--requests 20] [--streams 5000] [--events K]\n"
    "\n"
    "Compares a2a-ref-agent with the @a2a-js/sdk agent of tests/interop/js (needs node and\n"
    "scripts/interop-setup.sh; --no-js measures ours alone) under the same closed-loop load:\n"
    "SendMessage req/s, p50/p99 latency and req per agent CPU-second at each --connections,\n"
    "then streams of K+3 events (events/s), over JSON-RPC and over REST (POST /message:send,\n"
    "/message:stream; --no-rest leaves REST out). Both agents are measured in each measure's\n"
    "minute, --rounds times alternating (their counts summed), and a summary prints one ratio\n"
    "line per measure: req/s (or events/s) and work per agent CPU-second, ours over the SDK's.\n"
    "--agent-arg passes one more argument to a2a-ref-agent (repeatable).\n"
    "--load is the big run of a2a-ref-agent alone, checking every answer and the agent's\n"
    "memory. docs/performance.md has the figures and the goal (10x the SDK). Exit 1 when an\n"
    "answer was wrong.\n";

bool parse_args(int argc, char** argv, Args& a) {
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    if (k == "-h" || k == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (k == "--connections") a.connections = int_list(value());
    else if (k == "--duration-ms") a.duration_ms = std::atol(value().c_str());
    else if (k == "--warmup-ms") a.warmup_ms = std::atol(value().c_str());
    else if (k == "--events") a.events = std::atoi(value().c_str());
    else if (k == "--agent") a.agent = value();
    else if (k == "--agent-arg") a.agent_args.push_back(value());
    else if (k == "--js-dir") a.js_dir = value();
    else if (k == "--no-js") a.js = false;
    else if (k == "--no-rest") a.rest = false;
    else if (k == "--rounds") a.rounds = std::max(1, std::atoi(value().c_str()));
    else if (k == "--unary-only") a.stream = false;
    else if (k == "--stream-only") a.unary = false;
    else if (k == "--load") a.load = true;
    else if (k == "--clients") a.clients = std::atoi(value().c_str());
    else if (k == "--requests") a.requests = std::atol(value().c_str());
    else if (k == "--streams") a.streams = std::atoi(value().c_str());
    else {
      std::fprintf(stderr, "http_bench: unknown argument '%s'\n%s", k.c_str(), kUsage);
      return false;
    }
  }
  return true;
}

// Why the JS agent cannot run here, or "" when it can.
std::string js_missing(const Args& a) {
  if (std::system("command -v node >/dev/null 2>&1") != 0) return "node is not installed";
  if (!std::filesystem::exists(a.js_dir + "/node_modules/@a2a-js/sdk")) {
    return a.js_dir + "/node_modules has no @a2a-js/sdk (run scripts/interop-setup.sh)";
  }
  return "";
}

struct Row {
  LoadResult r;
  double rps = 0, p50 = 0, p99 = 0, eps = 0;
  double cpu = 0;  // agent CPU seconds during the measured runs
  double per_cpu(long long n) const { return cpu > 0 ? static_cast<double>(n) / cpu : 0; }
  // What the measure counts: requests (unary) or events (streams).
  long long work(LoadMode mode) const { return mode == LoadMode::kUnary ? r.ok : r.events; }
};

// One agent as a bench target: where it takes JSON-RPC and where its REST paths begin.
struct Target {
  const char* name;
  HttpAgentProcess* agent;
  std::string rest_base;
};

// One line of the summary: a request kind over one binding.
struct Measure {
  const char* name;
  LoadMode mode;
  bool rest;
};

LoadOptions options_for(const Target& t, const Measure& m, int connections, const Args& a) {
  LoadOptions o;
  o.port = t.agent->port();
  o.path = m.rest ? t.rest_base : t.agent->path();
  o.rest = m.rest;
  o.mode = m.mode;
  o.connections = connections;
  o.stream_events = a.events;
  return o;
}

void warm_up(const Target& t, const Measure& m, int connections, const Args& a) {
  if (a.warmup_ms <= 0) return;
  LoadOptions o = options_for(t, m, connections, a);
  o.duration = Millis(a.warmup_ms);
  o.deadline = Millis(a.warmup_ms + 60000);
  a2a::bench::run_load(o);
}

// One measured run added into `row` (counts, latencies, seconds and agent CPU summed).
void measure_into(Row& row, const Target& t, const Measure& m, int connections, const Args& a) {
  LoadOptions o = options_for(t, m, connections, a);
  o.duration = Millis(a.duration_ms);
  o.deadline = Millis(a.duration_ms + 60000);
  double cpu0 = t.agent->cpu_seconds();
  LoadResult r = a2a::bench::run_load(o);
  row.cpu += t.agent->cpu_seconds() - cpu0;
  double seconds = row.r.seconds + r.seconds;
  a2a::bench::detail::merge(row.r, r);
  row.r.seconds = seconds;
}

void finish_row(Row& row) {
  row.rps = row.r.per_second(row.r.ok);
  row.eps = row.r.per_second(row.r.events);
  row.p50 = row.r.percentile_ms(50);
  row.p99 = row.r.percentile_ms(99);
}

void print_row(const char* name, const Row& row, LoadMode mode) {
  if (mode == LoadMode::kUnary) {
    std::printf("  %-14s %9lld  %9.0f  %7.2f  %7.2f  %9.0f  %8lld\n", name, row.r.ok, row.rps, row.p50, row.p99,
                row.per_cpu(row.r.ok), row.r.failures);
  } else {
    std::printf("  %-14s %9lld  %9.0f  %9.0f  %7.2f  %9.0f  %8lld\n", name, row.r.ok, row.rps, row.eps, row.p50,
                row.per_cpu(row.r.events), row.r.failures);
  }
  for (const auto& s : row.r.samples) std::printf("    failure: %s\n", s.c_str());
}

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

std::string measure_title(const Measure& m, int connections, const Args& a) {
  std::string t = std::string(m.name) + ", " + std::to_string(connections) + " connections";
  if (m.mode == LoadMode::kStream) t += ", " + std::to_string(a.events + 3) + " events per stream";
  return t;
}

bool compare(const Args& a, const Target& ref, const Target* js) {
  bool ok = true;
  std::vector<Measure> measures;
  if (a.unary) measures.push_back({"JSON-RPC SendMessage", LoadMode::kUnary, false});
  if (a.unary && a.rest) measures.push_back({"REST SendMessage", LoadMode::kUnary, true});
  if (a.stream) measures.push_back({"JSON-RPC SendStreamingMessage", LoadMode::kStream, false});
  if (a.stream && a.rest) measures.push_back({"REST message:stream", LoadMode::kStream, true});
  std::vector<std::string> summary;
  for (const Measure& m : measures) {
    bool unary = m.mode == LoadMode::kUnary;
    for (int c : a.connections) {
      std::string title = measure_title(m, c, a);
      std::printf("\n%s: %d x %.1f s per agent after %.1f s warm-up\n", title.c_str(), a.rounds,
                  a.duration_ms / 1000.0, a.warmup_ms / 1000.0);
      std::printf("  %-14s %9s  %9s  %9s  %7s  %9s  %8s\n", "agent", unary ? "requests" : "streams",
                  unary ? "req/s" : "streams/s", unary ? "p50 ms" : "events/s", unary ? "p99 ms" : "p50 ms",
                  unary ? "req/cpu-s" : "ev/cpu-s", "failures");
      warm_up(ref, m, c, a);
      if (js) warm_up(*js, m, c, a);
      Row r, j;
      // Alternating, so a neighbour's burst weighs on both agents alike.
      for (int round = 0; round < a.rounds; ++round) {
        measure_into(r, ref, m, c, a);
        if (js) measure_into(j, *js, m, c, a);
      }
      finish_row(r);
      print_row(ref.name, r, m.mode);
      ok = ok && r.r.failures == 0 && r.r.ok > 0;
      if (!js) continue;
      finish_row(j);
      print_row(js->name, j, m.mode);
      ok = ok && j.r.failures == 0 && j.r.ok > 0;
      double rate = unary ? ratio(r.rps, j.rps) : ratio(r.eps, j.eps);
      double per_cpu = ratio(r.per_cpu(r.work(m.mode)), j.per_cpu(j.work(m.mode)));
      char line[256];
      std::snprintf(line, sizeof line, "ratio %s: %s x%.1f, per agent CPU-second x%.1f, p50 x%.1f lower",
                    title.c_str(), unary ? "req/s" : "events/s", rate, per_cpu, ratio(j.p50, r.p50));
      std::printf("  %s\n", line);
      summary.emplace_back(line);
      std::fflush(stdout);
    }
  }
  if (!summary.empty()) {
    std::printf("\nsummary (a2a-ref-agent / js-sdk-agent, the goal is x10 or more):\n");
    for (const auto& line : summary) std::printf("  %s\n", line.c_str());
    std::printf("load average at the end: %s\n", a2a::bench::load_average().c_str());
  }
  std::printf("\nagent memory after the runs: a2a-ref-agent VmRSS %ld KiB, VmHWM %ld KiB", ref.agent->rss_kib(),
              ref.agent->status_field("VmHWM"));
  if (js) {
    std::printf("; js-sdk-agent VmRSS %ld KiB, VmHWM %ld KiB", js->agent->rss_kib(),
                js->agent->status_field("VmHWM"));
  }
  std::printf("\n");
  return ok;
}

// Largest RSS seen while `load` runs (sampled every 20 ms).
long peak_rss_during(HttpAgentProcess& agent, LoadOptions o, LoadResult& out) {
  std::atomic<bool> done{false};
  std::atomic<long> peak{agent.rss_kib()};
  std::thread sampler([&] {
    while (!done) {
      long now = agent.rss_kib();
      if (now > peak) peak = now;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  out = a2a::bench::run_load(o);
  done = true;
  sampler.join();
  return peak;
}

bool big_load(const Args& a, HttpAgentProcess& ref) {
  LoadOptions o;
  o.port = ref.port();
  o.path = ref.path();
  o.deadline = Millis(300000);
  o.threads = 2;
  o.connections = 64;
  o.per_connection = 50;
  a2a::bench::run_load(o);  // warm-up: the pools and caches the agent keeps
  std::this_thread::sleep_for(std::chrono::seconds(2));
  long base = ref.rss_kib();
  std::printf("a2a-ref-agent under load: baseline VmRSS %ld KiB, %ld threads\n", base, ref.status_field("Threads"));
  bool ok = true;
  for (LoadMode mode : {LoadMode::kUnary, LoadMode::kStream}) {
    bool unary = mode == LoadMode::kUnary;
    o.mode = mode;
    o.connections = unary ? a.clients : a.streams;
    o.per_connection = unary ? a.requests : 1;
    o.stream_events = a.events;
    LoadResult r;
    long peak = peak_rss_during(ref, o, r);
    std::string what = unary ? "clients x " + std::to_string(a.requests) + " SendMessage"
                             : "streams of " + std::to_string(a.events + 3) + " events";
    std::printf("  %d %s: %lld ok, %lld failures, %lld events, %.2f s, %.0f %s/s, p50 %.1f ms, p99 %.1f ms; "
                "peak VmRSS %ld KiB\n",
                o.connections, what.c_str(), r.ok, r.failures, r.events, r.seconds,
                r.per_second(unary ? r.ok : r.events),
                unary ? "req" : "events", r.percentile_ms(50), r.percentile_ms(99), peak);
    for (const auto& s : r.samples) std::printf("    failure: %s\n", s.c_str());
    ok = ok && r.failures == 0;
  }
  std::this_thread::sleep_for(std::chrono::seconds(3));
  std::printf("  after (3 s idle): VmRSS %ld KiB (baseline %ld KiB), %ld threads\n", ref.rss_kib(), base,
              ref.status_field("Threads"));
  return ok;
}

void raise_fd_limit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;  // the agent inherits it
    setrlimit(RLIMIT_NOFILE, &rl);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (!parse_args(argc, argv, a)) return 2;
  raise_fd_limit();
  std::vector<std::string> ref_argv = {a.agent, "--http", "0", "--quiet"};
  ref_argv.insert(ref_argv.end(), a.agent_args.begin(), a.agent_args.end());
  HttpAgentProcess ref(ref_argv, "/");
  if (!ref.ok()) {
    std::fprintf(stderr, "http_bench: a2a-ref-agent did not start: %s\n", ref.error().c_str());
    return 1;
  }
  if (a.load) return big_load(a, ref) ? 0 : 1;
  std::unique_ptr<HttpAgentProcess> js;
  std::string missing = a.js ? js_missing(a) : "--no-js";
  if (missing.empty()) {
    js = std::make_unique<HttpAgentProcess>(std::vector<std::string>{"node", a.js_dir + "/agent.mjs", "--port", "0"},
                                            "/a2a/jsonrpc");
    if (!js->ok()) {
      std::fprintf(stderr, "http_bench: the JS SDK agent did not start: %s\n", js->error().c_str());
      return 1;
    }
  } else {
    std::printf("js-sdk-agent: skipped (%s); a2a-ref-agent alone\n", missing.c_str());
  }
  std::printf("load average at the start: %s\n", a2a::bench::load_average().c_str());
  std::printf("load generator: bench/http_load.hpp, 1 thread, keep-alive, closed loop\n");
  Target ref_target{"a2a-ref-agent", &ref, "/"};
  std::optional<Target> js_target;
  if (js) js_target = Target{"js-sdk-agent", js.get(), "/a2a/rest"};
  return compare(a, ref_target, js_target ? &*js_target : nullptr) ? 0 : 1;
}
