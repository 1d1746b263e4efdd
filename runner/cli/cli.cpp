#include "runner/cli/cli.hpp"
#include "runner/cli/assertion_check.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "reports/console.hpp"
#include "reports/html.hpp"
#include "reports/json_report.hpp"
#include "reports/junit.hpp"
#include "runner/engine/discovery.hpp"
#include "runner/engine/run.hpp"
#include "runner/engine/scenario_runner.hpp"
#include "runner/match/assert.hpp"
#include "runner/scenario/loader.hpp"
#include "runner/scenario/profile.hpp"
#include "runner/scenario/selection.hpp"
#include "runner/transport/stdio_process.hpp"

#ifndef A2A_SOURCE_DIR
#define A2A_SOURCE_DIR "."
#endif

namespace a2a::cli {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

constexpr int kExitUsage = 2;

struct Options {
  std::vector<std::string> paths;
  std::string agent;
  std::string url;
  std::vector<std::string> bindings;
  bool insecure = false;
  std::vector<std::string> headers;
  std::vector<std::string> vars;  // NAME=VALUE
  std::string profile = "p46";
  std::vector<std::string> ids, tags, levels, sections;
  int jobs = 1;
  double timeout_scale = 1.0;
  int run_timeout_ms = 0;
  std::string known_failures;
  std::string report_dir;
  std::string json_path, junit_path, html_path, acts_dir;
  bool no_behaviors = false;
  bool reuse = false;
  bool check_only = false;
  bool quiet = false;
  std::string color = "auto";
  std::string client_cmd;    // `client --cmd`: the client under test
  std::string client_binding = "stdio";
  std::string agent_double;  // default: a2a-agent-double beside this executable
};

fs::path suites_root() {
  if (fs::exists("suites/profiles")) return "suites";
  return fs::path(A2A_SOURCE_DIR) / "suites";
}

// Every *.acts.yaml under a folder, sorted (profiles are *.yaml, not *.acts.yaml).
std::vector<std::string> files_under(const fs::path& root) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    auto p = it->path().string();
    if (p.ends_with(".acts.yaml")) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> default_paths() { return files_under(suites_root()); }

// Folders given on the command line stand for the scenario files under them.
std::vector<std::string> expand_paths(const std::vector<std::string>& paths, bool client = false) {
  if (paths.empty()) return client ? files_under(suites_root() / "client") : default_paths();
  std::vector<std::string> out;
  for (const auto& p : paths) {
    if (fs::is_directory(p)) {
      auto files = files_under(p);
      out.insert(out.end(), files.begin(), files.end());
    } else {
      out.push_back(p);
    }
  }
  return out;
}

// Loads every file (and its includes) once; all problems at once.
core::Expected<std::vector<scenario::Document>> load_all(const std::vector<std::string>& paths) {
  std::vector<scenario::Document> docs;
  std::string problems;
  std::set<std::string> seen;
  for (const auto& p : paths) {
    auto d = scenario::load_with_includes(p);
    if (!d) {
      problems += (problems.empty() ? "" : "\n") + d.error().str();
      continue;
    }
    for (auto& doc : *d) {
      if (!seen.insert(fs::weakly_canonical(doc.file).string()).second) continue;
      for (auto& su : doc.suites)
        for (auto& t : su.tests) t.variables = doc.variables;
      docs.push_back(std::move(doc));
    }
  }
  if (!problems.empty()) return core::fail(core::ErrorKind::kSchema, problems);
  // Test ids must be unique across the run: they key results and known failures.
  std::map<std::string, std::string> ids;
  for (const auto& d : docs)
    for (const auto& s : d.suites)
      for (const auto& t : s.tests) {
        auto [it, fresh] = ids.emplace(t.id, t.where.str());
        if (!fresh)
          problems += (problems.empty() ? "" : "\n") + t.where.str() + ": error[schema]: test id " +
                      t.id + " is also defined at " + it->second;
      }
  problems = check_assertions(docs);
  if (!problems.empty()) return core::fail(core::ErrorKind::kSchema, problems);
  return docs;
}

scenario::Selection selection_of(const Options& o) {
  scenario::Selection sel;
  sel.ids = o.ids;
  sel.tags = o.tags;
  sel.sections = o.sections;
  for (const auto& l : o.levels)
    if (auto lv = scenario::level_from(l)) sel.levels.push_back(*lv);
  return sel;
}

void add_selection_flags(CLI::App* app, Options& o) {
  app->add_option("paths", o.paths, "Scenario files (ACTS YAML); default: every suites/**/*.acts.yaml");
  // One value per flag occurrence, so `--id X path` leaves `path` positional.
  app->add_option("--id", o.ids, "Only tests whose id matches this glob (repeatable; !GLOB excludes)")
      ->allow_extra_args(false);
  app->add_option("--tag", o.tags, "Only tests with this tag (repeatable)")->allow_extra_args(false);
  app->add_option("--level", o.levels, "Only tests of this level: must, should, may (repeatable)")
      ->check(CLI::IsMember({"must", "should", "may"}))
      ->allow_extra_args(false);
  app->add_option("--section", o.sections, "Only tests whose spec_ref contains this text (repeatable)")
      ->allow_extra_args(false);
}

int cmd_check(const Options& o) {
  auto paths = expand_paths(o.paths);
  auto docs = load_all(paths);
  if (!docs) {
    std::cerr << docs.error().message << "\n";
    return kExitUsage;
  }
  size_t n = 0;
  for (const auto& d : *docs) n += d.test_count();
  std::cout << "ok: " << docs->size() << " file(s), " << n << " test(s)\n";
  return 0;
}

int cmd_list(const Options& o) {
  auto docs = load_all(expand_paths(o.paths));
  if (!docs) {
    std::cerr << docs.error().message << "\n";
    return kExitUsage;
  }
  for (const auto* t : scenario::select_tests(*docs, selection_of(o)))
    std::cout << t->id << "  [" << scenario::to_string(t->level) << "]  " << t->name << "  ("
              << t->where.str() << ")\n";
  return 0;
}

core::Expected<void> write_reports(const Options& o, const result::RunResult& run) {
  std::string dir = o.report_dir;
  auto path_or = [&](const std::string& explicit_path, const char* name) {
    if (!explicit_path.empty()) return explicit_path;
    return dir.empty() ? std::string() : (fs::path(dir) / name).string();
  };
  if (!dir.empty()) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return core::fail(core::ErrorKind::kIo, "cannot create report dir " + dir + ": " + ec.message());
  }
  auto write = [](const std::string& path, const std::function<void(std::ostream&)>& fn) -> core::Expected<void> {
    if (path.empty()) return {};
    std::ostringstream ss;
    fn(ss);
    return reports::write_text_file(path, ss.str());
  };
  if (auto r = write(path_or(o.json_path, "report.json"), [&](std::ostream& os) { reports::write_json_report(os, run); }); !r) return r;
  if (auto r = write(path_or(o.junit_path, "junit.xml"), [&](std::ostream& os) { reports::write_junit(os, run); }); !r) return r;
  if (auto r = write(path_or(o.html_path, "report.html"), [&](std::ostream& os) { reports::write_html(os, run); }); !r) return r;
  std::string acts = !o.acts_dir.empty() ? o.acts_dir : dir;
  if (!acts.empty()) {
    reports::ActsOptions ao;
    ao.sdk_name = "agent";
    if (auto r = reports::write_acts_reports(acts, run, ao); !r) return core::fail(r.error());
  }
  return {};
}

