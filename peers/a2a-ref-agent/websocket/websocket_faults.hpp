// The WebSocket faults (faults.hpp, `ws-*`) as decorators around the clean
// path of websocket_server.cpp: a policy (the checks and limits the server
// applies, the binding's by default), message decorators (what a request's
// answer consists of: results, events, completion, errors) and frame
// decorators (how each encoded answer goes on the wire). Without faults each
// is the identity. The binding: docs/websocket.md.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "peers/a2a-ref-agent/call_result.hpp"
#include "peers/a2a-ref-agent/faults.hpp"

namespace a2a::agent {

inline constexpr size_t kWsMaxMessage = 4u << 20;  // larger messages close the connection (1009)
inline constexpr int kWsMaxInFlight = 64;          // requests in flight per connection; the next: busy

// What the server checks and limits.
struct WsPolicy {
  bool check_version = true;         // the upgrade needs A2A-Version with major 1 (else HTTP 400)
  bool carry_upgrade_auth = true;    // the upgrade's Authorization applies to every request
  bool answer_binary = true;         // a binary frame gets -32700 (id null)
  bool answer_notifications = false; // JSON-RPC 2.0 §4.1: a notification is never answered
  bool answer_control = true;        // RFC 6455 §5.5: a ping gets a pong, a close frame a close frame
  int max_in_flight = kWsMaxInFlight;  // 0 = no limit (requests wait on the worker pool)
  size_t max_message = kWsMaxMessage;
};

WsPolicy ws_policy(const Faults& faults);

// One part of a request's answer, before it is encoded.
enum class WsKind {
  kResult,       // a unary result (body: the result)
  kError,        // a unary or protocol error (body: {code, message, data?})
  kEvent,        // a stream event (body: the StreamResponse)
  kComplete,     // the end of a stream (body unused)
  kStreamError,  // a stream that failed, before or after its first event (body: the error object)
};

struct WsMessage {
  WsMessage(WsKind k, Json i, Json b) : kind(k), id(std::move(i)), body(std::move(b)) {}
  // A result or event given as text (`text` below).
  static WsMessage serialized(WsKind k, Json i, std::string t) {
    WsMessage m(k, std::move(i), nullptr);
    m.text = std::move(t);
    return m;
  }

  WsKind kind = WsKind::kResult;
  Json id;
  Json body;
  // A result or event already serialized (jsonrpc::dump of what `body`
  // would be: AgentCore::call_text, EventStream::next_text); when set, the
  // encoder writes it as it is and `body` is unused. The same bytes on the
  // wire, without building the tree (docs/performance.md, "WebSocket").
  std::optional<std::string> text;
};

// One frame for the connection.
struct WsFrame {
  std::string text;
  bool binary = false;
};

class WsFrameSink {
 public:
  virtual ~WsFrameSink() = default;
  virtual void write(WsFrame frame) = 0;
};

class WsMessageSink {
 public:
  virtual ~WsMessageSink() = default;
  virtual void send(WsMessage message) = 0;
};

// The stream completion's result: {"status":"stream_complete"}.
Json ws_stream_complete();

// The answer path of one request: message decorators, the JSON-RPC encoder
// (the HTTP JSON-RPC binding's envelope, id and error faults included), then
// frame decorators, then `out`. Destroying it flushes what a decorator holds,
// then destroys `out`.
std::unique_ptr<WsMessageSink> ws_answer_path(const Faults& faults, std::unique_ptr<WsFrameSink> out);

}  // namespace a2a::agent
