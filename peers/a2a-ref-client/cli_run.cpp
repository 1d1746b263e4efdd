#include "peers/a2a-ref-client/cli_run.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>

#include "peers/a2a-ref-client/http_session.hpp"
#include "peers/a2a-ref-client/script.hpp"
#include "peers/a2a-ref-client/session.hpp"
#include "peers/a2a-ref-client/ws_session.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::client {
namespace {

constexpr std::string_view kProg = "a2a-ref-client";

// Output and diagnostics are written from the main thread and (diagnostics)
// the session's reader thread; one lock keeps lines whole.
class Printer {
 public:
  Printer(std::ostream& out, std::ostream& err) : out_(out), err_(err) {}
  // {"op":...,"line":N,"<key>":<value>}: "op" first for readers; nlohmann
  // would sort the envelope's keys.
  void line(const std::string& op, int script_line, std::string_view key, const Json& value) {
    std::string text = "{\"op\":" + jsonrpc::dump(op);
    if (script_line > 0) text += ",\"line\":" + std::to_string(script_line);
    text += ",\"" + std::string(key) + "\":" + jsonrpc::dump(value) + "}";
    text = core::terminal_json(text);  // same JSON; nothing a terminal acts on
    std::lock_guard lock(mu_);
    out_ << text << '\n' << std::flush;
  }
  // Diagnostics carry the agent's own text (error messages, stderr,
  // transcripts): they reach a terminal through the one escaper
  // (runner/core/escape.hpp), so an agent cannot move the cursor, retitle
  // the window or hide text with control bytes or bidi overrides.
  void error(const std::string& text) {
    std::string shown = core::terminal_text(text);
    std::lock_guard lock(mu_);
    err_ << kProg << ": " << shown << '\n' << std::flush;
  }

 private:
  std::mutex mu_;
  std::ostream& out_;
  std::ostream& err_;
};

int severity(const ClientError& e) {
  switch (e.kind) {
    case ClientErrorKind::kAgent:
    case ClientErrorKind::kTimeout: return kExitOpFailed;
    case ClientErrorKind::kUsage: return kExitUsage;
    default: return kExitTransport;
  }
}

std::string where(const std::string& op, int script_line) {
  return script_line > 0 ? "script line " + std::to_string(script_line) + " (" + op + ")" : op;
}

struct OpOutcome {
  int code = kExitOk;
  Json saved = nullptr;  // result, or the array of stream events
};

OpOutcome run_stream(Session& s, const OpRequest& req, core::Millis timeout, Printer& p, int line) {
  OpOutcome outcome{kExitOk, Json::array()};
  auto on_event = [&](const StreamItem& item) {
    if (item.type == StreamItem::Type::kEvent) {
      p.line(req.name, line, "event", item.value);
      outcome.saved.push_back(item.value);
    } else {
      p.line(req.name, line, "streamError", item.value);  // C8: the code the agent sent, kept
      outcome.code = std::max(outcome.code, kExitOpFailed);
      p.error(where(req.name, line) + ": stream error event " + jsonrpc::dump(item.value));
    }
  };
  CallResult r = s.stream(req.op, req.params, on_event, core::Deadline::after(timeout));
  if (r.ok()) {
    p.line(req.name, line, "end", true);
  } else {
    p.line(req.name, line, "error", r.error.to_json());
    outcome.code = std::max(outcome.code, severity(r.error));
    p.error(where(req.name, line) + " failed: " + r.error.str());
  }
  return outcome;
}

OpOutcome run_op(Session& s, const OpRequest& req, core::Millis timeout, Printer& p, int line) {
  if (model::is_streaming(req.op)) return run_stream(s, req, timeout, p, line);
  CallResult r = s.call(req.op, req.params, core::Deadline::after(timeout));
  if (r.ok()) {
    p.line(req.name, line, "result", r.result);
    return {kExitOk, r.result};
  }
  p.line(req.name, line, "error", r.error.to_json());
  p.error(where(req.name, line) + " failed: " + r.error.str());
  return {severity(r.error), nullptr};
}

// "parallel": on stdio every request is written before any answer is awaited
// (pipelining, so the agent may answer in any order and we correlate by id);
// other sessions run them one after the other. One line per op, in list order.
int run_parallel(Session& s, const ScriptStep& step, const CliConfig& c, Printer& p, const SavedValues& saved) {
  std::vector<OpRequest> reqs;
  int code = kExitOk;
  for (const auto& sub : step.parallel) {
    auto params = substitute(sub.params, saved);
    if (!params) {
      p.line(sub.op_name, step.line, "error", Json{{"kind", "usage"}, {"message", params.error().message}});
      return kExitOpFailed;
    }
    reqs.push_back(OpRequest{sub.op_name, *sub.op, *params});
  }
  auto* stdio = dynamic_cast<StdioSession*>(&s);
  if (!stdio) {
    for (const auto& r : reqs) code = std::max(code, run_op(s, r, c.timeout, p, step.line).code);
    return code;
  }
  auto deadline = core::Deadline::after(c.timeout);
  std::vector<PendingCall> pending;
  for (const auto& r : reqs) pending.push_back(stdio->start_call(r.op, r.params, deadline));
  for (size_t i = 0; i < reqs.size(); ++i) {
    CallResult r = stdio->finish_call(pending[i]);
    if (r.ok()) {
      p.line(reqs[i].name, step.line, "result", r.result);
      continue;
    }
    p.line(reqs[i].name, step.line, "error", r.error.to_json());
    p.error(where(reqs[i].name, step.line) + " failed: " + r.error.str());
    code = std::max(code, severity(r.error));
  }
  return code;
}

// Runs one script step; returns its exit contribution.
int run_step(Session& s, const ScriptStep& step, const CliConfig& c, Printer& p, SavedValues& saved) {
  if (!step.parallel.empty()) return run_parallel(s, step, c, p, saved);
  if (!step.op) {
    std::this_thread::sleep_for(core::Millis(step.sleep_ms));
    return kExitOk;
  }
  auto params = substitute(step.params, saved);
  if (!params) {
    p.line(step.op_name, step.line, "error", Json{{"kind", "usage"}, {"message", params.error().message}});
    p.error(where(step.op_name, step.line) + ": " + params.error().message);
    return kExitOpFailed;
  }
  OpOutcome o = run_op(s, OpRequest{step.op_name, *step.op, *params}, c.timeout, p, step.line);
  if (!step.save_as.empty() && o.code == kExitOk) saved[step.save_as] = o.saved;
  return o.code;
}

// Lines are read and run one at a time, so "script -" can be driven
// interactively (write a line, read its output, decide the next).
int run_script(Session& s, std::istream& in, const CliConfig& c, Printer& p) {
  SavedValues saved;
  int code = kExitOk;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    auto step = parse_script_line(text, line, c.script_path == "-" ? "<stdin>" : c.script_path);
    if (!step) {
      p.error(step.error().str());
      return std::max(code, kExitUsage);
    }
    if (!step->has_value()) continue;
    code = std::max(code, run_step(s, **step, c, p, saved));
    if (s.dead()) return std::max(code, kExitTransport);
  }
  return code;
}

