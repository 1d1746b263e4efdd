#include "runner/load/load_driver.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

#include "runner/core/interrupt.hpp"
#include "runner/load/load_worker.hpp"

namespace a2a::load {

namespace {

double runner_cpu_seconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return sec(ru.ru_utime) + sec(ru.ru_stime);
}

result::LoadOpStats load_op_stats(const char* name, const std::vector<std::unique_ptr<LoadWorker>>& ws, int k) {
  result::LoadOpStats st;
  st.op = name;
  LatencyHistogram h;
  for (const auto& w : ws) {
    auto i = static_cast<size_t>(k);
    st.requests += w->requests[i];
    st.conformant += w->conformant[i];
    st.nonconformant += w->nonconformant[i];
    st.transport_errors += w->transport[i];
    st.shed += w->shed[i];
    h.merge(w->hist[i]);
  }
  st.latency = h.summary();
  return st;
}

void fill_load_stats(result::LoadRun& run, const std::vector<std::unique_ptr<LoadWorker>>& ws) {
  LatencyHistogram all;
  run.total.op = "all";
  for (LoadOp op : kAllLoadOps) {
    auto k = static_cast<int>(load_op_index(op));
    auto st = load_op_stats(load_op_name(op), ws, k);
    for (const auto& w : ws) all.merge(w->hist[static_cast<size_t>(k)]);
    run.total.requests += st.requests;
    run.total.conformant += st.conformant;
    run.total.nonconformant += st.nonconformant;
    run.total.transport_errors += st.transport_errors;
    run.total.shed += st.shed;
    if (st.requests > 0 || run.weights.count(st.op)) run.ops.push_back(std::move(st));
  }
  for (const auto& w : ws) run.warmup_requests += w->warmup_requests;
  run.total.latency = all.summary();
}

// Connections first (agent processes, handshakes), then the clock starts.
// Stops at the first failure while none has started (the agent is broken).
int start_load_workers(LoadShared& sh, int n, core::Deadline hard_end, std::vector<std::unique_ptr<LoadWorker>>& ws,
                       std::string& first_error) {
  int started = 0;
  for (int i = 0; i < n && core::interrupt_signal() == 0; ++i) {
    auto w = std::make_unique<LoadWorker>();
    w->index = i;
    setup_load_worker(*w, sh, hard_end);
    if (w->start_error.empty()) ++started;
    else if (first_error.empty()) first_error = w->start_error;
    ws.push_back(std::move(w));
    if (started == 0 && !first_error.empty()) break;
  }
  return started;
}

result::LoadRun load_run_header(const LoadOptions& o, int n) {
  result::LoadRun run;
  run.weights = o.weights;
  run.connections = n;
  run.rate = o.rate;
  run.mode = o.rate > 0 ? "open" : "closed";
  run.duration_s = static_cast<double>(o.duration.count()) / 1000;
  run.warmup_s = static_cast<double>(o.warmup.count()) / 1000;
  run.max_requests = o.max_requests;
  run.cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return run;
}

// Progress about once a second until every worker is done (each call is
// bounded by --timeout, so this ends by the hard end at the latest).
void wait_for_load_workers(LoadShared& sh, const LoadProgressFn& progress) {
  uint64_t last_done = 0;
  auto last_tick = LoadClock::now();
  std::unique_lock lk(sh.mu);
  while (sh.running > 0) {
    sh.changed.wait_for(lk, std::chrono::seconds(1));
    auto now = LoadClock::now();
    if (now - last_tick < std::chrono::milliseconds(950) || sh.running == 0) continue;
    LoadProgress p;
    p.elapsed_s = std::chrono::duration<double>(now - sh.t0).count();
    p.warming_up = now < sh.measure_from;
    p.requests = sh.done;
    p.nonconformant = sh.nonconformant;
    p.transport_errors = sh.transport;
    p.shed = sh.shed;
    p.recent_rps = static_cast<double>(p.requests - last_done) / std::chrono::duration<double>(now - last_tick).count();
    last_done = p.requests;
    last_tick = now;
    lk.unlock();
    if (progress) progress(p);
    lk.lock();
  }
}

// What the workers measured and found, into the run's model.
void summarize_load(result::LoadRun& run, LoadShared& sh, const std::vector<std::unique_ptr<LoadWorker>>& ws,
                    int started, double cpu, LoadClock::time_point finished) {
  int sig = core::interrupt_signal();
  run.interrupted = sig != 0;
  run.stopped_by = sh.stopped_by.empty() ? (sig ? core::signal_name(sig) : "duration") : sh.stopped_by;
  if (sh.given_up > 0) {
    run.notes.push_back(std::to_string(sh.given_up.load()) + " connection(s) stopped early: their agent process exited " +
                        std::to_string(kLoadMaxRestarts + 1) + " times; the load went on without them");
    if (sh.stopped_by.empty() && !sig && sh.given_up == started) run.stopped_by = "agent exits";
  }
  fill_load_stats(run, ws);
  auto measured_end = std::max(sh.last_finish, sh.measure_from);
  run.elapsed_s = std::chrono::duration<double>(measured_end - sh.measure_from).count();
  uint64_t answered = run.total.conformant + run.total.nonconformant;
  run.throughput_rps = run.elapsed_s > 0 ? static_cast<double>(answered) / run.elapsed_s : 0;
  uint64_t all_requests = run.total.requests + run.warmup_requests;
  run.runner_cpu_us_per_request = all_requests ? cpu * 1e6 / static_cast<double>(all_requests) : 0;
  double wall = std::chrono::duration<double>(finished - sh.t0).count();
  run.runner_cpu_percent = wall > 0 ? 100 * cpu / wall : 0;
  run.nonconformant_total = sh.nonconformant;
  run.findings = std::move(sh.findings);
  run.findings_not_recorded = sh.findings_dropped;
  run.transport_error_kinds = std::move(sh.error_kinds);
  run.transport_samples = std::move(sh.samples);
  run.shed_total = sh.shed;
  run.shed_kinds = std::move(sh.shed_kinds);
  run.shed_samples = std::move(sh.shed_samples);
  if (answered == 0 && sh.answered == 0 && run.shed_total > 0)
    run.notes.push_back("the agent shed every request it answered (" + std::to_string(run.shed_total) +
                        " shed): nothing was tested; lower the load (--connections, --rate)");
  if (run.stopped_by == "no answers")
    run.notes.push_back("stopped early: no request got an answer (" + std::to_string(run.total.transport_errors +
                        run.warmup_requests) + " tries); is the agent running, and is this its interface?");
  if (run.runner_cpu_percent > 80.0 * run.cores)
    run.notes.push_back("the runner used most of the machine's CPU: the load generator, not the agent, may be the limit");
}

}  // namespace

