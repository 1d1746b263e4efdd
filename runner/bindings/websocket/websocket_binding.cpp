#include "runner/bindings/websocket/websocket_binding.hpp"

#include <deque>
#include <mutex>

#include "runner/a2a/methods.hpp"
#include "runner/bindings/http/http_exchange.hpp"
#include "runner/bindings/websocket/websocket_state.hpp"
#include "runner/bindings/websocket/websocket_steps.hpp"
#include "runner/bindings/websocket/ws_scripted_agent.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/match/assert.hpp"
#include "runner/match/error_expect.hpp"
#include "runner/match/match_result.hpp"
#include "runner/transport/transcript.hpp"
#include "runner/transport/ws_client.hpp"

namespace a2a::bindings {

namespace {

using engine::OpResult;
using engine::Session;
using Json = nlohmann::json;

constexpr size_t kMaxEvents = 10000;  // a stream beyond this is cut (and fails)

using wsb::WsState;

constexpr size_t kMaxFinished = 256;
// How long a stream's connection is watched after its completion frame for
// frames that follow it (the agent writes them in the same burst); not at
// all when the session says not to (Session::watch_after_stream: load runs,
// whose next call takes them).
constexpr int kLateGraceMs = 250;

// One connection per scenario (websocket_state.hpp), opened at the first operation.
std::shared_ptr<transport::WsConnection> connection(Session& s, core::Deadline d, OpResult& r) {
  std::string why;
  auto c = wsb::connection(s, d, why);
  if (c) return c;
  r.status = OpResult::Status::kNoResponse;
  r.deadline_hit = s.deadline.expired();
  r.problem = "could not open the WebSocket connection: " + why;
  return nullptr;
}

void add_violation(OpResult& r, std::string what) {
  if (r.violations.size() >= 8) return;
  if (std::find(r.violations.begin(), r.violations.end(), what) == r.violations.end())
    r.violations.push_back(std::move(what));
}

Json parse(const transport::WsFrame& f) { return jsonrpc::parse_json_or_discarded(f.payload); }

bool answers(const transport::WsFrame& f, const Json& id) {
  Json j = parse(f);
  return j.is_object() && !j.contains("method") && j.contains("id") && match::strictly_equal(j["id"], id);
}

std::string describe_pending(transport::WsConnection& c) {
  auto frames = c.pending(3);
  if (frames.empty()) return {};
  std::string out = std::to_string(c.unconsumed()) + " unconsumed frame(s) from the agent: ";
  for (size_t i = 0; i < frames.size(); ++i)
    out += (i ? "; " : "") + std::string(frames[i].text ? "" : "(binary) ") + core::escape_bytes(frames[i].payload, 160);
  return out;
}

WsState* state(Session& s) { return dynamic_cast<WsState*>(s.binding_state.get()); }

// Frames with the id of an answered request (a second response, events or a
// completion after the final frame): one violation each. JSON-RPC 2.0 §5
// gives a request one response; on this binding a stream's frames end with
// its completion or its error frame (docs/websocket.md).
void take_late_frames(Session& s, transport::WsConnection& c, OpResult& r, core::Deadline until) {
  auto* st = state(s);
  if (!st) return;
  std::deque<Json> done;
  {
    std::lock_guard<std::mutex> lk(st->finished_mu);
    done = st->finished;
  }
  if (done.empty()) return;
  auto late = [&](const transport::WsFrame& f) {
    Json j = parse(f);
    if (!j.is_object() || j.contains("method") || !j.contains("id")) return false;
    for (const auto& id : done)
      if (match::strictly_equal(j["id"], id)) return true;
    return false;
  };
  for (int i = 0; i < 8; ++i) {
    auto f = c.take(late, until);
    if (!f) return;
    if (s.transcript) s.transcript->add(transport::Direction::kFromPeer, f->payload);
    add_violation(r, "a frame came for request id " + match::compact(parse(*f)["id"]) +
                         " after its final frame (one response per request, JSON-RPC 2.0 §5; a stream ends at "
                         "its completion or error frame, docs/websocket.md): " +
                         core::escape_bytes(f->payload, 160));
  }
}

void mark_finished(Session& s, const Json& id) {
  auto* st = state(s);
  if (!st) return;
  std::lock_guard<std::mutex> lk(st->finished_mu);
  st->finished.push_back(id);
  if (st->finished.size() > kMaxFinished) st->finished.pop_front();
}

void no_response(OpResult& r, Session& s, transport::WsConnection& c, const std::string& what) {
  r.status = OpResult::Status::kNoResponse;
  r.deadline_hit = s.deadline.expired();
  r.problem = what + (c.closed() ? ": " + c.why() : " before the step deadline");
  r.close_code = c.closed() ? c.close_code() : 0;  // 1013 "try again later": engine::shed_signal
  if (auto pend = describe_pending(c); !pend.empty()) r.problem += "; " + pend;
}

// The frame with our id, recorded and checked as a JSON-RPC 2.0 response.
Json take_answer(Session& s, transport::WsConnection& c, const Json& id, core::Deadline d, OpResult& r, bool& got) {
  auto f = c.take([&](const transport::WsFrame& fr) { return answers(fr, id); }, d);
  got = f.has_value();
  if (!f) return Json();
  if (s.transcript) s.transcript->add(transport::Direction::kFromPeer, (f->text ? "" : "(binary frame) ") + f->payload);
  if (!f->text)
    add_violation(r, "the answer came in a binary frame; JSON-RPC messages travel in text frames (docs/websocket.md)");
  Json j = parse(*f);
  if (!j.contains("jsonrpc") || j["jsonrpc"] != "2.0")
    add_violation(r, "a response lacks \"jsonrpc\": \"2.0\" (JSON-RPC 2.0 §5)");
  if (j.contains("result") && j.contains("error"))
    add_violation(r, "a response has both result and error (JSON-RPC 2.0 §5)");
  if (!j.contains("result") && !j.contains("error"))
    add_violation(r, "a response has neither result nor error (JSON-RPC 2.0 §5)");
  return j;
}

bool is_completion(const Json& result) {
  return result.is_object() && result.size() == 1 && result.value("status", Json()) == "stream_complete";
}

void read_unary(Session& s, transport::WsConnection& c, const Json& id, core::Deadline d, OpResult& r) {
  bool got = false;
  Json j = take_answer(s, c, id, d, r, got);
  if (!got) return no_response(r, s, c, "no response with id " + match::compact(id));
  if (j.contains("error")) {
    r.status = OpResult::Status::kError;
    r.error = j["error"];
  } else {
    r.status = OpResult::Status::kResult;
    r.result = j.value("result", Json());
  }
}

void read_stream(Session& s, transport::WsConnection& c, const Json& id, core::Deadline d, OpResult& r) {
  while (r.events.size() < kMaxEvents) {
    bool got = false;
    Json j = take_answer(s, c, id, d, r, got);
    if (!got)
      return no_response(r, s, c,
                         "the stream did not end: no {\"status\": \"stream_complete\"} result with id " +
                             match::compact(id) + " after " + std::to_string(r.events.size()) + " event(s)");
    if (j.contains("error")) {
      // Before any event: the call failed. After some: the stream ended with
      // an error, and no completion follows (docs/websocket.md).
      if (r.events.empty()) {
        r.status = OpResult::Status::kError;
        r.error = j["error"];
        return;
      }
      r.stream_errors.push_back(j["error"]);
      r.status = OpResult::Status::kResult;
      engine::check_stream_closes_at_terminal(r);
      return;
    }
    Json res = j.value("result", Json());
    if (is_completion(res)) {
      r.status = OpResult::Status::kResult;
      engine::check_stream_closes_at_terminal(r);
      return;
    }
    r.events.push_back(std::move(res));
  }
  r.status = OpResult::Status::kResult;
  add_violation(r, "the stream did not end within " + std::to_string(kMaxEvents) + " events; the rest was not read");
}

OpResult ws_call(Session& s, const std::string& operation, const Json& params, core::Deadline d) {
  if (operation == "get_agent_card") {
    // The card is served over HTTP at --url (docs/websocket.md).
    OpResult r = http::fetch_card_operation(s, d);
    r.binding = "websocket";
    return r;
  }
  OpResult r;
  r.binding = "websocket";
  auto op = model::operation_from_acts(operation);
  if (!op) {
    r.problem = "operation " + operation + " has no WebSocket (JSON-RPC) method";
    return r;
  }
  auto c = connection(s, d, r);
  if (!c) return r;
  // A signal ends the call now (a2a-conform load): the connection is given up.
  engine::CallInterrupter::Registration stop_on_signal;
  if (s.interrupter) stop_on_signal = s.interrupter->on_interrupt([c] { c->abort("interrupted by the runner"); });
  Json id = s.fresh_id();
  r.request_id = id;
  std::string text = jsonrpc::dump(
      jsonrpc::make_request(id, std::string(model::method_name(*op, model::MethodNaming::kV1)), engine::with_tenant(s, params)));
  if (s.transcript) s.transcript->add(transport::Direction::kToPeer, text);
  if (auto sent = c->send(text, true, d); !sent) {
    no_response(r, s, *c, "could not write the request (" + sent.error().message + ")");
    return r;
  }
  // Frames that came late for earlier requests count against this step.
  take_late_frames(s, *c, r, core::Deadline::after(core::Millis(0)));
  bool streaming = model::is_streaming(*op);
  if (streaming) read_stream(s, *c, id, d, r);
  else read_unary(s, *c, id, d, r);
  if (r.status != OpResult::Status::kNoResponse) {
    mark_finished(s, id);
    // Anything the agent wrote with this id after the final frame, in the
    // same burst (bounded by the step's deadline).
    auto grace = core::Deadline::after(core::Millis(streaming && s.watch_after_stream ? kLateGraceMs : 0)).min(d);
    take_late_frames(s, *c, r, grace);
  }
  return r;
}

}  // namespace

engine::OperationBinding websocket_operation_binding() {
  engine::OperationBinding b;
  b.key = "websocket";
  b.card_name = "WEBSOCKET";
  b.title = "WebSocket (JSON-RPC, a2a-rust)";
  b.check_url = [](const std::string& url) -> std::string {
    auto u = transport::WsUrl::parse(url);
    return u ? "" : u.error().message;
  };
  b.call = ws_call;
  b.wire_step = websocket_step;
  b.scripted_agent = start_ws_scripted_agent;
  return b;
}

}  // namespace a2a::bindings
