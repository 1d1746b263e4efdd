#include "runner/engine/http_ops.hpp"

#include <algorithm>

#include "runner/a2a/methods.hpp"
#include "runner/a2a/v03.hpp"
#include "runner/core/escape.hpp"
#include "runner/engine/discovery.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/match/assert.hpp"
#include "runner/match/match_result.hpp"
#include "runner/wire/sse.hpp"

namespace a2a::engine {

namespace http_detail {

namespace {
constexpr size_t kMaxEvents = 10000;       // a stream beyond this is cut (and fails)
constexpr size_t kMaxWhole = 16u << 20;    // a non-SSE answer to a streaming call
constexpr size_t kMaxViolations = 8;
}  // namespace

Json with_tenant(const Session& s, const Json& params) {
  Json p = params;
  if (s.target && !s.target->tenant.empty() && p.is_object() && !p.contains("tenant"))
    p["tenant"] = s.target->tenant;
  return p;
}

transport::Url interface_url(const Session& s) {
  auto u = transport::Url::parse(s.target->url);
  return u ? *u : transport::Url{};
}

transport::HttpRequest make_request(const Session& s, std::string method, std::string target, bool streaming,
                                    const std::optional<std::string>& body) {
  transport::HttpRequest req;
  req.method = std::move(method);
  req.target = std::move(target);
  // A 0.3 client sends no A2A-Version (the header is 1.0's; a2a-protocol.md §1).
  if (!(s.target && s.target->is_v03())) req.headers.emplace_back("A2A-Version", s.a2a_version());
  req.headers.emplace_back("Accept", streaming ? "text/event-stream" : "application/json");
  for (const auto& h : s.config->http_headers) req.headers.push_back(h);
  if (body) {
    req.headers.emplace_back("Content-Type", "application/json");
    req.body = *body;
  }
  return req;
}

void add_violation(OpResult& r, std::string what) {
  if (r.violations.size() >= kMaxViolations) return;
  if (std::find(r.violations.begin(), r.violations.end(), what) == r.violations.end())
    r.violations.push_back(std::move(what));
}

bool is_json_type(const std::string& ct) { return ct == "application/json" || ct == "application/a2a+json"; }

std::string media_type(const transport::HeaderList& headers) {
  std::string ct = transport::find_header(headers, "Content-Type").value_or("");
  ct = ct.substr(0, ct.find(';'));
  while (!ct.empty() && ct.back() == ' ') ct.pop_back();
  std::transform(ct.begin(), ct.end(), ct.begin(), [](unsigned char c) { return std::tolower(c); });
  return ct;
}

void note_cut_body(OpResult& r) {
  std::string cut = "the HTTP " + std::to_string(r.http_status) + " body did not end within " +
                    std::to_string(transport::HttpLimits{}.max_body >> 20) + " MiB; the rest was not read";
  if (r.status == OpResult::Status::kNoResponse)
    r.problem = cut + "; " + r.problem;
  else
    add_violation(r, cut);
}

void v03_notes(OpResult& r, const std::vector<std::string>& notes, const std::string& what) {
  for (const auto& n : notes)
    add_violation(r, "A2A 0.3 " + what + " (a2a-protocol.md §9.1): " + n);
}

// The 0.3 stream's end (§9.1 "End of stream"): the last status-update carries
// final:true and nothing follows an event that does.
void check_v03_final(OpResult& r, const std::vector<bool>& is_status, const std::vector<bool>& finals) {
  std::optional<size_t> last_status, first_final;
  for (size_t i = 0; i < is_status.size(); ++i) {
    if (is_status[i]) last_status = i;
    if (finals[i] && !first_final) first_final = i;
  }
  if (first_final && *first_final + 1 < is_status.size())
    add_violation(r, "A2A 0.3 stream (a2a-protocol.md §9.1 \"End of stream\"): " +
                         std::to_string(is_status.size() - *first_final - 1) +
                         " event(s) follow the status-update with final:true (event " +
                         std::to_string(*first_final) + ")");
  if (last_status && !finals[*last_status])
    add_violation(r, "A2A 0.3 stream (a2a-protocol.md §9.1 \"End of stream\"): the last status-update (event " +
                         std::to_string(*last_status) + ") lacks final:true");
}

namespace {

void failed(Session& s, OpResult& r, const core::Error& e, const std::string& what) {
  r.status = OpResult::Status::kNoResponse;
  r.deadline_hit = s.deadline.expired();
  r.problem = what + ": " + e.message;
}

}  // namespace

std::optional<transport::HttpResponse> exchange(Session& s, const transport::Url& url,
                                                const transport::HttpRequest& req, core::Deadline d,
                                                OpResult& r) {
  auto lease = s.http->acquire(url);
  auto resp = lease->request(req, d);
  if (!resp) {
    failed(s, r, resp.error(), req.method + " " + url.origin() + req.target + " got no complete response");
    return std::nullopt;
  }
  r.http_status = resp->status;
  r.http_headers = resp->headers;
  return std::move(*resp);
}

bool stream_exchange(Session& s, const transport::Url& url, const transport::HttpRequest& req, core::Deadline d,
                     OpResult& r, const std::function<void(const std::string&)>& on_data, std::string& whole,
                     bool& collected) {
  auto lease = s.http->acquire(url);
  wire::SseParser parser;
  std::vector<wire::SseEvent> evs;
  size_t count = 0;
  bool cut = false;  // we stopped reading: the agent's last bytes prove nothing
  collected = false;
  auto on_head = [&](const transport::HttpResponse& head) {
    r.http_status = head.status;
    r.http_headers = head.headers;
    std::string ct = head.content_type();
    bool ok2xx = head.status >= 200 && head.status < 300;
    collected = !ok2xx || is_json_type(ct);
    if (!collected && ct != "text/event-stream")
      add_violation(r, "a streaming response must be Content-Type text/event-stream (a2a-protocol.md §4.5), got '" +
                           ct + "'");
    return true;
  };
  auto on_bytes = [&](std::string_view bytes) {
    if (collected) {
      if (whole.size() + bytes.size() > kMaxWhole) {
        cut = true;
        add_violation(r, "the response body did not end within " + std::to_string(kMaxWhole >> 20) +
                             " MiB; the rest was not read");
        return false;
      }
      whole.append(bytes);
      return true;
    }
    evs.clear();
    auto err = parser.feed(bytes, evs);
    for (const auto& ev : evs) {
      on_data(ev.data);
      if (++count >= kMaxEvents) {
        cut = true;
        add_violation(r, "the stream did not end within " + std::to_string(kMaxEvents) +
                             " events; the rest was not read");
        return false;
      }
    }
    if (err != wire::SseError::kNone) {
      add_violation(r, "the SSE stream is broken: " + std::string(wire::to_string(err)));
      return false;
    }
    return true;
  };
  auto res = lease->stream(req, d, on_head, on_bytes);
  if (!res) {
    std::string what = r.http_status == 0 ? req.method + " " + url.origin() + req.target + " got no response"
                                          : "the stream did not end properly after " +
                                                std::to_string(r.events.size() + r.stream_errors.size()) +
                                                " event(s)";
    failed(s, r, res.error(), what);
    return false;
  }
  if (res->truncated && !cut) {
    cut = true;
    add_violation(r, "the stream did not end within " + std::to_string(transport::HttpLimits{}.max_body >> 20) +
                         " MiB; the rest was not read");
  }
  if (!collected && !cut && parser.has_partial_event())
    add_violation(r, "the SSE stream ended in the middle of an event (no closing blank line)");
  return true;
}

}  // namespace http_detail

namespace {

using namespace http_detail;

bool same_id(const Json& j, const Json& id) { return j.contains("id") && match::strictly_equal(j["id"], id); }

void check_envelope(OpResult& r, const Json& j, const Json& id, const std::string& where) {
  if (!j.contains("jsonrpc") || j["jsonrpc"] != "2.0")
    add_violation(r, where + " lacks \"jsonrpc\": \"2.0\" (JSON-RPC 2.0 §5)");
  if (j.contains("result") && j.contains("error"))
    add_violation(r, where + " has both result and error (JSON-RPC 2.0 §5)");
  if (!same_id(j, id))
    add_violation(r, where + " has id " + match::compact(j.value("id", Json()), 60) + ", the request's is " +
                         match::compact(id));
}

// A whole body that must be one JSON-RPC response to request `id`.
void take_jsonrpc_body(OpResult& r, const std::string& body, const Json& id) {
  std::string why;
  Json j = jsonrpc::parse_json(body, &why).value_or(Json(Json::value_t::discarded));
  if (j.is_discarded() || !j.is_object() || (!j.contains("result") && !j.contains("error"))) {
    r.status = OpResult::Status::kNoResponse;
    r.problem = "HTTP " + std::to_string(r.http_status) + " body is not a JSON-RPC response" +
                (why.empty() ? "" : " (not JSON: " + why + ")") + ": " + core::escape_bytes(body, 200);
    return;
  }
  check_envelope(r, j, id, "the response");
  if (j.contains("error")) {
    r.status = OpResult::Status::kError;
    r.error = j["error"];
    r.error_status = r.http_status;
  } else {
    r.status = OpResult::Status::kResult;
    r.result = j["result"];
  }
}

void check_json_type(OpResult& r) {
  if (media_type(r.http_headers) != "application/json")
    add_violation(r, "a JSON-RPC response must be Content-Type application/json (A2A spec §9), got '" +
                         transport::find_header(r.http_headers, "Content-Type").value_or("") + "'");
}

// A stream: each SSE data a JSON-RPC response with our id.
void jsonrpc_stream(Session& s, const transport::Url& url, const transport::HttpRequest& req, const Json& id,
                    core::Deadline d, OpResult& r) {
  auto on_data = [&](const std::string& data) {
    std::string why;
    Json j = jsonrpc::parse_json(data, &why).value_or(Json(Json::value_t::discarded));
    if (j.is_discarded() || !j.is_object() || (!j.contains("result") && !j.contains("error"))) {
      add_violation(r, "SSE data is not a JSON-RPC response (a2a-protocol.md §4.5)" +
                           (why.empty() ? "" : " (not JSON: " + why + ")") + ": " + core::escape_bytes(data, 120));
      return;
    }
    check_envelope(r, j, id, "a stream event");
    if (j.contains("error")) r.stream_errors.push_back(j["error"]);
    else r.events.push_back(j["result"]);
  };
  std::string whole;
  bool collected = false;
  if (!stream_exchange(s, url, req, d, r, on_data, whole, collected)) return;
  if (collected) {
    check_json_type(r);
    take_jsonrpc_body(r, whole, id);
    if (r.status == OpResult::Status::kResult)
      add_violation(r, "a streaming call was answered with one application/json result, not an SSE stream");
    return;
  }
  r.status = OpResult::Status::kResult;
  if (r.events.empty() && !r.stream_errors.empty()) {
    // An error sent as the only SSE event (Go does this): the call failed.
    r.status = OpResult::Status::kError;
    r.error = r.stream_errors.front();
    r.stream_errors.erase(r.stream_errors.begin());
  }
}

OpResult jsonrpc_operation(Session& s, model::Operation op, const Json& params, core::Deadline d) {
  OpResult r;
  r.binding = "jsonrpc";
  Json id = s.fresh_id();
  r.request_id = id;
  bool streaming = model::is_streaming(op);
  Json env = jsonrpc::make_request(id, model::method_name(op, model::MethodNaming::kV1), with_tenant(s, params));
  auto url = interface_url(s);
  auto req = make_request(s, "POST", url.target(), streaming, jsonrpc::dump(env));
  if (streaming) {
    jsonrpc_stream(s, url, req, id, d, r);
    return r;
  }
  auto resp = exchange(s, url, req, d, r);
  if (!resp) return r;
  check_json_type(r);
  take_jsonrpc_body(r, resp->body, id);
  if (resp->truncated) note_cut_body(r);
  return r;
}

// --- the A2A 0.3 profile (docs/a2a-0.3.md "Runner") ---------------------------

// 1.0 abstract operation -> 0.3 JSON-RPC (slash method, 0.3 params, no
// A2A-Version) -> the 0.3 answer translated back to 1.0, so the 1.0
// assertions apply; every translation note is a violation.
OpResult jsonrpc_v03_operation(Session& s, model::Operation op, const Json& params, core::Deadline d) {
  OpResult r;
  r.binding = "jsonrpc";
  auto method = model::v03::v03_method(op);
  if (!method) {
    r.problem = "operation " + std::string(model::method_name(op, model::MethodNaming::kV1)) +
                " has no A2A 0.3 JSON-RPC method (a2a-protocol.md §9.1)";
    return r;
  }
  Json id = s.fresh_id();
  r.request_id = id;
  bool streaming = model::is_streaming(op);
  auto p = model::v03::params_to_v03(op, params);
  if (!p.notes.empty() && s.transcript) {
    std::string all;
    for (const auto& n : p.notes) all += (all.empty() ? "" : "; ") + n;
    s.transcript->note("the request's 1.0 params do not fit A2A 0.3 exactly: " + all);
  }
  Json env = jsonrpc::make_request(id, std::string(*method), p.json);
  auto url = interface_url(s);
  auto req = make_request(s, "POST", url.target(), streaming, jsonrpc::dump(env));
  if (streaming) {
    jsonrpc_stream(s, url, req, id, d, r);
    if (r.status == OpResult::Status::kNoResponse) return r;
    std::vector<bool> is_status, finals;
    for (auto& ev : r.events) {
      bool status_update = ev.is_object() && ev.value("kind", Json()) == "status-update";
      auto t = model::v03::event_to_v1(ev);
      v03_notes(r, t.notes, "stream event");
      is_status.push_back(status_update);
      finals.push_back(t.final);
      ev = std::move(t.json);
    }
    for (auto& e : r.stream_errors) {
      auto t = model::v03::error_to_v1(e);
      v03_notes(r, t.notes, "stream error");
      e = std::move(t.json);
    }
    if (r.status == OpResult::Status::kResult && r.events.empty() && r.result.is_object()) {
      // One application/json answer instead of a stream (already a violation).
      auto t = model::v03::result_to_v1(op, r.result);
      v03_notes(r, t.notes, "result");
      r.result = std::move(t.json);
    }
    check_v03_final(r, is_status, finals);
  } else {
    auto resp = exchange(s, url, req, d, r);
    if (!resp) return r;
    check_json_type(r);
    take_jsonrpc_body(r, resp->body, id);
    if (resp->truncated) note_cut_body(r);
    if (r.status == OpResult::Status::kResult) {
      auto t = model::v03::result_to_v1(op, r.result);
      v03_notes(r, t.notes, "result");
      r.result = std::move(t.json);
    }
  }
  if (r.status == OpResult::Status::kError) {
    auto t = model::v03::error_to_v1(r.error);
    v03_notes(r, t.notes, "error");
    r.error = std::move(t.json);
  }
  return r;
}

// get_agent_card: the public card of the --url base (not an RPC).
OpResult agent_card_operation(Session& s, core::Deadline d) {
  OpResult r;
  r.binding = s.binding();
  auto base = transport::Url::parse(s.config->target_url);
  if (!base) {
    r.problem = "--url is not a URL: " + base.error().message;
    return r;
  }
  auto url = agent_card_url(*base);
  transport::HttpRequest req;
  req.target = url.target();
  bool v03 = s.target && s.target->is_v03();
  req.headers = {{"Accept", "application/json"}};
  if (!v03) req.headers.emplace_back("A2A-Version", s.a2a_version());
  auto resp = exchange(s, url, req, d, r);
  if (!resp) return r;
  Json j = jsonrpc::parse_json_or_discarded(resp->body);
  if (resp->status == 200 && !j.is_discarded()) {
    r.status = OpResult::Status::kResult;
    r.result = j;
    if (v03 && j.is_object() && !j.contains("supportedInterfaces")) {
      // A 0.3 card, read as 1.0 (a2a-protocol.md §9.3) for the card assertions.
      auto t = model::v03::card_to_v1(j);
      v03_notes(r, t.notes, "agent card");
      r.result = std::move(t.json);
    }
    return r;
  }
  r.status = OpResult::Status::kError;
  r.error_status = resp->status;
  r.error = {{"code", resp->status}, {"message", core::escape_bytes(resp->body, 200)}};
  if (resp->status == 200) add_violation(r, "the agent card is not JSON: " + core::escape_bytes(resp->body, 120));
  return r;
}

}  // namespace

OpResult fetch_card_operation(Session& s, core::Deadline d) { return agent_card_operation(s, d); }

OpResult call_http_operation(Session& s, const std::string& operation, const Json& params, core::Deadline d) {
  if (operation == "get_agent_card") return agent_card_operation(s, d);
  if (s.binding() == "rest") {
    if (s.target && s.target->is_v03()) return rest_v03_operation(s, operation, params, d);
    return rest_operation(s, operation, params, d);
  }
  auto op = model::operation_from_acts(operation);
  OpResult r;
  r.binding = s.binding();
  if (!op) {
    r.problem = "operation " + operation + " has no JSON-RPC method";
    return r;
  }
  if (s.target && s.target->is_v03()) return jsonrpc_v03_operation(s, *op, params, d);
  return jsonrpc_operation(s, *op, params, d);
}

}  // namespace a2a::engine
