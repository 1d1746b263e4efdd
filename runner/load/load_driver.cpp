#include "runner/load/load_driver.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "runner/core/escape.hpp"
#include "runner/core/interrupt.hpp"
#include "runner/engine/agent_connection.hpp"
#include "runner/engine/http_pool.hpp"
#include "runner/engine/operations.hpp"
#include "runner/engine/session.hpp"
#include "runner/engine/step_exec.hpp"
#include "runner/load/latency_histogram.hpp"
#include "runner/load/load_checks.hpp"

namespace a2a::load {

namespace {

using LoadClock = std::chrono::steady_clock;

// A recorded transcript keeps at most this many bytes (the first ones), so
// --max-findings bounds memory: docs/load.md "Bounds".
constexpr size_t kLoadFindingBytes = 256 * 1024;
// A worker whose call got no answer waits this long before its next one, so
// a dead target is not hammered in a tight loop (and the counts stay sane).
constexpr auto kLoadErrorPause = std::chrono::milliseconds(20);
constexpr int kLoadMaxRestarts = 3;       // stdio: agent processes a worker may restart
constexpr size_t kLoadMaxErrorKinds = 20;

struct LoadShared {
  const LoadOptions* o = nullptr;
  const engine::RunConfig* cfg = nullptr;
  const engine::BindingTarget* binding = nullptr;
  std::vector<LoadOp> pattern;
  LoadClock::time_point t0, measure_from, end;
  std::atomic<uint64_t> next_ticket{0}, measured_issued{0};
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> done{0}, nonconformant{0}, transport{0}, answered{0};
  std::atomic<int> running{0};
  std::atomic<int> given_up{0};  // stdio connections whose agent exited too often
  std::mutex mu;  // everything below
  std::condition_variable changed;
  std::string stopped_by;
  std::vector<result::LoadFinding> findings;
  uint64_t findings_dropped = 0;
  std::map<std::string, uint64_t> error_kinds;
  std::vector<result::LoadTransportError> samples;
  LoadClock::time_point last_finish;

  void halt(const std::string& why) {
    {
      std::lock_guard lk(mu);
      if (stopped_by.empty()) stopped_by = why;
    }
    stop = true;
    changed.notify_all();
  }
};

struct LoadWorker {
  int index = 0;
  transport::Transcript net_transcript;
  std::unique_ptr<engine::HttpPool> pool;
  std::mutex conn_mu;  // conn, against the interrupt hook
  std::unique_ptr<engine::AgentConnection> conn;
  engine::Session s;
  LoadTaskRef last_task;
  LatencyHistogram hist[3];
  uint64_t requests[3] = {0, 0, 0}, conformant[3] = {0, 0, 0}, nonconformant[3] = {0, 0, 0}, transport[3] = {0, 0, 0};
  uint64_t warmup_requests = 0;
  int restarts = 0;
  std::string start_error;

