#include "runner/engine/raw_exec.hpp"

#include <cctype>

#include "runner/core/ascii.hpp"
#include "runner/core/escape.hpp"
#include "runner/engine/discovery.hpp"
#include "runner/engine/operations.hpp"
#include "runner/engine/op_expect.hpp"
#include "runner/engine/step_exec.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/match/assert.hpp"
#include "runner/match/error_expect.hpp"
#include "runner/match/stream.hpp"
#include "runner/match/vars.hpp"
#include "runner/wire/sse.hpp"

namespace a2a::engine {

using scenario::Step;

namespace {

std::string text_of(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// ACTS §12.4: "If a request includes a message and no messageId is specified
// in the test, the runner MUST auto-generate" one. The official files rely on
// it in raw bodies too (JSON-RPC params.message, REST message), so it applies
// to structured `body` values; `body_raw` and `bytes` stay byte-exact.
Json with_message_id(Json body) {
  auto fill = [](Json& holder) {
    if (holder.is_object() && holder.contains("message") && holder["message"].is_object() &&
        !holder["message"].contains("messageId"))
      holder["message"]["messageId"] = core::uuid_v7();
  };
  if (body.is_object()) {
    fill(body);
    if (body.contains("params")) fill(body["params"]);
  }
  return body;
}

// The request of a structured raw step; `url` gets where it goes.
transport::HttpRequest build_request(const Session& s, const Json& spec, transport::Url& url) {
  std::string path = spec.value("path", "/");
  auto base = transport::Url::parse(s.config->target_url);
  url = path.starts_with("/.well-known/") && base ? *base : interface_url(s);
  if (path.starts_with("/.well-known/")) url.query.clear();
  url = url.join(path);
  transport::HttpRequest req;
  req.method = spec.value("method", "GET");
  req.target = url.target();
  if (spec.contains("headers") && spec["headers"].is_object())
    for (const auto& [k, v] : spec["headers"].items()) req.headers.emplace_back(k, text_of(v));
  if (spec.contains("body")) {
    req.body = jsonrpc::dump(with_message_id(spec["body"]));
    if (!transport::find_header(req.headers, "Content-Type"))
      req.headers.emplace_back("Content-Type", "application/json");
  } else if (spec.contains("body_raw")) {
    req.body = text_of(spec["body_raw"]);
  } else if (spec.contains("x-body-fill")) {
    const Json& f = spec["x-body-fill"];
    std::string fill = f.value("fill", "x");
    size_t size = f.value("size", size_t{0});
    req.body = f.value("prefix", "");
    req.body.reserve(req.body.size() + size + 64);
    for (size_t i = 0; i < size && !fill.empty(); ++i) req.body += fill[i % fill.size()];
    req.body += f.value("suffix", "");
  }
  return req;
}

struct RawResult {
  Json root;
  std::vector<Json> events;
};

// The expectations of a raw step (its own or a grade alternative's), resolved.
StepOutcome check_raw(Session& s, const Step& st, const RawResult& rr) {
  Step x;
  for (auto [src, dst] : {std::pair{&st.expect, &x.expect}, std::pair{&st.expect_error, &x.expect_error},
                          std::pair{&st.expect_stream, &x.expect_stream}}) {
    if (!*src) continue;
    auto v = s.interpolate(**src);
    if (!v) return StepOutcome::error("expectation: " + v.error().message);
    *dst = *v;
  }
  const Json& body = rr.root["body"];
  int status = rr.root["status"].get<int>();
  match::MatchResult m;
  if (x.expect) {
    auto so = check_http_status(*x.expect, status, false);
    if (!so.ok()) return so;
    if (x.expect->contains("headers")) m.merge(match::match(rr.root["headers"], (*x.expect)["headers"], "headers"));
    if (x.expect->contains("body")) m.merge(match::match(body, (*x.expect)["body"], "body"));
  }
  if (x.expect_error) {
    if (!body.is_object() || !body.contains("error"))
      return StepOutcome::fail("expected an error body, got HTTP " + std::to_string(status) + " " +
                                   match::compact(body, 200),
                               match::compact(*x.expect_error), match::compact(body, 200));
    bool rest = s.binding() == "rest" && !body.contains("jsonrpc");
    m.merge(rest ? match::match_rest_error(body["error"], status, *x.expect_error)
                 : match::match_error(body["error"], *x.expect_error));
  }
  if (x.expect_stream) m.merge(match::match_stream(rr.events, *x.expect_stream));
  return from_match(m, "raw response");
}

core::Expected<void> raw_captures(Session& s, const Step& st, const Json& root) {
  std::lock_guard lk(s.vars_mu);
  // ACTS assertions read `{{step.response}}.error...`: the response body. The
  // whole {status, headers, body} stays reachable as `{{step.http}}`, and
  // `capture` paths start from it ("body.task.id", "status").
  s.vars.set_capture(st.id, "response", root["body"]);
  s.vars.set_capture(st.id, "http", root);
  for (const auto& [name, path] : st.capture) {
    auto v = match::capture(root, path);
    if (!v) return core::fail(core::ErrorKind::kNotFound, "capture '" + name + "' (" + path + "): " + v.error().message);
    s.vars.set_capture(st.id, name, *v);
  }
  return {};
}

core::Expected<transport::HttpResponse> send_raw(Session& s, const Step& st, core::Deadline d) {
  if (st.raw_bytes) {
    // A fresh connection: raw() never reuses one, so malformed bytes cannot
    // leave a broken connection behind for the next step.
    auto url = interface_url(s);
    auto lease = s.http->acquire(url);
    return lease->raw(*st.raw_bytes, d);
  }
  auto spec = s.interpolate(st.raw);
  if (!spec) return core::fail(core::ErrorKind::kSchema, "raw: " + spec.error().message);
  transport::Url url;
  auto req = build_request(s, *spec, url);
  auto lease = s.http->acquire(url);
  return lease->request(req, d);
}

}  // namespace

Json raw_root(const transport::HttpResponse& resp) {
  Json headers = Json::object();
  for (const auto& [k, v] : resp.headers) {
    std::string name = core::ascii_lower(k);
    headers[name] = headers.contains(name) ? headers[name].get<std::string>() + ", " + v : v;
  }
  Json body = resp.body.empty() ? Json() : jsonrpc::parse_json_or_discarded(resp.body);
  if (body.is_discarded()) body = resp.body;
  return Json{{"status", resp.status}, {"headers", std::move(headers)}, {"body", std::move(body)}};
}

std::vector<Json> raw_events(const std::string& body) {
  wire::SseParser parser;
  std::vector<wire::SseEvent> evs;
  parser.feed(body, evs);
  std::vector<Json> out;
  for (const auto& e : evs) {
    Json j = jsonrpc::parse_json_or_discarded(e.data);
    out.push_back(j.is_discarded() ? Json(e.data) : std::move(j));
  }
  return out;
}

StepOutcome run_raw_step(Session& s, const Step& st) {
  if (!s.is_http()) return StepOutcome::error("raw HTTP steps need an HTTP binding, this run is " + s.binding());
  int within = st.expect_stream ? st.expect_stream->value("timeout_ms", 0) : 0;
  auto resp = send_raw(s, st, s.step_deadline(within));
  if (!resp) {
    if (resp.error().kind == core::ErrorKind::kSchema) return StepOutcome::error(resp.error().message);
    std::string msg = "raw request got no complete response: " + resp.error().message;
    return s.deadline.expired() ? StepOutcome::timeout(msg) : StepOutcome::fail(msg);
  }
  RawResult rr{raw_root(*resp), {}};
  if (st.expect_stream || resp->content_type() == "text/event-stream") rr.events = raw_events(resp->body);
  StepOutcome o = st.grades.empty()
                      ? check_raw(s, st, rr)
                      : grade_alternatives(st.grades, [&](const scenario::Grade& g) {
                          if (g.action.kind != scenario::StepKind::kOperation)
                            return StepOutcome::error("x-grades of a raw step take expect / expect_error / "
                                                      "expect_stream alternatives");
                          return check_raw(s, g.action, rr);
                        });
  if (!o.ok()) return o;
  if (auto c = raw_captures(s, st, rr.root); !c) return StepOutcome::fail(c.error().message);
  auto a = run_named_assertions(s, st.assertions);
  return a.ok() ? o : a;
}

}  // namespace a2a::engine
