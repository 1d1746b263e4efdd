// a2a-ref-client: flags -> CliConfig -> run_cli -> exit code. Only this file
// knows CLI11; everything it calls lives in a2a_client_core and is tested there.
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "peers/a2a-ref-client/cli_run.hpp"
#include "peers/a2a-ref-client/fault.hpp"
#include "peers/a2a-ref-client/ops.hpp"
#ifdef A2A_WITH_GRPC
#include "peers/a2a-ref-client/grpc/grpc_session.hpp"
#endif

namespace {

using a2a::client::CliConfig;
using a2a::client::Json;
using a2a::client::kExitUsage;
using Built = a2a::core::Expected<Json>;

constexpr const char* kDescription = R"(a2a-ref-client: the reference A2A 1.0 client, over stdio (P46) or HTTP.

Give exactly one of:
  --agent CMD  stdio binding: starts CMD as a child process, checks its
               handshake (sessionId echo of A2A_SESSION_ID, "a2a/v1" offered),
               acks it; at the end closes its stdin and reaps it (5 s, then
               SIGTERM, 2 s, SIGKILL).
  --url URL    HTTP bindings: fetches the Agent Card from
               URL/.well-known/agent-card.json and walks its supportedInterfaces
               in order, taking the first JSONRPC or HTTP+JSON (REST) interface
               whose protocolVersion is 1.0 (patch ignored), or when none fits
               the first GRPC one (builds with gRPC); --binding jsonrpc|rest|grpc
               takes the first of that binding instead. gRPC calls carry the
               metadata a2a-version: 1.0. Requests go to exactly
               that interface's url, carry its tenant (JSON-RPC params.tenant,
               REST "/{tenant}" path prefix) and the header A2A-Version: 1.0.
               A 0.3-only card is refused. -v names the chosen interface.
               --binding websocket takes the card's first WEBSOCKET 1.0
               interface with a ws:// url (a2a-rust's binding, never picked
               by default): one connection, A2A-Version: 1.0 and --bearer on
               its upgrade, JSON-RPC 2.0 in text frames matched by id, a
               stream read to {"status":"stream_complete"} or an error frame.
Then it runs one operation (or a script of many) and prints one JSON line per
result on stdout, the same on every binding:
  {"op":"send","result":{...}}        unary result (REST: empty 2xx body = null)
  {"op":"stream","event":{...}}       one per stream event, in order
  {"op":"stream","streamError":{...}} an error event inside the stream (it goes on)
  {"op":"stream","end":true}          the stream ended normally
  {"op":"get","error":{"kind":"agent","code":-32001,"message":...}}
REST errors keep "httpStatus" and "status" and get the JSON-RPC "code" of their
ErrorInfo reason (TASK_NOT_FOUND -> -32001).

Exit codes: 0 every operation succeeded; 1 an operation failed (agent error,
HTTP error status, stream error event, timeout); 2 transport failure (spawn,
handshake, EOF, framing, broken pipe, connection failure, agent card not
fetchable or without a usable 1.0 interface); 64 usage error.)";

constexpr const char* kFooter = R"(
Examples:
  a2a-ref-client --agent ./a2a-ref-agent send --text "tck-complete-task hi"
  a2a-ref-client --url http://127.0.0.1:8080 send --text "tck-complete-task hi"
  a2a-ref-client --url http://127.0.0.1:8080 --binding rest -v get --id T
  a2a-ref-client --agent "./a2a-ref-agent --flag" stream --text tck-stream-basic
  a2a-ref-client --agent ./a2a-ref-agent get --id T --history-length 2
  a2a-ref-client --agent ./a2a-ref-agent list --status working --page-size 10
  a2a-ref-client --agent ./a2a-ref-agent send --raw-params '{"message":{...}}'
  a2a-ref-client --agent ./a2a-ref-agent script steps.jsonl

