#include "runner/engine/run.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <optional>
#include <mutex>
#include <thread>

#include <yaml-cpp/yaml.h>

#include "runner/a2a/model.hpp"
#include "runner/core/deadline.hpp"
#include "runner/core/interrupt.hpp"
#include "runner/engine/scenario_runner.hpp"
#include "runner/engine/webhooks.hpp"
#include "runner/scenario/yaml_file.hpp"
#include "runner/scenario/selection.hpp"
#include "runner/transport/startable.hpp"
#include "runner/transport/stdio_process.hpp"

namespace a2a::engine {

using result::Outcome;

void apply_known_failures(result::ScenarioResult& r, const std::vector<KnownFailure>& known) {
  for (const auto& k : known) {
    if (!scenario::glob_match(k.id, r.id)) continue;
    if (!k.binding.empty() && k.binding != r.binding) continue;
    if (r.outcome == Outcome::kFail || r.outcome == Outcome::kTimeout) {
      r.outcome = Outcome::kXFail;
      r.reason = "known failure (" + k.reason + "): " + r.reason;
    } else if (r.outcome == Outcome::kPass) {
      r.outcome = Outcome::kXPass;
      r.reason = "listed as a known failure (" + k.reason +
                 ") but passed: remove it from the known-failures file";
    }
    return;
  }
}

core::Expected<std::vector<KnownFailure>> load_known_failures(const std::string& path) {
  // Read and parsed under the scenario files' bounds (size, nodes, aliases,
  // depth: docs/scenario-format.md "Limits"): a known-failures file comes
  // with a suite from strangers as often as the suite does.
  auto parsed = scenario::load_yaml_file(path);
  if (!parsed) {
    if (parsed.error().kind == core::ErrorKind::kNotFound)
      return core::fail(core::ErrorKind::kNotFound, "known-failures file not found: " + path);
    return core::fail(parsed.error());
  }
  const YAML::Node doc = *parsed;
  std::vector<KnownFailure> out;
  if (!doc.IsMap() || !doc["expected_failures"] || !doc["expected_failures"].IsSequence())
    return core::fail(core::ErrorKind::kSchema, "expected a map with an 'expected_failures' list",
                      {path, doc.Mark().line + 1, doc.Mark().column + 1});
  for (const auto& n : doc["expected_failures"]) {
    if (!n.IsMap() || !n["id"] || !n["id"].IsScalar())
      return core::fail(core::ErrorKind::kSchema, "each entry needs an 'id'",
                        {path, n.Mark().line + 1, n.Mark().column + 1});
    for (const auto& kv : n) {
      auto key = kv.first.as<std::string>();
      if (key != "id" && key != "reason" && key != "binding")
        return core::fail(core::ErrorKind::kSchema, "unknown key '" + key + "' (known: id, reason, binding)",
                          {path, kv.first.Mark().line + 1, kv.first.Mark().column + 1});
    }
    for (const char* key : {"reason", "binding"}) {
      if (n[key] && !n[key].IsScalar())
        return core::fail(core::ErrorKind::kSchema, std::string("'") + key + "' must be a string",
                          {path, n[key].Mark().line + 1, n[key].Mark().column + 1});
    }
    out.push_back({n["id"].as<std::string>(), n["reason"] ? n["reason"].as<std::string>() : "",
                   n["binding"] ? n["binding"].as<std::string>() : ""});
  }
  return out;
}

namespace {

struct Item {
  const scenario::Test* test;
  const BindingTarget* target;  // nullptr: stdio
};

// Each test once per binding it applies to, binding by binding, in test
// order. What does not apply (another binding, profile or role: the target
// plays no part) goes to `na`, one entry per reason, not into the run
// (docs/reports.md "Not applicable"); a test that applies to no binding of
// the run is listed once, with every binding's reason.
constexpr std::string_view kRunIs = "; this run is ";

std::vector<Item> expand(const std::vector<const scenario::Test*>& tests, const std::vector<BindingTarget>& bindings,
                         const RunConfig& config, result::RunResult* na) {
  std::vector<Item> items;
  for (const auto& b : bindings)
    for (const auto* t : tests) {
      if (binding_mismatch(*t, b.key()).empty()) {
        const BindingTarget* target = b.binding == "stdio" ? nullptr : &b;
        if (auto why = not_applicable_reason(*t, config, target); !why.empty()) {
          if (na) na->add_not_applicable(why, t->id);
          continue;
        }
        items.push_back({t, &b});
        continue;
      }
      if (&b != &bindings.front()) continue;
      // "written for the stdio binding; this run is jsonrpc, rest": one
      // reason per distinct cause, the bindings it holds for listed after it.
      std::vector<std::pair<std::string, std::string>> causes;  // cause, bindings
      bool applies_elsewhere = false;
      for (const auto& o : bindings) {
        std::string m = binding_mismatch(*t, o.key());
        applies_elsewhere = applies_elsewhere || m.empty();
        auto at = m.rfind(kRunIs);
        std::string cause = at == std::string::npos ? m : m.substr(0, at);
        std::string which = at == std::string::npos ? "" : m.substr(at + kRunIs.size());
        auto it = std::find_if(causes.begin(), causes.end(), [&](const auto& c) { return c.first == cause; });
        if (it == causes.end()) causes.emplace_back(cause, which);
        else if (!which.empty()) it->second += (it->second.empty() ? "" : ", ") + which;
      }
      std::string why;
      for (const auto& [cause, which] : causes)
        why += (why.empty() ? "" : "; ") + cause + (which.empty() ? "" : std::string(kRunIs) + which);
      if (!applies_elsewhere && na) na->add_not_applicable(why, t->id);
    }
  return items;
}

// Fail fast on a broken target (docs/runner.md "A broken target"): when the
// target fails to start, handshake or connect the same way in kStrikes
// scenarios in a row on one binding, the scenarios of that binding not yet
// started are reported at once with that cause instead of each waiting out
// its deadline, and the run's diagnosis names it.
constexpr int kStrikes = 2;
constexpr std::string_view kNotRunPrefix = "not run: the target is broken on this binding";

// What a result says about the target itself: "start", "handshake" or
// "connect", or "" when the scenario got past that point.
std::string target_failure_kind(const result::ScenarioResult& r, const scenario::Test& t) {
  if (r.outcome == Outcome::kPass || r.outcome == Outcome::kSkip) return "";
  if (r.reason.starts_with("could not start the agent")) return "start";
  if (!r.steps.empty()) {
    const auto& first = r.steps.front();
    bool failed = first.outcome != Outcome::kPass && first.outcome != Outcome::kNonStrict &&
                  first.outcome != Outcome::kInformational && first.outcome != Outcome::kSkip;
    if (failed && first.id == "handshake") return "handshake";
    const scenario::Step* s0 = t.steps.empty() ? nullptr : &t.steps.front();
    bool reads_handshake = s0 && s0->wire && (s0->wire->type == scenario::WireActionType::kHandshake ||
                                              s0->wire->type == scenario::WireActionType::kExpectHandshake);
    if (failed && reads_handshake && first.id == s0->id && first.outcome == Outcome::kTimeout) return "handshake";
  }
  std::string msg = r.failure ? r.failure->message : r.reason;
  if (msg.find("connecting to ") != std::string::npos) return "connect";
  return "";
}

class TargetHealth {
 public:
  struct Trip {
    std::string kind;
    std::string cause;
    Outcome outcome = Outcome::kError;
  };
  // Seeds a strike from before the scenarios (the stdio card probe).
  void strike(const std::string& binding, const std::string& kind, const std::string& cause, Outcome o) {
    std::lock_guard lk(mu_);
    add(binding, kind, cause, o);
  }
  void record(const std::string& binding, const result::ScenarioResult& r, const scenario::Test& t) {
    std::string kind = target_failure_kind(r, t);
    std::lock_guard lk(mu_);
    if (kind.empty()) {
      // A scenario that got through shows the target can work: start over.
      if (r.outcome != Outcome::kSkip && !trips_.count(binding)) streaks_.erase(binding);
      return;
    }
    add(binding, kind, r.reason, r.outcome);
  }
  std::optional<Trip> tripped(const std::string& binding) {
    std::lock_guard lk(mu_);
    auto it = trips_.find(binding);
    if (it == trips_.end()) return std::nullopt;
    return it->second;
  }

