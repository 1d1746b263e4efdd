#include "runner/bindings/websocket/websocket_steps.hpp"

#include <algorithm>

#include "runner/a2a/model.hpp"
#include "runner/bindings/websocket/websocket_state.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/match/assert.hpp"
#include "runner/match/stream.hpp"
#include "runner/transport/transcript.hpp"
#include "runner/transport/ws_codec.hpp"

namespace a2a::bindings {

// Named: the unity batch holds websocket_binding.cpp's helpers of the same names.
namespace wssteps {
namespace {

using engine::Session;
using engine::StepOutcome;
using transport::WsConnection;
using transport::WsFrame;
using Json = nlohmann::json;

constexpr size_t kShown = 300;          // bytes of a frame shown in the transcript and in failures
constexpr size_t kMaxStreamFrames = 10000;

int within(const Json& v) {
  return v.is_object() && v.contains("within_ms") && v["within_ms"].is_number_integer() ? v["within_ms"].get<int>() : 0;
}

void record(Session& s, transport::Direction dir, std::string_view what, std::string_view bytes) {
  if (!s.transcript) return;
  std::string shown(bytes.substr(0, std::min(bytes.size(), kShown)));
  if (bytes.size() > kShown) shown += "... (" + std::to_string(bytes.size()) + " bytes)";
  s.transcript->add(dir, what.empty() ? shown : "(" + std::string(what) + ") " + shown);
}

void capture(Session& s, const std::string& step, const std::string& name, const Json& v) {
  std::lock_guard lk(s.vars_mu);
  s.vars.set_capture(step, name, v);
}

Json parse(const WsFrame& f) { return jsonrpc::parse_json_or_discarded(f.payload); }

std::string show(const WsFrame& f) {
  return std::string(f.text ? "" : "(binary) ") + core::escape_bytes(f.payload, 200);
}

// Fails when the connection cannot be had; the step then fails with why.
std::shared_ptr<WsConnection> conn_or_fail(Session& s, StepOutcome& o) {
  std::string why;
  auto c = wsb::connection(s, s.step_deadline(), why);
  if (!c) o = StepOutcome::fail("could not open the WebSocket connection: " + why);
  return c;
}

StepOutcome not_arrived(Session& s, WsConnection& c, const std::string& what) {
  std::string msg = what + (c.closed() ? " (" + c.why() + ")" : "");
  auto pend = c.pending(3);
  if (!pend.empty()) {
    msg += "; " + std::to_string(c.unconsumed()) + " unconsumed frame(s): ";
    for (size_t i = 0; i < pend.size(); ++i) msg += (i ? "; " : "") + show(pend[i]);
  }
  return s.deadline.expired() ? StepOutcome::timeout(msg) : StepOutcome::fail(msg);
}

// ---- upgrade ----

std::string with_path(const std::string& url, const std::string& path) {
  size_t scheme = url.find("://");
  size_t slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  std::string base = slash == std::string::npos ? url : url.substr(0, slash);
  return base + (path.empty() || path[0] != '/' ? "/" : "") + path;
}

// {{step.answer}}: the probe's answer on a connection the upgrade opened.
Json probe(Session& s, WsConnection& c, const Json& spec) {
  Json id = s.fresh_id();
  Json req = jsonrpc::make_request(id, spec.value("method", ""), spec.value("params", Json::object()));
  std::string text = jsonrpc::dump(req);
  record(s, transport::Direction::kToPeer, "", text);
  if (!c.send(text, true, s.step_deadline())) return nullptr;
  auto f = c.take(
      [&](const WsFrame& fr) {
        Json j = parse(fr);
        return j.is_object() && j.contains("id") && match::strictly_equal(j["id"], id);
      },
      s.step_deadline());
  if (!f) return nullptr;
  record(s, transport::Direction::kFromPeer, f->text ? "" : "binary", f->payload);
  return parse(*f);
}

// A new connection replaces the scenario's; its upgrade carries the default
// headers changed by `headers` (a null value leaves one out). A refusal is
// an outcome to judge, not a failure; not reaching the agent is.
StepOutcome upgrade(Session& s, const Json& spec, const std::string& step_id) {
  auto h = wsb::default_headers(s);
  if (spec.contains("headers")) {
    for (const auto& item : spec["headers"].items()) {
      // Not a structured binding: clang 14 (the sanitizer trees) cannot capture one in a lambda.
      const std::string name = item.key();
      const Json& value = item.value();
      auto same = [&](const auto& kv) { return transport::ws::iequals(kv.first, name); };
      h.erase(std::remove_if(h.begin(), h.end(), same), h.end());
      if (!value.is_null()) h.emplace_back(name, value.is_string() ? value.get<std::string>() : value.dump());
    }
  }
  std::string url = spec.contains("path") ? with_path(s.target->url, spec.value("path", "/")) : s.target->url;
  std::string shown;
  for (const auto& [n, v] : h) shown += (shown.empty() ? "" : ", ") + n + ": " + core::escape_bytes(v, 60);
  if (s.transcript) s.transcript->note("WebSocket upgrade to " + url + " with " + (shown.empty() ? "no extra headers" : shown));
  transport::WsOptions o;
  o.headers = std::move(h);
  o.insecure_tls = s.config->insecure_tls;
  transport::WsRefusal refusal;
  auto c = WsConnection::connect(url, std::move(o), s.step_deadline(), &refusal);
  Json result = Json::object();
  auto st = wsb::state_of(s);
  if (c) {
    result["status"] = 101;
    if (spec.contains("probe")) result["answer"] = probe(s, **c, spec["probe"]);
    std::lock_guard lk(st->mu);
    st->conn = std::shared_ptr<WsConnection>(std::move(*c));
    st->failed.clear();
  } else if (refusal.status != 0) {
    result["status"] = refusal.status;
    Json body = jsonrpc::parse_json_or_discarded(refusal.body);
    result["body"] = body.is_discarded() ? Json(refusal.body) : body;
    if (s.transcript) s.transcript->note("upgrade declined: HTTP " + std::to_string(refusal.status) + " " +
                                         core::escape_bytes(refusal.body, 200));
  } else {
    return StepOutcome::fail("the WebSocket upgrade did not complete: " + c.error().message);
  }
  {
    std::lock_guard lk(st->mu);
    st->last_upgrade = result;
  }
  for (const auto& [k, v] : result.items()) capture(s, step_id, k, v);
  return StepOutcome::pass();
}

StepOutcome expect_upgrade(Session& s, const Json& spec) {
  auto st = wsb::state_of(s);
  Json last;
  {
    std::lock_guard lk(st->mu);
    last = st->last_upgrade;
  }
  if (last.is_null()) return StepOutcome::error("x-ws expect_upgrade: no x-ws upgrade step ran before it");
  return engine::from_match(match::match(last, spec), "upgrade");
}

// ---- sending ----

// ACTS §4.3: a message without messageId gets a fresh one (one per request).
void add_message_id(Json& params) {
  if (params.is_object() && params.contains("message") && params["message"].is_object() &&
      !params["message"].contains("messageId"))
    params["message"]["messageId"] = core::uuid_v7();
}

StepOutcome sent(Session& s, WsConnection& c, const core::Expected<void>& r, size_t bytes) {
  if (r) return StepOutcome::pass();
  // The agent may end the connection on purpose (a size limit); the
  // expectation after this step judges that. Only a write that hangs fails here.
  if (r.error().kind == core::ErrorKind::kBrokenPipe) {
    StepOutcome o;
    o.note = "the connection is closed; " + std::to_string(bytes) + " bytes not delivered (" + c.why() + ")";
    return o;
  }
  return StepOutcome::fail("writing " + std::to_string(bytes) + " bytes failed: " + r.error().message);
}

StepOutcome send(Session& s, const scenario::WireAction& w, const Json& spec) {
  StepOutcome o;
  auto c = conn_or_fail(s, o);
  if (!c) return o;
  auto d = s.step_deadline();
  std::string form = spec.begin().key();
  if (form == "json") {
    auto v = s.interpolate(spec["json"]);
    if (!v) return StepOutcome::error("x-ws send json: " + v.error().message);
    std::string text = jsonrpc::dump(*v);
    record(s, transport::Direction::kToPeer, "", text);
    return sent(s, *c, c->send(text, true, d), text.size());
  }
  using transport::ws::Opcode;
  Opcode op = Opcode::kText;
  std::string payload = w.bytes;
  if (form == "binary") op = Opcode::kBinary;
  else if (form == "ping") op = Opcode::kPing;
  else if (form == "pong") op = Opcode::kPong;
  else if (form == "close") {
    op = Opcode::kClose;
    const Json& cl = spec["close"];
    int code = cl.value("code", 0);
    payload = code ? transport::ws::close_payload(code, cl.value("reason", "")) : "";
  }
  record(s, transport::Direction::kToPeer, op == Opcode::kText ? "" : transport::ws::to_string(op), payload);
  return sent(s, *c, c->send_frame(static_cast<uint8_t>(op), payload, d), payload.size());
}

StepOutcome request(Session& s, const Json& raw, const std::string& step_id) {
  auto v = s.interpolate(raw);
  if (!v) return StepOutcome::error("x-ws request: " + v.error().message);
  StepOutcome o;
  auto c = conn_or_fail(s, o);
  if (!c) return o;
  int count = v->value("count", 1);
  bool notification = v->contains("id") && (*v)["id"] == "none";
  Json ids = Json::array();
  for (int i = 0; i < count; ++i) {
    Json req = {{"jsonrpc", "2.0"}, {"method", v->value("method", "")}};
    Json id;
    if (!notification) {
      id = v->contains("id") && count == 1 ? (*v)["id"] : Json(s.fresh_id());
      req["id"] = id;
    }
    if (v->contains("params")) {
      Json params = (*v)["params"];
      add_message_id(params);
      req["params"] = params;
    }
    ids.push_back(id);
    std::string text = jsonrpc::dump(req);
    record(s, transport::Direction::kToPeer, "", text);
    auto r = sent(s, *c, c->send(text, true, s.step_deadline()), text.size());
    if (!r.ok() || !r.note.empty()) return r;
  }
  capture(s, step_id, "id", ids.back());
  capture(s, step_id, "ids", ids);
  return StepOutcome::pass();
}

// ---- expectations ----

bool is_response_to(const Json& j, const Json& spec) {
  if (!j.is_object() || j.contains("method") || !j.contains("id")) return false;
  return !spec.contains("id") || match::strictly_equal(j["id"], spec["id"]);
}

// The envelope every answer must have (JSON-RPC 2.0 §5) and the binding's text frames.
void check_envelope(const WsFrame& f, const Json& j, match::MatchResult& m) {
  if (!f.text)
    m.add("frame", "a text frame", "a binary frame", "JSON-RPC messages travel in text frames (docs/websocket.md)");
  if (!j.contains("jsonrpc") || j["jsonrpc"] != "2.0")
    m.add("jsonrpc", "\"2.0\"", match::show_actual(j.contains("jsonrpc") ? &j["jsonrpc"] : nullptr),
          "a JSON-RPC 2.0 response must carry \"jsonrpc\": \"2.0\" (JSON-RPC 2.0 §5)");
  if (j.contains("result") == j.contains("error"))
    m.add("result/error", "exactly one of them", j.contains("result") ? "both" : "neither",
          "JSON-RPC 2.0 §5: a response has result or error, not both");
}

// Looks for the frame `want` accepts, judges it, and takes it only when it passes.
StepOutcome judge_and_take(Session& s, WsConnection& c, const std::function<bool(const WsFrame&)>& want,
                           core::Deadline d, const std::string& what, const std::string& step_id,
                           const std::function<match::MatchResult(const WsFrame&)>& judge, bool consume) {
  auto f = c.peek(want, d);
  if (!f) return not_arrived(s, c, "no " + what + " arrived");
  auto o = engine::from_match(judge(*f), what);
  if (!o.ok()) {
    if (o.failure) o.failure->message += " (the frame: " + show(*f) + ")";
    return o;
  }
  capture(s, step_id, "response", parse(*f));
  if (!consume) return o;
  WsFrame copy = *f;
  auto taken = c.take([&](const WsFrame& fr) { return fr.text == copy.text && fr.payload == copy.payload; },
                      core::Deadline::after(core::Millis(0)));
  if (taken) record(s, transport::Direction::kFromPeer, taken->text ? "" : "binary", taken->payload);
  return o;
}

StepOutcome expect_response(Session& s, const Json& raw, const std::string& step_id, bool consume) {
  auto v = s.interpolate(raw);
  if (!v) return StepOutcome::error("x-ws expect_response: " + v.error().message);
  StepOutcome o;
  auto c = conn_or_fail(s, o);
  if (!c) return o;
  std::string what = v->contains("id") ? "response with id " + match::compact((*v)["id"]) : "response";
  return judge_and_take(
      s, *c, [&](const WsFrame& f) { return is_response_to(parse(f), *v); }, s.step_deadline(within(*v)), what,
      step_id, [&](const WsFrame& f) {
        Json j = parse(f);
        match::MatchResult m;
        check_envelope(f, j, m);
        for (const char* key : {"result", "error"})
          if (v->contains(key)) m.merge(match::match_optional(j.contains(key) ? &j[key] : nullptr, (*v)[key], key));
        return m;
      },
      consume);
}

StepOutcome expect_frame(Session& s, const Json& raw, const std::string& step_id, bool consume) {
  auto v = s.interpolate(raw.is_object() ? raw : Json::object());
  if (!v) return StepOutcome::error("x-ws expect_frame: " + v.error().message);
  StepOutcome o;
  auto c = conn_or_fail(s, o);
  if (!c) return o;
  return judge_and_take(
      s, *c, [](const WsFrame&) { return true; }, s.step_deadline(within(*v)), "frame", step_id,
      [&](const WsFrame& f) {
        match::MatchResult m;
        bool binary = v->value("binary", false);
        if (f.text == binary)
          m.add("frame", binary ? "a binary frame" : "a text frame", f.text ? "a text frame" : "a binary frame", "");
        if (v->contains("text")) {
          Json j = parse(f);
          m.merge(match::match(j.is_discarded() ? Json(f.payload) : j, (*v)["text"], "text"));
        }
        return m;
      },
      consume);
}

bool is_completion(const Json& result) {
  return result.is_object() && result.size() == 1 && result.value("status", Json()) == "stream_complete";
}

// Spec §3.1.2: a message-only stream ends at its message, a task stream at a terminal state.
bool is_terminal_event(const Json& e) {
  if (!e.is_object()) return false;
  if (e.contains("message")) return true;
  for (const char* member : {"task", "statusUpdate"}) {
    if (!e.contains(member) || !e[member].is_object()) continue;
    const Json& st = e[member].value("status", Json());
    if (!st.is_object() || !st.contains("state")) return false;
    auto state = model::task_state_from_json(st["state"]);
    return state && model::is_terminal(*state);
  }
  return false;
}

// Frames with the id until the stream ends: its completion frame or an
// error frame (`end: complete`, the default), or also a terminal event
// (`end: terminal`: for requirements that hold whatever ends the stream).
StepOutcome expect_stream(Session& s, const Json& raw) {
  auto v = s.interpolate(raw);
  if (!v) return StepOutcome::error("x-ws expect_stream: " + v.error().message);
  StepOutcome o;
  auto c = conn_or_fail(s, o);
  if (!c) return o;
  Json id = v->value("id", Json());
  bool terminal = v->value("end", "complete") == "terminal";
  auto d = s.step_deadline(within(*v));
  std::vector<Json> events;
  Json final_frame;
  match::MatchResult m;
  while (events.size() < kMaxStreamFrames) {
    auto f = c->take(
        [&](const WsFrame& fr) {
          Json j = parse(fr);
          return j.is_object() && !j.contains("method") && j.contains("id") && match::strictly_equal(j["id"], id);
        },
        d);
    if (!f)
      return not_arrived(s, *c,
                         "stream " + match::compact(id) + " did not end (" +
                             (terminal ? "no completion frame, error frame or terminal event"
                                       : "no {\"status\": \"stream_complete\"} result and no error") +
                             " with its id) after " + std::to_string(events.size()) + " event(s)");
    record(s, transport::Direction::kFromPeer, f->text ? "" : "binary", f->payload);
    Json j = parse(*f);
    check_envelope(*f, j, m);
    if (j.contains("error") || is_completion(j.value("result", Json()))) {
      final_frame = j;
      break;
    }
    events.push_back(j.value("result", Json()));
    if (terminal && is_terminal_event(events.back())) {
      final_frame = j;
      break;
    }
  }
  Json ex = *v;
  for (const char* k : {"id", "end", "final", "within_ms"}) ex.erase(k);
  m.merge(match::match_stream(events, ex));
  if (v->contains("final")) m.merge(match::match(final_frame, (*v)["final"], "final"));
  return engine::from_match(m, "stream " + match::compact(id));
}

StepOutcome expect_silence(Session& s, const Json& raw) {
  auto v = s.interpolate(raw);
  if (!v) return StepOutcome::error("x-ws expect_silence: " + v.error().message);
  StepOutcome o;
  auto c = conn_or_fail(s, o);
  if (!c) return o;
  int ms = v->value("ms", 500);
  // A window that proves a negative is never shortened by --timeout-scale
  // below 1 (as x-expect-webhook count 0, docs/scenario-format.md).
  core::Millis window = std::max(core::Millis(ms), s.scaled(ms));
  bool skip_completion = v->value("ignore_completion", false);
  auto f = c->peek(
      [&](const WsFrame& fr) {
        Json j = parse(fr);
        if (v->contains("id") && !(j.is_object() && j.contains("id") && match::strictly_equal(j["id"], (*v)["id"])))
          return false;
        return !(skip_completion && j.is_object() && is_completion(j.value("result", Json())));
      },
      core::Deadline::after(window).min(s.deadline));
  if (!f) return StepOutcome::pass();
  record(s, transport::Direction::kFromPeer, f->text ? "" : "binary", f->payload);
  return StepOutcome::fail("a frame came during " + std::to_string(ms) + " ms of expected silence" +
                               (v->contains("id") ? " for id " + match::compact((*v)["id"]) : "") + ": " + show(*f),
                           "no frame", show(*f));
}

StepOutcome expect_pong(Session& s, const scenario::WireAction& w, const Json& v) {
  StepOutcome o;
  auto c = conn_or_fail(s, o);
  if (!c) return o;
  auto p = c->take_pong(s.step_deadline(within(v)));
  if (!p) return not_arrived(s, *c, "no pong arrived");
  record(s, transport::Direction::kFromPeer, "pong", *p);
  if (w.has_bytes && *p != w.bytes)
    return StepOutcome::fail("the pong's payload is not the ping's (RFC 6455 §5.5.3)", core::escape_bytes(w.bytes, 200),
                             core::escape_bytes(*p, 200));
  return StepOutcome::pass();
}

StepOutcome expect_close(Session& s, const Json& raw, const std::string& step_id) {
  auto v = s.interpolate(raw.is_object() ? raw : Json::object());
  if (!v) return StepOutcome::error("x-ws expect_close: " + v.error().message);
  StepOutcome o;
  auto c = conn_or_fail(s, o);
  if (!c) return o;
  if (!c->wait_closed(s.step_deadline(within(*v))))
    return StepOutcome::fail("the connection is still open", "the agent ends the connection", "open");
  int code = c->close_code();
  if (s.transcript) s.transcript->note("connection ended: " + c->why());
  capture(s, step_id, "code", code);
  if (!v->contains("code")) return StepOutcome::pass();
  auto r = engine::from_match(match::match(Json(code), (*v)["code"], "code"), "close code");
  if (!r.ok() && r.failure) r.failure->message += " (" + c->why() + "; 0 = no close frame)";
  return r;
}

}  // namespace
}  // namespace wssteps

using namespace wssteps;

engine::StepOutcome websocket_step(engine::Session& s, const scenario::WireAction& w, const std::string& step_id, bool consume) {
  if (!s.target) return StepOutcome::error("x-ws steps need the websocket binding");
  const Json& spec = w.spec;
  if (!spec.is_object() || spec.size() != 1) return StepOutcome::error("x-ws needs exactly one action");
  const std::string action = spec.begin().key();
  const Json& v = spec.begin().value();
  if (action == "upgrade") {
    auto iv = s.interpolate(v.is_object() ? v : Json::object());
    if (!iv) return StepOutcome::error("x-ws upgrade: " + iv.error().message);
    return upgrade(s, *iv, step_id);
  }
  if (action == "expect_upgrade") {
    auto iv = s.interpolate(v);
    if (!iv) return StepOutcome::error("x-ws expect_upgrade: " + iv.error().message);
    return expect_upgrade(s, *iv);
  }
  if (action == "send") return send(s, w, v);
  if (action == "request") return request(s, v, step_id);
  if (action == "expect_response") return expect_response(s, v, step_id, consume);
  if (action == "expect_frame") return expect_frame(s, v, step_id, consume);
  if (action == "expect_stream") return expect_stream(s, v);
  if (action == "expect_silence") return expect_silence(s, v);
  if (action == "expect_pong") return expect_pong(s, w, v);
  if (action == "expect_close") return expect_close(s, v, step_id);
  return StepOutcome::error("unknown x-ws action '" + action + "'");
}

}  // namespace a2a::bindings
