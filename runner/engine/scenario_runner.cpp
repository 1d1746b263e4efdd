#include "runner/engine/scenario_runner.hpp"

#include <chrono>
#include <condition_variable>
#include <thread>

#include "runner/core/escape.hpp"
#include "runner/engine/client_exec.hpp"
#include "runner/engine/scenario_parts.hpp"
#include "runner/engine/session.hpp"
#include "runner/engine/operations.hpp"
#include "runner/engine/step_exec.hpp"
#include "runner/engine/webhooks.hpp"

namespace a2a::engine {

using result::Outcome;

// Entries from index `from` on, timed from the first of them (a reused agent's
// transcript holds earlier scenarios too).
std::vector<result::WireEvent> to_events(const transport::Transcript& tr, size_t from) {
  std::vector<result::WireEvent> out;
  auto all = tr.entries();
  auto base = from < all.size() ? all[from].at : tr.start();
  if (from == 0) base = tr.start();
  for (size_t i = from; i < all.size(); ++i) {
    const auto& e = all[i];
    result::WireEvent w;
    w.t_ms = std::chrono::duration<double, std::milli>(e.at - base).count();
    w.dir = transport::report_direction(e.dir);
    w.bytes = e.bytes;
    out.push_back(std::move(w));
  }
  return out;
}

// Scenario level decides what a failed requirement means (DESIGN.md).
Outcome apply_level(Outcome o, scenario::Level level) {
  if (o != Outcome::kFail) return o;
  if (level == scenario::Level::kShould) return Outcome::kNonStrict;
  if (level == scenario::Level::kMay) return Outcome::kInformational;
  return o;
}

namespace {

void interrupt_client(ClientContext& c) {
  c.process->interrupt();
  if (c.link) c.link->interrupt();
  if (c.server) c.server->interrupt();
}

class Watchdog {
 public:
  Watchdog(Session& s, core::Deadline d) : s_(s) {
    t_ = std::thread([this, d] {
      std::unique_lock lk(mu_);
      if (!cv_.wait_until(lk, d.time(), [this] { return done_; })) {
        fired_ = true;
        if (s_.conn) s_.conn->interrupt("scenario deadline expired");
        if (s_.http) s_.http->interrupt_all();
        if (s_.client) interrupt_client(*s_.client);
      }
    });
  }
  ~Watchdog() {
    {
      std::lock_guard lk(mu_);
      done_ = true;
    }
    cv_.notify_all();
    t_.join();
  }
  bool fired() {
    std::lock_guard lk(mu_);
    return fired_;
  }

