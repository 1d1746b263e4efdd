#include "runner/engine/step_exec.hpp"

#include <chrono>
#include <set>
#include <thread>

#include "runner/core/escape.hpp"
#include "runner/engine/stdio_ops.hpp"
#include "runner/engine/wire_exec.hpp"
#include "runner/match/assert.hpp"
#include "runner/match/collection.hpp"
#include "runner/match/error_expect.hpp"
#include "runner/match/stream.hpp"
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

// The assertion root an expectation looks at (ACTS §4.2): the result for
// unary operations, the event list for streams.
Json root_of(const OpResult& r) { return r.events.empty() ? r.result : Json(r.events); }

std::string describe_error(const Json& e) {
  return "error " + match::compact(e.value("code", Json())) + " " +
         match::show(e.value("message", Json("")), 120);
}

// Checks one set of expectations (the step's own, or a grade alternative's)
// against an operation result.
StepOutcome check_interpolated(const Step& st, const OpResult& r, bool streaming);

// Expectations may name captures ({{start.taskId}}): resolve them first.
StepOutcome check_expectations(Session& s, const Step& st, const OpResult& r, bool streaming) {
  Step resolved;
  resolved.id = st.id;
  for (auto [src, dst] : {std::pair{&st.expect, &resolved.expect},
                          std::pair{&st.expect_error, &resolved.expect_error},
                          std::pair{&st.expect_stream, &resolved.expect_stream}}) {
    if (!*src) continue;
    auto v = s.interpolate(**src);
    if (!v) return StepOutcome::error("expectation: " + v.error().message);
    *dst = *v;
  }
  return check_interpolated(resolved, r, streaming);
}

StepOutcome check_interpolated(const Step& st, const OpResult& r, bool streaming) {
  // ACTS files also write an expected failure as `expect: {status: error,
  // error: {...}}` or just `expect: {error: {...}}`; on stdio the body
  // assertions then apply to {"error": <the JSON-RPC error object>}.
  bool body_names_error = st.expect && st.expect->contains("body") && (*st.expect)["body"].is_object() &&
                          (*st.expect)["body"].contains("error");
  if (st.expect && (st.expect->value("status", Json()) == "error" || body_names_error)) {
    if (r.status != OpResult::Status::kError)
      return StepOutcome::fail("expected an error, got a result", "an error", match::compact(root_of(r), 200));
    Json body = st.expect->value("body", Json::object());
    return from_match(match::match(Json{{"error", r.error}}, body), "error");
  }
  if (st.expect_error) {
    if (r.status != OpResult::Status::kError)
      return StepOutcome::fail("expected an error, got a result", match::compact(*st.expect_error),
                               match::compact(root_of(r), 200));
    return from_match(match::match_error(r.error, *st.expect_error), "error");
  }
  if (r.status == OpResult::Status::kError && (st.expect || st.expect_stream))
    return StepOutcome::fail("expected a result, got " + describe_error(r.error), "a result",
                             match::compact(r.error, 200));
  match::MatchResult m;
  if (st.expect && st.expect->contains("body")) {
    // A stream checked with `expect` (some ACTS files do) is matched per event:
    // it passes when some event matches, the usual reading of those tests.
    if (streaming) {
      bool any = false;
      match::MatchResult first;
      for (size_t i = 0; i < r.events.size() && !any; ++i) {
        auto mi = match::match(r.events[i], (*st.expect)["body"]);
        if (mi.ok) any = true;
        if (i == 0) first = mi;
      }
      if (!any) m.merge(r.events.empty() ? match::match(Json(), (*st.expect)["body"]) : first);
    } else {
      m.merge(match::match(r.result, (*st.expect)["body"]));
    }
  }
  if (st.expect_stream) m.merge(match::match_stream(r.events, *st.expect_stream));
  return from_match(m, "response");
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
  for (int attempt = 1; attempt <= st.repeat->max_attempts; ++attempt) {
    r = call_operation(s, st.operation, params, s.step_deadline());
    if (r.status != OpResult::Status::kResult) return r;
    auto u = match::eval_until(*expr, root_of(r));
    if (u.satisfied) return r;
    detail = u.detail;
    if (attempt < st.repeat->max_attempts) sleep_bounded(s, next_delay(*st.repeat, attempt));
    if (s.deadline.expired()) break;
  }
  until_fail = StepOutcome::fail("repeat.until '" + st.repeat->until.text + "' never held after " +
                                 std::to_string(st.repeat->max_attempts) + " attempts: " + detail);
  return r;
}

