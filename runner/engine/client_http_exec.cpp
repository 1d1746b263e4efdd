// x-expect-request and x-reply on the HTTP bindings: the scripted server's
// queued requests are judged and answered here (JSON bodies, statuses, SSE
// streams with delays, cut mid-event or never ending).
#include <thread>

#include "runner/core/escape.hpp"
#include "runner/core/ascii.hpp"
#include "runner/engine/client_exec.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/match/assert.hpp"
#include "runner/wire/sse.hpp"

namespace a2a::engine {

namespace {

// What the assertions of x-expect-request see over HTTP.
Json request_view(const transport::ServerRequest& r, const std::string& binding) {
  Json headers = Json::object();
  for (const auto& [k, v] : r.headers) headers[core::ascii_lower(k)] = v;
  Json body = jsonrpc::parse_json_or_discarded(r.body);
  Json view = {{"verb", r.method}, {"path", r.path()}, {"headers", headers},
               {"body", body.is_discarded() ? Json(r.body) : body}};
  if (binding == "jsonrpc" && body.is_object()) {
    view["method"] = body.value("method", Json());
    view["params"] = body.value("params", Json());
    view["id"] = body.value("id", Json());
  } else if (!body.is_discarded()) {
    view["params"] = body;
  }
  return view;
}

void pause(Session& s, int ms) {
  auto d = core::Deadline::after(s.scaled(ms)).min(s.deadline);
  while (!d.expired()) std::this_thread::sleep_for(std::min(d.remaining(), core::Millis(20)));
}

std::string sse_item(const Json& item, const Json& id, bool jsonrpc) {
  bool err = item.contains("error");
  Json data = item.contains("event") ? item["event"] : item.value("error", Json());
  if (jsonrpc) data = Json{{"jsonrpc", "2.0"}, {"id", id}, {err ? "error" : "result", data}};
  else if (err) data = Json{{"error", data}};
  return wire::encode_sse(jsonrpc::dump(data), err ? "error" : "");
}

StepOutcome stream_http(Session& s, transport::HttpExchange& ex, const Json& v, const Json& id, bool jsonrpc) {
  if (!ex.start_stream(v.value("status", 200), {{"Content-Type", "text/event-stream"}}))
    return StepOutcome::fail("the client closed the connection before the stream started");
  for (const auto& item : v.value("stream", Json::array())) {
    if (item.contains("delay_ms")) pause(s, item["delay_ms"].get<int>());
    bool raw = item.contains("raw") && item["raw"].is_string();
    if (!raw && !item.contains("event") && !item.contains("error")) continue;
    // `raw` is written as given: SSE edge cases (comments, multi-line data,
    // CRLF) that no encoder of ours would produce.
    std::string bytes = raw ? item["raw"].get<std::string>() : sse_item(item, id, jsonrpc);
    if (s.transcript) s.transcript->add(transport::Direction::kToPeer, bytes);
    if (!ex.write(bytes)) return StepOutcome::fail("the client closed the stream's connection early");
  }
  std::string end = v.value("end", "final");
  if (end == "cut") {
    ex.write("data: {\"jsonrpc\":\"2.0\",\"res");
    ex.abort();
  } else if (end == "final-other-id" && jsonrpc) {
    ex.write(wire::encode_sse(jsonrpc::dump({{"jsonrpc", "2.0"}, {"id", "other"}, {"result", nullptr}})));
    ex.end();
  } else if (end != "never") {
    ex.end();
  }
  return StepOutcome::pass();
}

}  // namespace

StepOutcome expect_request_http(Session& s, const Json& v, const std::string& step_id) {
  int ms = v.value("within_ms", 0);
  auto ex = s.client->server->take(s.step_deadline(ms));
  if (!ex) {
    auto st = s.client->process->process().poll_exit();
    std::string msg = "the client sent no request" + (st ? " (the client exited: " + st->str() + ")" : "");
    return s.deadline.expired() ? StepOutcome::timeout(msg) : StepOutcome::fail(msg);
  }
  s.client->last_exchange = ex;
  Json view = request_view(ex->request(), s.client->binding);
  s.client->last_http_id = view.value("id", Json());
  {
    std::lock_guard lk(s.vars_mu);
    s.vars.set_capture(step_id, "id", s.client->last_http_id);
    s.vars.set_capture(step_id, "request", view);
  }
  match::MatchResult m;
  for (const char* k : {"method", "params", "headers", "path"})
    if (v.contains(k)) m.merge(match::match_optional(view.contains(k) ? &view[k] : nullptr, v[k], k));
  return from_match(m, "client request");
}

StepOutcome reply_http(Session& s, const scenario::WireAction& w, const Json& v) {
  auto ex = s.client->last_exchange;
  if (!ex) return StepOutcome::error("x-reply without a request (x-expect-request first)");
  s.client->last_exchange.reset();
  if (v.contains("delay_ms")) pause(s, v["delay_ms"].get<int>());
  bool jsonrpc = s.client->binding == "jsonrpc";
  Json id = v.contains("id") ? v["id"] : s.client->last_http_id;
  if (v.contains("stream")) return stream_http(s, *ex, v, id, jsonrpc);
  transport::ServerReply r;
  r.status = v.value("status", 200);
  r.close = v.value("close", false);
  r.headers = {{"Content-Type", "application/json"}};
  if (v.contains("headers"))
    for (auto it = v["headers"].begin(); it != v["headers"].end(); ++it) r.headers.push_back({it.key(), match::show(it.value())});
  if (w.has_bytes) r.body = w.bytes;
  else if (v.contains("body")) r.body = jsonrpc::dump(v["body"]);
  else if (jsonrpc) r.body = jsonrpc::dump({{"jsonrpc", "2.0"}, {"id", id},
                                            {v.contains("error") ? "error" : "result", v.contains("error") ? v["error"] : v.value("result", Json())}});
  else if (v.contains("error")) {
    r.status = v.value("status", 500);
    r.body = jsonrpc::dump({{"error", v["error"]}});
  } else {
    r.body = jsonrpc::dump(v.value("result", Json()));
  }
  if (s.transcript) s.transcript->add(transport::Direction::kToPeer, std::to_string(r.status) + "\n" + r.body);
  ex->reply(std::move(r));
  return StepOutcome::pass();
}

}  // namespace a2a::engine