// --agent: the command, split.
bool set_stdio_target(const Options& o, engine::RunConfig& cfg) {
  cfg.agent_command = o.agent;
  auto argv = transport::StdioProcess::split_command(o.agent);
  if (!argv || argv->empty()) {
    std::cerr << "a2a-conform run: --agent: " << (argv ? "empty command" : argv.error().message) << "\n";
    return false;
  }
  cfg.agent_argv = *argv;
  return true;
}

// --url: discovery (the card, its interfaces), or the forced --binding values.
bool set_url_target(const Options& o, engine::RunConfig& cfg) {
  cfg.target_url = o.url;
  cfg.insecure_tls = o.insecure;
  for (const auto& h : o.headers) {
    auto colon = h.find(':');
    std::string name = h.substr(0, colon), value = colon == std::string::npos ? "" : h.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    cfg.http_headers.emplace_back(name, value);
  }
  cfg.forced_bindings = o.bindings;
  auto deadline = core::Deadline::after(core::Millis(static_cast<long long>(10000 * o.timeout_scale)));
  auto d = engine::discover(o.url, o.bindings, o.insecure, deadline);
  if (!d) {
    std::cerr << "a2a-conform run: --url " << o.url << ": " << d.error().message << "\n";
    return false;
  }
  for (const auto& n : d->notes) std::cout << "note: " << n << "\n";
  cfg.bindings = d->targets;
  cfg.agent_card = d->card;
  for (const auto& b : cfg.bindings)
    std::cout << "binding " << b.binding << ": " << b.url
              << (b.tenant.empty() ? "" : " (tenant " + b.tenant + ")") << "\n";
  return true;
}

