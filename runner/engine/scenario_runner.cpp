#include "runner/engine/scenario_runner.hpp"

#include <chrono>
#include <condition_variable>
#include <thread>

#include "runner/core/escape.hpp"
#include "runner/engine/session.hpp"
#include "runner/engine/stdio_ops.hpp"
#include "runner/engine/step_exec.hpp"

namespace a2a::engine {

using result::Outcome;

namespace {

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string source_of(const scenario::Test& t) {
  return t.where.known() ? t.where.str() : t.file;
}

bool has_step_kind(const std::vector<scenario::Step>& steps, scenario::StepKind k) {
  bool found = false;
  scenario::for_each_step(steps, [&](const scenario::Step& s) { found = found || s.kind == k; });
  return found;
}

// ACTS §3.3 capabilities precondition against the agent card, when we have one.
std::string unmet_capabilities(const Json& pre, const std::optional<Json>& card) {
  if (!pre.is_object() || !pre.contains("capabilities") || !card) return {};
  const Json caps = card->value("capabilities", Json::object());
  for (const auto& [k, v] : pre["capabilities"].items()) {
    if (!caps.contains(k) || caps[k] != v)
      return "agent card capability " + k + " is not " + v.dump();
  }
  return {};
}

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
    switch (e.dir) {
      case transport::Direction::kToPeer: w.dir = "to-agent"; break;
      case transport::Direction::kFromPeer: w.dir = "from-agent"; break;
      case transport::Direction::kStderr: w.dir = "stderr"; break;
      case transport::Direction::kNote: w.dir = "note"; break;
    }
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

class Watchdog {
 public:
  Watchdog(Session& s, core::Deadline d) : s_(s) {
    t_ = std::thread([this, d] {
      std::unique_lock lk(mu_);
      if (!cv_.wait_until(lk, d.time(), [this] { return done_; })) {
        fired_ = true;
        s_.conn->interrupt("scenario deadline expired");
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

std::string replay_command(const scenario::Test& t, const RunConfig& c) {
  std::string cmd = "a2a-conform run --agent " + shell_quote(c.agent_command) + " --profile " +
                    shell_quote(c.profile.name) + " --id " + shell_quote(t.id);
  for (const auto& p : c.suite_paths) cmd += " " + shell_quote(p);
  return cmd;
}

result::ScenarioResult describe(const scenario::Test& t, const RunConfig& c) {
  result::ScenarioResult r;
  r.id = t.id;
  r.name = t.name;
  r.requirement = t.description;
  r.spec_ref = t.spec_ref;
  r.level = static_cast<result::Level>(static_cast<int>(t.level));
  r.suite_id = t.suite_id;
  r.suite_name = t.suite_name;
  r.source = source_of(t);
  r.tags = t.tags;
  r.binding = "stdio";
  r.profile = c.profile.name;
  r.replay_command = replay_command(t, c);
  return r;
}

std::string skip_reason(const scenario::Test& t, const RunConfig& c) {
  if (!t.binding.empty() && t.binding != "stdio")
    return "written for the " + t.binding + " binding; this run is stdio";
  if (t.binding.empty() && !t.transport.empty())
    return "ACTS transport filter [" + t.transport.front() + (t.transport.size() > 1 ? ", ..." : "") +
           "] does not include stdio";
  if (!t.profiles.empty() &&
      std::find(t.profiles.begin(), t.profiles.end(), c.profile.name) == t.profiles.end())
    return "not applicable to profile " + c.profile.name;
  if (has_step_kind(t.steps, scenario::StepKind::kRaw)) return "raw HTTP steps need an HTTP binding";
  bool card_fetch = false;
  scenario::for_each_step(t.steps, [&](const scenario::Step& s) {
    card_fetch = card_fetch || s.operation == "get_agent_card";
  });
  if (card_fetch) return "agent card discovery (GET /.well-known/agent-card.json) needs an HTTP binding";
  if (has_step_kind(t.steps, scenario::StepKind::kClient)) return "client test (this run tests an agent)";
  for (const auto& rr : t.runner_requirements)
    if (rr != "concurrent_streams" || c.profile.stream.event_method.size())
      return "runner requirement '" + rr + "' is not available on the stdio binding";
  if (!t.requires_behaviors.empty() && !c.assume_behaviors)
    return "needs the ACTS behaviour prefixes (" + t.requires_behaviors.front() + ", ...)";
  if (auto why = unmet_capabilities(t.preconditions, c.agent_card); !why.empty())
    return "precondition not met: " + why;
  return {};
}

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

std::optional<Json> probe_agent_card(const RunConfig& c) {
  Session s;
  s.config = &c;
  s.session_id = core::uuid_v7();
  s.deadline = core::Deadline::after(s.scaled(c.profile.timeouts.handshake_ms + c.profile.timeouts.step_ms));
  const scenario::Test plain;  // no x-agent options
  auto conn = start_agent(plain, c, s);
  if (!conn) return std::nullopt;
  s.conn = conn->get();
  std::optional<Json> card;
  if (!c.profile.handshake.enabled || auto_handshake(s).ok()) {
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

}  // namespace

result::ScenarioResult run_scenario(const scenario::Test& t, const RunConfig& c, AgentSlot* slot) {
  auto t0 = std::chrono::steady_clock::now();
  result::ScenarioResult r = describe(t, c);
  Session s;
  s.config = &c;
  s.test = &t;
  s.session_id = core::uuid_v7();
  s.deadline = core::Deadline::after(s.scaled(t.timeout_ms));
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
  for (const auto& [name, value] : t.variables) s.vars.set_variable(name, value);
  s.vars.set_root("profile", c.profile.doc);
  s.vars.set_root("agent", Json{{"session_id", s.session_id}, {"command", c.agent_command}});
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
  size_t mark = fresh ? 0 : tr.entries().size();
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
  r.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace a2a::engine