  transport::Transcript& transcript() { return conn ? conn->process().transcript() : net_transcript; }
  void interrupt() {
    if (pool) pool->interrupt_all();
    std::lock_guard lk(conn_mu);
    if (conn) conn->interrupt("a2a-conform load: stopped by a signal");
  }
};

size_t load_op_index(LoadOp op) { return static_cast<size_t>(op); }

// Smooth weighted round robin: weights 3,1,1 give send stream send get send.
std::vector<LoadOp> load_weighted_pattern(const std::map<std::string, int>& weights) {
  std::vector<std::pair<LoadOp, int>> w;
  int total = 0;
  for (LoadOp op : kAllLoadOps) {
    auto it = weights.find(load_op_name(op));
    if (it != weights.end() && it->second > 0) {
      w.emplace_back(op, it->second);
      total += it->second;
    }
  }
  std::vector<int> current(w.size(), 0);
  std::vector<LoadOp> out;
  for (int n = 0; n < total; ++n) {
    size_t best = 0;
    for (size_t i = 0; i < w.size(); ++i) {
      current[i] += w[i].second;
      if (current[i] > current[best]) best = i;
    }
    current[best] -= total;
    out.push_back(w[best].first);
  }
  return out;
}

std::string start_stdio_agent(LoadWorker& w, const engine::RunConfig& cfg) {
  engine::ConnectionOptions co;
  co.spawn.argv = cfg.agent_argv;
  const auto& env = cfg.profile.handshake.session_env;
  co.spawn.env_set[env.empty() ? "A2A_SESSION_ID" : env] = w.s.session_id;
  auto c = engine::AgentConnection::start(co);
  if (!c) return "could not start the agent: " + c.error().message;
  {
    std::lock_guard lk(w.conn_mu);
    w.conn = std::move(*c);
  }
  w.s.conn = w.conn.get();
  w.s.transcript = &w.conn->process().transcript();
  if (!cfg.profile.handshake.enabled) return "";
  auto hs = engine::auto_handshake(w.s);
  if (hs.ok()) return "";
  return "the agent did not complete the handshake: " +
         (hs.failure && !hs.failure->message.empty() ? hs.failure->message : std::string(result::to_string(hs.outcome)));
}

void stop_stdio_agent(LoadWorker& w) {
  std::unique_ptr<engine::AgentConnection> c;
  {
    std::lock_guard lk(w.conn_mu);
    c = std::move(w.conn);
  }
  w.s.conn = nullptr;
  if (c) c->shutdown(core::Millis(300), core::Millis(300));
}

void setup_load_worker(LoadWorker& w, const LoadShared& sh, core::Deadline hard_end) {
  w.s.config = sh.cfg;
  w.s.session_id = core::uuid_v7();
  w.s.deadline = hard_end;
  w.s.vars.set_root("profile", sh.cfg->profile.doc);
  if (sh.binding && sh.binding->is_network()) {
    w.pool = std::make_unique<engine::HttpPool>(&w.net_transcript, sh.cfg->insecure_tls);
    w.s.target = sh.binding;
    w.s.http = w.pool.get();
    w.s.transcript = &w.net_transcript;
    return;
  }
  w.start_error = start_stdio_agent(w, *sh.cfg);
}

std::vector<result::WireEvent> load_events(std::vector<transport::TranscriptEntry> entries, uint64_t& dropped) {
  std::vector<result::WireEvent> out;
  size_t kept = 0;
  auto base = entries.empty() ? LoadClock::time_point() : entries.front().at;
  for (auto& e : entries) {
    result::WireEvent w;
    w.t_ms = std::chrono::duration<double, std::milli>(e.at - base).count();
    switch (e.dir) {
      case transport::Direction::kToPeer: w.dir = "to-agent"; break;
      case transport::Direction::kFromPeer: w.dir = "from-agent"; break;
      case transport::Direction::kStderr: w.dir = "stderr"; break;
      case transport::Direction::kNote: w.dir = "note"; break;
    }
    size_t room = kept < kLoadFindingBytes ? kLoadFindingBytes - kept : 0;
    if (e.bytes.size() > room) {
      dropped += e.bytes.size() - room;
      e.bytes.resize(room);
    }
    kept += e.bytes.size();
    if (e.bytes.empty()) continue;
    w.bytes = std::move(e.bytes);
    out.push_back(std::move(w));
  }
  return out;
}

double load_ms_between(LoadClock::time_point a, LoadClock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

void note_load_transport(LoadShared& sh, LoadWorker& w, LoadOp op, uint64_t ticket, const std::string& problem) {
  uint64_t n = ++sh.transport;
  std::lock_guard lk(sh.mu);
  // Kinds without their numbers (ids, byte counts, ports), so one problem
  // is one line however often it comes.
  std::string kind;
  for (char c : problem.substr(0, 160)) {
    bool digit = c >= '0' && c <= '9';
    if (!digit || kind.empty() || kind.back() != '#') kind += digit ? '#' : c;
  }
  if (sh.error_kinds.size() >= kLoadMaxErrorKinds && !sh.error_kinds.count(kind)) kind = "(other problems)";
  ++sh.error_kinds[kind];
  if (sh.samples.size() < static_cast<size_t>(kLoadTransportSamples))
    sh.samples.push_back({load_op_name(op), ticket, w.index, load_ms_between(sh.t0, LoadClock::now()), problem.substr(0, 2000)});
  // Nothing has answered yet and every connection failed twice: the target
  // is not there. Stop instead of counting failures for the whole duration.
  if (sh.answered == 0 && n >= static_cast<uint64_t>(std::max(10, 2 * sh.o->connections)) && sh.stopped_by.empty()) {
    sh.stopped_by = "no answers";
    sh.stop = true;
    sh.changed.notify_all();
  }
}

void note_load_finding(LoadShared& sh, LoadWorker& w, LoadOp op, uint64_t ticket, LoadVerdict& v) {
  ++sh.nonconformant;
  uint64_t dropped = w.transcript().dropped_bytes();
  auto entries = w.transcript().take_entries();
  std::lock_guard lk(sh.mu);
  if (sh.findings.size() >= static_cast<size_t>(sh.o->max_findings)) {
    ++sh.findings_dropped;
    return;
  }
  result::LoadFinding f;
  f.op = load_op_name(op);
  f.operation = load_op_operation(op);
  f.seq = ticket;
  f.connection = w.index;
  f.at_ms = load_ms_between(sh.t0, LoadClock::now());
  f.reason = std::move(v.reason);
  f.quotes = std::move(v.quotes);
  f.transcript = load_events(std::move(entries), dropped);
  f.transcript_dropped_bytes = dropped;
  sh.findings.push_back(std::move(f));
}

// Waits for `due` in short slices so a stop is seen; false when stopped.
bool wait_until_load_due(const LoadShared& sh, LoadClock::time_point due) {
  while (!sh.stop) {
    auto now = LoadClock::now();
    if (now >= due) return true;
    std::this_thread::sleep_for(std::min<LoadClock::duration>(due - now, std::chrono::milliseconds(50)));
  }
  return false;
}

// The next request's number and when it is due; false when the load is over.
bool next_load_request(LoadShared& sh, uint64_t& ticket, LoadClock::time_point& due) {
  if (sh.stop) return false;
  ticket = sh.next_ticket.fetch_add(1);
  if (sh.o->rate > 0) {
    due = sh.t0 + std::chrono::nanoseconds(static_cast<long long>(static_cast<double>(ticket) * 1e9 / sh.o->rate));
    // Past the end: this worker is done, the others still send the
    // requests they hold, which fall due before it (no halt here).
    if (due >= sh.end) return false;
    if (!wait_until_load_due(sh, due)) return false;
  } else {
    due = LoadClock::now();
    if (due >= sh.end) {
      sh.halt("duration");
      return false;
    }
  }
  if (due >= sh.measure_from && sh.o->max_requests > 0 && sh.measured_issued.fetch_add(1) >= sh.o->max_requests) {
    sh.halt("requests");
    return false;
  }
  return true;
}

void record_load_answer(LoadShared& sh, LoadWorker& w, LoadOp op, uint64_t ticket, bool measured, LoadVerdict& v,
            uint64_t latency_us) {
  size_t k = load_op_index(op);
  if (measured) ++w.requests[k];
  else ++w.warmup_requests;
  if (v.kind == LoadVerdict::Kind::kTransport) {
    if (measured) ++w.transport[k];
    note_load_transport(sh, w, op, ticket, v.reason);
    return;
  }
  ++sh.answered;
  if (measured) {
    w.hist[k].record(latency_us);
    ++(v.kind == LoadVerdict::Kind::kConformant ? w.conformant[k] : w.nonconformant[k]);
  }
  if (v.kind == LoadVerdict::Kind::kNonConformant) note_load_finding(sh, w, op, ticket, v);
}

void load_worker_loop(LoadShared& sh, LoadWorker& w) {
  uint64_t ticket = 0;
  LoadClock::time_point due;
  while (next_load_request(sh, ticket, due)) {
    LoadOp op = sh.pattern[ticket % sh.pattern.size()];
    if (op == LoadOp::kGet && w.last_task.id.empty()) op = LoadOp::kSend;  // nothing to get yet
    LoadTaskRef asked = w.last_task;
    Json params = load_request_params(op, op == LoadOp::kGet ? &asked : nullptr);
    w.transcript().take_entries();  // what came between calls (stderr) is no call's
    auto deadline = core::Deadline::after(sh.o->request_timeout).min(w.s.deadline);
    engine::OpResult r = engine::call_operation(w.s, load_op_operation(op), params, deadline);
    auto finished = LoadClock::now();
    // A call the signal cut short says nothing about the agent.
    if (r.status == engine::OpResult::Status::kNoResponse && core::interrupt_signal() != 0) break;
    LoadVerdict v = judge_answer(w.s, op, r, op == LoadOp::kGet ? &asked : nullptr);
    if (v.kind == LoadVerdict::Kind::kTransport && w.s.conn && !w.s.conn->framing_error().empty())
      v = framing_verdict(w.s.conn->framing_error(), v.reason);
    if (v.kind == LoadVerdict::Kind::kTransport && w.s.conn && w.s.conn->unconsumed() > 0) {
      auto stray = w.s.conn->pending();
      for (const auto& f : stray) w.s.conn->remove(f.seq);  // no later call may take them
      if (!stray.empty()) v = stray_frames_verdict(stray.size(), stray.front().body, v.reason);
    }
    bool measured = due >= sh.measure_from;
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(finished - due).count();
    record_load_answer(sh, w, op, ticket, measured, v, static_cast<uint64_t>(std::max<long long>(us, 0)));
    if (!v.created.id.empty()) w.last_task = v.created;
    if (measured) {
      std::lock_guard lk(sh.mu);
      sh.last_finish = std::max(sh.last_finish, finished);
    }
    ++sh.done;
    if (v.kind == LoadVerdict::Kind::kTransport) std::this_thread::sleep_for(kLoadErrorPause);
    if (w.s.conn && w.s.conn->eof()) {  // stdio: the agent is gone; a fresh one, a few times
      stop_stdio_agent(w);
      if (sh.stop) break;
      if (++w.restarts > kLoadMaxRestarts) {
        ++sh.given_up;
        break;
      }
      w.last_task = {};
      if (auto why = start_stdio_agent(w, *sh.cfg); !why.empty()) {
        note_load_transport(sh, w, op, ticket, why);
        break;
      }
    }
  }
}

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
    if (st.requests > 0 || run.weights.count(st.op)) run.ops.push_back(std::move(st));
  }
  for (const auto& w : ws) run.warmup_requests += w->warmup_requests;
  run.total.latency = all.summary();
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