StepOutcome grade(Session& s, const Step& st, const OpResult* op);

StepOutcome run_operation(Session& s, const Step& st) {
  auto p = s.interpolate(st.params);
  if (!p) return StepOutcome::error("params: " + p.error().message);
  Json params = *p;
  add_message_id(params);
  StepOutcome until_fail;
  OpResult r = call_with_repeat(s, st, params, until_fail);
  if (!until_fail.ok()) return until_fail;
  if (r.status == OpResult::Status::kNoResponse)
    return r.deadline_hit ? StepOutcome::timeout(r.problem) : StepOutcome::fail(r.problem);
  bool streaming = is_streaming_operation(st.operation);
  StepOutcome o = st.grades.empty() ? check_expectations(s, st, r, streaming) : grade(s, st, &r);
  if (o.ok() && !r.violations.empty()) {
    std::string all;
    for (const auto& v : r.violations) all += (all.empty() ? "" : "; ") + v;
    o = StepOutcome::fail("binding violation: " + all);
  }
  if (o.ok() && st.expect_stream == std::nullopt && !r.stream_errors.empty() && streaming)
    o.note = "stream carried " + std::to_string(r.stream_errors.size()) + " error event(s)";
  if (!o.ok()) return o;
  if (auto c = do_captures(s, st, r); !c) return StepOutcome::fail(c.error().message);
  return run_named_assertions(s, st.assertions);
}

result::Outcome grade_outcome(scenario::GradeKind g) {
  switch (g) {
    case scenario::GradeKind::kPass: return result::Outcome::kPass;
    case scenario::GradeKind::kNonStrict: return result::Outcome::kNonStrict;
    case scenario::GradeKind::kInformational: return result::Outcome::kInformational;
    case scenario::GradeKind::kFail: return result::Outcome::kFail;
  }
  return result::Outcome::kFail;
}

// x-grades: the first alternative that matches decides the outcome.
StepOutcome grade(Session& s, const Step& st, const OpResult* op) {
  StepOutcome first_failure;
  bool have_first = false;
  for (const auto& g : st.grades) {
    StepOutcome o;
    std::optional<size_t> seq;
    if (g.action.kind == StepKind::kWire && g.action.wire)
      o = run_wire(s, *g.action.wire, st.id, false, &seq);
    else if (op)
      o = check_expectations(s, g.action, *op, is_streaming_operation(st.operation));
    else
      o = StepOutcome::error("grade alternative needs an operation result");
    if (o.outcome == result::Outcome::kError || o.outcome == result::Outcome::kTimeout) return o;
    if (o.ok()) {
      if (seq) s.conn->remove(*seq);
      StepOutcome out;
      out.outcome = grade_outcome(g.grade);
      out.note = g.note;
      if (out.outcome == result::Outcome::kFail || out.outcome == result::Outcome::kNonStrict)
        out.failure = result::Failure{g.note.empty() ? "graded " + std::string(to_string(g.grade)) : g.note,
                                      "", "", "", ""};
      return out;
    }
    if (!have_first) {
      first_failure = o;
      have_first = true;
    }
  }
  if (!have_first) return StepOutcome::pass();
  if (first_failure.failure)
    first_failure.failure->message = "no graded alternative matched; first: " + first_failure.failure->message;
  return first_failure;
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
      if (st.grades.empty()) return run_wire(s, *st.wire, st.id);
      // With grades, an expectation of the step itself only looks (the
      // alternatives then judge the same frame); any other action runs first.
      auto o = run_wire(s, *st.wire, st.id, !scenario::is_expectation(st.wire->type));
      if (!o.ok()) return o;
      return grade(s, st, nullptr);
    }
    case StepKind::kConcurrent: return run_concurrent(s, st, rec, prefix);
    case StepKind::kRaw: return StepOutcome::error("raw HTTP steps cannot run on the stdio binding");
    case StepKind::kClient: return StepOutcome::error("client steps cannot run against an agent");
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
