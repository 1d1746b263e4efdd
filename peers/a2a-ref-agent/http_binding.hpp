// Internal to the HTTP bindings (http_*.cpp): the context every request
// handler reads, and the pieces shared by JSON-RPC over HTTP and REST
// (version rule, media types, limits, SSE pumping, replies). Not a public header.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "peers/a2a-ref-agent/agent_core.hpp"
#include "runner/transport/http_server.hpp"

namespace a2a::jsonrpc {
struct Message;
}  // namespace a2a::jsonrpc

namespace a2a::agent {

using transport::HeaderList;
using transport::HttpExchange;
using transport::ServerReply;
using transport::ServerRequest;

inline constexpr size_t kMaxBody = 4u << 20;      // larger bodies: 413
inline constexpr size_t kMaxQuery = 4u << 10;     // longer query strings: 414
inline constexpr std::string_view kServedVersion = "1.0";
inline constexpr std::string_view kV03Version = "0.3";  // the A2A-Version label of 0.3 answers
inline constexpr std::string_view kCardPath = "/.well-known/agent-card.json";

struct HttpContext {
  AgentCore* core = nullptr;
  Faults faults;
  std::string tenant;  // "" = none: tenant-prefixed REST paths are 404
  std::vector<std::string> auth_tokens;  // Bearer tokens GetExtendedAgentCard accepts
  bool jsonrpc = true;
  bool rest = true;
  bool serve_v03 = false;  // JSON-RPC also serves A2A 0.3 (missing A2A-Version, or 0.3)
  core::Millis max_stream{600000};  // a stream open this long ends (subscribe again)
  std::string card_body;            // the public card, serialized once
  std::string card_etag;            // "\"<hash of card_body>\""
  // Runs a job that may block (a blocking send, a stream that waits for
  // events) on a worker thread; false when the pool is full. Handlers run on
  // the I/O thread hand such work here and do the rest themselves.
  std::function<bool(const std::shared_ptr<HttpExchange>& ex, std::function<void()> job)> offload;
};

// 503 when no worker can take a job.
ServerReply overloaded_reply();

// Binding entry points; `ex` was read whole. All run on the I/O thread and
// offload what may block (ctx.offload).
void handle_card(const HttpContext& ctx, HttpExchange& ex);
void handle_jsonrpc(const HttpContext& ctx, const std::shared_ptr<HttpExchange>& ex);
void handle_rest(const HttpContext& ctx, const std::shared_ptr<HttpExchange>& ex);
// The card body's ETag (a strong validator over the exact bytes).
std::string card_etag(std::string_view body);

// GetExtendedAgentCard needs `Authorization: Bearer <one of auth_tokens>`
// (spec §3.1.11, §13.3); true when the request has it (or the fault lifts it).
bool extended_card_authorized(const HttpContext& ctx, const ServerRequest& req);
// The 401 challenge header for it (RFC 9110 §11.6.1).
inline constexpr std::string_view kBearerChallenge = "Bearer realm=\"a2a-ref-agent\"";
inline constexpr int kUnauthenticatedCode = -31401;  // JSON-RPC has no standard code; the Go SDK's

// The media type of a Content-Type value: lower-cased, without parameters.
std::string media_type(std::string_view content_type);
// nullopt when the request's A2A-Version (header, else `?A2A-Version=`) is
// 1.0 or 1.0.N; else VersionNotSupportedError naming what was received and
// what is served (`with_v03`: 0.3 too, on JSON-RPC).
std::optional<CallError> check_version(const ServerRequest& req, const Faults& faults, bool with_v03 = false);
// True when the request speaks A2A 0.3: no (or an empty) A2A-Version, which
// means 0.3 (spec §3.6.2), or 0.3 / 0.3.N (patch ignored, R6).
bool requests_v03(const ServerRequest& req);
// A JSON reply carrying `A2A-Version: 1.0`.
ServerReply json_reply(int status, const Json& body, std::string content_type = "application/json");

// REST errors (a2a-protocol.md §6.1, §6.4): google.rpc.Status JSON under
// "error" with the v1.0.1 HTTP table; `a2a_json` picks application/a2a+json.
ServerReply rest_error_reply(const CallError& e, const Faults& faults, bool a2a_json);
// A binding-level REST error (404 route, 405, 413, 414, 415, 400 path) with no A2A reason.
ServerReply rest_status_reply(int http, std::string_view status, const std::string& message, const Faults& faults,
                              bool a2a_json);

// JSON-RPC pieces shared by the 1.0 (http_jsonrpc.cpp) and 0.3
// (http_jsonrpc_v03.cpp) handlers; the id and error faults applied.
Json rpc_error_object(const Faults& f, const CallError& e);  // {code, message, data?}
Json rpc_error_response(const Faults& f, const Json& id, Json error_object);
std::string rpc_result_text(const Faults& f, const Json& id, const Json& result);
// The same around a result already serialized.
std::string rpc_result_raw(const Faults& f, const Json& id, std::string_view result_text);
// `body` with HTTP `status`, labelled with A2A-Version `version`.
void rpc_reply(HttpExchange& ex, const Faults& f, int status, const Json& body,
               std::string_view version = kServedVersion);
ServerReply rpc_text_reply(const Faults& f, std::string body, std::string_view version = kServedVersion);
// The 401 answer to GetExtendedAgentCard without credentials (§13.3, §10 C13).
ServerReply unauthenticated_reply(const Faults& f, const Json& id);
// Its JSON-RPC error (the WebSocket binding answers it too).
CallError unauthenticated_error();
// A JSON-RPC request that speaks 0.3 (requests_v03), served through the
// 0.3 <-> 1.0 translation of runner/a2a/v03.hpp by the same core.
void handle_jsonrpc_v03(const HttpContext& ctx, const std::shared_ptr<HttpExchange>& ex, const jsonrpc::Message& m);

// SSE: how one stream's items become bytes.
struct SseFormat {
  std::string content_type = "text/event-stream";
  std::string version{kServedVersion};  // the response's A2A-Version label
  std::function<std::string(const Json& event)> event;  // the data of an event item, serialized
  // The same from the event already serialized (jsonrpc::dump of it); when
  // set, a stream without faults is pumped through EventStream::next_text.
  std::function<std::string(std::string_view event_text)> event_text;
  std::function<Json(const CallError& error)> error;  // the data of a mid-stream error
};
// One SSE event, with the SSE faults applied.
// `event` names the SSE event type ("" = none; "error" for mid-stream errors).
std::string sse_event(const Json& data, const Faults& faults, std::string_view event = {});
// The same for data already serialized.
std::string sse_event_text(std::string_view data, const Faults& faults, std::string_view event = {});
// Answers `ex` with 200 and the stream's items until it ends, the client
// leaves, or max_stream passes. The items ready now are sent from the calling
// thread; if the stream goes on, a worker (ctx.offload) pumps the rest,
// waking at least once a second to notice a closed connection.
void pump_stream(const HttpContext& ctx, const std::shared_ptr<HttpExchange>& ex,
                 std::unique_ptr<EventStream> stream, const SseFormat& format);

}  // namespace a2a::agent