  // Connections first (agent processes, handshakes), then the clock starts.
  std::vector<std::unique_ptr<LoadWorker>> ws;
  std::string first_error;
  int started = 0;
  for (int i = 0; i < n && core::interrupt_signal() == 0; ++i) {
    auto w = std::make_unique<LoadWorker>();
    w->index = i;
    setup_load_worker(*w, sh, hard_end);
    if (w->start_error.empty()) ++started;
    else if (first_error.empty()) first_error = w->start_error;
    ws.push_back(std::move(w));
    if (started == 0 && !first_error.empty()) break;  // the first one failed: the agent is broken
  }
  if (started == 0) {
    for (auto& w : ws) stop_stdio_agent(*w);
    return core::fail(core::ErrorKind::kSpawn, first_error.empty() ? "interrupted before the load started" : first_error);
  }

  result::LoadRun run;
  run.weights = o.weights;
  run.connections = n;
  run.rate = o.rate;
  run.mode = o.rate > 0 ? "open" : "closed";
  run.duration_s = static_cast<double>(o.duration.count()) / 1000;
  run.warmup_s = static_cast<double>(o.warmup.count()) / 1000;
  run.max_requests = o.max_requests;
  run.cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (started < n)
    run.notes.push_back(std::to_string(n - started) + " of " + std::to_string(n) +
                        " connections could not start (the first: " + first_error + "); the load ran on " +
                        std::to_string(started));

