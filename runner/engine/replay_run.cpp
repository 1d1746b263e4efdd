#include "runner/engine/replay_run.hpp"

#include "runner/engine/http_pool.hpp"
#include "runner/engine/run.hpp"
#include "runner/engine/scenario_parts.hpp"
#include "runner/engine/scenario_runner.hpp"
#include "runner/engine/webhooks.hpp"

namespace a2a::engine {

std::string not_replayable(const scenario::Test& t) {
  if (t.role == scenario::Role::kClient) return "a client test (the runner played the agent)";
  if (t.agent.manual_handshake) return "it drives the stdio handshake by hand (wire steps)";
  if (needs_webhooks(t)) return "it waits for webhook deliveries, which the binding layer does not record";
  std::string why;
  scenario::for_each_step(t.steps, [&](const scenario::Step& st) {
    if (!why.empty()) return;
    using K = scenario::StepKind;
    if (st.kind == K::kOperation || st.kind == K::kAssertion || st.kind == K::kConcurrent) return;
    why = "step " + (st.id.empty() ? std::string("(unnamed)") : st.id) + " is a " +
          std::string(scenario::to_string(st.kind)) + " step (bytes on the wire, not an abstract operation)";
  });
  return why;
}

result::ScenarioResult run_replayed_scenario(const scenario::Test& t, const RunConfig& c, const BindingTarget& b) {
  auto t0 = std::chrono::steady_clock::now();
  result::ScenarioResult r = describe(t, c, b.binding == "stdio" ? nullptr : &b);
  transport::Transcript tr;
  HttpPool pool(&tr, false);  // raw HTTP steps are not replayable: nothing is dialled
  Session s;
  init_session(s, t, c);
  s.target = &b;
  s.http = &pool;
  s.transcript = &tr;
  s.vars.set_root("agent", Json{{"session_id", s.session_id}, {"url", b.url}, {"binding", b.key()}});
  tr.note("replay of the recorded " + b.key() + " calls");
  StepRecorder rec;
  bool fired = false;
  StepOutcome worst = run_body(s, t, false, rec, fired);
  fill_outcome(r, worst, fired, t, s);
  r.steps = rec.take();
  r.transcript = to_events(tr, 0);
  r.duration_ms = ms_since(t0);
  apply_known_failures(r, c.known_failures);
  return r;
}

}  // namespace a2a::engine
