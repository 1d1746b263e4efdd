#include "runner/load/load_worker.hpp"

#include <algorithm>
#include <thread>

#include "runner/core/escape.hpp"
#include "runner/core/interrupt.hpp"
#include "runner/engine/operations.hpp"
#include "runner/engine/step_exec.hpp"

namespace a2a::load {

namespace {

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
  w.s.given_up_ids.clear();
  w.s.single_flight = false;  // the handshake is not a load call
  if (!cfg.profile.handshake.enabled) {
    w.s.single_flight = true;
    return "";
  }
  auto hs = engine::auto_handshake(w.s);
  w.s.single_flight = true;
  if (hs.ok()) return "";
  return "the agent did not complete the handshake: " +
         (hs.failure && !hs.failure->message.empty() ? hs.failure->message : std::string(result::to_string(hs.outcome)));
}

std::vector<result::WireEvent> load_events(std::vector<transport::TranscriptEntry> entries, uint64_t& dropped) {
  std::vector<result::WireEvent> out;
  size_t kept = 0;
  auto base = entries.empty() ? LoadClock::time_point() : entries.front().at;
  for (auto& e : entries) {
    result::WireEvent w;
    w.t_ms = std::chrono::duration<double, std::milli>(e.at - base).count();
    w.dir = transport::report_direction(e.dir);
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

void note_load_shed(LoadShared& sh, LoadWorker& w, LoadOp op, uint64_t ticket, LoadVerdict& v) {
  ++sh.shed;
  std::lock_guard lk(sh.mu);
  ++sh.shed_kinds[v.signal];
  if (sh.shed_samples.size() >= static_cast<size_t>(kLoadShedSamples)) return;
  result::LoadShed x;
  x.op = load_op_name(op);
  x.seq = ticket;
  x.connection = w.index;
  x.at_ms = load_ms_between(sh.t0, LoadClock::now());
  x.signal = v.signal;
  x.detail = v.reason.substr(0, 2000);
  x.transcript_dropped_bytes = w.transcript().dropped_bytes();
  x.transcript = load_events(w.transcript().take_entries(), x.transcript_dropped_bytes);
  sh.shed_samples.push_back(std::move(x));
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
  // Shed: counted apart, neither an answer judged nor in the latencies (a
  // quick refusal would flatter them).
  if (v.kind == LoadVerdict::Kind::kShed) {
    if (measured) ++w.shed[k];
    note_load_shed(sh, w, op, ticket, v);
    return;
  }
  ++sh.answered;
  if (measured) {
    w.hist[k].record(latency_us);
    ++(v.kind == LoadVerdict::Kind::kConformant ? w.conformant[k] : w.nonconformant[k]);
  }
  if (v.kind == LoadVerdict::Kind::kNonConformant) note_load_finding(sh, w, op, ticket, v);
}

}  // namespace

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
  w.s.watch_after_stream = false;  // the next call looks for late frames (docs/load.md)
  w.s.interrupter = w.interrupter;
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
    if (r.status == engine::OpResult::Status::kNoResponse && w.s.conn) {
      // Its answer may still come: late, not stray (Session::given_up_ids).
      w.s.given_up_ids.push_back(r.request_id);
      if (w.s.given_up_ids.size() > kLoadGivenUpIds) w.s.given_up_ids.erase(w.s.given_up_ids.begin());
    }
    // gRPC, WebSocket: a call without its answer may leave the channel or the
    // connection unusable (a WebSocket the agent closed, 1013 included); the
    // next call makes a fresh one.
    if (r.status == engine::OpResult::Status::kNoResponse) w.s.binding_state.reset();
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
    if (v.kind == LoadVerdict::Kind::kTransport || v.kind == LoadVerdict::Kind::kShed)
      std::this_thread::sleep_for(kLoadErrorPause);
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

}  // namespace a2a::load