  double cpu0 = runner_cpu_seconds();
  sh.t0 = LoadClock::now();
  sh.measure_from = sh.t0 + o.warmup;
  sh.end = sh.measure_from + o.duration;
  sh.last_finish = sh.measure_from;
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
  // Progress about once a second until every worker is done (each call is
  // bounded by --timeout, so this ends by hard_end at the latest).
  uint64_t last_done = 0;
  auto last_tick = LoadClock::now();
  {
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
      p.recent_rps = static_cast<double>(p.requests - last_done) / std::chrono::duration<double>(now - last_tick).count();
      last_done = p.requests;
      last_tick = now;
      lk.unlock();
      if (progress) progress(p);
      lk.lock();
    }
  }
  for (auto& t : threads) t.join();
  auto finished = LoadClock::now();
  double cpu = runner_cpu_seconds() - cpu0;
  for (auto& w : ws) stop_stdio_agent(*w);

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
  if (run.stopped_by == "no answers")
    run.notes.push_back("stopped early: no request got an answer (" + std::to_string(run.total.transport_errors +
                        run.warmup_requests) + " tries); is the agent running, and is this its interface?");
  if (run.runner_cpu_percent > 80.0 * run.cores)
    run.notes.push_back("the runner used most of the machine's CPU: the load generator, not the agent, may be the limit");
  return run;
}

}  // namespace a2a::load