 private:
  struct Streak {
    std::string kind;
    int count = 0;
  };
  void add(const std::string& binding, const std::string& kind, const std::string& cause, Outcome o) {
    if (trips_.count(binding)) return;
    auto& s = streaks_[binding];
    if (s.kind != kind) s = Streak{kind, 0};
    if (++s.count >= kStrikes) trips_[binding] = Trip{kind, cause, o};
  }
  std::mutex mu_;
  std::map<std::string, Streak> streaks_;
  std::map<std::string, Trip> trips_;
};

std::string diagnosis_text(const std::string& binding, const TargetHealth::Trip& trip, size_t not_run) {
  std::string what = trip.kind == "start"       ? "the agent could not be started"
                     : trip.kind == "handshake" ? "the agent never completed its handshake"
                                                : "the interface refused or failed every connection";
  return binding + ": " + what + " (" + std::to_string(kStrikes) + " scenarios in a row): " + trip.cause + "; " +
         std::to_string(not_run) + " scenario(s) on this binding were not run and are reported with this cause";
}

// A stdio agent or a client whose command cannot start at all (missing,
// not executable, a #! interpreter that is not there): why, with the
// command, or "". Checked once before the first scenario, so the run is
// diagnosed in milliseconds instead of once per scenario (docs/runner.md
// "A target that cannot be started").
std::string cannot_start(const RunConfig& config) {
  std::vector<std::string> argv = config.agent_argv;
  std::string who = "the agent", command = config.agent_command;
  if (!config.client_command.empty()) {
    auto split = transport::StdioProcess::split_command(config.client_command);
    argv = split ? *split : std::vector<std::string>{};
    who = "the client";
    command = config.client_command;
  }
  if (argv.empty()) return "";
  std::string why = transport::start_problem(argv);
  if (why.empty()) return "";
  return who + " cannot be started: " + why + " (command: " + command + ")";
}

std::unique_ptr<WebhookReceiver> start_receiver(const std::vector<Item>& items) {
  bool needed = std::any_of(items.begin(), items.end(),
                            [](const Item& it) { return needs_webhooks(*it.test); });
  if (!needed) return nullptr;
  auto r = WebhookReceiver::start();
  // Without one, the tests that need it fail on their own ("no webhook receiver").
  return r ? std::move(*r) : nullptr;
}

}  // namespace

namespace {

// What the workers share. Owned jointly by run_all and the workers, because
// at an interrupt run_all hands back the results so far without waiting for
// a worker stuck in a wait on a URL target (docs/runner.md "Interrupted
// runs"); that worker is cut loose and ends with the process. Hence the
// copy of the config, and bindings that live here.
struct RunState {
  RunConfig config;
  std::vector<BindingTarget> stdio_only = {BindingTarget{"stdio", "", "", ""}};
  const std::vector<BindingTarget>& bindings() const {
    return config.bindings.empty() ? stdio_only : config.bindings;
  }
  std::vector<Item> items;
  std::unique_ptr<WebhookReceiver> receiver;
  ProgressFn progress;
  core::Deadline run_deadline = core::Deadline::never();
  TargetHealth health;
  std::string cannot_start;  // why the target's command cannot start ("" = it can)
  std::atomic<size_t> next{0};