Script lines (one JSON object each; '#' comments; "${name.path}" uses a saved result):
  {"op":"send","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"tck-cancel"}]},"configuration":{"returnImmediately":true}},"as":"t"}
  {"op":"cancel","params":{"id":"${t.task.id}"}}
  {"op":"sleep","ms":100}
With "script -" lines are read from stdin and run one by one as they arrive.
Docs: docs/ref-client.md)";

struct SubArgs {
  std::string raw;
  a2a::client::SendArgs send;
  a2a::client::ListArgs list;
  a2a::client::PushArgs push;
  std::string id;
  int history_length = 0;
  int page_size = 0;
};

struct Sub {
  CLI::App* app;
  std::string name;
  std::function<Built()> build;
};

std::optional<int> opt_int(const CLI::App* app, const char* flag, int value) {
  return app->count(flag) ? std::optional<int>(value) : std::nullopt;
}

Built need(bool given, const std::string& op, const std::string& missing) {
  if (given) return Json(nullptr);
  return a2a::core::fail(a2a::core::ErrorKind::kInvalidArgument,
                         op + ": " + missing + " required (or give --raw-params JSON)");
}

template <class F>
std::function<Built()> with_raw(SubArgs& a, F build) {
  return [&a, build]() -> Built {
    if (!a.raw.empty()) return a2a::client::parse_raw_params(a.raw);
    return build();
  };
}

CLI::App* add_sub(CLI::App& app, const char* name, const char* help, SubArgs& a) {
  CLI::App* sub = app.add_subcommand(name, help);
  sub->add_option("--raw-params", a.raw, "Send this JSON as the params, verbatim (other op flags ignored)");
  return sub;
}

Sub add_send(CLI::App& app, const char* name, const char* help, SubArgs& a) {
  CLI::App* sub = add_sub(app, name, help, a);
  sub->add_option("--text", a.send.text, "Text of the user message (tck-* prefixes choose the reference agent's behaviour)");
  sub->add_option("--message-id", a.send.message_id, "messageId (default: a fresh UUIDv7)");
  sub->add_option("--task-id", a.send.task_id, "Continue this task (multi-turn)");
  sub->add_option("--context-id", a.send.context_id, "contextId of the message");
  sub->add_flag("--return-immediately", a.send.return_immediately, "configuration.returnImmediately = true");
  sub->add_option("--history-length", a.history_length, "configuration.historyLength");
  return {sub, name, with_raw(a, [&a, sub, name = std::string(name)]() -> Built {
            if (auto n = need(sub->count("--text") > 0, name, "--text is"); !n) return n;
            a.send.history_length = opt_int(sub, "--history-length", a.history_length);
            return a2a::client::send_params(a.send);
          })};
}

Sub add_id_op(CLI::App& app, const char* name, const char* help, SubArgs& a, bool history) {
  CLI::App* sub = add_sub(app, name, help, a);
  sub->add_option("--id", a.id, "Task id");
  if (history) sub->add_option("--history-length", a.history_length, "historyLength");
  return {sub, name, with_raw(a, [&a, sub, history, name = std::string(name)]() -> Built {
            if (auto n = need(sub->count("--id") > 0, name, "--id is"); !n) return n;
            if (history) return a2a::client::get_params(a.id, opt_int(sub, "--history-length", a.history_length));
            return a2a::client::id_params(a.id);
          })};
}

Sub add_list(CLI::App& app, SubArgs& a) {
  CLI::App* sub = add_sub(app, "list", "ListTasks (tasks/list)", a);
  sub->add_option("--context-id", a.list.context_id, "Filter: contextId");
  sub->add_option("--status", a.list.status, "Filter: task state (working, input-required, TASK_STATE_COMPLETED, ...)");
  sub->add_option("--page-size", a.page_size, "pageSize (1..100)");
  sub->add_option("--page-token", a.list.page_token, "pageToken from a previous nextPageToken");
  sub->add_flag("--include-artifacts", a.list.include_artifacts, "includeArtifacts = true");
  sub->add_option("--history-length", a.history_length, "historyLength per task");
  return {sub, "list", with_raw(a, [&a, sub]() -> Built {
            a.list.page_size = opt_int(sub, "--page-size", a.page_size);
            a.list.history_length = opt_int(sub, "--history-length", a.history_length);
            return a2a::client::list_params(a.list);
          })};
}

