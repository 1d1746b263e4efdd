#include "runner/bindings/http/http_exchange.hpp"

#include <algorithm>

#include "runner/a2a/methods.hpp"
#include "runner/a2a/v03.hpp"
#include "runner/core/escape.hpp"
#include "runner/engine/discovery.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/match/assert.hpp"
#include "runner/match/match_result.hpp"
#include "runner/wire/sse.hpp"

namespace a2a::bindings::http {

namespace {
constexpr size_t kMaxEvents = 10000;       // a stream beyond this is cut (and fails)
constexpr size_t kMaxWhole = 16u << 20;    // a non-SSE answer to a streaming call
constexpr size_t kMaxViolations = 8;
}  // namespace

std::string url_problem(const std::string& url) {
  auto u = transport::Url::parse(url);
  return u ? std::string() : u.error().message;
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

namespace {

// get_agent_card: the public card of the --url base (not an RPC).
OpResult agent_card_operation(Session& s, core::Deadline d) {
  OpResult r;
  r.binding = s.binding();
  auto base = transport::Url::parse(s.config->target_url);
  if (!base) {
    r.problem = "--url is not a URL: " + base.error().message;
    return r;
  }
  auto url = engine::agent_card_url(*base);
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

}  // namespace a2a::bindings::http
