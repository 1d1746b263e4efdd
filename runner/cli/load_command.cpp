// `a2a-conform load`: flags -> target (an agent command on stdio, a --url
// interface from its card, or the in-process loopback agent) -> the load
// driver (runner/load/) -> console, JSON and HTML reports -> exit code.
#include "runner/cli/load_command.hpp"

#include <cmath>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>

#include "reports/json_report.hpp"
#include "reports/load_report.hpp"
#include "runner/cli/options.hpp"
#include "runner/core/ascii.hpp"
#include "runner/core/escape.hpp"
#include "runner/core/interrupt.hpp"
#include "runner/engine/binding_registry.hpp"
#include "runner/engine/discovery.hpp"
#include "runner/load/load_driver.hpp"
#include "runner/scenario/profile.hpp"
#include "runner/transport/startable.hpp"
#include "runner/transport/stdio_process.hpp"

namespace a2a::cli {

namespace {

constexpr const char* kLoadHelp =
    "Drive an agent with load and check every answer for conformance (docs/load.md).\n"
    "Does the agent stay conformant under load? Each answer is judged as the suites judge it: the\n"
    "binding's rules (ids echoed, content types, envelopes, framing), the A2A payload's shape\n"
    "(a2a.proto), a stream's order (the Task first, legal state order, COMPLETED last, then it ends),\n"
    "GetTask returning the task asked for. Operations (the ACTS tck-* contract, ACTS §11.2):\n"
    "  send    SendMessage \"tck-complete-task\" (blocking): a Message, or the task COMPLETED\n"
    "  stream  SendStreamingMessage \"tck-stream-basic\"\n"
    "  get     GetTask of the task this connection created last (a send comes first when there is none)\n"
    "Modes: closed loop (--connections N, default 4: each sends its next request when the last\n"
    "answer is whole) or open loop (--rate R requests/s from a pool of --connections workers, default\n"
    "16; latency counts from when each request was due, so a stalled agent is not hidden).\n"
    "Reports: throughput, latency p50/p90/p99/max per operation, shed answers (the agent declined for\n"
    "now, legally: HTTP 503 or 429 with a well-formed error body, JSON-RPC -32000, gRPC RESOURCE_EXHAUSTED\n"
    "or UNAVAILABLE, WebSocket close 1013; counted apart, with samples, not a verdict), transport errors\n"
    "(no answer: refused, reset, timeout; counted apart), every non-conformant answer with its wire\n"
    "transcript and the sentence it breaks (on stdio an answer with another id at once), and the\n"
    "runner's own CPU per request (when it nears the machine's cores, the load generator is the\n"
    "limit). Progress on stderr every second. Only loopback targets unless --allow-remote: load only\n"
    "agents you run.\n"
    "  a2a-conform load --agent \"build/bin/a2a-ref-agent\" --duration 5s --ops send=3,stream=1,get=1\n"
    "  a2a-conform load --url http://127.0.0.1:8080 --binding rest --connections 16 --duration 30s\n"
    "  a2a-conform load --url http://127.0.0.1:8080 --rate 200 --duration 1m --warmup 5s --html load.html\n"
    "  a2a-conform load --binding loopback --requests 1000          the reference agent in process\n"
    "Exit codes: 0 every answer conformant, 1 a non-conformant answer, 2 usage error or a target that\n"
    "gave no answer at all (or shed every request: nothing was tested), 128+N stopped by signal N (calls\n"
    "in flight end at once on every binding; the reports are still written).";

std::string load_usage(const std::string& why) {
  std::cerr << "a2a-conform load: " << core::terminal_text(why) << "\n";
  return why;
}

// The options of the driver from the flags; "" or why not (printed).
std::string load_options_from(const LoadCli& lc, load::LoadOptions& o) {
  auto ops = load::parse_load_ops(lc.ops);
  if (!ops) return load_usage("--ops " + ops.error().message);
  o.weights = *ops;
  auto d = load::parse_load_duration(lc.duration, load::kLoadMaxDurationMs);
  if (!d) return load_usage("--duration " + d.error().message);
  if (d->count() <= 0) return load_usage("--duration must be above 0");
  o.duration = *d;
  auto w = load::parse_load_duration(lc.warmup, load::kLoadMaxDurationMs);
  if (!w) return load_usage("--warmup " + w.error().message);
  o.warmup = *w;
  auto t = load::parse_load_duration(lc.timeout, load::kLoadMaxTimeoutMs);
  if (!t) return load_usage("--timeout " + t.error().message);
  if (t->count() <= 0) return load_usage("--timeout must be above 0");
  o.request_timeout = *t;
  o.rate = lc.rate;
  o.connections = lc.connections > 0 ? lc.connections : lc.rate > 0 ? 16 : 4;
  o.max_requests = lc.requests;
  o.max_findings = lc.max_findings;
  o.quiet = lc.quiet;
  return "";
}

std::string load_host_of(std::string url) {
  if (auto s = url.find("://"); s != std::string::npos) url = url.substr(s + 3);
  url = url.substr(0, url.find_first_of("/?#"));
  if (auto at = url.rfind('@'); at != std::string::npos) url = url.substr(at + 1);
  if (!url.empty() && url.front() == '[') return url.substr(1, url.find(']') - 1);
  return url.substr(0, url.find(':'));
}

// The interface to drive: --binding's, else the card's first one the runner supports.
std::string load_url_target(const LoadCli& lc, core::Millis timeout, engine::RunConfig& cfg,
                            engine::BindingTarget& target, std::vector<std::string>& notes) {
  // Checked before any connection (the card fetch included), then again for
  // the interface the card names.
  if (!lc.allow_remote && !load_is_loopback_url(lc.url))
    return load_usage("--url " + lc.url + " is not on this machine (localhost, 127.0.0.0/8, ::1); load only agents "
                      "you run, or give --allow-remote");
  cfg.target_url = lc.url;
  cfg.insecure_tls = lc.insecure;
  for (const auto& h : lc.headers) {
    auto colon = h.find(':');
    std::string value = colon == std::string::npos ? "" : h.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    cfg.http_headers.emplace_back(h.substr(0, colon), value);
  }
  std::vector<std::string> forced;
  if (!lc.binding.empty()) forced.push_back(lc.binding);
  // The card is one more request: bounded by --timeout like the others.
  auto d = engine::discover(lc.url, forced, lc.insecure, core::Deadline::after(timeout), lc.a2a_version);
  if (!d) return load_usage("--url " + lc.url + ": " + d.error().message);
  if (d->targets.empty()) return load_usage("--url " + lc.url + ": the card names no interface this runner can drive");
  target = d->targets.front();
  // What discovery noticed (e.g. a forced binding the card does not offer,
  // driven at --url itself) goes into the report: it explains errors.
  notes.insert(notes.end(), d->notes.begin(), d->notes.end());
  cfg.agent_card = d->card;
  cfg.bindings = {target};
  if (!lc.allow_remote && !load_is_loopback_url(target.url))
    return load_usage("the interface " + target.url + " is not on this machine (localhost, 127.0.0.0/8, ::1); "
                      "load only agents you run, or give --allow-remote");
  if (!lc.quiet && lc.binding.empty() && d->targets.size() > 1)
    std::cerr << "a2a-conform load: driving " << target.key() << " (the card's first interface; --binding picks another)\n";
  return "";
}

std::string load_stdio_target(const LoadCli& lc, engine::RunConfig& cfg) {
  auto argv = transport::StdioProcess::split_command(lc.agent);
  if (!argv || argv->empty()) return load_usage("--agent: " + (argv ? std::string("empty command") : argv.error().message));
  if (auto why = transport::start_problem(*argv); !why.empty()) return load_usage("--agent: " + why);
  cfg.agent_command = lc.agent;
  cfg.agent_argv = *argv;
  auto path = scenario::find_profile(lc.profile, {suites_root() / "profiles"});
  if (!path) return load_usage(path.error().str());
  auto profile = scenario::load_profile(*path);
  if (!profile) return load_usage(profile.error().message);
  if (profile->describes_url_binding()) return load_usage("--profile " + lc.profile + " is not a stdio wire profile (p46, stdio-json)");
  cfg.profile = *profile;
  return "";
}

int load_usage_exit(const std::string& why) {
  load_usage(why);
  return kExitUsage;
}

// --binding's choices: the registered bindings but stdio (--agent) and the
// 0.3 adapters (--a2a-version).
std::vector<std::string> load_binding_keys() {
  std::vector<std::string> out;
  for (const auto& k : engine::registered_bindings())
    if (k != "stdio" && k.find('@') == std::string::npos) out.push_back(k);
  return out;
}

void load_progress_line(const load::LoadProgress& p) {
  std::fprintf(stderr, "[%6.1fs]%s %llu requests, %.1f req/s, %llu non-conformant, %llu shed, %llu transport errors\n",
               p.elapsed_s, p.warming_up ? " (warmup)" : "", static_cast<unsigned long long>(p.requests), p.recent_rps,
               static_cast<unsigned long long>(p.nonconformant), static_cast<unsigned long long>(p.shed),
               static_cast<unsigned long long>(p.transport_errors));
}

// The JSON and HTML reports, the console summary: the run's exit code, or
// 2 when a report could not be written.
int write_load_outputs(const LoadCli& lc, const result::LoadRun& run) {
  int code = run.exit_code();
  if (!lc.json_path.empty()) {
    if (auto w = reports::write_text_file(lc.json_path, reports::load_to_json(run).dump(2) + "\n"); !w) {
      std::cerr << "a2a-conform load: --json: " << core::terminal_text(w.error().message) << "\n";
      code = kExitUsage;
    }
  }
  if (!lc.html_path.empty()) {
    if (auto w = reports::write_text_file(lc.html_path, reports::load_html(run)); !w) {
      std::cerr << "a2a-conform load: --html: " << core::terminal_text(w.error().message) << "\n";
      code = kExitUsage;
    }
  }
  reports::write_load_console(std::cout, run);
  if (run.exit_code() == 2 && run.shed_total > 0) {
    std::cerr << "a2a-conform load: every answer was shed (" << run.shed_total
              << "): nothing was tested; lower the load (--connections, --rate)\n";
  } else if (run.exit_code() == 2) {
    std::string first = run.transport_samples.empty() ? std::string("no request was made")
                                                       : run.transport_samples.front().problem;
    std::cerr << "a2a-conform load: no request got an answer (nothing was tested); the first problem: "
              << core::terminal_text(first) << "\n";
  }
  return code;
}

}  // namespace

bool load_is_loopback_url(const std::string& url) {
  std::string host = core::ascii_lower(load_host_of(url));
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

CLI::App* add_load_command(CLI::App& app, LoadCli& lc) {
  auto* ld = app.add_subcommand("load", kLoadHelp);
  ld->add_option("--agent", lc.agent, "Agent command line (stdio binding): one agent process per connection");
  ld->add_option("--url", lc.url, "HTTP agent base URL: its card names the interfaces (the first one is driven; --binding picks)");
  ld->add_option("--binding", lc.binding, "With --url: the interface to drive: jsonrpc, rest, grpc or websocket. Alone: "
                 "loopback (the reference agent in process)")
      ->check(CLI::IsMember(load_binding_keys()));
  ld->add_option("--a2a-version", lc.a2a_version, "With --url: drive the interface of this version, 0.3 or 1.0")
      ->check(CLI::IsMember({"0.3", "1.0"}));
  ld->add_option("--profile", lc.profile, "Stdio wire profile: p46 or stdio-json (a name in suites/profiles or a YAML file)")
      ->capture_default_str();
  ld->add_flag("--insecure", lc.insecure, "With an https or wss interface: do not verify TLS certificates");
  ld->add_option("--header", lc.headers, "With --url: 'Name: value' sent with every request (repeatable)")
      ->allow_extra_args(false);
  ld->add_flag("--allow-remote", lc.allow_remote, "Also drive an interface that is not on this machine (your own agent only)");
  ld->add_option("--ops", lc.ops, "Operations and weights: send, stream, get, e.g. send=3,stream=1,get=1")->capture_default_str();
  ld->add_option("-c,--connections", lc.connections, "Closed loop: connections, each with one request in flight "
                 "(default 4). With --rate: the worker pool (default 16)")
      ->check(CLI::Range(1, load::kLoadMaxConnections));
  ld->add_option("--rate", lc.rate, "Open loop: requests per second, latency from when each was due (at most 20000)")
      ->check(CLI::Range(0.001, load::kLoadMaxRate));
  ld->add_option("-d,--duration", lc.duration, "How long to measure: 10s, 500ms, 2m (at most 1 hour)")->capture_default_str();
  ld->add_option("-n,--requests", lc.requests, "Stop after this many measured requests (at most 10000000)")
      ->check(CLI::Range(uint64_t{1}, load::kLoadMaxRequests));
  ld->add_option("--warmup", lc.warmup, "Load before measuring (checked, not in the statistics), e.g. 2s")->capture_default_str();
  ld->add_option("--timeout", lc.timeout, "Bound of one request (an unanswered one is a transport error), at most 5m")
      ->capture_default_str();
  ld->add_option("--max-findings", lc.max_findings, "Non-conformant answers recorded with their transcript (the rest "
                 "are counted), 0..1000")
      ->check(CLI::Range(0, load::kLoadMaxFindings))
      ->capture_default_str();
  ld->add_option("--json", lc.json_path, "Write the JSON report (schema a2a-conform-load) here");
  ld->add_option("--html", lc.html_path, "Write a self-contained HTML report with latency histograms here");
  ld->add_flag("-q,--quiet", lc.quiet, "No progress lines on stderr");
  return ld;
}

int cmd_load(const LoadCli& lc, const std::string& command_line) {
  const auto* in_process = lc.binding.empty() ? nullptr : engine::find_binding(lc.binding);
  if (in_process && !in_process->start_agent) in_process = nullptr;
  int targets = (!lc.agent.empty()) + (!lc.url.empty()) + (in_process && lc.url.empty() && lc.agent.empty());
  if (targets != 1)
    return load_usage_exit("give one target: --agent \"CMD ARGS\" (stdio), --url URL (an HTTP agent: its card names the "
                      "interfaces), or --binding loopback alone");
  if (!lc.agent.empty() && !lc.binding.empty()) return load_usage_exit("--binding applies to --url (or loopback alone), not --agent");
  if (!lc.url.empty() && in_process) return load_usage_exit("--binding " + lc.binding + " runs the agent in process: give no --url");
  if (!lc.a2a_version.empty() && lc.url.empty()) return load_usage_exit("--a2a-version applies to --url");
  load::LoadOptions o;
  if (!load_options_from(lc, o).empty()) return kExitUsage;
  engine::RunConfig cfg;
  cfg.command_line = command_line;
  engine::BindingTarget target;
  const engine::BindingTarget* driven = nullptr;
  std::string why;
  std::vector<std::string> notes;
  if (!lc.agent.empty()) {
    why = load_stdio_target(lc, cfg);
  } else if (!lc.url.empty()) {
    why = load_url_target(lc, o.request_timeout, cfg, target, notes);
    driven = &target;
  } else {
    auto agent = in_process->start_agent({});
    if (!agent) return load_usage_exit(agent.error().message);
    cfg.in_process_agent = agent->agent;
    cfg.agent_card = agent->card;
    target = engine::BindingTarget{in_process->key, agent->url, "", "1.0"};
    cfg.bindings = {target};
    driven = &target;
  }
  if (!why.empty()) return kExitUsage;
  // From here a signal stops the load and the reports are still written.
  core::InterruptScope graceful;
  std::string started_at = reports::utc_now_rfc3339();
  auto progress = [&](const load::LoadProgress& p) {
    if (!lc.quiet) load_progress_line(p);
  };
  auto run = load::run_load(o, cfg, driven, progress);
  if (!run) {
    std::cerr << "a2a-conform load: " << core::terminal_text(run.error().message) << "\n";
    return kExitUsage;
  }
  run->notes.insert(run->notes.begin(), notes.begin(), notes.end());
  run->tool_version = cfg.tool_version;
  run->started_at = started_at;
  run->target = lc.agent.empty() ? (lc.url.empty() ? "loopback:a2a-ref-agent" : lc.url) : lc.agent;
  run->binding = driven ? driven->key() : "stdio" + std::string(lc.profile == "p46" ? "" : " (" + lc.profile + ")");
  run->interface_url = driven ? driven->url : "";
  int code = write_load_outputs(lc, *run);
  if (int sig = core::interrupt_signal(); sig != 0) return 128 + sig;
  return code;
}

}  // namespace a2a::cli
