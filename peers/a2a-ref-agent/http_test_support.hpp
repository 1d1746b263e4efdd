// Helpers for the agent's HTTP tests (header-only): a real HttpAgent on
// 127.0.0.1:0, raw requests through the transport's RawConn, SSE bodies
// split into JSON documents. Every wait has a deadline.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "peers/a2a-ref-agent/http_binding.hpp"
#include "peers/a2a-ref-agent/http_server.hpp"
#include "peers/a2a-ref-agent/test_support.hpp"
#include "runner/transport/http_server_test_util.hpp"
#include "runner/wire/sse.hpp"

namespace a2a::agent::testing {

using transport::HeaderList;
using transport::testing::raw_request;
using transport::testing::RawConn;
using transport::testing::RawResponse;

inline core::Deadline soon(core::Millis d = core::Millis(8000)) { return core::Deadline::after(d); }

inline std::unique_ptr<HttpAgent> start_agent(Faults faults = {}, HttpAgentOptions o = {}) {
  o.agent.faults = faults;
  o.agent.long_running = core::Millis(100);
  o.agent.max_block = core::Millis(3000);
  o.log_fd = -1;
  auto a = HttpAgent::start(std::move(o));
  EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().str());
  return a.ok() ? std::move(*a) : nullptr;
}

inline std::unique_ptr<HttpAgent> start_agent(Fault f) {
  Faults faults;
  faults.add(f);
  return start_agent(faults);
}

inline const HeaderList kJson = {{"Content-Type", "application/json"}, {"A2A-Version", "1.0"}};
inline const HeaderList kV1 = {{"A2A-Version", "1.0"}};

// One request on a fresh connection, the whole response (streams included).
inline RawResponse http(const HttpAgent& a, const std::string& method, const std::string& target,
                        const HeaderList& headers = kV1, std::optional<std::string> body = std::nullopt) {
  RawConn c(a.port());
  // The extended card needs credentials (spec §13.3): requests for it carry
  // the agent's default token unless the test sets its own Authorization
  // ("Authorization: none" sends none).
  HeaderList h;
  bool wants_card = target.find("/extendedAgentCard") != std::string::npos ||
                    (body && body->find("\"GetExtendedAgentCard\"") != std::string::npos);
  bool has_auth = false;
  for (const auto& [n, v] : headers) {
    bool is_auth = transport::find_header(HeaderList{{n, v}}, "Authorization").has_value();
    has_auth = has_auth || is_auth;
    if (!(is_auth && v == "none")) h.emplace_back(n, v);
  }
  if (wants_card && !has_auth) h.emplace_back("Authorization", "Bearer a2a-conform");
  EXPECT_TRUE(c.send(raw_request(method, target, h, std::move(body))));
  auto r = c.read_response(soon(), method == "HEAD");
  EXPECT_TRUE(r.has_value()) << method << " " << target << ": no response";
  return r.value_or(RawResponse{});
}

inline Json body_json(const RawResponse& r) {
  Json j = Json::parse(r.body, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << "not JSON: " << r.body;
  return j;
}

// JSON-RPC over HTTP: POST / with the envelope.
inline RawResponse rpc(const HttpAgent& a, const std::string& method, const Json& params, const Json& id = 1,
                       const HeaderList& headers = kJson) {
  Json req = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) req["params"] = params;
  return http(a, "POST", "/", headers, req.dump());
}

// REST with a JSON body.
inline RawResponse rest(const HttpAgent& a, const std::string& method, const std::string& target,
                        const Json& body = nullptr, const HeaderList& headers = kJson) {
  return http(a, method, target, headers, body.is_null() ? std::nullopt : std::optional<std::string>(body.dump()));
}

// The data of every SSE event of a body, as JSON.
inline std::vector<Json> sse_data(const std::string& body) {
  wire::SseParser parser;
  std::vector<wire::SseEvent> events;
  parser.feed(body, events);
  std::vector<Json> out;
  for (const auto& e : events) out.push_back(Json::parse(e.data, nullptr, false));
  return out;
}

inline Json msg_params(const std::string& text, const Json& configuration = nullptr) {
  return send_params(text, configuration);
}

// A task created over REST with returnImmediately (its id).
inline std::string new_task(const HttpAgent& a, const std::string& text, bool immediately = false) {
  Json cfg = immediately ? Json{{"returnImmediately", true}} : Json(nullptr);
  auto r = rest(a, "POST", "/message:send", msg_params(text, cfg));
  Json j = body_json(r);
  return j.contains("task") ? j["task"]["id"].get<std::string>() : "";
}

inline std::string error_reason(const Json& details) {
  if (!details.is_array()) return "";
  for (const auto& d : details) {
    if (d.value("@type", "") == "type.googleapis.com/google.rpc.ErrorInfo") return d.value("reason", "");
  }
  return "";
}

}  // namespace a2a::agent::testing