SessionOptions session_options(const CliConfig& c, Printer& p) {
  SessionOptions o = options_for_profile(SessionOptions{}, c.profile);
  o.handshake_timeout = c.handshake_timeout;
  o.close_grace = c.close_grace;
  o.session_id = c.session_id;
  o.inherit_env = c.inherit_env;
  o.env_set = c.env_set;
  o.ids = c.uuid_ids ? IdStyle::kUuid : IdStyle::kInteger;
  o.on_diagnostic = [&p](const std::string& d) { p.error("warning: " + d); };
  return o;
}

void print_transcript(const transport::Transcript& t, Printer& p) {
  for (const transport::TranscriptEntry& e : t.entries()) {
    auto ms = std::chrono::duration_cast<core::Millis>(e.at - t.start()).count();
    p.error("transcript +" + std::to_string(ms) + "ms " + std::string(transport::to_string(e.dir)) + " " +
            core::escape_bytes(e.bytes, 2000));
  }
}

// The operations (or the script) of one session, whatever its binding.
int run_session(Session& s, std::istream& script, const CliConfig& c, Printer& p) {
  if (!c.script_path.empty()) return run_script(s, script, c, p);
  int code = kExitOk;
  for (const OpRequest& req : c.ops) {
    code = std::max(code, run_op(s, req, c.timeout, p, 0).code);
    if (s.dead()) break;
  }
  return code;
}