  std::mutex mu;  // everything below
  std::condition_variable changed;
  std::vector<std::optional<result::ScenarioResult>> results;
  std::map<std::string, size_t> not_run;  // by binding key
  size_t done = 0;
  int workers_left = 0;
  bool handed_back = false;  // run_all returned: results and progress are closed
};

// How long run_all waits for running scenarios after a signal: the agents
// get SIGTERM at once and SIGKILL after the grace period (2 s), after which
// a stdio scenario ends on its own within a second or so.
constexpr core::Millis kInterruptDrain{5000};

result::ScenarioResult run_item(RunState& st, const Item& it, AgentSlot& slot) {
  const auto& config = st.config;
  const auto& t = *it.test;
  const BindingTarget* target = it.target->binding == "stdio" ? nullptr : it.target;
  result::ScenarioResult r;
  std::string why = skip_reason(t, config, target);
  const std::string key = it.target->key();
  std::optional<TargetHealth::Trip> trip;
  if (why.empty() && config.client_command.empty()) trip = st.health.tripped(key);
  if (!why.empty()) {
    r = describe(t, config, target);
    r.outcome = Outcome::kSkip;
    r.reason = why;
  } else if (!st.cannot_start.empty()) {
    // SKIP like a tripped target's scenarios: not run, so no claim either way.
    r = describe(t, config, target);
    r.outcome = Outcome::kSkip;
    r.reason = "not run: " + st.cannot_start;
  } else if (trip) {
    r = describe(t, config, target);
    // SKIP, not the cause's outcome: a scenario that was not run makes no
    // claim about the target (it might have passed); the diagnosis fails
    // the run (RunResult::exit_code, conformant).
    r.outcome = Outcome::kSkip;
    r.reason = std::string(kNotRunPrefix) + " (" + trip->kind + " failed " + std::to_string(kStrikes) +
               " times in a row): " + trip->cause;
    std::lock_guard lk(st.mu);
    ++st.not_run[key];
  } else if (st.run_deadline.expired()) {
    r = describe(t, config, target);
    r.outcome = Outcome::kTimeout;
    r.reason = "not started: the run's deadline (--run-timeout) expired";
  } else {
    r = run_scenario(t, config, &slot, target, st.receiver.get());
    if (config.client_command.empty()) st.health.record(key, r, t);
  }
  apply_known_failures(r, config.known_failures);
  return r;
}

void work(const std::shared_ptr<RunState>& sp) {
  RunState& st = *sp;
  {
    AgentSlot slot;  // --reuse: this worker's agent, carried between scenarios
    for (;;) {
      // No scenario starts after a signal.
      if (core::interrupt_signal() != 0) break;
      size_t i = st.next.fetch_add(1);
      if (i >= st.items.size()) break;
      auto r = run_item(st, st.items[i], slot);
      std::lock_guard lk(st.mu);
      // A scenario still running at the signal saw its agent killed under
      // it: its result is not evidence about the agent, so it is dropped.
      if (st.handed_back || core::interrupt_signal() != 0) break;
      st.results[i] = std::move(r);
      ++st.done;
      if (st.progress) st.progress(*st.results[i], st.done, st.items.size());
    }
  }  // the reused agent ends here, before this worker counts as finished
  std::lock_guard lk(st.mu);
  --st.workers_left;
  st.changed.notify_all();
}

// A target whose command cannot start: nothing runs; each scenario is
// reported with the one cause, without a progress line each, and the
// diagnosis says it once (docs/runner.md "A target that cannot be started").
void report_unstartable(RunState& st, result::RunResult& run) {
  for (const auto& item : st.items) {
    AgentSlot unused;
    run.scenarios.push_back(run_item(st, item, unused));
  }
  std::string binding = st.items.empty() ? std::string("stdio") : st.items.front().target->key();
  run.diagnosis = (st.config.client_command.empty() ? binding + ": " : std::string()) + st.cannot_start + "; " +
                  std::to_string(st.items.size()) + " scenario(s) were not run and are reported with this cause";
}

}  // namespace

result::RunResult run_all(const std::vector<const scenario::Test*>& tests, const RunConfig& config,
                          const ProgressFn& progress) {
  auto t0 = std::chrono::steady_clock::now();
  auto sp = std::make_shared<RunState>();
  RunState& st = *sp;
  st.config = config;
  st.progress = progress;
  result::RunResult run;
  run.tool_version = config.tool_version;
  run.started_at = model::now_timestamp();
  run.target = config.target_url.empty() ? config.agent_command : config.target_url;
  run.command_line = config.command_line;
  if (config.target_url.empty()) run.profiles = {config.profile.name};
  const auto& bindings = st.bindings();
  for (const auto& b : bindings) run.bindings.push_back(b.key());
  st.items = expand(tests, bindings, st.config, &run);
  st.cannot_start = cannot_start(config);
  if (!st.cannot_start.empty()) {
    report_unstartable(st, run);
    run.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - t0).count();
    return run;
  }
  st.receiver = start_receiver(st.items);
  st.results.resize(st.items.size());
  if (config.run_timeout_ms > 0) st.run_deadline = core::Deadline::after(core::Millis(config.run_timeout_ms));
  if (!config.probe_failure.empty() && config.client_command.empty())
    st.health.strike("stdio", config.probe_failure.starts_with("could not start") ? "start" : "handshake",
                     "card probe: " + config.probe_failure, Outcome::kTimeout);
  // A signal wakes the wait below.
  core::InterruptHook wake([sp] {
    std::lock_guard lk(sp->mu);
    sp->changed.notify_all();
  });
  int jobs = std::max(1, config.jobs);
  std::vector<std::thread> pool;
  {
    std::lock_guard lk(st.mu);
    st.workers_left = jobs;
  }
  for (int j = 0; j < jobs; ++j) pool.emplace_back(work, sp);
  {
    std::unique_lock lk(st.mu);
    // Bounded by the scenarios' own deadlines; a signal cuts it short.
    st.changed.wait(lk, [&] { return st.workers_left == 0 || core::interrupt_signal() != 0; });
    if (st.workers_left > 0) {
      st.changed.wait_for(lk, kInterruptDrain, [&] { return st.workers_left == 0; });
    }
    st.handed_back = true;
    for (size_t i = 0; i < st.items.size(); ++i)
      if (st.results[i]) run.scenarios.push_back(std::move(*st.results[i]));
    if (int sig = core::interrupt_signal(); sig != 0 && run.scenarios.size() < st.items.size())
      run.interrupted = result::RunResult::Interruption{
          core::signal_name(sig), sig, static_cast<long long>(st.items.size() - run.scenarios.size())};
    for (const auto& b : bindings)
      if (auto trip = st.health.tripped(b.key())) {
        if (!run.diagnosis.empty()) run.diagnosis += "\n";
        run.diagnosis += diagnosis_text(b.key(), *trip, st.not_run[b.key()]);
      }
    bool all_done = st.workers_left == 0;
    lk.unlock();
    for (auto& th : pool) {
      // A worker still inside a scenario at an interrupt is left to end with
      // the process; it holds its own reference to the state.
      if (all_done) th.join();
      else th.detach();
    }
  }
  run.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - t0).count();
  return run;
}

size_t planned_results(const std::vector<const scenario::Test*>& tests, const RunConfig& config) {
  const std::vector<BindingTarget> stdio_only = {BindingTarget{"stdio", "", "", ""}};
  return expand(tests, config.bindings.empty() ? stdio_only : config.bindings, config, nullptr).size();
}

}  // namespace a2a::engine
