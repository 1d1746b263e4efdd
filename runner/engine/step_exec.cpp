#include "runner/engine/step_exec.hpp"

#include <chrono>
#include <set>
#include <thread>

#include "runner/core/escape.hpp"
#include "runner/engine/client_exec.hpp"
#include "runner/engine/op_expect.hpp"
#include "runner/engine/raw_exec.hpp"
#include "runner/engine/scenario_runner.hpp"
#include "runner/engine/operations.hpp"
#include "runner/engine/webhooks.hpp"
#include "runner/engine/wire_exec.hpp"
#include "runner/match/assert.hpp"
#include "runner/match/collection.hpp"
#include "runner/match/until.hpp"
#include "runner/match/vars.hpp"

namespace a2a::engine {

using scenario::Step;
using scenario::StepKind;

void StepRecorder::add(result::StepResult r) {
  std::lock_guard lk(mu_);
  steps_.push_back(std::move(r));
}

std::vector<result::StepResult> StepRecorder::take() {
  std::lock_guard lk(mu_);
  return std::move(steps_);
}

namespace {

void sleep_bounded(Session& s, long long ms) {
  auto d = core::Deadline::after(core::Millis(ms)).min(s.deadline);
  while (!d.expired()) std::this_thread::sleep_for(std::min(d.remaining(), core::Millis(20)));
}

// ACTS §4.3: a message without messageId gets a fresh one.
void add_message_id(Json& params) {
  if (params.is_object() && params.contains("message") && params["message"].is_object() &&
      !params["message"].contains("messageId"))
    params["message"]["messageId"] = core::uuid_v7();
}

core::Expected<void> do_captures(Session& s, const Step& st, const OpResult& r) {
  std::lock_guard lk(s.vars_mu);
  Json root = root_of(r);
  s.vars.set_capture(st.id, "response", root);
  s.vars.set_capture(st.id, "id", r.request_id);
  if (r.status == OpResult::Status::kError) s.vars.set_capture(st.id, "error", r.error);
  for (const auto& [name, path] : st.capture) {
    std::vector<Json> candidates;
    if (r.events.empty()) candidates.push_back(r.result);
    for (const auto& e : r.events) candidates.push_back(e);
    std::string last_err = "no response to capture from";
    bool done = false;
    for (const auto& c : candidates) {
      auto v = match::capture(c, path);
      if (v) {
        s.vars.set_capture(st.id, name, *v);
        done = true;
        break;
      }
      last_err = v.error().message;
    }
    if (!done)
      return core::fail(core::ErrorKind::kNotFound, "capture '" + name + "' (" + path + "): " + last_err);
  }
  return {};
}

}  // namespace

StepOutcome run_named_assertions(Session& s, const Json& list) {
  for (const auto& a : list) {
    Json src = a.value("source", Json());
    auto v = s.interpolate(src);
    if (!v) return StepOutcome::error("assertion source: " + v.error().message);
    Json rest = a;
    rest.erase("source");
    auto ra = s.interpolate(rest);  // match values may name captures too
    if (!ra) return StepOutcome::error("assertion: " + ra.error().message);
    auto m = match::match_collection(*v, *ra, src.is_string() ? src.get<std::string>() : "source");
    auto o = from_match(m, "assertion" + (a.contains("id") ? " " + a["id"].get<std::string>() : ""));
    if (!o.ok()) return o;
  }
  return StepOutcome::pass();
}

namespace {

long long next_delay(const scenario::Repeat& rp, int attempt) {
  switch (rp.backoff) {
    case scenario::Backoff::kLinear: return static_cast<long long>(rp.delay_ms) * attempt;
    case scenario::Backoff::kExponential: return static_cast<long long>(rp.delay_ms) << std::min(attempt - 1, 10);
    default: return rp.delay_ms;
  }
}

OpResult call_with_repeat(Session& s, const Step& st, const Json& params, StepOutcome& until_fail) {
  if (!st.repeat) return call_operation(s, st.operation, params, s.step_deadline());
  auto expr = match::parse_until(st.repeat->until.text);
  if (!expr) {
    until_fail = StepOutcome::error("repeat.until: " + expr.error().message);
    return {};
  }
  OpResult r;
  std::string detail;
  // The poll goes on past max_attempts while a slow behaviour's wait lasts
  // (docs/behaviors.md "Waits"), one delay apart, so a target that takes its
  // declared delay_ms is not failed by a budget tuned to a faster agent.
  auto stretch = core::Deadline::after(core::Millis(s.behavior_wait_ms));
  int attempt = 1;
  for (;; ++attempt) {
    r = call_operation(s, st.operation, params, s.step_deadline());
    if (r.status != OpResult::Status::kResult) return r;
    auto u = match::eval_until(*expr, root_of(r));
    if (u.satisfied) return r;
    detail = u.detail;
    bool more = attempt < st.repeat->max_attempts || !stretch.expired();
    if (!more || s.deadline.expired()) break;
    long long pause = next_delay(*st.repeat, std::min(attempt, st.repeat->max_attempts));
    sleep_bounded(s, attempt < st.repeat->max_attempts ? pause : std::max<long long>(50, pause));
    if (s.deadline.expired()) break;
  }
  until_fail = StepOutcome::fail("repeat.until '" + st.repeat->until.text + "' never held after " +
                                 std::to_string(attempt) + " attempts: " + detail);
  return r;
}

StepOutcome grade(Session& s, const Step& st, const OpResult* op);

// Without a card (a stdio agent that gives none) the runner cannot gate on
// capabilities before the run; an agent that answers an operation with the
// very error spec §3.3.4 prescribes for an undeclared capability is telling
// us it does not have it, so the scenario SKIPs there (docs/behaviors.md).
std::string undeclared_by_error(const Session& s, const Step& st, const OpResult& r) {
  if (s.config->agent_card || !st.grades.empty() || r.status != OpResult::Status::kError) return "";
  std::string_view cap = capability_of(st.operation);
  auto a2a_code = a2a_error_code(r);
  if (cap.empty() || !a2a_code) return "";
  long long code = *a2a_code;
  long long prescribed = cap == "pushNotifications" ? -32003 : -32004;
  if (code != prescribed) return "";
  // A step that expects that very error is testing it.
  if (st.expect_error) {
    std::string want = st.expect_error->dump();
    if (want.find(std::to_string(prescribed)) != std::string::npos ||
        want.find(cap == "pushNotifications" ? "PushNotificationNotSupported" : "UnsupportedOperation") != std::string::npos)
      return "";
  }
  return "the agent answers " + st.operation + " with " + std::to_string(code) +
         (cap == "pushNotifications" ? " (PushNotificationNotSupportedError)" : " (UnsupportedOperationError)") +
         ", the error spec §3.3.4 prescribes when capabilities." + std::string(cap) +
         " is not declared, and gives no card that declares it";
}

// GetExtendedAgentCard refused for want of credentials when the run gives
// none: the agent does what spec §13.3 asks. Without a card the run could
// not gate on securitySchemes beforehand (applicability.cpp), so the step
// SKIPs here, unless the step itself expects an error (then the refusal is
// the test; graded alternatives that accept an A2A error do not test it).
std::string unauthenticated_without_credentials(const Session& s, const Step& st, const OpResult& r) {
  if (st.operation != "get_extended_agent_card" || r.status != OpResult::Status::kError || st.expect_error) return "";
  for (const auto& [name, value] : s.config->http_headers)
    if (is_secret_header(name)) return "";
  bool auth = r.http_status == 401 || (r.binding == "grpc" && (r.error_status == 16 || r.error_status == 7)) ||
              (r.error.is_object() && r.error.value("code", 0) == -31401);
  if (!auth) return "";
  return "GetExtendedAgentCard is refused without credentials (spec §13.3 requires authentication) and this run "
         "gives none (--header \"Authorization: Bearer ...\")";
}

StepOutcome run_operation(Session& s, const Step& st) {
  auto p = s.interpolate(st.params);
  if (!p) return StepOutcome::error("params: " + p.error().message);
  Json params = *p;
  add_message_id(params);
  StepOutcome until_fail;
  s.grpc_options = st.grpc_options.is_object() ? &st.grpc_options : nullptr;
  OpResult r = call_with_repeat(s, st, params, until_fail);
  s.grpc_options = nullptr;
  if (!r.not_expressible.empty()) {
    StepOutcome skip;
    skip.outcome = result::Outcome::kSkip;
    skip.note = "not expressible on the " + r.binding + " binding: " + r.not_expressible;
    return skip;
  }
  if (auto why = unauthenticated_without_credentials(s, st, r); !why.empty()) {
    StepOutcome skip;
    skip.outcome = result::Outcome::kSkip;
    skip.note = why;
    return skip;
  }
  if (auto why = undeclared_by_error(s, st, r); !why.empty()) {
    StepOutcome skip;
    skip.outcome = result::Outcome::kSkip;
    skip.note = why;
    return skip;
  }
  if (!until_fail.ok()) return until_fail;
  // Still declined after call_operation's retries ("try again later", a
  // legal answer: docs/runner.md "When the agent declines a request"):
  // nothing was tested, ERROR, unless the step's expectations accept it.
  std::string declined;
  if (r.shed_answers > 0)
    declined = "the agent declined the request " + std::to_string(r.shed_answers) +
               (r.shed_answers == 1 ? " time (" : " times (") + run_shed_signal(r) + "): nothing was tested";
  if (r.status == OpResult::Status::kNoResponse) {
    if (!declined.empty()) return StepOutcome::error(declined);
    return r.deadline_hit ? StepOutcome::timeout(r.problem) : StepOutcome::fail(r.problem);
  }
  bool streaming = is_streaming_operation(st.operation);
  StepOutcome o = st.grades.empty() ? check_expectations(s, st, r, streaming) : grade(s, st, &r);
  if (!o.ok() && !declined.empty()) return StepOutcome::error(declined);
  // A2A payloads that break a2a.proto's types, enums, REQUIRED fields or
  // formats fail the step even when its expectations hold (an expectation
  // that failed keeps its own reason, with these appended).
  if (auto pv = payload_violations(s, st.operation, r); !pv.empty()) {
    std::string all;
    for (const auto& v : pv) all += (all.empty() ? "" : "; ") + v;
    if (o.ok())
      o = StepOutcome::fail("invalid A2A payload: " + all);
    else if (o.outcome == result::Outcome::kFail && o.failure)
      o.failure->message += " (invalid A2A payload: " + all + ")";
  }
  if (!r.violations.empty()) {
    std::string all;
    for (const auto& v : r.violations) all += (all.empty() ? "" : "; ") + v;
    if (o.ok())
      o = StepOutcome::fail("binding violation: " + all);
    else if (o.outcome == result::Outcome::kFail && o.failure)
      o.failure->message += " (binding violations: " + all + ")";  // often the cause: an event that was dropped
  }
  if (o.ok() && st.expect_stream == std::nullopt && !r.stream_errors.empty() && streaming)
    o.note = "stream carried " + std::to_string(r.stream_errors.size()) + " error event(s)";
  if (!o.ok()) return o;
  if (auto c = do_captures(s, st, r); !c) return StepOutcome::fail(c.error().message);
  // A graded outcome (x-grades: non_strict, informational, a pass with its
  // note) stands unless a named assertion fails.
  auto a = run_named_assertions(s, st.assertions);
  return a.ok() ? o : a;
}

// x-grades: the first alternative that matches decides the outcome.
StepOutcome grade(Session& s, const Step& st, const OpResult* op) {
  return grade_alternatives(st.grades, [&](const scenario::Grade& g) {
    std::optional<size_t> seq;
    StepOutcome o;
    if (g.action.kind == StepKind::kWire && g.action.wire)
      o = run_wire(s, *g.action.wire, st.id, false, &seq);
    else if (op)
      o = check_expectations(s, g.action, *op, is_streaming_operation(st.operation));
    else
      o = StepOutcome::error("grade alternative needs an operation result");
    if (o.ok() && seq) s.conn->remove(*seq);
    return o;
  });
}

// Captures a branch made become visible to the steps after x-concurrent
// (for a fan-out, the copy that finished last wins).
void merge_captures(Session& parent, Session& child, const std::vector<Step>& steps) {
  std::set<std::string> ids;
  scenario::for_each_step(steps, [&](const Step& st) { ids.insert(st.id); });
  std::lock_guard lc(child.vars_mu);
  std::lock_guard lp(parent.vars_mu);
  for (const auto& name : child.vars.known()) {
    auto dot = name.find('.');
    if (dot == std::string::npos || !ids.count(name.substr(0, dot))) continue;
    if (auto v = child.vars.resolve(name)) parent.vars.set_capture(name.substr(0, dot), name.substr(dot + 1), *v);
  }
}

StepOutcome run_concurrent(Session& s, const Step& st, StepRecorder& rec, const std::string& prefix) {
  std::vector<std::vector<Step>> branches = st.branches;
  if (st.fan_out > 1 && branches.size() == 1) branches.assign(st.fan_out, st.branches.front());
  std::vector<StepOutcome> outs(branches.size());
  std::vector<std::unique_ptr<Session>> sessions;
  for (size_t i = 0; i < branches.size(); ++i) sessions.push_back(s.branch());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < branches.size(); ++i)
    threads.emplace_back([&, i] {
      outs[i] = run_steps(*sessions[i], branches[i], rec, prefix + st.id + "[" + std::to_string(i) + "].");
    });
  for (auto& t : threads) t.join();
  for (size_t i = 0; i < branches.size(); ++i) merge_captures(s, *sessions[i], branches[i]);
  StepOutcome worst;
  for (auto& o : outs)
    if (severity(o.outcome) > severity(worst.outcome)) worst = o;
  return worst;
}

StepOutcome run_one(Session& s, const Step& st, StepRecorder& rec, const std::string& prefix) {
  if (st.delay_ms > 0) sleep_bounded(s, s.scaled(st.delay_ms).count());
  switch (st.kind) {
    case StepKind::kOperation: return run_operation(s, st);
    case StepKind::kAssertion: {
      Json a = st.assertion;
      return run_named_assertions(s, Json::array({a}));
    }
    case StepKind::kWire: {
      if (st.wire->type == scenario::WireActionType::kExpectWebhook) {
        // With grades the step's own expectation only looks; the deliveries
        // it matched are taken once the alternatives have judged them.
        size_t took = 0;
        auto o = expect_webhook(s, *st.wire, st.id, st.capture, st.grades.empty(), &took);
        if (st.grades.empty() || !o.ok()) return o;
        auto g = grade(s, st, nullptr);
        s.hooks->cursor += took;
        return g;
      }
      if (st.grades.empty()) return run_wire(s, *st.wire, st.id);
      // With grades, an expectation of the step itself only looks (the
      // alternatives then judge the same frame); any other action runs first.
      bool looks = scenario::is_expectation(st.wire->type);
      if (st.wire->type == scenario::WireActionType::kWs && st.wire->spec.is_object() && st.wire->spec.size() == 1)
        looks = st.wire->spec.begin().key().rfind("expect_", 0) == 0;  // x-ws expect_*
      auto o = run_wire(s, *st.wire, st.id, !looks);
      if (!o.ok()) return o;
      return grade(s, st, nullptr);
    }
    case StepKind::kConcurrent: return run_concurrent(s, st, rec, prefix);
    case StepKind::kRaw: return run_raw_step(s, st);
    case StepKind::kClient:
      if (s.client) return run_client_response(s, st);
      return StepOutcome::error("client steps cannot run against an agent");
  }
  return StepOutcome::error("unknown step kind");
}

}  // namespace