// The card, then a session on the chosen interface (HTTP or, in gRPC
// builds, gRPC); every failure before the first operation is exit 2.
core::Expected<std::unique_ptr<Session>> open_network_session(const transport::Url& base,
                                                              std::optional<HttpBinding> forced, const CliConfig& c,
                                                              const HttpSessionOptions& o, std::string& description) {
  // The card fetch is bounded like one operation.
  auto card = fetch_card(base, core::Deadline::after(c.timeout), c.insecure, o.transcript);
  if (!card) return core::fail(card.error());
  auto chosen = select_interface(*card, forced, static_cast<bool>(c.grpc));
  if (!chosen) return core::fail(chosen.error());
  auto all = card_interfaces(*card);
  description = chosen->describe(all ? all->size() : 0) + " (binding " + std::string(to_string(chosen->binding)) + ")";
  if (chosen->binding == HttpBinding::kGrpc) return c.grpc(*chosen, GrpcSessionSetup{c.bearer_token, o.transcript});
  if (chosen->binding == HttpBinding::kWebSocket) {
    // One connection for the whole run, opened within one operation's timeout.
    auto ws = WsSession::create(*chosen, WsSessionOptions{c.bearer_token, o.transcript},
                                core::Deadline::after(c.timeout));
    if (!ws) return core::fail(ws.error());
    return std::unique_ptr<Session>(std::move(*ws));
  }
  auto http = HttpSession::create(*chosen, o);
  if (!http) return core::fail(http.error());
  return std::unique_ptr<Session>(std::move(*http));
}

int run_http(const CliConfig& c, std::istream& script, Printer& p) {
  auto base = transport::Url::parse(c.url);
  if (!base) {
    p.error("--url '" + c.url + "': " + base.error().message);
    return kExitUsage;
  }
  std::optional<HttpBinding> forced;
  if (!c.binding.empty() && !(forced = binding_from_cli(c.binding))) {
    p.error("--binding '" + c.binding + "': expected jsonrpc, rest, grpc or websocket");
    return kExitUsage;
  }
  if (forced == HttpBinding::kGrpc && !c.grpc) {
    p.error("--binding grpc: this build has no gRPC binding (configure with -DA2A_GRPC=ON)");
    return kExitUsage;
  }
  transport::Transcript transcript;
  HttpSessionOptions o;
  o.insecure_tls = c.insecure;
  o.bearer_token = c.bearer_token;
  o.uuid_ids = c.uuid_ids;
  if (c.verbose) o.transcript = &transcript;
  o.on_diagnostic = [&p](const std::string& d) { p.error("warning: " + d); };
  std::string description;
  auto session = open_network_session(*base, forced, c, o, description);
  if (!session) {
    p.error("cannot use the agent at " + c.url + ": " + session.error().message);
    if (c.verbose) print_transcript(transcript, p);
    return kExitTransport;
  }
  if (c.verbose) p.error("note: using " + description);
  int code = run_session(**session, script, c, p);
  if (c.verbose) print_transcript(transcript, p);
  return code;
}

int finish(StdioSession& s, int code, const CliConfig& c, Printer& p) {
  transport::ExitStatus st = s.close();
  if (!st.exited || st.code != 0) {
    p.error("warning: agent ended with " + st.str() + " after the client closed its stdin");
  } else if (c.verbose) {
    p.error("note: agent ended with " + st.str());
  }
  if (c.verbose) print_transcript(s.process().transcript(), p);
  return code;
}

}  // namespace

int run_cli(const CliConfig& c, std::istream& script_in, std::ostream& out, std::ostream& err) {
  Printer p(out, err);
  if (c.agent.empty() == c.url.empty()) {
    p.error("give exactly one of --agent CMD (stdio) or --url URL (HTTP)");
    return kExitUsage;
  }
  if (c.url.empty() && (!c.binding.empty() || c.insecure)) {
    p.error("--binding and --insecure need --url");
    return kExitUsage;
  }
  std::ifstream file;
  if (!c.script_path.empty() && c.script_path != "-") {
    file.open(c.script_path);
    if (!file) {
      p.error("script '" + c.script_path + "' cannot be opened");
      return kExitUsage;
    }
  }
  std::istream& script = c.script_path == "-" ? script_in : file;
  if (!c.url.empty()) return run_http(c, script, p);
  auto argv = transport::StdioProcess::split_command(c.agent);
  if (!argv || argv->empty()) {
    p.error("--agent '" + c.agent + "': " + (argv ? "empty command" : argv.error().message));
    return kExitUsage;
  }
  auto session = StdioSession::connect(*argv, session_options(c, p));
  if (!session) {
    p.error("cannot start a session with '" + c.agent + "': " + session.error().str());
    return kExitTransport;
  }
  StdioSession& s = **session;
  if (c.verbose) p.error("note: session " + s.session_id() + " ready (pid " + std::to_string(s.process().pid()) + ")");
  return finish(s, run_session(s, script, c, p), c, p);
}

}  // namespace a2a::client