// `client`: the client under test and the double it will spawn on stdio.
bool set_client_target(const Options& o, engine::RunConfig& cfg) {
  auto argv = transport::StdioProcess::split_command(o.client_cmd);
  if (!argv || argv->empty()) {
    std::cerr << "a2a-conform client: --cmd: " << (argv ? "empty command" : argv.error().message) << "\n";
    return false;
  }
  cfg.client_command = o.client_cmd;
  cfg.agent_double = o.agent_double.empty()
                         ? (fs::read_symlink("/proc/self/exe").parent_path() / "a2a-agent-double").string()
                         : o.agent_double;
  if (o.client_binding == "stdio" && !fs::exists(cfg.agent_double)) {
    std::cerr << "a2a-conform client: the agent double " << cfg.agent_double << " does not exist (--agent-double)\n";
    return false;
  }
  if (o.client_binding != "stdio") cfg.bindings = {engine::BindingTarget{o.client_binding, "", "", "1.0"}};
  return true;
}

int cmd_run(const Options& o, const std::string& command_line) {
  if (o.check_only) return cmd_check(o);
  bool client = !o.client_cmd.empty();
  if (!client && o.agent.empty() == o.url.empty()) {
    std::cerr << "a2a-conform run: give exactly one target: --agent \"CMD ARGS\" (an executable, stdio "
                 "binding) or --url URL (an HTTP agent: its card is read from URL/.well-known/agent-card.json)\n";
    return kExitUsage;
  }
  if (!client && !o.bindings.empty() && o.url.empty()) {
    std::cerr << "a2a-conform run: --binding only applies to --url targets\n";
    return kExitUsage;
  }
  engine::RunConfig cfg;
  cfg.command_line = command_line;
  if (!o.agent.empty() && !set_stdio_target(o, cfg)) return kExitUsage;
  if (client && !set_client_target(o, cfg)) return kExitUsage;
  auto ppath = scenario::find_profile(o.profile, {suites_root() / "profiles"});
  if (!ppath) {
    std::cerr << ppath.error().str() << "\n";
    return kExitUsage;
  }
  auto profile = scenario::load_profile(*ppath);
  if (!profile) {
    std::cerr << profile.error().message << "\n";
    return kExitUsage;
  }
  cfg.profile = *profile;
  cfg.suite_paths = o.paths;
  cfg.jobs = o.jobs;
  cfg.reuse = o.reuse;
  cfg.timeout_scale = o.timeout_scale;
  cfg.run_timeout_ms = o.run_timeout_ms;
  cfg.assume_behaviors = !o.no_behaviors;
  if (!o.known_failures.empty()) {
    auto kf = engine::load_known_failures(o.known_failures);
    if (!kf) {
      std::cerr << kf.error().str() << "\n";
      return kExitUsage;
    }
    cfg.known_failures = *kf;
  }
  auto docs = load_all(expand_paths(o.paths, client));
  if (!docs) {
    std::cerr << docs.error().message << "\n";
    return kExitUsage;
  }
  // --var: a document-level variable for every test, over the file's own
  // value (what a user passes is what the official files leave to the runner,
  // e.g. ACTS's {{insufficientAuthToken}}).
  for (const auto& v : o.vars) {
    auto eq = v.find('=');
    std::string name = v.substr(0, eq), value = v.substr(eq + 1);
    for (auto& d : *docs)
      for (auto& su : d.suites)
        for (auto& t : su.tests) {
          auto it = std::find_if(t.variables.begin(), t.variables.end(), [&](const auto& p) { return p.first == name; });
          if (it != t.variables.end()) it->second = value;
          else t.variables.emplace_back(name, value);
        }
  }
  auto tests = scenario::select_tests(*docs, selection_of(o));
  if (tests.empty()) {
    std::cerr << "a2a-conform run: no scenario matches the selection\n";
    return kExitUsage;
  }
  if (!o.url.empty() && !set_url_target(o, cfg)) return kExitUsage;
  bool needs_card = false;
  for (const auto* t : tests) needs_card = needs_card || t->preconditions.contains("capabilities");
  if (needs_card && o.url.empty() && !client) cfg.agent_card = engine::probe_agent_card(cfg);
  reports::ConsoleOptions co;
  co.progress = !o.quiet;
  co.color = o.color == "always" ? reports::ColorMode::kAlways
             : o.color == "never" ? reports::ColorMode::kNever : reports::ColorMode::kAuto;
  reports::ConsoleReporter console(std::cout, co);
  console.on_start(static_cast<int>(engine::planned_results(tests, cfg)));
  auto run = engine::run_all(tests, cfg, [&](const result::ScenarioResult& r, size_t done, size_t) {
    console.on_scenario_done(r, static_cast<int>(done));
  });
  if (auto w = write_reports(o, run); !w) {
    std::cerr << "a2a-conform: writing reports failed: " << w.error().message << "\n";
    console.finish(run);
    return kExitUsage;
  }
  console.finish(run);
  return run.exit_code();
}

}  // namespace

