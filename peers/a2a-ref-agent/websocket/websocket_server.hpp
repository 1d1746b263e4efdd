// The reference agent on WebSocket (the binding of a2a-rust we mirror; see
// docs/websocket.md): an HTTP upgrade on any path (A2A-Version major 1, else
// HTTP 400), then one JSON-RPC 2.0 request per text frame with the A2A 1.0
// method names, answered over the same AgentCore as another binding (the
// HttpAgent's). Requests of one connection run concurrently (at most 64 in
// flight; the next is refused "server busy"); answers are multiplexed by id.
// A stream's events are result frames with the request id, ended by
// {"status":"stream_complete"}. The ws-* faults are decorators on that path
// (websocket_faults.hpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "peers/a2a-ref-agent/agent_core.hpp"
#include "runner/core/expected.hpp"

namespace a2a::agent {

struct WebSocketAgentOptions {
  std::string bind = "127.0.0.1";
  uint16_t port = 0;  // 0 = the system picks
  // Bearer tokens GetExtendedAgentCard accepts (the upgrade's Authorization).
  std::vector<std::string> auth_tokens = {"a2a-conform"};
  Faults faults;  // the ws-* faults act here; the core's own faults act in the core
  int io_threads = 2;
  int workers = 4;        // at start; grows while all are busy
  int max_workers = 512;  // bounds blocking calls + open streams together
  size_t max_queue = 4096;
  size_t max_connections = 1024;        // above: accepted, then closed at once
  size_t max_queued_bytes = 16u << 20;  // per connection, unsent frames; above: the connection is closed
  core::Millis handshake_timeout{10000};  // the upgrade request, the close handshake
  core::Millis max_stream{600000};        // a stream open this long ends (subscribe again)
  int log_fd = 2;                         // -1 = silent
};

class WsService;

class WebSocketAgent {
 public:
  // Listens before returning (port() is final). Requests are answered with
  // an error until attach(): the card that names this port is built before
  // the core that serves it.
  static core::Expected<std::unique_ptr<WebSocketAgent>> start(WebSocketAgentOptions options);
  ~WebSocketAgent();  // stop()
  WebSocketAgent(const WebSocketAgent&) = delete;
  WebSocketAgent& operator=(const WebSocketAgent&) = delete;

  uint16_t port() const;
  // "ws://127.0.0.1:PORT"
  std::string url() const;
  // The card's entry for this server: {url, protocolBinding WEBSOCKET, protocolVersion 1.0}.
  Json interface() const;
  // Serves `core` from now on; it must outlive stop().
  void attach(AgentCore& core);
  // Stops accepting, shuts the attached core down (blocked calls return,
  // streams end), closes every connection, joins the threads. Idempotent.
  void stop();

 private:
  WebSocketAgent() = default;
  std::unique_ptr<WsService> service_;
  uint16_t port_ = 0;
  std::string url_;
  bool stopped_ = false;
};

}  // namespace a2a::agent