StepOutcome run_steps(Session& s, const std::vector<Step>& steps, StepRecorder& rec,
                      const std::string& prefix) {
  StepOutcome worst;
  for (const auto& st : steps) {
    auto t0 = std::chrono::steady_clock::now();
    StepOutcome o = run_one(s, st, rec, prefix);
    if (o.outcome == result::Outcome::kFail && s.deadline.expired())
      o.outcome = result::Outcome::kTimeout;
    if (o.failure) o.failure->step_id = prefix + st.id;
    result::StepResult r;
    r.id = prefix + st.id;
    r.outcome = o.outcome;
    r.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - t0).count();
    r.failure = o.failure;
    r.note = o.note;
    rec.add(std::move(r));
    if (severity(o.outcome) > severity(worst.outcome)) worst = o;
    if (o.outcome == result::Outcome::kSkip) return o;  // the scenario does not apply after all
    if (!o.ok()) break;
  }
  return worst;
}

StepOutcome auto_handshake(Session& s) {
  scenario::WireAction w;
  w.type = scenario::WireActionType::kHandshake;
  w.spec = "accept";
  return run_wire(s, w, "handshake");
}

StepOutcome run_test_assertions(Session& s, const Json& assertions) {
  if (!assertions.is_array() || assertions.empty()) return StepOutcome::pass();
  return run_named_assertions(s, assertions);
}

}  // namespace a2a::engine
