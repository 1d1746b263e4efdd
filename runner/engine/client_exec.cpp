#include "runner/engine/client_exec.hpp"

#include <thread>

#include "runner/core/escape.hpp"
#include "runner/engine/operations.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/match/assert.hpp"
#include "runner/wire/sse.hpp"

namespace a2a::engine {

using scenario::WireAction;
using scenario::WireActionType;

namespace {

int client_within(const Json& spec) {
  return spec.is_object() && spec.contains("within_ms") && spec["within_ms"].is_number_integer()
             ? spec["within_ms"].get<int>() : 0;
}

void capture(Session& s, const std::string& step, const std::string& name, const Json& v) {
  std::lock_guard lk(s.vars_mu);
  s.vars.set_capture(step, name, v);
}

void sleep_ms(Session& s, int ms) {
  auto d = core::Deadline::after(s.scaled(ms)).min(s.deadline);
  while (!d.expired()) std::this_thread::sleep_for(std::min(d.remaining(), core::Millis(20)));
}

std::string client_state(Session& s) {
  auto& p = s.client->process->process();
  // A client whose stdout ended is usually exiting: its status may lag the
  // EOF by a moment, and the reason should name it (exit 70, a signal).
  auto st = s.client->process->ended() ? p.wait_exit(core::Deadline::after(core::Millis(500)).min(s.deadline))
                                       : p.poll_exit();
  return st ? " (the client exited: " + st->str() + ")" : "";
}

StepOutcome missing(Session& s, const std::string& what) {
  std::string msg = what + client_state(s);
  return s.deadline.expired() ? StepOutcome::timeout(msg) : StepOutcome::fail(msg);
}

// ---- the client's side: script lines in, result lines out, exit ----

StepOutcome client_op(Session& s, const Json& spec) {
  auto v = s.interpolate(spec);
  if (!v) return StepOutcome::error("x-client-op: " + v.error().message);
  auto r = s.client->process->write_line(jsonrpc::dump(*v), s.step_deadline());
  if (r) return StepOutcome::pass();
  return StepOutcome::fail("the client does not read its script input: " + r.error().message + client_state(s));
}

StepOutcome next_output(Session& s, int ms, Json& line) {
  auto got = s.client->process->next_line(s.step_deadline(ms));
  if (!got) return missing(s, "the client printed no result line");
  std::string why;
  auto j = jsonrpc::parse_json(*got, &why);
  if (!j || !j->is_object())
    return StepOutcome::fail("the client printed a line that is not a JSON object", "{\"op\":...}",
                             core::escape_bytes(*got, 200));
  line = *j;
  return StepOutcome::pass();
}

StepOutcome expect_output(Session& s, const Json& spec, const std::string& step_id) {
  auto v = s.interpolate(spec);
  if (!v) return StepOutcome::error("x-expect-output: " + v.error().message);
  Json line;
  auto o = next_output(s, client_within(*v), line);
  if (!o.ok()) return o;
  capture(s, step_id, "line", line);
  return from_match(match::match(line, (*v)["line"]), "client output line");
}

StepOutcome client_expect_exit(Session& s, const Json& spec) {
  int ms = spec.is_object() ? spec.value("within_ms", s.profile().timeouts.exit_ms) : s.profile().timeouts.exit_ms;
  auto st = s.client->process->process().wait_exit(core::Deadline::after(s.scaled(ms)).min(s.deadline));
  if (!st) return missing(s, "the client did not exit within " + std::to_string(ms) + " ms");
  Json want = spec.is_object() ? spec.value("status", Json("any")) : Json("any");
  bool ok = want == "any" || (want == "nonzero" && !(st->exited && st->code == 0)) ||
            (want.is_number_integer() && st->exited && st->code == want.get<int>());
  if (ok) return StepOutcome::pass();
  return StepOutcome::fail("client exit status is " + st->str(), "exit " + match::show(want), st->str());
}

// ---- stdio: the agent double ----

StepOutcome send_frame(Session& s, const std::string& body) {
  auto r = s.conn->send(s.frame(body), s.step_deadline());
  if (r) return StepOutcome::pass();
  return StepOutcome::fail("writing to the client through the agent double failed: " + r.error().message);
}

StepOutcome link_double(Session& s) {
  auto limit = s.scaled(s.profile().timeouts.handshake_ms);
  if (!s.client->link->wait_linked(core::Deadline::after(limit).min(s.deadline)))
    return missing(s, "the client did not start its agent (the double never connected) within " +
                          std::to_string(limit.count()) + " ms");
  Json env = s.client->link->hello().value("env", Json::object());
  const auto& name = s.profile().handshake.session_env.empty() ? std::string("A2A_SESSION_ID")
                                                              : s.profile().handshake.session_env;
  Json agent = {{"session_id", env.value(name, "")}, {"argv", s.client->link->hello().value("argv", Json())},
                {"env", env}};
  std::lock_guard lk(s.vars_mu);
  s.vars.set_root("agent", agent);
  return StepOutcome::pass();
}

StepOutcome offer_handshake(Session& s, const WireAction& w) {
  s.client->handshake_pending = false;
  auto o = link_double(s);
  if (!o.ok()) return o;
  if (w.has_bytes) return send_frame(s, w.bytes);
  const auto& hs = s.profile().handshake;
  Json frame = {{"type", hs.type}, {"sessionId", "{{agent.session_id}}"}, {"supportedVariants", {hs.variant}}};
  // stdio-json: the handshake names its protocol and version (spec §4).
  if (!hs.protocol.empty()) frame["protocol"] = hs.protocol;
  if (!hs.protocol_version.empty()) frame["protocolVersion"] = hs.protocol_version;
  if (w.spec.is_object())
    for (auto it = w.spec.begin(); it != w.spec.end(); ++it) {
      if (it.value() == "<absent>") frame.erase(it.key());
      else frame[it.key()] = it.value();
    }
  auto v = s.interpolate(frame);
  if (!v) return StepOutcome::error("x-offer-handshake: " + v.error().message);
  return send_frame(s, jsonrpc::dump(*v));
}

StepOutcome auto_client_handshake(Session& s) {
  WireAction offer;
  offer.type = WireActionType::kOfferHandshake;
  offer.spec = "default";
  auto o = offer_handshake(s, offer);
  if (!o.ok()) return o;
  const auto& hs = s.profile().handshake;
  auto f = s.conn->take([](const InboxFrame&) { return true; }, s.step_deadline());
  if (!f) return missing(s, "the client did not answer the handshake" + (s.conn->why().empty() ? "" : " (" + s.conn->why() + ")"));
  Json want = {{"type", hs.ack_type}, {"accept", true}, {hs.variant_field, hs.variant}};
  if (hs.ack_session) {
    std::lock_guard lk(s.vars_mu);
    auto sid = s.vars.resolve("agent.session_id");
    want["sessionId"] = sid ? *sid : Json("");
  }
  if (!f->json) return StepOutcome::fail("the handshake ack is not JSON", match::compact(want), core::escape_bytes(f->body, 200));
  return from_match(match::match(*f->json, want), "handshake ack");
}

StepOutcome expect_request_stdio(Session& s, const Json& v, const std::string& step_id) {
  auto f = s.conn->take([](const InboxFrame&) { return true; }, s.step_deadline(client_within(v)));
  if (!f) return missing(s, "the client sent no request" + (s.conn->why().empty() ? "" : " (" + s.conn->why() + ")"));
  if (!f->json || !f->json->is_object() || !f->json->contains("method"))
    return StepOutcome::fail("the client's frame is not a JSON-RPC request", "{\"method\":...}",
                             core::escape_bytes(f->body, 200));
  const Json& j = *f->json;
  s.client->last_id = j.value("id", Json());
  capture(s, step_id, "id", s.client->last_id);
  capture(s, step_id, "request", j);
  match::MatchResult m;
  if (j.value("jsonrpc", Json()) != "2.0") m.add("jsonrpc", "\"2.0\"", match::compact(j.value("jsonrpc", Json())), "a JSON-RPC 2.0 request");
  if (v.contains("method")) m.merge(match::match(j["method"], v["method"], "method"));
  if (v.contains("params")) m.merge(match::match_optional(j.contains("params") ? &j["params"] : nullptr, v["params"], "params"));
  return from_match(m, "client request");
}

Json reply_id(Session& s, const Json& v, bool http) {
  if (v.contains("id")) return v["id"];
  return http ? s.client->last_http_id : s.client->last_id;
}

// A stream as the profile writes it: P46 sends event/streamResponse and
// event/streamError notifications and ends with {id, result: null};
// stdio-json (no event_method) repeats responses with the request's id, an
// error response ends the stream, and {id, streamEnd: true} is the normal end.
StepOutcome stdio_stream(Session& s, const Json& v, const Json& id) {
  const auto& st = s.profile().stream;
  const bool responses = st.event_method.empty();
  for (const auto& item : v.value("stream", Json::array())) {
    if (item.contains("delay_ms")) sleep_ms(s, item["delay_ms"].get<int>());
    Json note = {{"jsonrpc", "2.0"}};
    if (responses && item.contains("event")) note.update({{"id", id}, {"result", item["event"]}});
    else if (responses && item.contains("error")) note.update({{"id", id}, {"error", item["error"]}});
    else if (item.contains("event")) note.update({{"method", st.event_method}, {"params", item["event"]}});
    else if (item.contains("error")) note.update({{"method", st.error_method}, {"params", item["error"]}});
    else continue;
    auto o = send_frame(s, jsonrpc::dump(note));
    if (!o.ok()) return o;
  }
  std::string end = v.value("end", "final");
  if (end == "final" || end == "final-other-id") {
    Json other = id.is_number_integer() ? Json(id.get<long long>() + 1000) : Json("other-" + match::show(id));
    Json last = {{"jsonrpc", "2.0"}, {"id", end == "final" ? id : other}};
    if (st.final == "stream-end") last[st.end_member.empty() ? "streamEnd" : st.end_member] = true;
    else last["result"] = nullptr;
    return send_frame(s, jsonrpc::dump(last));
  }
  if (end == "cut") {
    auto r = s.conn->send("Content-Length: 80\r\n\r\n{\"jsonrpc\":\"2.0\",\"meth", s.step_deadline());
    (void)r;
  }
  if (end == "eof" || end == "cut") s.client->link->close_output();
  return StepOutcome::pass();
}

StepOutcome reply_stdio(Session& s, const WireAction& w, const Json& v) {
  if (v.contains("delay_ms")) sleep_ms(s, v["delay_ms"].get<int>());
  // The double writes these bytes to its stderr before the reply; a client
  // that does not drain its agent's stderr blocks the double (L6).
  if (v.contains("stderr_bytes") && v["stderr_bytes"].is_number_integer())
    s.client->link->write_stderr(v["stderr_bytes"].get<long long>());
  if (w.has_bytes) return send_frame(s, w.bytes);
  if (v.contains("frame")) return send_frame(s, jsonrpc::dump(v["frame"]));
  Json id = reply_id(s, v, false);
  if (v.contains("stream")) return stdio_stream(s, v, id);
  Json resp = {{"jsonrpc", "2.0"}, {"id", id}};
  if (v.contains("error")) resp["error"] = v["error"];
  else resp["result"] = v.value("result", Json());
  return send_frame(s, jsonrpc::dump(resp));
}

}  // namespace

// client_http_exec.cpp
StepOutcome expect_request_http(Session& s, const Json& v, const std::string& step_id);
StepOutcome reply_http(Session& s, const WireAction& w, const Json& v);

// x-expect-request and x-reply on a registered binding's scripted agent.
StepOutcome expect_request_scripted(Session& s, const Json& v, const std::string& step_id) {
  auto view = s.client->scripted->take(s.step_deadline(client_within(v)));
  if (!view) {
    auto st = s.client->process->process().poll_exit();
    std::string msg = "the client sent no request" + (st ? " (the client exited: " + st->str() + ")" : "");
    return s.deadline.expired() ? StepOutcome::timeout(msg) : StepOutcome::fail(msg);
  }
  capture(s, step_id, "request", *view);
  match::MatchResult m;
  for (const char* k : {"method", "params", "headers", "path"})
    if (v.contains(k)) m.merge(match::match_optional(view->contains(k) ? &(*view)[k] : nullptr, v[k], k));
  return from_match(m, "client request");
}

StepOutcome reply_scripted(Session& s, const Json& v) {
  ScriptedReply r = s.client->scripted->reply(v, [&s](int ms) { sleep_ms(s, ms); }, s.step_deadline());
  if (!r.not_expressible.empty()) {
    StepOutcome skip;
    skip.outcome = result::Outcome::kSkip;
    skip.note = "not expressible on the " + s.client->binding + " binding: " + r.not_expressible;
    return skip;
  }
  return r.failure.empty() ? StepOutcome::pass() : StepOutcome::fail(r.failure);
}

std::optional<StepOutcome> run_client_wire(Session& s, const WireAction& w, const std::string& step_id) {
  bool http = s.client->server != nullptr || s.client->scripted != nullptr;
  switch (w.type) {
    case WireActionType::kClientOp: return client_op(s, w.spec);
    case WireActionType::kExpectOutput: return expect_output(s, w.spec, step_id);
    case WireActionType::kExpectExit: return client_expect_exit(s, w.spec);
    case WireActionType::kCloseStdin: s.client->process->close_input(); return StepOutcome::pass();
    case WireActionType::kSleep: case WireActionType::kExpectWebhook: return std::nullopt;
    case WireActionType::kOfferHandshake:
      if (http) return StepOutcome::error("x-offer-handshake needs the stdio binding");  // HTTP or grpc
      return offer_handshake(s, w);
    default: break;
  }
  if (!http && s.client->handshake_pending) {
    s.client->handshake_pending = false;
    auto o = auto_client_handshake(s);
    if (!o.ok()) return o;
  }
  auto v = s.interpolate(w.spec.is_object() ? w.spec : Json::object());
  if (!v) return StepOutcome::error(std::string(to_string(w.type)) + ": " + v.error().message);
  switch (w.type) {
    case WireActionType::kExpectRequest:
      if (s.client->scripted) return expect_request_scripted(s, *v, step_id);
      return http ? expect_request_http(s, *v, step_id) : expect_request_stdio(s, *v, step_id);
    case WireActionType::kReply:
      if (s.client->scripted) {
        if (w.has_bytes) return StepOutcome::error("x-reply bytes need the stdio or an HTTP binding");
        return reply_scripted(s, *v);
      }
      return http ? reply_http(s, w, *v) : reply_stdio(s, w, *v);
    case WireActionType::kAgentClose:
      if (http) return StepOutcome::error("x-agent-close needs the stdio binding");
      s.client->link->close_output();
      s.client->link->exit_double(v->value("exit", 0));
      return StepOutcome::pass();
    default: return std::nullopt;  // the generic stdio actions, on the double's link
  }
}

std::string script_op(const std::string& operation) {
  static const std::pair<const char*, const char*> kOps[] = {
      {"send_message", "send"}, {"send_streaming_message", "stream"}, {"get_task", "get"},
      {"list_tasks", "list"}, {"cancel_task", "cancel"}, {"subscribe_to_task", "subscribe"},
      {"create_push_config", "push-create"}, {"get_push_config", "push-get"},
      {"list_push_configs", "push-list"}, {"delete_push_config", "push-delete"},
      {"get_extended_agent_card", "card"}};
  for (const auto& [a, b] : kOps)
    if (operation == a) return b;
  return "";
}

namespace {
Json default_params(const std::string& op) {
  Json msg = {{"messageId", "client-response-1"}, {"role", "ROLE_USER"}, {"parts", {{{"text", "hello"}}}}};
  if (op == "send" || op == "stream") return {{"message", msg}};
  if (op == "list" || op == "card") return Json::object();
  if (op == "push-create") return {{"taskId", "task-1"}, {"url", "http://127.0.0.1:9/hook"}};
  if (op.rfind("push-", 0) == 0) return {{"taskId", "task-1"}, {"id", "config-1"}};
  return {{"id", "task-1"}};
}
}  // namespace

StepOutcome run_client_response(Session& s, const scenario::Step& st) {
  std::string op = script_op(st.operation);
  if (op.empty()) return StepOutcome::error("client_response: no client operation for " + st.operation);
  WireAction w;
  w.type = WireActionType::kClientOp;
  w.spec = {{"op", op}, {"params", default_params(op)}};
  auto o = *run_client_wire(s, w, st.id);
  if (!o.ok()) return o;
  w.type = WireActionType::kExpectRequest;
  w.spec = Json::object();
  o = *run_client_wire(s, w, st.id);
  if (!o.ok()) return o;
  // The payload's own id ("req-001") is an example: a client that checks ids
  // (it must, C3) would drop it, so the answer carries the request's id.
  Json payload = st.client_response.value("wire_payload", Json());
  w.type = WireActionType::kReply;
  w.spec = payload.is_object() && payload.contains("error") ? Json{{"error", payload["error"]}}
                                                            : Json{{"result", payload.value("result", Json())}};
  o = *run_client_wire(s, w, st.id);
  if (!o.ok()) return o;
  Json line;
  o = next_output(s, 0, line);
  if (!o.ok()) return o;
  capture(s, st.id, "line", line);
  Json parsed = line.contains("error") ? Json{{"error", line["error"]}} : line.value("result", Json());
  return from_match(match::match(parsed, st.expect_parsed), "parsed " + st.operation + " result");
}

}  // namespace a2a::engine