core::Expected<result::LoadRun> run_load(const LoadOptions& o, const engine::RunConfig& cfg,
                                         const engine::BindingTarget* binding, const LoadProgressFn& progress) {
  LoadShared sh;
  sh.o = &o;
  sh.cfg = &cfg;
  sh.binding = binding;
  sh.pattern = load_weighted_pattern(o.weights);
  if (sh.pattern.empty()) return core::fail(core::ErrorKind::kInvalidArgument, "no operation has a weight above 0");
  int n = std::clamp(o.connections, 1, kLoadMaxConnections);
  auto hard_end = core::Deadline::after(o.warmup + o.duration + o.request_timeout + core::Millis(5000));
  std::vector<std::unique_ptr<LoadWorker>> ws;
  std::string first_error;
  int started = start_load_workers(sh, n, hard_end, ws, first_error);
  if (started == 0) {
    for (auto& w : ws) stop_stdio_agent(*w);
    return core::fail(core::ErrorKind::kSpawn, first_error.empty() ? "interrupted before the load started" : first_error);
  }
  result::LoadRun run = load_run_header(o, n);
  if (started < n)
    run.notes.push_back(std::to_string(n - started) + " of " + std::to_string(n) +
                        " connections could not start (the first: " + first_error + "); the load ran on " +
                        std::to_string(started));

  double cpu0 = runner_cpu_seconds();
  sh.t0 = LoadClock::now();
  sh.measure_from = sh.t0 + o.warmup;
  sh.end = sh.measure_from + o.duration;
  sh.last_finish = sh.measure_from;
  // Declared after `ws` and destroyed before it: the hook never sees a dead worker.
  core::InterruptHook hook([&sh, &ws] {
    sh.halt(core::signal_name(core::interrupt_signal()));
    for (auto& w : ws) w->interrupt();
  });
  std::vector<std::thread> threads;
  for (auto& w : ws) {
    if (!w->start_error.empty()) continue;
    ++sh.running;
    LoadWorker* wp = w.get();
    threads.emplace_back([&sh, wp] {
      load_worker_loop(sh, *wp);
      --sh.running;
      sh.changed.notify_all();
    });
  }
  wait_for_load_workers(sh, progress);
  for (auto& t : threads) t.join();
  auto finished = LoadClock::now();
  double cpu = runner_cpu_seconds() - cpu0;
  for (auto& w : ws) stop_stdio_agent(*w);
  summarize_load(run, sh, ws, started, cpu, finished);
  return run;
}

}  // namespace a2a::load
