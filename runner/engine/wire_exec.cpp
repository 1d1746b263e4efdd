#include "runner/engine/wire_exec.hpp"

#include <thread>

#include "runner/core/escape.hpp"
#include "runner/engine/binding_registry.hpp"
#include "runner/engine/client_exec.hpp"
#include "runner/engine/operations.hpp"
#include "runner/engine/webhooks.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/match/assert.hpp"
#include "runner/match/stream.hpp"
#include "runner/match/vars.hpp"

namespace a2a::engine {

using scenario::WireAction;
using scenario::WireActionType;

namespace {

int within(const Json& spec, int fallback = 0) {
  if (spec.is_object() && spec.contains("within_ms") && spec["within_ms"].is_number_integer())
    return spec["within_ms"].get<int>();
  return fallback;
}

StepOutcome not_arrived(Session& s, const std::string& what) {
  std::string why = s.conn->why();
  std::string msg = what + (why.empty() ? "" : " (" + why + ")");
  std::string pend = describe_pending(*s.conn);
  if (!pend.empty()) msg += "; " + pend;
  if (s.deadline.expired()) return StepOutcome::timeout(msg);
  return StepOutcome::fail(msg);
}

std::optional<InboxFrame> get_frame(Session& s, const std::function<bool(const InboxFrame&)>& want,
                                    core::Deadline d, bool consume) {
  return consume ? s.conn->take(want, d) : s.conn->peek(want, d);
}

StepOutcome send_bytes(Session& s, const std::string& bytes) {
  auto r = s.conn->send(bytes, s.step_deadline());
  if (r) return StepOutcome::pass();
  // A closed stdin is what many negative scenarios provoke; the expectation
  // steps after this one judge it. Only a write that hangs is a failure here.
  if (r.error().kind == core::ErrorKind::kBrokenPipe) {
    StepOutcome o;
    o.note = "agent's stdin is closed (EPIPE); " + std::to_string(bytes.size()) + " bytes not delivered";
    return o;
  }
  return StepOutcome::fail("writing " + std::to_string(bytes.size()) +
                           " bytes to the agent failed: " + r.error().message);
}

StepOutcome send_request(Session& s, const Json& spec, const std::string& step_id) {
  auto v = s.interpolate(spec);
  if (!v) return StepOutcome::error("x-send-request: " + v.error().message);
  Json req = {{"jsonrpc", "2.0"}, {"method", (*v).value("method", "")}};
  bool notification = v->contains("id") && (*v)["id"].is_string() && (*v)["id"] == "none";
  Json id;
  if (!notification) {
    id = v->contains("id") ? (*v)["id"] : Json(s.fresh_id());
    req["id"] = id;
  }
  if (v->contains("params")) req["params"] = (*v)["params"];
  {
    std::lock_guard lk(s.vars_mu);
    s.vars.set_capture(step_id, "id", id);
  }
  return send_bytes(s, s.frame(jsonrpc::dump(req)));
}

StepOutcome expect_response(Session& s, const Json& spec, bool consume, std::optional<size_t>* seq) {
  auto v = s.interpolate(spec);
  if (!v) return StepOutcome::error("x-expect-response: " + v.error().message);
  Json id = v->value("id", Json());
  auto f = get_frame(
      s,
      [&](const InboxFrame& fr) {
        return fr.json && fr.json->is_object() && fr.json->contains("id") &&
               !fr.json->contains("method") && match::strictly_equal((*fr.json)["id"], id);
      },
      s.step_deadline(within(*v)), consume);
  if (!f) return not_arrived(s, "no response with id " + match::compact(id) + " arrived");
  if (seq) *seq = f->seq;
  const Json& j = *f->json;
  match::MatchResult m;
  if (!j.contains("jsonrpc") || j["jsonrpc"] != "2.0")
    m.add("jsonrpc", "\"2.0\"", match::show_actual(j.contains("jsonrpc") ? &j["jsonrpc"] : nullptr),
          "a JSON-RPC 2.0 response must carry \"jsonrpc\": \"2.0\"");
  for (const char* key : {"result", "error"}) {
    if (!v->contains(key)) continue;
    m.merge(match::match_optional(j.contains(key) ? &j[key] : nullptr, (*v)[key], key));
  }
  return from_match(m, "response " + match::compact(id));
}

StepOutcome expect_notification(Session& s, const Json& spec, bool consume,
                                std::optional<size_t>* seq) {
  auto v = s.interpolate(spec);
  if (!v) return StepOutcome::error("x-expect-notification: " + v.error().message);
  auto f = get_frame(
      s,
      [](const InboxFrame& fr) {
        return fr.json && fr.json->is_object() && fr.json->contains("method") &&
               !fr.json->contains("id");
      },
      s.step_deadline(within(*v)), consume);
  if (!f) return not_arrived(s, "no notification arrived");
  if (seq) *seq = f->seq;
  match::MatchResult m;
  if (v->contains("method")) m.merge(match::match((*f->json)["method"], (*v)["method"], "method"));
  if (v->contains("params")) {
    const Json& j = *f->json;
    m.merge(match::match_optional(j.contains("params") ? &j["params"] : nullptr, (*v)["params"],
                                  "params"));
  }
  return from_match(m, "notification");
}

std::string canonical_header(size_t n, const std::string& content_type) {
  std::string h = "Content-Length: " + std::to_string(n) + "\r\n";
  if (!content_type.empty()) h += "Content-Type: " + content_type + "\r\n";
  return h + "\r\n";
}

StepOutcome expect_frame(Session& s, const Json& spec, bool consume, std::optional<size_t>* seq) {
  auto v = s.interpolate(spec.is_object() ? spec : Json::object());
  if (!v) return StepOutcome::error("x-expect-frame: " + v.error().message);
  auto f = get_frame(s, [](const InboxFrame&) { return true; }, s.step_deadline(within(*v)),
                     consume);
  if (!f) return not_arrived(s, "no frame arrived");
  if (seq) *seq = f->seq;
  match::MatchResult m;
  if (v->contains("body")) {
    if (!f->json)
      m.add("body", match::compact((*v)["body"]), f->body.substr(0, 120), "body is not JSON");
    else
      m.merge(match::match(*f->json, (*v)["body"], ""));
  }
  if (v->contains("body_raw")) m.merge(match::match(Json(f->body), (*v)["body_raw"], "body_raw"));
  if (v->value("canonical", false)) {
    std::string want = canonical_header(f->body.size(), s.profile().framing.content_type);
    if (f->raw_header != want)
      m.add("header", core::escape_bytes(want), core::escape_bytes(f->raw_header, 200),
            "frame header is not in the canonical form the binding writes");
  }
  return from_match(m, "frame");
}

// The end of an x-expect-stream: events matched as a stream, `final`
// against the frame that ended it, `errors` against the error events.
StepOutcome judge_stream(const Json& v, const Json& id, const std::vector<Json>& events,
                         const std::vector<Json>& errors, const Json& final_frame) {
  Json ex = v;
  for (const char* k : {"id", "final", "within_ms", "errors"}) ex.erase(k);
  match::MatchResult m = match::match_stream(events, ex);
  if (v.contains("final")) m.merge(match::match(final_frame, v["final"], "final"));
  if (v.contains("errors")) m.merge(match::match(Json(errors), v["errors"], "errors"));
  return from_match(m, "stream " + match::compact(id));
}

// stdio-json: events are responses {id, result}; the end is {id, streamEnd:true}
// or an error response (which is both the last error and the final frame).
StepOutcome expect_response_stream(Session& s, const Json& v, const Json& id, core::Deadline d) {
  const std::string& end = s.profile().stream.end_member;
  std::vector<Json> events;
  std::vector<Json> errors;
  for (;;) {
    auto f = s.conn->take(
        [&](const InboxFrame& fr) {
          if (!fr.json || !fr.json->is_object()) return false;
          const Json& j = *fr.json;
          return j.contains("id") && !j.contains("method") && match::strictly_equal(j["id"], id);
        },
        d);
    if (!f)
      return not_arrived(s, "stream " + match::compact(id) + " did not end with " + end + " after " +
                                std::to_string(events.size()) + " event(s)");
    const Json& j = *f->json;
    if (j.contains(end) || j.contains("error")) {
      if (j.contains("error")) errors.push_back(j["error"]);
      return judge_stream(v, id, events, errors, j);
    }
    events.push_back(j.value("result", Json()));
  }
}

StepOutcome expect_stream(Session& s, const Json& spec) {
  auto v = s.interpolate(spec);
  if (!v) return StepOutcome::error("x-expect-stream: " + v.error().message);
  Json id = v->value("id", Json());
  int ms = within(*v, v->value("timeout_ms", 0));
  auto d = s.step_deadline(ms);
  const auto& st = s.profile().stream;
  if (st.final == "stream-end") return expect_response_stream(s, *v, id, d);
  std::vector<Json> events;
  std::vector<Json> errors;
  for (;;) {
    auto f = s.conn->take(
        [&](const InboxFrame& fr) {
          if (!fr.json || !fr.json->is_object()) return false;
          const Json& j = *fr.json;
          if (j.contains("id")) return !j.contains("method") && match::strictly_equal(j["id"], id);
          return j.contains("method") && (j["method"] == st.event_method || j["method"] == st.error_method);
        },
        d);
    if (!f)
      return not_arrived(s, "stream " + match::compact(id) + " did not end with a response after " +
                                std::to_string(events.size()) + " event(s)");
    const Json& j = *f->json;
    if (j.contains("id")) return judge_stream(*v, id, events, errors, j);
    if (j["method"] == st.error_method)
      errors.push_back(j.value("params", Json()));
    else
      events.push_back(j.value("params", Json()));
  }
}

StepOutcome expect_exit(Session& s, const Json& spec) {
  int ms = within(spec, s.profile().timeouts.exit_ms);
  auto st = s.conn->wait_exit(core::Deadline::after(s.scaled(ms)).min(s.deadline));
  Json want = spec.value("status", Json("any"));
  if (!st) return not_arrived(s, "agent did not exit within " + std::to_string(ms) + " ms");
  bool ok = want == "any" || (want == "nonzero" && !(st->exited && st->code == 0)) ||
            (want.is_number_integer() && st->exited && st->code == want.get<int>());
  if (ok) return StepOutcome::pass();
  return StepOutcome::fail("agent exit status is " + st->str(), "exit " + match::show(want),
                           st->str());
}

}  // namespace

StepOutcome read_handshake(Session& s, const std::string& step_id, Json& handshake) {
  const auto& hs = s.profile().handshake;
  auto limit = s.scaled(s.profile().timeouts.handshake_ms);
  auto f = s.conn->take([](const InboxFrame&) { return true; },
                        core::Deadline::after(limit).min(s.deadline));
  if (!f) return not_arrived(s, "no handshake frame within " + std::to_string(limit.count()) + " ms");
  if (!f->json || !f->json->is_object())
    return StepOutcome::fail("first frame is not a JSON object handshake", "{\"type\":\"" + hs.type + "\",...}",
                             core::escape_bytes(f->body, 200));
  handshake = *f->json;
  match::MatchResult m;
  if (handshake.value("type", Json()) != hs.type)
    m.add("type", hs.type, match::show_actual(handshake.contains("type") ? &handshake["type"] : nullptr),
          "first frame must be the handshake");
  for (const auto& field : hs.fields)
    if (!handshake.contains(field)) m.add(field, "present", "<missing>", "required handshake member");
  if (handshake.contains("sessionId") && !handshake["sessionId"].is_string())
    m.add("sessionId", "type string", match::compact(handshake["sessionId"]), "must be a string");
  if (!hs.protocol.empty() && handshake.contains("protocol") && handshake["protocol"] != hs.protocol)
    m.add("protocol", hs.protocol, match::compact(handshake["protocol"]), "unknown protocol");
  if (!hs.protocol_version.empty() && handshake.contains("protocolVersion")) {
    const Json& pv = handshake["protocolVersion"];
    std::string major = hs.protocol_version.substr(0, hs.protocol_version.find('.'));
    if (!pv.is_string() || pv.get<std::string>().substr(0, pv.get<std::string>().find('.')) != major)
      m.add("protocolVersion", hs.protocol_version, match::compact(pv), "a different major version");
  }
  const Json* vars = handshake.contains("supportedVariants") ? &handshake["supportedVariants"] : nullptr;
  if (vars && (!vars->is_array() || vars->empty()))
    m.add("supportedVariants", "non-empty array of strings", match::compact(*vars), "no variant offered");
  {
    std::lock_guard lk(s.vars_mu);
    s.vars.set_capture(step_id, "handshake", handshake);
  }
  return from_match(m, "handshake");
}

StepOutcome send_ack(Session& s, const WireAction& w, const Json& handshake) {
  const auto& hs = s.profile().handshake;
  if (w.has_bytes) return send_bytes(s, s.frame(w.bytes));
  Json ack = {{"type", hs.ack_type}};
  // stdio-json: the ack echoes the session id the runner gave the agent.
  if (hs.ack_session) ack["sessionId"] = s.session_id;
  const Json& spec = w.spec;
  if (spec.is_string() && spec == "reject") {
    ack[hs.variant_field] = "";
    ack["accept"] = false;
  } else if (spec.is_object() && spec.contains("ack")) {
    auto v = s.interpolate(spec["ack"]);
    if (!v) return StepOutcome::error("x-handshake ack: " + v.error().message);
    ack = *v;
  } else {
    std::string variant = spec.is_object() ? spec.value("variant", hs.variant) : hs.variant;
    if (spec.is_string()) {  // accept: the profile's variant must be offered
      const Json& offered = handshake.value("supportedVariants", Json::array());
      bool found = false;
      for (const auto& o : offered) found = found || o == variant;
      if (!found)
        return StepOutcome::fail("handshake does not offer the profile's variant " + variant,
                                 variant, match::compact(offered));
    }
    ack[hs.variant_field] = variant;
    ack["accept"] = true;
  }
  return send_bytes(s, s.frame(jsonrpc::dump(ack)));
}

StepOutcome run_wire(Session& s, const WireAction& w, const std::string& step_id, bool consume,
                     std::optional<size_t>* seq) {
  if (s.client) {
    if (auto o = run_client_wire(s, w, step_id)) return *o;
    if (!s.conn) return StepOutcome::error(std::string(to_string(w.type)) + " needs the stdio binding");
  }
  if (w.type == WireActionType::kWs) {
    const OperationBinding* b = s.target ? find_binding(s.target->binding) : nullptr;
    if (!b || !b->wire_step) return StepOutcome::error("x-ws steps need the websocket binding; this run is " + s.binding());
    return b->wire_step(s, w, step_id, consume);
  }
  if (!s.conn && w.type != WireActionType::kSleep && w.type != WireActionType::kExpectWebhook)
    return StepOutcome::error(std::string(to_string(w.type)) + " needs the stdio binding; this run is " + s.binding());
  switch (w.type) {
    case WireActionType::kHandshake: {
      Json hs;
      auto o = read_handshake(s, step_id, hs);
      if (!o.ok()) return o;
      return send_ack(s, w, hs);
    }
    case WireActionType::kExpectHandshake: {
      Json hs;
      auto o = read_handshake(s, step_id, hs);
      // No handshake object at all: the read failure is the whole story.
      if (!o.ok() && !hs.is_object()) return o;
      auto v = s.interpolate(w.spec);
      if (!v) return StepOutcome::error("x-expect-handshake: " + v.error().message);
      auto m = from_match(match::match(hs, *v), "handshake");
      return m.ok() ? o : m;
    }
    case WireActionType::kSendBytes: return send_bytes(s, w.bytes);
    case WireActionType::kSendFrame: {
      if (w.has_bytes) return send_bytes(s, s.frame(w.bytes));
      auto v = s.interpolate(w.spec);
      if (!v) return StepOutcome::error("x-send-frame: " + v.error().message);
      return send_bytes(s, s.frame(jsonrpc::dump(*v)));
    }
    case WireActionType::kSendRequest: return send_request(s, w.spec, step_id);
    case WireActionType::kExpectResponse: return expect_response(s, w.spec, consume, seq);
    case WireActionType::kExpectNotification: return expect_notification(s, w.spec, consume, seq);
    case WireActionType::kExpectFrame: return expect_frame(s, w.spec, consume, seq);
    case WireActionType::kExpectStream: return expect_stream(s, w.spec);
    case WireActionType::kExpectSilence: {
      int ms = w.spec.is_object() ? w.spec.value("ms", 500) : 500;
      if (s.conn->quiet_for(s.scaled(ms), s.deadline)) return StepOutcome::pass();
      auto pend = describe_pending(*s.conn);
      return StepOutcome::fail("agent wrote to stdout during " + std::to_string(ms) +
                                   " ms of expected silence" + (pend.empty() ? "" : ": " + pend),
                               "no output", pend);
    }
    case WireActionType::kExpectEof: {
      int ms = within(w.spec, s.profile().timeouts.exit_ms);
      if (s.conn->wait_eof(core::Deadline::after(s.scaled(ms)).min(s.deadline))) {
        auto fe = s.conn->framing_error();
        if (fe.empty()) return StepOutcome::pass();
        return StepOutcome::fail("agent output ended with a framing error: " + fe);
      }
      return not_arrived(s, "agent did not close stdout within " + std::to_string(ms) + " ms");
    }
    case WireActionType::kExpectExit: return expect_exit(s, w.spec);
    case WireActionType::kExpectWebhook: return expect_webhook(s, w, step_id, {}, consume);
    case WireActionType::kCloseStdin: s.conn->close_stdin(); return StepOutcome::pass();
    case WireActionType::kClientOp: case WireActionType::kExpectOutput: case WireActionType::kExpectRequest:
    case WireActionType::kReply: case WireActionType::kOfferHandshake: case WireActionType::kAgentClose:
      return StepOutcome::error(std::string(to_string(w.type)) + " belongs to client scenarios (x-role: client)");
    case WireActionType::kWs: break;  // above
    case WireActionType::kSleep: {
      int ms = w.spec.is_number_integer() ? w.spec.get<int>() : 0;
      auto d = core::Deadline::after(s.scaled(ms)).min(s.deadline);
      while (!d.expired()) std::this_thread::sleep_for(std::min(d.remaining(), core::Millis(20)));
      return StepOutcome::pass();
    }
  }
  return StepOutcome::error("unknown wire action");
}

}  // namespace a2a::engine