int main_with_args(int argc, char** argv) {
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  CLI::App app{
      "a2a-conform: certifies an A2A agent against conformance scenarios.\n\n"
      "  a2a-conform run --agent \"./my-agent --stdio\"          run every suite (stdio, profile p46)\n"
      "  a2a-conform run --agent ./a2a-ref-agent --id 'STDIO-FRAME-*' -j2 --report-dir out\n"
      "  a2a-conform run --url http://127.0.0.1:8080              an HTTP agent, every interface its card declares\n"
      "  a2a-conform check suites/                              validate scenario files only\n"
      "  a2a-conform list --level must                          list the selected scenarios\n\n"
      "Exit codes: 0 conformant, 1 conformance failures (FAIL, TIMEOUT, XPASS), 2 usage or harness error.\n"
      "Scenario format: docs/scenario-format.md. Reports: docs/reports.md."};
  app.require_subcommand(1);
  Options o;
  auto* run = app.add_subcommand("run", "Run scenarios against an agent executable (stdio) or an HTTP agent (--url)");
  run->add_option("--agent", o.agent, "Agent command line, e.g. \"./agent --stdio\" (spawned once per scenario)");
  run->add_option("--url", o.url, "HTTP agent base URL: its card (URL/.well-known/agent-card.json) names the interfaces to test");
  run->add_option("--binding", o.bindings, "With --url: test only this binding, jsonrpc or rest (repeatable; default: every interface the card declares that the runner supports; without a usable card --url itself is that interface)")
      ->check(CLI::IsMember({"jsonrpc", "rest"}))
      ->allow_extra_args(false);
  run->add_flag("--insecure", o.insecure, "With an https --url: do not verify TLS certificates");
  run->add_option("--var", o.vars, "NAME=VALUE: a variable {{NAME}} for every scenario, over the file's own (repeatable)")
      ->allow_extra_args(false)
      ->check([](const std::string& v) {
        auto eq = v.find('=');
        return eq == std::string::npos || eq == 0 ? std::string("expected NAME=VALUE") : std::string();
      });
  run->add_option("--header", o.headers,
                  "With --url: 'Name: value' sent with every abstract operation, e.g. credentials: "
                  "--header 'Authorization: Bearer TOKEN' (repeatable; raw steps send only their own headers)")
      ->allow_extra_args(false)
      ->check([](const std::string& h) {
        auto c = h.find(':');
        return c == std::string::npos || c == 0 ? std::string("expected 'Name: value'") : std::string();
      });
  run->add_option("--profile", o.profile, "Stdio wire profile: a name in suites/profiles or a YAML file")->capture_default_str();
  add_selection_flags(run, o);
  run->add_option("-j,--jobs", o.jobs, "Scenarios run in parallel")->check(CLI::Range(1, 64))->capture_default_str();
  run->add_option("--timeout-scale", o.timeout_scale, "Multiply every deadline (slow machines, sanitizers)")
      ->check(CLI::Range(0.1, 100.0))->capture_default_str();
  run->add_option("--run-timeout-ms", o.run_timeout_ms, "Bound for the whole run; scenarios not started by then are TIMEOUT");
  run->add_option("--known-failures", o.known_failures, "YAML list of expected failures (XFAIL; an entry that passes is XPASS and fails the run)");
  run->add_option("--report-dir", o.report_dir, "Write report.json, junit.xml, report.html and the ACTS report here");
  run->add_option("--json", o.json_path, "JSON report path");
  run->add_option("--junit", o.junit_path, "JUnit XML report path");
  run->add_option("--html", o.html_path, "Self-contained HTML report path");
  run->add_option("--acts-report-dir", o.acts_dir, "Directory for the ACTS-format report (ACTS §13)");
  run->add_flag("--check", o.check_only, "Only validate the selected scenario files (as `check` does); start no agent");
  run->add_flag("--reuse", o.reuse, "Keep one agent process per worker across scenarios that allow it (x-reuse: only abstract operations); a scenario that fails or leaves frames behind gets a fresh agent after it");
  run->add_flag("--no-behaviors", o.no_behaviors, "The agent does not implement the ACTS tck-* behaviour prefixes: skip tests that need them");
  run->add_flag("-q,--quiet", o.quiet, "No per-scenario progress lines");
  run->add_option("--color", o.color, "auto, always or never")->check(CLI::IsMember({"auto", "always", "never"}));
  auto* cl = app.add_subcommand("client",
      "Test an A2A client: the runner plays its agent (docs/client-conformance.md).\n"
      "CLIENT-CMD is started once per scenario; {target} becomes the agent to use (stdio: the agent double's\n"
      "command line, which the client spawns; HTTP: http://127.0.0.1:PORT of a scripted server), {binding}\n"
      "the binding. The runner writes operations on its stdin as a2a-ref-client script lines\n"
      "({\"op\":\"get\",\"params\":{...}}) and reads one JSON result line per operation on its stdout\n"
      "({\"op\":..,\"result\":..} / {\"op\":..,\"error\":{\"kind\":..}} / {\"op\":\"stream\",\"event\":..} /\n"
      "{\"op\":\"stream\",\"end\":true}), plus its exit code. Examples:\n"
      "  a2a-conform client --cmd \"build/bin/a2a-ref-client --agent {target} script -\"\n"
      "  a2a-conform client --binding jsonrpc --cmd \"build/bin/a2a-ref-client --url {target} --binding {binding} script -\"");
  cl->add_option("--cmd", o.client_cmd, "Client command line with {target} (and optionally {binding})")->required();
  cl->add_option("--binding", o.client_binding, "stdio, jsonrpc or rest")
      ->check(CLI::IsMember({"stdio", "jsonrpc", "rest"}))->capture_default_str();
  cl->add_option("--agent-double", o.agent_double, "Path of a2a-agent-double (default: beside a2a-conform)");
  cl->add_option("--profile", o.profile, "Stdio wire profile")->capture_default_str();
  add_selection_flags(cl, o);
  cl->add_option("-j,--jobs", o.jobs, "Scenarios run in parallel")->check(CLI::Range(1, 64));
  cl->add_option("--timeout-scale", o.timeout_scale, "Multiply every deadline")->check(CLI::Range(0.1, 100.0));
  cl->add_option("--known-failures", o.known_failures, "YAML list of expected failures");
  cl->add_option("--report-dir", o.report_dir, "Write every report here");
  cl->add_option("--json", o.json_path, "JSON report path");
  cl->add_option("--junit", o.junit_path, "JUnit XML report path");
  cl->add_option("--html", o.html_path, "HTML report path");
  cl->add_flag("-q,--quiet", o.quiet, "No per-scenario progress lines");
  cl->add_option("--color", o.color, "auto, always or never")->check(CLI::IsMember({"auto", "always", "never"}));
  auto* check = app.add_subcommand("check", "Validate scenario files (file:line:column errors) without running anything");
  check->add_option("paths", o.paths, "Scenario files; default: every suites/**/*.acts.yaml");
  auto* list = app.add_subcommand("list", "List the scenarios a selection picks");
  add_selection_flags(list, o);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : kExitUsage;
  }
  if (*check) return cmd_check(o);
  if (*list) return cmd_list(o);
  return cmd_run(o, command_line);
}

}  // namespace a2a::cli