 private:
  Session& s_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  bool fired_ = false;
  std::thread t_;
};

}  // namespace

namespace {

// Starts the agent for a scenario: the profile's session variable, then the
// test's x-agent.env (which may override or <unset> it).
core::Expected<std::unique_ptr<AgentConnection>> start_agent(const scenario::Test& t,
                                                             const RunConfig& c, Session& s) {
  ConnectionOptions co;
  co.spawn.argv = c.agent_argv;
  co.spawn.env_set[c.profile.handshake.session_env.empty() ? "A2A_SESSION_ID"
                                                           : c.profile.handshake.session_env] = s.session_id;
  for (const auto& [k, v] : t.agent.env) {
    auto val = match::interpolate_text(v, s.vars);
    if (!val) return core::fail(core::ErrorKind::kSchema, "x-agent.env " + k + ": " + val.error().message);
    if (*val == "<unset>") {
      co.spawn.env_set.erase(k);
      co.spawn.env_unset.push_back(k);
    } else {
      co.spawn.env_set[k] = *val;
    }
  }
  return AgentConnection::start(co);
}

}  // namespace

std::optional<Json> probe_agent_card(const RunConfig& c, std::string* failure) {
  Session s;
  s.config = &c;
  s.session_id = core::uuid_v7();
  s.deadline = core::Deadline::after(s.scaled(c.profile.timeouts.handshake_ms + c.profile.timeouts.step_ms));
  const scenario::Test plain;  // no x-agent options
  auto conn = start_agent(plain, c, s);
  if (!conn) {
    if (failure) *failure = "could not start the agent: " + conn.error().message;
    return std::nullopt;
  }
  s.conn = conn->get();
  std::optional<Json> card;
  StepOutcome hs = c.profile.handshake.enabled ? auto_handshake(s) : StepOutcome{};
  if (!hs.ok() && failure)
    *failure = "the agent did not complete the handshake: " +
               (hs.failure && !hs.failure->message.empty() ? hs.failure->message : std::string(to_string(hs.outcome)));
  if (hs.ok()) {
    auto r = call_operation(s, "get_extended_agent_card", Json::object(), s.step_deadline());
    if (r.status == OpResult::Status::kResult && r.result.is_object()) card = r.result;
  }
  (*conn)->shutdown(core::Millis(300), core::Millis(300));
  return card;
}

namespace {

// A reused agent is only handed on when the scenario left it clean.
bool reusable(const AgentConnection& conn) {
  return !conn.eof() && conn.unconsumed() == 0 &&
         conn.process().transcript().total_bytes(transport::Direction::kToPeer) < (1u << 20);
}

}  // namespace

StepOutcome run_body(Session& s, const scenario::Test& t, bool handshake, StepRecorder& rec, bool& fired) {
  StepOutcome worst;
  Watchdog wd(s, s.deadline);
  if (handshake) {
    worst = auto_handshake(s);
    result::StepResult hs{"handshake", worst.outcome, 0, worst.failure, worst.note};
    if (hs.failure) hs.failure->step_id = "handshake";
    rec.add(hs);
  }
  if (worst.ok()) worst = run_steps(s, t.steps, rec);
  if (worst.ok()) {
    auto a = run_test_assertions(s, t.assertions);
    if (!a.ok()) worst = a;
  }
  fired = wd.fired();
  return worst;
}

void fill_outcome(result::ScenarioResult& r, StepOutcome worst, bool fired, const scenario::Test& t,
                  const Session& s) {
  if (fired && severity(worst.outcome) < severity(Outcome::kTimeout)) {
    worst.outcome = Outcome::kTimeout;
    if (!worst.failure) worst.failure = result::Failure{};
  }
  r.outcome = apply_level(worst.outcome, t.level);
  r.failure = worst.failure;
  if (worst.outcome == Outcome::kTimeout)
    r.reason = "scenario deadline of " + std::to_string(s.scaled(t.timeout_ms).count()) +
               " ms expired" + (worst.failure && !worst.failure->message.empty()
                                    ? ": " + worst.failure->message : "");
  else
    r.reason = worst.failure ? worst.failure->message : worst.note;
}

namespace {

// The scenario's webhook path, when the run has a receiver and the test needs
// it: {{webhookUrl}} then names it, over a document variable of that name
// (the official ACTS files set an example.com placeholder).
class HookLease {
 public:
  HookLease(WebhookReceiver* receiver, const scenario::Test& t, Session& s) : receiver_(receiver) {
    if (!receiver_ || !needs_webhooks(t)) return;
    inbox_ = receiver_->open(url_);
    s.hooks = inbox_;
    s.vars.set_variable("webhookUrl", url_);
    for (const auto& [name, value] : t.variables)
      if (name == "webhookUrl") replaced_ = value;
  }
  // Deliveries are noted in `tr` from now on.
  void attach(transport::Transcript& tr) {
    if (!inbox_) return;
    inbox_->set_transcript(&tr);
    tr.note("webhook receiver: {{webhookUrl}} = " + url_ +
            (replaced_.empty() ? "" : " (the runner's receiver; the document's value " + replaced_ + " is not used)"));
  }
  ~HookLease() {
    if (inbox_) receiver_->close(inbox_);
  }

 private:
  WebhookReceiver* receiver_;
  std::shared_ptr<WebhookInbox> inbox_;
  std::string url_;
  std::string replaced_;
};

}  // namespace

void init_session(Session& s, const scenario::Test& t, const RunConfig& c) {
  s.config = &c;
  s.test = &t;
  s.session_id = core::uuid_v7();
  s.retry_shed = true;  // docs/runner.md "When the agent declines a request"
  // A slow behaviour stretches the scenario by twice its wait (a blocking
  // send, then a poll), unscaled: waits never shrink below what the target
  // declared (docs/behaviors.md).
  s.behavior_wait_ms = behavior_wait_ms(t, c);
  s.deadline = core::Deadline::after(s.scaled(t.timeout_ms) + core::Millis(2LL * s.behavior_wait_ms));
  for (const auto& [name, value] : t.variables) s.vars.set_variable(name, value);
  s.vars.set_root("profile", c.profile.doc);
}

long long ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
}