Sub add_push(CLI::App& app, const char* name, const char* help, SubArgs& a, bool url, bool config) {
  CLI::App* sub = add_sub(app, name, help, a);
  sub->add_option("--task-id", a.push.task_id, "Task id");
  sub->add_option("--config-id", a.push.config_id, url ? "Config id (default: the agent assigns one)" : "Config id");
  if (url) {
    sub->add_option("--url", a.push.url, "Webhook URL");
    sub->add_option("--token", a.push.token, "Opaque token echoed in notifications");
  }
  return {sub, name, with_raw(a, [&a, sub, url, config, name = std::string(name)]() -> Built {
            std::string missing = url ? "--task-id and --url are" : config ? "--task-id and --config-id are" : "--task-id is";
            bool given = sub->count("--task-id") && (!url || sub->count("--url")) && (!config || sub->count("--config-id"));
            if (auto n = need(given, name, missing); !n) return n;
            if (url) return a2a::client::push_create_params(a.push);
            if (config) return a2a::client::push_ref_params(a.push.task_id, a.push.config_id);
            return a2a::client::push_list_params(a.push.task_id);
          })};
}

void add_global_options(CLI::App& app, CliConfig& c, long long& timeout_ms, long long& handshake_ms,
                        std::vector<std::string>& env, std::string& profile) {
  app.add_option("--agent", c.agent, "stdio: agent command line, e.g. \"./a2a-ref-agent --flag x\" (split like a shell, no expansion; default $A2A_AGENT)");
  app.add_option("--url", c.url, "HTTP: the agent's base URL; its card is fetched from URL/.well-known/agent-card.json");
  app.add_option("--binding", c.binding, "With --url: use the card's first 1.0 interface of this binding (jsonrpc, rest, grpc, websocket) instead of the first usable one")
      ->check(CLI::IsMember({"jsonrpc", "rest", "grpc", "websocket"}));
  app.add_flag("--insecure", c.insecure, "With an https --url: do not verify the server certificate");
  app.add_option("--bearer", c.bearer_token,
                 "With --url: send 'Authorization: Bearer TOKEN' on every call (GetExtendedAgentCard requires "
                 "authentication, spec 13.3; a2a-ref-agent accepts 'a2a-conform' by default)");
  app.add_option("--timeout-ms", timeout_ms, "Deadline of each operation, a whole stream included (and of the card fetch)")
      ->default_val(30000)->check(CLI::Range(1LL, 3600LL * 1000));
  app.add_option("--handshake-timeout-ms", handshake_ms, "stdio: deadline for the agent's handshake after spawn (H10)")
      ->default_val(10000)->check(CLI::Range(1LL, 3600LL * 1000));
  app.add_option("--session-id", c.session_id, "stdio: A2A_SESSION_ID for the agent (default: a fresh UUIDv7); the handshake must echo it");
  app.add_option("--profile", profile, "stdio wire profile: p46 (PR #46) or stdio-json (PR #138)")
      ->default_val("p46")
      ->check(CLI::IsMember({"p46", "stdio-json"}));
  app.add_flag("--uuid-ids", c.uuid_ids, "Use UUIDv7 strings as JSON-RPC ids (default: integers 1, 2, ...)");
  app.add_flag("--inherit-env", c.inherit_env, "stdio: give the agent our whole environment (default: PATH, HOME, locale and a few more; L12)");
  app.add_option("--env", env, "stdio: NAME=VALUE added to the agent's environment (repeatable)");
  app.add_flag("-v,--verbose", c.verbose, "Notes and the full wire transcript on stderr");
}

bool parse_env(const std::vector<std::string>& env, CliConfig& c) {
  for (const std::string& kv : env) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "a2a-ref-client: --env '" << kv << "' is not NAME=VALUE\n";
      return false;
    }
    c.env_set[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return true;
}

