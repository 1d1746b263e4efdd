// a2a-ref-client: flags -> CliConfig -> run_cli -> exit code. Only this file
// knows CLI11; everything it calls lives in a2a_client_core and is tested there.
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "peers/a2a-ref-client/cli_run.hpp"
#include "peers/a2a-ref-client/ops.hpp"

namespace {

using a2a::client::CliConfig;
using a2a::client::Json;
using a2a::client::kExitUsage;
using Built = a2a::core::Expected<Json>;

constexpr const char* kDescription = R"(a2a-ref-client: the reference A2A client over the stdio binding (P46 profile).

It starts the agent command given with --agent as a child process, checks its
handshake (sessionId echo of A2A_SESSION_ID, "a2a/v1" offered), acks it, runs
one operation (or a script of many) and prints one JSON line per result on
stdout:
  {"op":"send","result":{...}}        unary result
  {"op":"stream","event":{...}}       one per stream event, in order
  {"op":"stream","streamError":{...}} an event/streamError (the stream goes on)
  {"op":"stream","end":true}          the stream's final response arrived
  {"op":"get","error":{"kind":"agent","code":-32001,"message":...}}
Then it closes the agent's stdin and reaps it (5 s, then SIGTERM, 2 s, SIGKILL).

Exit codes: 0 every operation succeeded; 1 an operation failed (agent error,
stream error event, timeout); 2 transport or handshake failure (spawn, EOF,
framing, broken pipe); 64 usage error.)";

constexpr const char* kFooter = R"(
Examples:
  a2a-ref-client --agent ./a2a-ref-agent send --text "tck-complete-task hi"
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
  app.add_option("--agent", c.agent, "Agent command line, e.g. \"./a2a-ref-agent --flag x\" (split like a shell, no expansion)")
      ->required()->envname("A2A_AGENT");
  app.add_option("--timeout-ms", timeout_ms, "Deadline of each operation, a whole stream included")
      ->default_val(30000)->check(CLI::Range(1LL, 3600LL * 1000));
  app.add_option("--handshake-timeout-ms", handshake_ms, "Deadline for the agent's handshake after spawn (H10)")
      ->default_val(10000)->check(CLI::Range(1LL, 3600LL * 1000));
  app.add_option("--session-id", c.session_id, "A2A_SESSION_ID for the agent (default: a fresh UUIDv7); the handshake must echo it");
  app.add_option("--profile", profile, "Wire profile")->default_val("p46")->check(CLI::IsMember({"p46"}));
  app.add_flag("--uuid-ids", c.uuid_ids, "Use UUIDv7 strings as JSON-RPC ids (default: integers 1, 2, ...)");
  app.add_flag("--inherit-env", c.inherit_env, "Give the agent our whole environment (default: PATH, HOME, locale and a few more; L12)");
  app.add_option("--env", env, "NAME=VALUE added to the agent's environment (repeatable)");
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
  c.timeout = a2a::core::Millis(timeout_ms);
  c.handshake_timeout = a2a::core::Millis(handshake_ms);
  if (!parse_env(env, c) || !build_ops(subs, c)) return kExitUsage;
  return a2a::client::run_cli(c, std::cin, std::cout, std::cerr);
}