namespace {

// A network interface (HTTP, or a registered binding such as gRPC): no
// process, one HTTP connection pool (the card, webhooks), the same steps.
result::ScenarioResult run_network_scenario(const scenario::Test& t, const RunConfig& c, const BindingTarget& b,
                                         WebhookReceiver* receiver) {
  auto t0 = std::chrono::steady_clock::now();
  result::ScenarioResult r = describe(t, c, &b);
  transport::Transcript tr;
  HttpPool pool(&tr, c.insecure_tls);
  Session s;
  init_session(s, t, c);
  s.target = &b;
  s.http = &pool;
  s.transcript = &tr;
  s.vars.set_root("agent", Json{{"session_id", s.session_id}, {"url", b.url}, {"binding", b.key()}});
  HookLease hooks(receiver, t, s);
  hooks.attach(tr);
  tr.note(b.key() + " interface " + b.url + (b.tenant.empty() ? "" : " (tenant " + b.tenant + ")") +
          (b.is_v03() ? ": A2A 0.3 profile (requests translated to 0.3, answers back to 1.0 for the assertions)"
                      : ""));
  StepRecorder rec;
  bool fired = false;
  StepOutcome worst = run_body(s, t, false, rec, fired);
  fill_outcome(r, worst, fired, t, s);
  r.steps = rec.take();
  r.transcript = to_events(tr, 0);
  r.transcript_dropped_bytes = tr.dropped_bytes();
  r.duration_ms = ms_since(t0);
  return r;
}

}  // namespace

result::ScenarioResult run_scenario(const scenario::Test& t, const RunConfig& c, AgentSlot* slot,
                                    const BindingTarget* target, WebhookReceiver* receiver) {
  if (!c.client_command.empty()) return run_client_scenario(t, c, target ? target->binding : "stdio");
  if (target && target->is_network()) return run_network_scenario(t, c, *target, receiver);
  auto t0 = std::chrono::steady_clock::now();
  result::ScenarioResult r = describe(t, c, target);
  Session s;
  init_session(s, t, c);
  bool reuse = slot && c.reuse && t.reuse && !t.agent.manual_handshake;
  bool fresh = !(reuse && slot->conn && reusable(*slot->conn));
  std::unique_ptr<AgentConnection> owned;
  if (!fresh) {
    owned = std::move(slot->conn);
    s.session_id = slot->session_id;
    s.next_id = slot->ids;
  } else {
    if (slot && slot->conn) slot->conn->shutdown(core::Millis(300), core::Millis(300));
    if (slot) slot->conn.reset();
  }
  s.vars.set_root("agent", Json{{"session_id", s.session_id}, {"command", c.agent_command}});
  HookLease hooks(receiver, t, s);
  if (fresh) {
    auto conn = start_agent(t, c, s);
    if (!conn) {
      r.outcome = Outcome::kError;
      r.reason = "could not start the agent: " + conn.error().message;
      return r;
    }
    owned = std::move(conn.value());
  }
  s.conn = owned.get();
  auto& tr = s.conn->process().transcript();
  s.transcript = &tr;
  size_t mark = fresh ? 0 : tr.entries().size();
  hooks.attach(tr);
  StepRecorder rec;
  bool fired = false;
  StepOutcome worst = run_body(s, t, fresh && !t.agent.manual_handshake && c.profile.handshake.enabled, rec, fired);
  fill_outcome(r, worst, fired, t, s);
  bool keep = reuse && worst.ok() && !fired && reusable(*s.conn);
  std::optional<transport::ExitStatus> st;
  if (!keep) st = s.conn->shutdown(core::Millis(300), core::Millis(300));
  r.steps = rec.take();
  r.transcript = to_events(tr, mark);
  r.transcript_dropped_bytes = tr.dropped_bytes();
  r.stderr_excerpt = s.conn->process().stderr_text().substr(0, 16 * 1024);
  r.exit_status = st ? st->str() : "still running (--reuse: pid " + std::to_string(s.conn->process().pid()) + ")";
  if (keep) {
    slot->conn = std::move(owned);
    slot->session_id = s.session_id;
    slot->ids = s.next_id;
  }
  r.duration_ms = ms_since(t0);
  return r;
}

}  // namespace a2a::engine
