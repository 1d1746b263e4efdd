// One client scenario (docs/client-conformance.md): the runner's agent side
// (the double's link on stdio, the scripted server on HTTP), the client under
// test started with {target} pointing at it, the steps, and one result whose
// transcript merges both recorders on one time line.
#include <algorithm>

#include "runner/engine/client_exec.hpp"
#include "runner/engine/scenario_parts.hpp"
#include "runner/engine/scenario_runner.hpp"

namespace a2a::engine {

namespace {

// {target} and {binding} are substituted word by word after splitting, so a
// stdio {target} (the double's whole command line) stays one argument.
std::vector<std::string> client_argv(const RunConfig& c, const std::string& target, const std::string& binding) {
  auto argv = transport::StdioProcess::split_command(c.client_command);
  std::vector<std::string> out;
  for (std::string w : argv ? *argv : std::vector<std::string>{}) {
    for (auto [key, val] : {std::pair<std::string, std::string>{"{target}", target}, {"{binding}", binding}})
      for (size_t at = w.find(key); at != std::string::npos; at = w.find(key, at + val.size()))
        w.replace(at, key.size(), val);
    out.push_back(w);
  }
  return out;
}

// The runner's agent side, ready before the client starts (it may fetch the
// card or spawn its agent at once).
struct AgentSide {
  std::unique_ptr<DoubleLink> link;
  std::unique_ptr<ScriptedServer> server;
  std::unique_ptr<ScriptedAgent> scripted;  // a registered binding's (grpc)
  std::string target;
};

core::Expected<AgentSide> start_agent_side(const scenario::Test& t, const RunConfig& c, const std::string& binding,
                                           transport::Transcript& scratch, Session& s) {
  AgentSide a;
  if (binding == "stdio") {
    auto l = DoubleLink::listen(&scratch);
    if (!l) return core::fail(l.error());
    a.link = std::move(l.value());
    a.target = a.link->command_line(c.agent_double);
    s.vars.set_root("agent", Json{{"session_id", ""}, {"url", a.target}, {"binding", binding}});
    return a;
  }
  if (binding == "jsonrpc" || binding == "rest") {
    auto sv = ScriptedServer::start(binding, &scratch);
    if (!sv) return core::fail(sv.error());
    a.server = std::move(sv.value());
    a.target = a.server->base_url();
  } else {
    const OperationBinding* b = find_binding(binding);
    if (!b || !b->scripted_agent)
      return core::fail(core::ErrorKind::kInvalidArgument, "the " + binding + " binding cannot test clients");
    auto sa = b->scripted_agent(&scratch);
    if (!sa) return core::fail(sa.error());
    a.scripted = std::move(sa.value());
    a.target = a.scripted->target();
  }
  s.vars.set_root("agent", Json{{"session_id", ""}, {"url", a.target}, {"binding", binding},
                                {"interface", a.scripted ? a.scripted->interface_url() : a.target}});
  if (!t.card.is_null()) {
    auto card = s.interpolate(t.card);
    if (!card) return core::fail(core::ErrorKind::kSchema, "x-card: " + card.error().message);
    if (a.server) a.server->set_card_members(*card);
    else a.scripted->set_card_members(*card);
  }
  return a;
}

// Two recorders (the client's pipes; the double's link or the scripted
// server), one time line: "to-agent" is what the runner sent the client.
void merge_transcripts(result::ScenarioResult& r, const transport::Transcript& scratch,
                       const transport::Transcript& tr) {
  r.transcript = to_events(scratch, 0);
  double shift = std::chrono::duration<double, std::milli>(tr.start() - scratch.start()).count();
  for (auto e : to_events(tr, 0)) {
    e.t_ms += shift;
    r.transcript.push_back(std::move(e));
  }
  std::stable_sort(r.transcript.begin(), r.transcript.end(),
                   [](const auto& a, const auto& b) { return a.t_ms < b.t_ms; });
  r.transcript_dropped_bytes = tr.dropped_bytes() + scratch.dropped_bytes();
}

}  // namespace

result::ScenarioResult run_client_scenario(const scenario::Test& t, const RunConfig& c, const std::string& binding) {
  auto t0 = std::chrono::steady_clock::now();
  BindingTarget bt{binding, "", "", "1.0"};
  result::ScenarioResult r = describe(t, c, binding == "stdio" ? nullptr : &bt);
  auto harness_error = [&](const std::string& what) {
    r.outcome = result::Outcome::kError;
    r.reason = what;
    return r;
  };
  transport::Transcript scratch;
  Session s;
  init_session(s, t, c);
  auto side = start_agent_side(t, c, binding, scratch, s);
  if (!side) return harness_error(side.error().message);
  auto argv = client_argv(c, side->target, binding);
  auto proc = ClientProcess::spawn(argv);
  if (!proc) return harness_error("could not start the client: " + proc.error().message);
  auto& tr = (*proc)->process().transcript();
  tr.note("client under test: " + transport::StdioProcess::join_command(argv));
  ClientContext cc{proc->get(), side->link.get(), side->server.get(), binding,
                   side->link && !t.agent.manual_handshake, {}, {}, {}, side->scripted.get()};
  s.client = &cc;
  s.transcript = &tr;
  std::unique_ptr<AgentConnection> conn;
  if (side->link) {
    conn = AgentConnection::attach(make_double_channel(*side->link, **proc), wire::ContentLengthRules::lenient_strict(),
                                   64ull << 20);
    s.conn = conn.get();
  }
  StepRecorder rec;
  bool fired = false;
  StepOutcome worst = run_body(s, t, false, rec, fired);
  fill_outcome(r, worst, fired, t, s);
  (*proc)->close_input();
  auto st = (*proc)->process().shutdown(core::Millis(1000), core::Millis(300));
  conn.reset();
  r.steps = rec.take();
  merge_transcripts(r, scratch, tr);
  r.stderr_excerpt = (*proc)->process().stderr_text().substr(0, 16 * 1024);
  r.exit_status = st.str();
  r.duration_ms = ms_since(t0);
  return r;
}

}  // namespace a2a::engine
