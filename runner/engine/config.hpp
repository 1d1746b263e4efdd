// What one `a2a-conform run` was asked to do. Filled by the CLI, read by the
// engine; nothing here is changed during a run.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/result/result.hpp"
#include "runner/scenario/behaviors.hpp"
#include "runner/scenario/profile.hpp"
#include "runner/scenario/selection.hpp"

namespace a2a::engine {

struct BindingState;
class CallLog;

struct KnownFailure {
  std::string id;      // test id or glob
  std::string reason;
  std::string binding;  // only results on this binding; "" = every binding
};

// One binding a run certifies: stdio (the --agent process) or an HTTP
// interface of a --url agent, as its card declares it (or --binding forces).
// An interface whose protocolVersion is 0.3 is run under the A2A 0.3 profile
// (docs/a2a-0.3.md "Runner"): its results carry the key "jsonrpc@0.3" /
// "rest@0.3", so a card with both versions is certified once per version.
struct BindingTarget {
  std::string binding;           // the transport: "stdio" | "jsonrpc" | "rest" | a registered one ("grpc")
  std::string url;               // the interface URL (HTTP bindings)
  std::string tenant;            // AgentInterface.tenant, "" when none
  std::string protocol_version;  // AgentInterface.protocolVersion
  bool is_http() const { return binding == "jsonrpc" || binding == "rest"; }
  // Not stdio: an interface reached over the network (HTTP, gRPC, ...).
  bool is_network() const { return !binding.empty() && binding != "stdio"; }
  // 0.3 and its patch versions ("0.3.0").
  bool is_v03() const { return protocol_version == "0.3" || protocol_version.starts_with("0.3."); }
  // What results, the console and known-failures `binding:` name: the
  // transport, with "@0.3" for a 0.3 interface.
  std::string key() const { return is_v03() ? binding + "@0.3" : binding; }
};

struct RunConfig {
  // The target: exactly one of agent_command (stdio) and target_url.
  std::string agent_command;               // as given to --agent
  std::vector<std::string> agent_argv;     // split
  std::string target_url;                  // as given to --url (the card's base)
  // `a2a-conform client`: the client under test's command line ({target},
  // {binding} substituted per scenario) and the agent double it spawns on
  // stdio. Non-empty client_command makes this a client run: only client
  // tests run, agent tests are skipped (docs/client-conformance.md).
  std::string client_command;
  std::string agent_double;
  std::vector<BindingTarget> bindings;     // empty = stdio only
  std::vector<std::string> forced_bindings;  // --binding values (for replay commands)
  // An in-process binding's agent (binding_registry.hpp InProcessAgent),
  // shared by every scenario of the run; null for agents behind a wire. The
  // run's one binding target is then that binding's.
  std::shared_ptr<BindingState> in_process_agent;
  std::vector<std::string> agent_faults;   // --KEY-fault (--loopback-fault): the in-process agent's faults (for replay commands)
  std::string forced_version;              // --a2a-version ("0.3" | "1.0"; "" = as the card says)
  bool insecure_tls = false;
  // --header "Name: value": sent with every abstract operation over HTTP (the
  // credentials an agent wants, e.g. for GetExtendedAgentCard; spec §13.3).
  // Raw steps send only the headers they write.
  // Replay commands repeat them, with credential values redacted.
  std::vector<std::pair<std::string, std::string>> http_headers;
  scenario::Profile profile;
  std::vector<std::string> suite_paths;    // as given (for replay commands)
  int jobs = 1;
  double timeout_scale = 1.0;              // multiplies every deadline
  int run_timeout_ms = 0;                  // 0 = none; else the whole run's bound
  bool reuse = false;
  bool assume_behaviors = true;            // false: --no-behaviors (no tck-* prefix at all)
  // What the target implements (--behaviors FILE), else the ACTS §11.2
  // prefixes; a test that needs another one is skipped (docs/behaviors.md).
  scenario::Behaviors behaviors = scenario::Behaviors::acts_default();
  std::vector<KnownFailure> known_failures;
  std::optional<nlohmann::json> agent_card;  // for ACTS preconditions (probed, or the discovered card)
  std::string probe_failure;               // stdio: why the card probe could not talk to the agent ("" = it could)
  // run --bundle: every abstract operation's request and answer is recorded
  // here (call_log.hpp); null otherwise.
  std::shared_ptr<CallLog> call_log;
  std::string tool_version = "0.1.0";
  std::string command_line;
};

// Called as scenarios finish (from worker threads; implementations lock).
using ProgressFn = std::function<void(const result::ScenarioResult&, size_t done, size_t total)>;

}  // namespace a2a::engine
