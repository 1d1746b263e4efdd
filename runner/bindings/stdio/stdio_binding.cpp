// The stdio binding (docs/stdio-binding.md, profiles p46 and stdio-json):
// one JSON-RPC request with the profile's method name on the agent's stdin,
// then the response with our id (unary) or the profile's stream events and
// its end (streaming), read from the session's AgentConnection. Every
// departure from the envelope rules is a violation (P46 §3.5-3.6).
#include "runner/bindings/stdio/stdio_binding.hpp"

#include "runner/engine/operations.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/match/assert.hpp"
#include "runner/match/error_expect.hpp"
#include "runner/match/match_result.hpp"

namespace a2a::bindings {

using engine::InboxFrame;
using engine::OpResult;
using engine::Session;
using Json = nlohmann::json;


namespace {

bool has_id(const Json& j, const Json& id) {
  return j.is_object() && j.contains("id") && !j.contains("method") &&
         match::strictly_equal(j["id"], id);
}

bool is_notification(const Json& j, std::string_view method) {
  return j.is_object() && !j.contains("id") && j.contains("method") && j["method"].is_string() &&
         j["method"].get<std::string>() == method;
}

void check_envelope(const Json& j, std::vector<std::string>& violations) {
  if (!j.contains("jsonrpc") || j["jsonrpc"] != "2.0")
    violations.push_back("response lacks \"jsonrpc\": \"2.0\" (JSON-RPC 2.0 §5)");
  if (j.contains("result") && j.contains("error"))
    violations.push_back("response has both result and error (JSON-RPC 2.0 §5)");
  if (!j.contains("result") && !j.contains("error"))
    violations.push_back("response has neither result nor error (JSON-RPC 2.0 §5)");
}

void no_response(OpResult& r, Session& s, const std::string& what, core::Deadline deadline) {
  r.status = OpResult::Status::kNoResponse;
  std::string why = s.conn->why();
  r.deadline_hit = s.deadline.expired();
  r.problem = what + (why.empty() ? " before the step deadline" : ": " + why);
  std::string pend = engine::describe_pending(*s.conn);
  if (!pend.empty()) r.problem += "; " + pend;
}

bool is_response(const InboxFrame& fr) {
  return fr.json && fr.json->is_object() && fr.json->contains("id") && !fr.json->contains("method");
}

// The frame the call waits for (`want`). With Session::single_flight any
// response is taken too: one of a call given up earlier is a late answer
// (dropped); any other has an id no request in flight has, and ends the
// call at once (r.stray_answer). Bounded by the deadline and the inbox.
std::optional<InboxFrame> take_for(Session& s, const std::function<bool(const InboxFrame&)>& want,
                                   core::Deadline deadline, OpResult& r) {
  if (!s.single_flight) return s.conn->take(want, deadline);
  for (;;) {
    auto f = s.conn->take([&](const InboxFrame& fr) { return want(fr) || is_response(fr); }, deadline);
    if (!f || want(*f)) return f;
    const Json& got = (*f->json)["id"];
    bool late = false;
    for (const auto& old : s.given_up_ids) late = late || match::strictly_equal(got, old);
    if (late) continue;
    r.stray_answer = f->body;
    return std::nullopt;
  }
}

// No answer of ours: a stray response ended the wait, or nothing came.
void not_answered(OpResult& r, Session& s, const Json& id, const std::string& what, core::Deadline deadline) {
  if (r.stray_answer.empty()) return no_response(r, s, what, deadline);
  r.status = OpResult::Status::kNoResponse;
  r.problem = "a response with an id no request in flight has came while request " + match::compact(id) +
              " waited (one request is in flight on this connection): " +
              match::compact(jsonrpc::parse_json_or_discarded(r.stray_answer), 300);
}

void take_final(OpResult& r, const Json& j, Session& s) {
  check_envelope(j, r.violations);
  if (j.contains("error")) {
    r.status = OpResult::Status::kError;
    r.error = j["error"];
    if (!r.events.empty())
      r.violations.push_back(
          "an error after stream events must be an " + s.profile().stream.error_method +
          " notification followed by the final result:null response (P46 §3.6), got an error "
          "response");
    return;
  }
  r.status = OpResult::Status::kResult;
  const Json& res = j.contains("result") ? j["result"] : Json();
  if (s.profile().stream.final == "result-null" && !res.is_null())
    r.violations.push_back("the final response of a stream must carry \"result\": null (P46 §3.6), got " +
                           match::compact(res, 120));
}

// stdio-json (stdio-binding.md §4): every event is a response {id, result},
// the end is {id, <end_member>: true}; an error response ends the stream by itself.
OpResult response_stream_call(Session& s, const Json& id, core::Deadline deadline) {
  OpResult r;
  r.request_id = id;
  const std::string& end = s.profile().stream.end_member;
  for (;;) {
    auto f = take_for(s, [&](const InboxFrame& fr) { return fr.json && has_id(*fr.json, id); }, deadline, r);
    if (!f) {
      not_answered(r, s, id,
                  "stream did not end: no " + end + " with id " + match::compact(id) + " after " +
                      std::to_string(r.events.size()) + " event(s)",
                  deadline);
      return r;
    }
    const Json& j = *f->json;
    if (!j.contains("jsonrpc") || j["jsonrpc"] != "2.0")
      r.violations.push_back("stream frame lacks \"jsonrpc\": \"2.0\" (JSON-RPC 2.0 §5)");
    if (j.contains(end)) {
      if (j[end] != true) r.violations.push_back("\"" + end + "\" must be true, got " + match::compact(j[end]));
      if (j.contains("result") || j.contains("error"))
        r.violations.push_back("the " + end + " frame carries result or error (stdio-json §4)");
      r.status = OpResult::Status::kResult;
      return r;
    }
    if (j.contains("error")) {
      r.status = OpResult::Status::kError;
      r.error = j["error"];
      return r;
    }
    if (!j.contains("result")) {
      r.violations.push_back("stream frame with id " + match::compact(id) + " has neither result, error nor " + end);
      continue;
    }
    r.events.push_back(j["result"]);
  }
}

OpResult stream_call(Session& s, const Json& id, core::Deadline deadline) {
  if (s.profile().stream.final == "stream-end") return response_stream_call(s, id, deadline);
  OpResult r;
  r.request_id = id;
  const auto& st = s.profile().stream;
  for (;;) {
    auto f = take_for(
        s,
        [&](const InboxFrame& fr) {
          if (!fr.json) return false;
          return has_id(*fr.json, id) || is_notification(*fr.json, st.event_method) ||
                 is_notification(*fr.json, st.error_method);
        },
        deadline, r);
    if (!f) {
      not_answered(r, s, id,
                  "stream did not end: no final response with id " + match::compact(id) +
                      " after " + std::to_string(r.events.size()) + " event(s)",
                  deadline);
      return r;
    }
    const Json& j = *f->json;
    if (has_id(j, id)) {
      take_final(r, j, s);
      return r;
    }
    if (j["method"] == st.error_method) {
      r.stream_errors.push_back(j.value("params", Json()));
      continue;
    }
    if (!j.contains("jsonrpc") || j["jsonrpc"] != "2.0")
      r.violations.push_back("stream notification lacks \"jsonrpc\": \"2.0\"");
    r.events.push_back(j.value("params", Json()));
  }
}

OpResult unary_call(Session& s, const Json& id, core::Deadline deadline) {
  OpResult r;
  r.request_id = id;
  auto f = take_for(s, [&](const InboxFrame& fr) { return fr.json && has_id(*fr.json, id); }, deadline, r);
  if (!f) {
    not_answered(r, s, id, "no response with id " + match::compact(id), deadline);
    return r;
  }
  const Json& j = *f->json;
  check_envelope(j, r.violations);
  if (j.contains("error")) {
    r.status = OpResult::Status::kError;
    r.error = j["error"];
  } else {
    r.status = OpResult::Status::kResult;
    r.result = j.value("result", Json());
  }
  return r;
}

}  // namespace

namespace {

OpResult stdio_call(Session& s, const std::string& operation, const Json& params, core::Deadline deadline) {
  if (!s.conn) {
    OpResult r;
    r.binding = "stdio";
    r.problem = "no agent process: the stdio binding needs --agent";
    return r;
  }
  std::string method = s.profile().method(operation);
  Json id = s.fresh_id();
  Json req = jsonrpc::make_request(id, method, params);
  auto sent = s.conn->send(s.frame(jsonrpc::dump(req)), deadline);
  if (!sent) {
    OpResult r;
    r.request_id = id;
    // A closed stdin usually means the agent exited; its stdout may still hold
    // the real cause (a truncated frame, an exit status). Give the reader a
    // short, bounded moment to reach EOF so the reason names it.
    if (sent.error().kind == core::ErrorKind::kBrokenPipe)
      s.conn->wait_eof(deadline.min(core::Deadline::after(core::Millis(1000))));
    no_response(r, s, "could not write the " + method + " request (" + sent.error().message + ")",
                deadline);
    return r;
  }
  return engine::is_streaming_operation(operation) ? stream_call(s, id, deadline)
                                           : unary_call(s, id, deadline);
}

}  // namespace

engine::OperationBinding stdio_operation_binding() {
  engine::OperationBinding b;
  b.key = "stdio";
  b.title = "stdio";  // no card_name: an agent process is not an interface a card lists
  b.check_url = [](const std::string&) { return std::string("the stdio binding reaches an agent process, not a URL"); };
  b.call = stdio_call;
  return b;
}

}  // namespace a2a::bindings
