#include "runner/cli/cli.hpp"

#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "runner/cli/bundle.hpp"
#include "runner/cli/load_command.hpp"
#include "runner/cli/options.hpp"
#include "runner/core/escape.hpp"
#include "runner/engine/binding_registry.hpp"

namespace a2a::cli {

namespace {

// --binding's choices: every registered binding reached over a network or
// in process (not stdio, which --agent selects; not the "@0.3" adapters,
// which --a2a-version selects).
std::vector<std::string> network_binding_keys() {
  std::vector<std::string> out;
  for (const auto& k : engine::registered_bindings())
    if (k != "stdio" && k.find('@') == std::string::npos) out.push_back(k);
  return out;
}

void add_selection_flags(CLI::App* app, Options& o,
                         const char* paths_help = "Scenario files (ACTS YAML); default: every suites/**/*.acts.yaml") {
  app->add_option("paths", o.paths, paths_help);
  // One value per flag occurrence, so `--id X path` leaves `path` positional.
  app->add_option("--id", o.ids, "Only tests whose id matches this glob (repeatable; !GLOB excludes)")
      ->allow_extra_args(false);
  app->add_option("--tag", o.tags, "Only tests with this tag (repeatable)")->allow_extra_args(false);
  app->add_option("--level", o.levels, "Only tests of this level: must, should, may (repeatable)")
      ->check(CLI::IsMember({"must", "should", "may"}))
      ->allow_extra_args(false);
  app->add_option("--section", o.sections, "Only tests whose spec_ref contains this text (repeatable)")
      ->allow_extra_args(false);
  app->add_option("--shard", o.shard,
                  "K/N: only the K-th of N stable, disjoint parts of the selection (1-based; a scenario's part "
                  "depends on its id alone). Without it, Bazel's TEST_TOTAL_SHARDS/TEST_SHARD_INDEX or "
                  "GoogleTest's GTEST_TOTAL_SHARDS/GTEST_SHARD_INDEX (0-based) apply. `a2a-conform merge` "
                  "joins the shards' report.json files (docs/sharding.md)")
      ->allow_extra_args(false);
}

void add_var_flag(CLI::App* app, Options& o) {
  app->add_option("--var", o.vars, "NAME=VALUE: a variable {{NAME}} for every scenario, over the file's own (repeatable)")
      ->allow_extra_args(false)
      ->check([](const std::string& v) {
        auto eq = v.find('=');
        return eq == std::string::npos || eq == 0 ? std::string("expected NAME=VALUE") : std::string();
      });
}

// The loader's two limits that a huge but honest suite may need raised
// (the others bound nesting, aliases and one string: docs/scenario-format.md "Limits").
void add_limit_flags(CLI::App* app, Options& o) {
  app->add_option("--max-scenario-bytes", o.limits.max_bytes,
                  "Largest scenario file, and most string text once aliases are expanded, in bytes "
                  "(docs/scenario-format.md \"Limits\")")
      ->check(CLI::Range(uint64_t{1}, scenario::LoadLimits::kCeiling))
      ->capture_default_str();
  app->add_option("--max-scenario-nodes", o.limits.max_nodes,
                  "Most YAML nodes in one scenario file, aliases counted as the nodes they stand for")
      ->check(CLI::Range(uint64_t{1}, scenario::LoadLimits::kCeiling))
      ->capture_default_str();
}

// `run`: an agent executable (stdio) or an HTTP agent (--url).
CLI::App* add_run_command(CLI::App& app, Options& o) {
  auto* run = app.add_subcommand("run", "Run scenarios against an agent executable (stdio), an HTTP, gRPC or WebSocket agent (--url), "
                                 "or the reference agent in process (--binding loopback)");
  run->add_option("--agent", o.agents, "Agent command line, e.g. \"./agent --stdio\" (spawned once per scenario). "
                  "Repeatable, and may be mixed with --url: each target is run in turn with the same selection "
                  "(exit code: the worst over targets; --report-dir: a combined report.html, report.json and "
                  "junit.xml, each target's own reports in targets/N-NAME/)")
      ->allow_extra_args(false);
  run->add_option("--url", o.urls, "HTTP agent base URL: its card (URL/.well-known/agent-card.json) names the interfaces "
                  "to test (repeatable, like --agent)")
      ->allow_extra_args(false);
  run->add_option("--binding", o.bindings, "With --url: test only this binding: jsonrpc, rest, grpc or websocket (repeatable; default: every interface the card declares that the runner supports; without a usable card --url itself is that interface: for grpc, HOST:PORT or http://HOST:PORT). "
                  "Alone (no --url, no --agent): loopback, the reference agent's core linked into the runner, "
                  "for the abstract-operation suites without processes or sockets (docs/bindings.md)")
      ->check(CLI::IsMember(network_binding_keys()))
      ->allow_extra_args(false);
  run->add_option("--loopback-fault", o.loopback_faults,
                  "With --binding loopback: inject this a2a-ref-agent fault into the in-process agent (repeatable; "
                  "only faults of the agent's core: sem-* but sem-push-delete-noop, timestamp-as-number, bad-task-state-enum, "
                  "card-missing-interfaces, card-no-capabilities, err-not-found-code, err-no-error-data; a fault "
                  "of a wire is refused, exit 2)")
      ->allow_extra_args(false);
  run->add_option("--a2a-version", o.a2a_version, "With --url: the A2A version to test the interfaces as, 0.3 or 1.0 (default: each interface's protocolVersion in the card; a 0.3 interface runs under the 0.3 profile and reports as jsonrpc@0.3 / rest@0.3). Interfaces of the other version are left out, and a binding the card offers only in the other version (or without a card, --url itself) is tested as this one")
      ->check(CLI::IsMember({"0.3", "1.0"}))
      ->allow_extra_args(false);
  run->add_flag("--insecure", o.insecure, "With an https or wss --url (or card interface): do not verify TLS certificates");
  add_var_flag(run, o);
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
  add_limit_flags(run, o);
  run->add_option("-j,--jobs", o.jobs, "Scenarios run in parallel")->check(CLI::Range(1, 64))->capture_default_str();
  run->add_option("--timeout-scale", o.timeout_scale, "Multiply every deadline (slow machines, sanitizers)")
      ->check(CLI::Range(0.1, 100.0))->capture_default_str();
  run->add_option("--run-timeout-ms", o.run_timeout_ms, "Bound for the whole run; scenarios not started by then are TIMEOUT");
  run->add_option("--known-failures", o.known_failures, "YAML list of expected failures (XFAIL; an entry that passes is XPASS and fails the run)");
  run->add_option("--report-dir", o.report_dir, "Write report.json, junit.xml, report.html and the ACTS report here "
                  "(several targets: the combined report.json, junit.xml and report.html, and per target "
                  "targets/N-NAME/{report.json,junit.xml,acts-report-*.json})");
  run->add_option("--json", o.json_path, "JSON report path (several targets: the combined index)");
  run->add_option("--junit", o.junit_path, "JUnit XML report path (several targets: one testsuite per target)");
  run->add_option("--html", o.html_path, "Self-contained HTML report path (several targets: one page, a section per target)");
  run->add_option("--badge", o.badge_path, "README badge: an SVG with the verdict and the MUST pass count "
                  "(several targets: conformant only when every target is)");
  run->add_option("--markdown", o.markdown_path, "Markdown summary for $GITHUB_STEP_SUMMARY, a pull-request comment or "
                  "a README: the verdict, counts by level and the requirement x binding support matrix, failing rows "
                  "first (several targets: one section per target)");
  run->add_option("--bundle", o.bundle_dir, "Write a certification bundle into this directory (new or empty): every "
                  "report, the wire transcripts and recorded calls of each scenario, the agent card, the suite files, "
                  "profile and behaviours used, manifest.json (tool version and commit, command line, environment, "
                  "times, hashes) and SHA256SUMS. `a2a-conform verify DIR` checks it (docs/bundle.md)");
  run->add_flag("--bundle-overwrite", o.bundle_overwrite, "With --bundle: replace an earlier bundle in DIR (a "
                "non-empty directory that holds no bundle is always refused)");
  run->add_option("--acts-report-dir", o.acts_dir, "Directory for the ACTS-format report (ACTS §13; several targets: "
                  "in targets/N-NAME/ under it)");
  run->add_flag("--allow-unquoted", o.allow_unquoted, "With --check: accept must/should tests without x-requirement");
  run->add_flag("--check", o.check_only, "Only validate the selected scenario files (as `check` does); start no agent");
  run->add_flag("--reuse", o.reuse, "Keep one agent process per worker across scenarios that allow it (x-reuse: only abstract operations); a scenario that fails or leaves frames behind gets a fresh agent after it");
  auto* nb = run->add_flag("--no-behaviors", o.no_behaviors,
                           "The agent implements no tck-* behaviour prefix (ACTS §11): skip tests that need one");
  run->add_option("--behaviors", o.behaviors_file,
                  "The target's behaviours file (ACTS §11 / a2a-itk sut-behaviors.yaml: prefix, response_type,\n"
                  "terminal_state, delay_ms, streaming). Tests that need an undeclared behaviour SKIP; waits follow\n"
                  "the declared delay_ms. Default (or 'acts'): the 14 ACTS §11.2 prefixes, tck-long-running at\n"
                  "5000 ms. Our agent's: share/a2a-conform/ref-agent-behaviors.yaml.\n"
                  "docs/behaviors.md")
      ->envname("A2A_BEHAVIORS")
      ->excludes(nb);
  run->add_flag("-q,--quiet", o.quiet, "No per-scenario progress lines");
  run->add_option("--color", o.color, "auto, always or never")->check(CLI::IsMember({"auto", "always", "never"}));
  return run;
}

// `client`: the runner plays the agent of a client under test.
CLI::App* add_client_command(CLI::App& app, Options& o) {
  auto* cl = app.add_subcommand("client",
      "Test an A2A client: the runner plays its agent (docs/client-conformance.md).\n"
      "CLIENT-CMD is split like a shell and started once per scenario; {target} becomes the agent to use\n"
      "(stdio: the agent double's command line, one argument, which the client spawns as its agent;\n"
      "HTTP: http://127.0.0.1:PORT of a scripted server whose card names itself), {binding} the binding.\n"
      "The runner writes one operation per line on its stdin, a2a-ref-client's script format\n"
      "({\"op\":\"get\",\"params\":{...}}; {\"op\":\"parallel\",\"ops\":[..]} has several unary calls in flight\n"
      "at once, one result line each in list order), and reads one JSON line per result on its stdout:\n"
      "{\"op\":..,\"result\":..}, {\"op\":..,\"error\":{\"kind\":agent|timeout|transport|..,\"code\":..}},\n"
      "{\"op\":\"stream\",\"event\":..}, {\"op\":\"stream\",\"streamError\":..}, {\"op\":\"stream\",\"end\":true};\n"
      "then its exit code (0 ok, 1 an operation failed, 2 the session broke). Operations must time out\n"
      "within 5 s (a2a-ref-client --timeout-ms 5000). Default scenarios: suites/client. Examples:\n"
      "  a2a-conform client --cmd \"build/bin/a2a-ref-client --timeout-ms 5000 --agent {target} script -\"\n"
      "  a2a-conform client --profile stdio-json \\\n"
      "      --cmd \"build/bin/a2a-ref-client --profile stdio-json --timeout-ms 5000 --agent {target} script -\"\n"
      "  a2a-conform client --binding jsonrpc --cmd \"build/bin/a2a-ref-client --timeout-ms 5000 --url {target} --binding {binding} script -\"\n"
      "  a2a-conform client --binding jsonrpc --cmd \"node tests/interop/js/conform-client.mjs --url {target} --binding {binding} --timeout-ms 5000\"");
  cl->add_option("--cmd", o.client_cmds, "Client command line with {target} (and optionally {binding}). Repeatable: "
                 "each client is tested in turn with the same selection (exit code: the worst; --report-dir: "
                 "combined reports and targets/N-NAME/ per client)")
      ->required()
      ->allow_extra_args(false);
  cl->add_option("--binding", o.client_binding, "stdio, jsonrpc, rest, grpc (builds with the gRPC binding) or websocket")
      ->check(CLI::IsMember({"stdio", "jsonrpc", "rest", "grpc", "websocket"}))->capture_default_str();
  cl->add_option("--agent-double", o.agent_double, "Path of a2a-agent-double (default: beside a2a-conform)");
  cl->add_option("--profile", o.profile,
                 "Stdio wire profile the agent double speaks: p46 or stdio-json (a name in suites/profiles or a YAML file)")
      ->capture_default_str();
  add_selection_flags(cl, o, "Scenario files or folders; default: suites/client");
  add_limit_flags(cl, o);
  cl->add_option("-j,--jobs", o.jobs, "Scenarios run in parallel")->check(CLI::Range(1, 64));
  cl->add_option("--timeout-scale", o.timeout_scale, "Multiply every deadline")->check(CLI::Range(0.1, 100.0));
  cl->add_option("--known-failures", o.known_failures, "YAML list of expected failures (XFAIL / XPASS)");
  cl->add_option("--report-dir", o.report_dir, "Write every report here (several --cmd: combined, as for run)");
  cl->add_option("--json", o.json_path, "JSON report path (several --cmd: the combined index)");
  cl->add_option("--junit", o.junit_path, "JUnit XML report path (several --cmd: one testsuite per client)");
  cl->add_option("--html", o.html_path, "HTML report path (several --cmd: one page, a section per client)");
  cl->add_option("--badge", o.badge_path, "README badge: an SVG with the verdict and the MUST pass count");
  cl->add_option("--markdown", o.markdown_path, "Markdown summary (verdict, counts by level, support matrix with "
                 "failing rows first) for $GITHUB_STEP_SUMMARY or a pull-request comment");
  cl->add_flag("-q,--quiet", o.quiet, "No per-scenario progress lines");
  cl->add_option("--color", o.color, "auto, always or never")->check(CLI::IsMember({"auto", "always", "never"}));
  return cl;
}

// Every --agent, --url and --cmd in command-line order (CLI11 keeps one
// vector per flag; its parse order interleaves them).
void collect_targets(CLI::App* sub, Options& o) {
  size_t agent = 0, url = 0, cmd = 0;
  for (const CLI::Option* opt : sub->parse_order()) {
    if (opt->check_lname("agent") && agent < o.agents.size()) o.targets.push_back({"agent", o.agents[agent++]});
    else if (opt->check_lname("url") && url < o.urls.size()) o.targets.push_back({"url", o.urls[url++]});
    else if (opt->check_lname("cmd") && cmd < o.client_cmds.size()) o.targets.push_back({"client", o.client_cmds[cmd++]});
  }
  // Whatever parse order did not show (it should show all), in flag order.
  while (agent < o.agents.size()) o.targets.push_back({"agent", o.agents[agent++]});
  while (url < o.urls.size()) o.targets.push_back({"url", o.urls[url++]});
  while (cmd < o.client_cmds.size()) o.targets.push_back({"client", o.client_cmds[cmd++]});
}

}  // namespace

int main_with_args(int argc, char** argv) {
  engine::register_bindings();
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  CLI::App app{
      "a2a-conform: certifies an A2A agent (or client) against conformance scenarios.\n\n"
      "  a2a-conform run --agent \"./my-agent --stdio\"          run every suite (stdio, profile p46)\n"
      "  a2a-conform run --agent ./a2a-ref-agent --id 'STDIO-FRAME-*' -j2 --report-dir out\n"
      "  a2a-conform run --url http://127.0.0.1:8080              an agent, every interface its card declares (JSON-RPC, REST, gRPC)\n"
      "  a2a-conform run --url 127.0.0.1:50051 --binding grpc     a gRPC interface without a card\n"
      "  a2a-conform run --binding loopback suites/a2a            the reference agent in process (no process, no socket)\n"
      "  a2a-conform run --binding loopback --loopback-fault sem-cancel-noop suites/a2a   and one of its faults\n"
      "  a2a-conform run --agent ./a --agent \"./b --x\" --url U     several targets in turn, one combined report\n"
      "  a2a-conform client --cmd \"./my-client --agent {target}\"  test a client: the runner plays its agent\n"
      "  a2a-conform check suites/                              validate scenario files only\n"
      "  a2a-conform run --agent ./a --behaviors sut-behaviors.yaml   the tck-* behaviours it implements\n"
      "  a2a-conform requirements --markdown audit.md           each test's level, quoted rule and checks\n"
      "  a2a-conform list --level must                          list the selected scenarios\n"
      "  a2a-conform run --agent ./a --shard 2/3 --json s2.json   one of 3 shards (a CI matrix job)\n"
      "  a2a-conform merge s1.json s2.json s3.json --report-dir out   the shards as one run's reports\n"
      "  a2a-conform diff last-release.json report.json --markdown diff.md   what regressed since a run\n"
      "  a2a-conform run --agent ./a --bundle cert/ && a2a-conform verify --regrade cert/   a certification bundle\n"
      "  a2a-conform load --url http://127.0.0.1:8080 --duration 10s   does it stay conformant under load? (docs/load.md)\n\n"
      "Exit codes: 0 conformant, 1 conformance failures (FAIL, TIMEOUT, XPASS) or a target that could not be\n"
      "tested (its command cannot start, or it failed to start, handshake or connect: the DIAGNOSIS line),\n"
      "2 usage or harness error,\n"
      "128+N stopped by signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP): the reports hold the results so far,\n"
      "marked interrupted; a second signal exits at once (docs/runner.md \"Interrupted runs\").\n"
      "Scenario format: docs/scenario-format.md. Reports: docs/reports.md."};
  app.require_subcommand(1);
  Options o;
  auto* run = add_run_command(app, o);
  auto* client = add_client_command(app, o);
  auto* check = app.add_subcommand("check", "Validate scenario files without running anything: what `run` would refuse (syntax, keys,\n"
                                     "types, limits, assertions, duplicate ids, a folder with no scenario file) and the undefined\n"
                                     "{{variables}} a run would only report as a scenario's ERROR (pass the run's --var), with\n"
                                     "file:line:column; exit 2 when there is one");
  check->add_option("paths", o.paths, "Scenario files or folders; default: every suites/**/*.acts.yaml. "
                    "A folder with no *.acts.yaml file is an error");
  add_var_flag(check, o);
  add_limit_flags(check, o);
  check->add_flag("--allow-unquoted", o.allow_unquoted,
                  "Accept must/should tests without x-requirement (the normative sentence a test enforces;\n"
                  "our suites must have one, ACTS documents from elsewhere have none). docs/requirements.md");
  auto* reqs = app.add_subcommand(
      "requirements",
      "The requirement registry as Markdown: per test its level, the normative sentence it enforces\n"
      "(x-requirement) and what each step checks. docs/requirements-audit.md is this for suites/.");
  reqs->add_option("paths", o.paths, "Scenario files or folders; default: every suites/**/*.acts.yaml");
  reqs->add_option("--markdown", o.markdown_path, "Write the table to this file (default: stdout)");
  add_limit_flags(reqs, o);
  auto* list = app.add_subcommand("list", "List the scenarios a selection picks");
  add_selection_flags(list, o);
  add_limit_flags(list, o);
  std::vector<std::string> merge_files;
  auto* merge = app.add_subcommand(
      "merge",
      "Join the report.json files of the shards of one run (run --shard K/N, or Bazel's / GoogleTest's shard\n"
      "variables) into the reports one unsharded run writes: same outcomes, verdict and exit code. Also takes\n"
      "the reports of several targets (a combined report, a section per target). A scenario in two reports,\n"
      "a missing shard or scenario, or shards of different selections are errors (exit 2). Example:\n"
      "  a2a-conform run --agent ./agent --shard 1/3 --json s1.json   (and 2/3, 3/3 on other machines)\n"
      "  a2a-conform merge s1.json s2.json s3.json --report-dir out");
  merge->add_option("reports", merge_files, "report.json files of the shards (or a combined report.json index)")
      ->required();
  merge->add_option("--report-dir", o.report_dir, "Write report.json, junit.xml, report.html and the ACTS report here");
  merge->add_option("--json", o.json_path, "JSON report path");
  merge->add_option("--junit", o.junit_path, "JUnit XML report path");
  merge->add_option("--html", o.html_path, "Self-contained HTML report path");
  merge->add_option("--acts-report-dir", o.acts_dir, "Directory for the ACTS-format report");
  merge->add_option("--badge", o.badge_path, "README badge: an SVG with the merged verdict and MUST pass count");
  merge->add_option("--markdown", o.markdown_path, "Markdown summary of the merged run (verdict, counts by level, "
                    "support matrix with failing rows first) for $GITHUB_STEP_SUMMARY");
  merge->add_flag("-q,--quiet", o.quiet, "Only the recap and the verdict");
  merge->add_option("--color", o.color, "auto, always or never")->check(CLI::IsMember({"auto", "always", "never"}));
  std::string diff_old, diff_new;
  auto* diff = app.add_subcommand(
      "diff",
      "Compare two runs' report.json files (--json of run, client or merge; a combined report of several\n"
      "targets pairs target N with target N). Lists per (scenario, binding) the regressions, fixes, new and\n"
      "removed scenarios, other outcome changes and changed reasons, and the counts by level of both.\n"
      "A regression is a scenario in both runs that now FAILs, TIMEOUTs, ERRORs or XFAILs and did not before;\n"
      "PASS -> NON_STRICT (a SHOULD no longer met), new and removed scenarios are listed but never regress.\n"
      "Exit codes: 0 nothing regressed, 1 something regressed, 2 a file unreadable or not a report.\n"
      "Gate a release of your agent on the last release's report in CI:\n"
      "  a2a-conform run --agent ./my-agent --json report.json || true   # the run's own verdict aside\n"
      "  a2a-conform diff last-release/report.json report.json --markdown diff.md || status=$?\n"
      "  cat diff.md >> \"$GITHUB_STEP_SUMMARY\"; exit ${status:-0}   # fails the job only if something regressed\n"
      "Check a suite upgrade: run the new suites against the same agent, then diff the old report and the new.\n"
      "Rules: docs/reports.md, \"Diff\".");
  diff->add_option("old", diff_old, "OLD: the report.json to compare against (e.g. the last release's)")->required();
  diff->add_option("new", diff_new, "NEW: the report.json of the run under review")->required();
  diff->add_option("--markdown", o.markdown_path, "Also write the diff as GitHub-flavoured Markdown (a PR comment, a job summary)");
  diff->add_option("--json", o.json_path, "Also write the diff as JSON (schema a2a-conform-diff)");
  std::string verify_dir;
  bool regrade = false;
  auto* verify = app.add_subcommand(
      "verify",
      "Check a certification bundle (run --bundle DIR; docs/bundle.md): every file's SHA-256 against its\n"
      "SHA256SUMS, and no file missing or added. Each changed, missing or extra file is named.\n"
      "--regrade then re-derives every verdict from the recorded calls with the recorded suite, through the\n"
      "replay binding, and lists each verdict that is not reproduced.\n"
      "Exit codes: 0 intact (and, with --regrade, every verdict reproduced), 1 a file changed, missing or\n"
      "added (or a verdict not reproduced), 2 not a bundle or a usage error.\n"
      "  a2a-conform run --agent ./my-agent --bundle cert/ && a2a-conform verify --regrade cert/");
  verify->add_option("dir", verify_dir, "The bundle's directory")->required();
  verify->add_flag("--regrade", regrade, "Also re-derive every verdict from the recorded transcripts (replay binding)");
  LoadCli load_cli;
  auto* load = add_load_command(app, load_cli);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // A parse error echoes what was given (a bad value, an unknown option):
    // it goes through the terminal escaper. --help is our own text, as is.
    std::ostringstream out, err;
    int code = app.exit(e, out, err);
    std::cout << out.str();
    std::cerr << core::terminal_text(err.str());
    return code == 0 ? 0 : kExitUsage;
  }
  if (*check) return cmd_check(o);
  if (*reqs) return cmd_requirements(o);
  if (*list) return cmd_list(o);
  if (*merge) return cmd_merge(o, merge_files, command_line);
  if (*diff) return cmd_diff(o, diff_old, diff_new);
  if (*verify) return cmd_verify(verify_dir, regrade);
  if (*load) return cmd_load(load_cli, command_line);
  o.client_run = client->parsed();
  collect_targets(client->parsed() ? client : run, o);
  return cmd_run(o, command_line);
}

}  // namespace a2a::cli