bool build_ops(std::vector<Sub>& subs, CliConfig& c) {
  for (Sub& s : subs) {
    if (!s.app->parsed()) continue;
    Built params = s.build();
    if (!params) {
      std::cerr << "a2a-ref-client: " << params.error().message << "\nRun 'a2a-ref-client " << s.name
                << " --help' for usage.\n";
      return false;
    }
    c.ops.push_back({s.name, *a2a::client::operation_from_cli_name(s.name), *params});
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{kDescription, "a2a-ref-client"};
  app.footer(kFooter);
  app.require_subcommand(1, 1);
  app.fallthrough();  // global flags may also follow the operation
  CliConfig c;
  long long timeout_ms = 30000, handshake_ms = 10000;
  std::vector<std::string> env;
  std::string profile;
  add_global_options(app, c, timeout_ms, handshake_ms, env, profile);
  std::string fault;
  bool list_faults = false;
  app.add_option("--fault", fault, "Inject one known defect (meta-tests of a2a-conform client; --list-faults)");
  app.add_flag("--list-faults", list_faults, "Print the injectable faults and exit");

  std::vector<SubArgs> args(12);
  std::vector<Sub> subs = {
      add_send(app, "send", "SendMessage (message/send)", args[0]),
      add_send(app, "stream", "SendStreamingMessage (message/stream): prints each event, then end", args[1]),
      add_id_op(app, "get", "GetTask (tasks/get)", args[2], true),
      add_list(app, args[3]),
      add_id_op(app, "cancel", "CancelTask (tasks/cancel)", args[4], false),
      add_id_op(app, "subscribe", "SubscribeToTask (tasks/subscribe): snapshot, then events until terminal", args[5], false),
      add_push(app, "push-create", "CreateTaskPushNotificationConfig", args[6], true, false),
      add_push(app, "push-get", "GetTaskPushNotificationConfig", args[7], false, true),
      add_push(app, "push-list", "ListTaskPushNotificationConfigs", args[8], false, false),
      add_push(app, "push-delete", "DeleteTaskPushNotificationConfig", args[9], false, true),
  };
  CLI::App* card = add_sub(app, "card", "GetExtendedAgentCard (agent/extendedCard)", args[10]);
  subs.push_back({card, "card", with_raw(args[10], [] { return Built(Json::object()); })});
  CLI::App* script = app.add_subcommand("script", "Run a JSON-lines script of operations in one session");
  script->add_option("file", c.script_path, "Script file, or - for stdin")->required();

  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--list-faults") {
      for (const auto& f : a2a::client::known_faults()) std::cout << f.name << "  " << f.what << "\n";
      return 0;
    }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "a2a-ref-client: " << e.what() << "\nRun 'a2a-ref-client --help' for usage.\n";
    return kExitUsage;
  }
  if (!fault.empty() && !a2a::client::set_fault(fault)) {
    std::cerr << "a2a-ref-client: unknown --fault " << fault << " (see --list-faults)\n";
    return kExitUsage;
  }
  // $A2A_AGENT only when no --url, so an exported agent never clashes with --url.
  if (c.agent.empty() && c.url.empty()) {
    if (const char* agent = std::getenv("A2A_AGENT")) c.agent = agent;
  }
  if (c.agent.empty() == c.url.empty()) {
    std::cerr << "a2a-ref-client: give exactly one of --agent CMD or --url URL\nRun 'a2a-ref-client --help' for usage.\n";
    return kExitUsage;
  }
#ifdef A2A_WITH_GRPC
  c.grpc = a2a::client::grpc_session_factory();
#endif
  c.profile = profile == "stdio-json" ? a2a::client::WireProfile::kStdioJson : a2a::client::WireProfile::kP46;
  c.timeout = a2a::core::Millis(a2a::client::fault_on("client-ignore-timeout") ? 120000 : timeout_ms);
  c.handshake_timeout = a2a::core::Millis(handshake_ms);
  if (!parse_env(env, c) || !build_ops(subs, c)) return kExitUsage;
  return a2a::client::run_cli(c, std::cin, std::cout, std::cerr);
}
