// A client session over a2a-rust's WebSocket binding (docs/websocket.md,
// "The reference client"): one connection to the card's WEBSOCKET 1.x
// interface (ws:// only), opened at create() with A2A-Version and the bearer
// token on the upgrade request (they apply to the whole connection; the
// binding has no per-request headers). Every operation is one JSON-RPC 2.0
// request in one text frame with the A2A 1.0 method name; its answer is the
// frame with its id (frames with other ids stay in the connection's inbox).
// A stream is every frame with its id until the completion frame
// {"status":"stream_complete"} or an error frame. Not thread-safe: one call
// at a time, as the CLI makes them. The connection is runner/transport's
// WsConnection (our one RFC 6455 codec).
#pragma once

#include <memory>
#include <string>

#include "peers/a2a-ref-client/card.hpp"
#include "peers/a2a-ref-client/client_session.hpp"
#include "runner/transport/transcript.hpp"
#include "runner/transport/ws_client.hpp"

namespace a2a::client {

struct WsSessionOptions {
  std::string bearer_token;                     // non-empty: "Authorization: Bearer <token>" on the upgrade
  transport::Transcript* transcript = nullptr;  // records every frame both ways when set
  size_t max_stream_events = 10000;             // more ends the stream as a transport error
};

class WsSession : public Session {
 public:
  // Connects (TCP and the upgrade) within `deadline`. kInvalidArgument for
  // an interface URL that is not ws://; kProtocol for a refused upgrade,
  // with its HTTP status and body in the message.
  static core::Expected<std::unique_ptr<WsSession>> create(SelectedInterface chosen, WsSessionOptions options,
                                                           core::Deadline deadline);

  CallResult call(model::Operation op, const Json& params, core::Deadline deadline) override;
  CallResult stream(model::Operation op, const Json& params, const StreamCallback& on_event,
                    core::Deadline deadline) override;
  // Set once the agent closed the connection (no later call can succeed).
  std::optional<ClientError> dead() const override;

  const SelectedInterface& chosen() const { return chosen_; }

 private:
  WsSession(SelectedInterface chosen, WsSessionOptions options, std::unique_ptr<transport::WsConnection> conn);
  // Sends the request and returns its id, or the error that kept it from going.
  core::Expected<Json> send_request(model::Operation op, const Json& params, core::Deadline deadline);
  // The next frame answering `id`, or the error (timeout, closed).
  core::Expected<transport::WsFrame> next_answer(const Json& id, core::Deadline deadline, const std::string& what);

  SelectedInterface chosen_;
  WsSessionOptions options_;
  std::unique_ptr<transport::WsConnection> conn_;
  long long next_id_ = 1;
};

// True when `result` is the binding's end-of-stream marker {"status":"stream_complete"}.
bool is_stream_complete(const Json& result);

}  // namespace a2a::client
