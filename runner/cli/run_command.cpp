// `a2a-conform run` and `a2a-conform client`: the target (agent command,
// URL, or client command), the profile, known failures, the scenarios, then
// the engine, the console and the report writers.
#include "runner/core/interrupt.hpp"
#include "runner/cli/targets.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>

#include "reports/console.hpp"
#include "reports/json_report.hpp"
#include "runner/cli/bundle.hpp"
#include "runner/engine/call_log.hpp"
#include "runner/engine/binding_registry.hpp"
#include "runner/engine/discovery.hpp"
#include "runner/engine/run.hpp"
#include "runner/engine/scenario_runner.hpp"
#include "runner/scenario/profile.hpp"
#include "runner/transport/stdio_process.hpp"

namespace a2a::cli {

namespace fs = std::filesystem;

namespace {

// Setting up one target returns "" or why it cannot be run; cmd_run prints
// it (a usage error), the multi-target driver records it for that target.

// --agent: the command, split.
std::string set_stdio_target(const Options& o, engine::RunConfig& cfg) {
  cfg.agent_command = o.agent;
  auto argv = transport::StdioProcess::split_command(o.agent);
  if (!argv || argv->empty())
    return "a2a-conform run: --agent: " + (argv ? std::string("empty command") : argv.error().message);
  cfg.agent_argv = *argv;
  return "";
}

// --url: discovery (the card, its interfaces), or the forced --binding
// values. What discovery found goes to `log` (printed under the target's header).
std::string set_url_target(const Options& o, engine::RunConfig& cfg, std::string& log) {
  cfg.target_url = o.url;
  cfg.insecure_tls = o.insecure;
  for (const auto& h : o.headers) {
    auto colon = h.find(':');
    std::string name = h.substr(0, colon), value = colon == std::string::npos ? "" : h.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    cfg.http_headers.emplace_back(name, value);
  }
  cfg.forced_bindings = o.bindings;
  cfg.forced_version = o.a2a_version;
  auto deadline = core::Deadline::after(core::Millis(static_cast<long long>(10000 * o.timeout_scale)));
  auto d = engine::discover(o.url, o.bindings, o.insecure, deadline, o.a2a_version);
  if (!d) return "a2a-conform run: --url " + o.url + ": " + d.error().message;
  for (const auto& n : d->notes) log += "note: " + n + "\n";
  cfg.bindings = d->targets;
  cfg.agent_card = d->card;
  for (const auto& b : cfg.bindings)
    log += "binding " + b.key() + ": " + b.url + (b.tenant.empty() ? "" : " (tenant " + b.tenant + ")") +
           (b.is_v03() ? " (A2A 0.3 profile)" : "") + "\n";
  return "";
}

// --binding KEY of a binding whose agent runs inside the runner (loopback).
const engine::OperationBinding* in_process_binding(const Options& o) {
  for (const auto& key : o.bindings)
    if (const auto* b = engine::find_binding(key); b && b->start_agent) return b;
  return nullptr;
}

// The in-process agent of this run: its card is the discovered one (what
// capability gating reads), and the target carries the agent to every scenario.
std::string set_in_process_target(const Options& o, const engine::OperationBinding& b, engine::RunConfig& cfg,
                                  std::string& log) {
  auto agent = b.start_agent(o.loopback_faults);
  if (!agent) return "a2a-conform run: " + agent.error().message;
  cfg.forced_bindings = o.bindings;
  cfg.agent_faults = o.loopback_faults;
  cfg.agent_card = agent->card;
  cfg.in_process_agent = agent->agent;
  cfg.bindings = {engine::BindingTarget{b.key, agent->url, "", "1.0"}};
  log += "binding " + b.key + ": " + agent->url + " (" + b.title + ", in this process)";
  for (const auto& f : o.loopback_faults) log += " " + b.fault_option + " " + f;
  log += "\n";
  return "";
}

// `client`: the client under test and the double it will spawn on stdio.
std::string set_client_target(const Options& o, engine::RunConfig& cfg) {
  auto argv = transport::StdioProcess::split_command(o.client_cmd);
  if (!argv || argv->empty())
    return "a2a-conform client: --cmd: " + (argv ? std::string("empty command") : argv.error().message);
  cfg.client_command = o.client_cmd;
  cfg.agent_double = o.agent_double.empty()
                         ? (fs::read_symlink("/proc/self/exe").parent_path() / "a2a-agent-double").string()
                         : o.agent_double;
  if (o.client_binding == "stdio" && !fs::exists(cfg.agent_double))
    return "a2a-conform client: the agent double " + cfg.agent_double + " does not exist (--agent-double)";
  if (o.client_binding != "stdio" && o.client_binding != "jsonrpc" && o.client_binding != "rest") {
    const engine::OperationBinding* b = engine::find_binding(o.client_binding);
    if (!b || !b->scripted_agent)
      return "a2a-conform client: --binding " + o.client_binding + ": this build cannot play a " + o.client_binding +
             " agent" + (o.client_binding == "grpc" ? " (it has no gRPC binding)" : "");
  }
  if (o.client_binding != "stdio") cfg.bindings = {engine::BindingTarget{o.client_binding, "", "", "1.0"}};
  return "";
}

}  // namespace

// The parts of the configuration every target shares: profile, options,
// known failures. false after printing why.
bool configure(const Options& o, engine::RunConfig& cfg) {
  auto ppath = scenario::find_profile(o.profile, {suites_root() / "profiles"});
  if (!ppath) {
    std::cerr << core::terminal_text(ppath.error().str()) << "\n";
    return false;
  }
  auto profile = scenario::load_profile(*ppath);
  if (!profile) {
    std::cerr << core::terminal_text(profile.error().message) << "\n";
    return false;
  }
  if (profile->describes_url_binding()) {
    std::cerr << "a2a-conform: --profile " << core::terminal_line(profile->name) << " describes the "
              << core::terminal_line(profile->framing.kind)
              << " binding, not a stdio wire: give a stdio wire profile (p46, stdio-json; docs/stdio-json.md)\n";
    return false;
  }
  cfg.profile = *profile;
  cfg.suite_paths = o.paths;
  cfg.jobs = o.jobs;
  cfg.reuse = o.reuse;
  cfg.timeout_scale = o.timeout_scale;
  cfg.run_timeout_ms = o.run_timeout_ms;
  cfg.assume_behaviors = !o.no_behaviors;
  if (!o.behaviors_file.empty() && !o.no_behaviors) {
    auto b = o.behaviors_file == "acts" ? core::Expected<scenario::Behaviors>(scenario::Behaviors::acts_default())
                                        : scenario::load_behaviors(o.behaviors_file);
    if (!b) {
      std::cerr << "a2a-conform: " << core::terminal_text(b.error().str()) << "\n";
      return false;
    }
    cfg.behaviors = std::move(*b);
  }
  if (o.known_failures.empty()) return true;
  auto kf = engine::load_known_failures(o.known_failures);
  if (!kf) {
    std::cerr << core::terminal_text(kf.error().str()) << "\n";
    return false;
  }
  cfg.known_failures = *kf;
  return true;
}

namespace {

}  // namespace

// --var: a document-level variable for every test, over the file's own
// value (what a user passes is what the official files leave to the runner,
// e.g. ACTS's {{insufficientAuthToken}}).
void apply_vars(const std::vector<std::string>& vars, std::vector<scenario::Document>& docs) {
  for (const auto& v : vars) {
    auto eq = v.find('=');
    std::string name = v.substr(0, eq), value = v.substr(eq + 1);
    for (auto& d : docs)
      for (auto& su : d.suites)
        for (auto& t : su.tests) {
          auto it = std::find_if(t.variables.begin(), t.variables.end(), [&](const auto& p) { return p.first == name; });
          if (it != t.variables.end()) it->second = value;
          else t.variables.emplace_back(name, value);
        }
  }
}

namespace {

bool check_target(const Options& o, bool client) {
  if (!client && in_process_binding(o)) {
    if (!o.agent.empty() || !o.url.empty() || o.bindings.size() != 1 || !o.a2a_version.empty()) {
      std::cerr << "a2a-conform run: --binding " << in_process_binding(o)->key
                << " runs the agent inside the runner (A2A 1.0): give no --agent, --url, --a2a-version or other --binding\n";
      return false;
    }
    return true;
  }
  if (!o.loopback_faults.empty()) {
    std::cerr << "a2a-conform run: --loopback-fault only applies to --binding loopback\n";
    return false;
  }
  if (!client && o.agent.empty() == o.url.empty()) {
    std::cerr << "a2a-conform run: give a target: --agent \"CMD ARGS\" (an executable, stdio "
                 "binding) or --url URL (an HTTP agent: its card is read from URL/.well-known/agent-card.json); "
                 "both are repeatable to test several targets in turn\n";
    return false;
  }
  if (!client && !o.bindings.empty() && o.url.empty()) {
    std::cerr << "a2a-conform run: --binding only applies to --url targets\n";
    return false;
  }
  if (!o.a2a_version.empty() && o.url.empty()) {
    std::cerr << "a2a-conform run: --a2a-version only applies to --url targets\n";
    return false;
  }
  return true;
}

}  // namespace

reports::ConsoleOptions console_options(const Options& o) {
  reports::ConsoleOptions co;
  co.progress = !o.quiet;
  co.color = o.color == "always" ? reports::ColorMode::kAlways
             : o.color == "never" ? reports::ColorMode::kNever : reports::ColorMode::kAuto;
  return co;
}

std::unique_ptr<SelectedTests> load_selection(const Options& o, bool client) {
  auto sel = std::make_unique<SelectedTests>();
  auto docs = load_scenarios(o, client);
  if (!docs) {
    std::cerr << core::terminal_text(docs.error().message) << "\n";
    return nullptr;
  }
  sel->docs = std::move(*docs);
  apply_vars(o.vars, sel->docs);
  const char* cmd = client ? "client" : "run";
  auto tests = select_shard(o, sel->docs, &sel->shard, &sel->selection);
  if (!tests) {
    std::cerr << "a2a-conform " << cmd << ": " << core::terminal_text(tests.error().message) << "\n";
    return nullptr;
  }
  sel->tests = std::move(*tests);
  if (sel->selection.empty()) {
    std::cerr << "a2a-conform " << cmd << ": no scenario matches the selection\n";
    return nullptr;
  }
  if (sel->shard.sharded() && !o.quiet)
    std::cout << "shard " << core::terminal_line(sel->shard.str()) << " (" << core::terminal_line(sel->shard.source) << "): " << sel->tests.size() << " of "
              << sel->selection.size() << " selected scenarios\n";
  // Bazel's sharding protocol: the test says it honours sharding by touching the file.
  if (!sel->shard.status_file.empty()) std::ofstream(sel->shard.status_file, std::ios::app);
  return sel;
}

std::string setup_target(const Options& o, const std::vector<const scenario::Test*>& tests,
                         engine::RunConfig& cfg, std::string& log) {
  bool client = !o.client_cmd.empty();
  std::string why;
  if (!o.agent.empty()) why = set_stdio_target(o, cfg);
  else if (client) why = set_client_target(o, cfg);
  else if (!o.url.empty()) why = set_url_target(o, cfg, log);
  else if (const auto* b = in_process_binding(o)) why = set_in_process_target(o, *b, cfg, log);
  if (!why.empty()) return why;
  bool needs_card = false;
  for (const auto* t : tests)
    needs_card = needs_card || t->preconditions.contains("capabilities") || !engine::implied_capabilities(*t).empty();
  if (needs_card && !o.agent.empty() && !client) cfg.agent_card = engine::probe_agent_card(cfg, &cfg.probe_failure);
  return "";
}

result::RunResult run_target(const Options& o, const engine::RunConfig& cfg,
                             const std::vector<const scenario::Test*>& tests, reports::ConsoleReporter& console) {
  console.on_start(static_cast<int>(engine::planned_results(tests, cfg)));
  auto run = engine::run_all(tests, cfg, [&](const result::ScenarioResult& r, size_t done, size_t) {
    console.on_scenario_done(r, static_cast<int>(done));
  });
  stamp_target(run, describe_target(o, cfg));
  return run;
}

void stamp_shard(result::RunResult& run, const SelectedTests& sel) {
  if (!sel.shard.sharded()) return;
  run.shard = result::ShardInfo{sel.shard.index, sel.shard.total, sel.selection};
}

namespace {

// The engine, the console and the report writers on the selected tests.
int execute(const Options& o, const engine::RunConfig& cfg, const SelectedTests& sel, const std::string& log) {
  const auto& tests = sel.tests;
  reports::ConsoleReporter console(std::cout, console_options(o));
  auto who = describe_target(o, cfg);
  console.on_target(who.role, who.profile, who.target);
  std::cout << core::terminal_text(log);
  std::string started_at = reports::utc_now_rfc3339();
  auto run = run_target(o, cfg, tests, console);
  stamp_shard(run, sel);
  if (auto w = write_reports(o, run); !w) {
    std::cerr << "a2a-conform: writing reports failed: " << core::terminal_text(w.error().message) << "\n";
    console.finish(run);
    return kExitUsage;
  }
  console.finish(run);
  if (!o.bundle_dir.empty()) {
    auto digest = write_bundle(BundleRun{o, cfg, sel, run, started_at, reports::utc_now_rfc3339()});
    if (!digest) {
      std::cerr << "a2a-conform: writing the bundle failed: " << core::terminal_text(digest.error().message) << "\n";
      return kExitUsage;
    }
    std::cout << "bundle: " << core::terminal_line(o.bundle_dir) << " (sha256 of its SHA256SUMS: " << *digest
              << "; check it with a2a-conform verify " << o.bundle_dir << ")\n";
  }
  return run.exit_code();
}

}  // namespace

int cmd_run(const Options& o_in, const std::string& command_line) {
  if (o_in.check_only) return cmd_check(o_in);
  if (!o_in.bundle_dir.empty() && (o_in.targets.size() > 1 || o_in.client_run)) {
    std::cerr << "a2a-conform: --bundle records one agent target of `run` (several targets, or `client`, are not "
                 "bundled yet: run each target on its own with its own --bundle DIR)\n";
    return kExitUsage;
  }
  if (auto why = check_bundle_dir(o_in); !why.empty()) {
    std::cerr << "a2a-conform run: " << core::terminal_text(why) << "\n";
    return kExitUsage;
  }
  if (o_in.targets.size() > 1) return cmd_run_targets(o_in, command_line);
  Options o = with_target(o_in, o_in.targets.empty() ? TargetSpec{} : o_in.targets.front());
  bool client = o.client_run || !o.client_cmd.empty();
  if (!check_target(o, client)) return kExitUsage;
  engine::RunConfig cfg;
  cfg.command_line = command_line;
  if (!o.bundle_dir.empty()) cfg.call_log = std::make_shared<engine::CallLog>();
  if (!configure(o, cfg)) return kExitUsage;
  auto sel = load_selection(o, client);
  if (!sel) return kExitUsage;
  // A signal from here on (the card probe, the run, the reports) stops the
  // run and still writes its reports (docs/runner.md "Interrupted runs").
  core::InterruptScope graceful;
  std::string log;
  if (auto why = setup_target(o, sel->tests, cfg, log); !why.empty()) {
    std::cerr << core::terminal_text(log + why) << "\n";
    return kExitUsage;
  }
  return execute(o, cfg, *sel, log);
}

}  // namespace a2a::cli
