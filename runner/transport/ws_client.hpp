// A WebSocket client connection (RFC 6455) for testing a peer: it keeps every
// frame the peer sends, in order, in a bounded inbox that callers take from
// by predicate (requests multiplexed by id on one connection), writes text or
// binary frames, and bounds every wait by a deadline. The peer's upgrade
// refusal (status and body) is kept for the caller to judge. ws:// and
// wss:// (TLS through ws_tls.hpp). POSIX sockets and the frames of
// ws_codec.hpp; one reader thread per connection.
// docs/websocket.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"

namespace a2a::transport {

struct WsFrame {
  bool text = true;
  std::string payload;
};

struct WsUrl {
  std::string host;
  uint16_t port = 80;
  std::string target = "/";  // path and query
  bool tls = false;
  // "ws://host[:port][/path]" or "wss://..."; an error says what is wrong.
  static core::Expected<WsUrl> parse(const std::string& url);
  std::string host_header() const;
};

struct WsOptions {
  std::vector<std::pair<std::string, std::string>> headers;  // sent with the upgrade request
  size_t max_message = 16u << 20;     // a larger message from the peer ends the connection
  size_t max_inbox_bytes = 64u << 20;  // frames kept but not yet taken
  size_t max_inbox_frames = 100000;
  bool insecure_tls = false;  // wss:// only: do not verify the certificate (--insecure)
};

// The upgrade answer when the peer declined (status != 101).
struct WsRefusal {
  int status = 0;
  std::string body;
};

class WsConnection {
 public:
  // TCP connect and the opening handshake, bounded by `deadline`. A declined
  // upgrade is kProtocol with `refusal` filled (when given).
  static core::Expected<std::unique_ptr<WsConnection>> connect(const std::string& url, WsOptions options,
                                                               core::Deadline deadline,
                                                               WsRefusal* refusal = nullptr);
  ~WsConnection();  // close(), bounded
  WsConnection(const WsConnection&) = delete;
  WsConnection& operator=(const WsConnection&) = delete;

  // One message (text or binary frame); one write at a time, callers queue.
  // At the deadline the connection is broken (a half-written frame leaves it
  // unusable) and the call fails with kTimeout.
  core::Expected<void> send(std::string_view payload, bool text, core::Deadline deadline);
  // The first kept frame `pred` accepts, removed from the inbox; nullopt at
  // the deadline, or once the connection is closed and no kept frame matches.
  std::optional<WsFrame> take(const std::function<bool(const WsFrame&)>& pred, core::Deadline deadline);
  // Waits until the peer closed the connection (or it failed); false at the deadline.
  bool wait_closed(core::Deadline deadline);
  // Why the connection ended ("" while it is open): the peer's close frame
  // (code and reason), EOF, a message over max_message, an I/O error.
  std::string why() const;
  bool closed() const;
  // Close code of the peer's close frame (0 = none seen).
  int close_code() const;
  // Frames kept but not taken (a flood keeps at most the inbox bounds).
  size_t unconsumed() const;
  std::vector<WsFrame> pending(size_t max_frames) const;
  // Sends a ping; pongs are answered and ignored by the library.
  core::Expected<void> ping(core::Deadline deadline);
  // Raw steps (suites/websocket): one frame of any opcode with this payload,
  // masked, as given (a close frame's payload is not checked, a control
  // payload over 125 bytes is sent as it is); a close frame starts the
  // closing handshake like close() does, without waiting for its answer.
  core::Expected<void> send_frame(uint8_t opcode, std::string_view payload, core::Deadline deadline);
  // The first kept frame `pred` accepts, left in the inbox (a copy);
  // nullopt as take() gives it.
  std::optional<WsFrame> peek(const std::function<bool(const WsFrame&)>& pred, core::Deadline deadline);
  // The payload of the peer's oldest pong not yet taken (at most 16 are
  // kept); nullopt at the deadline or once the connection is closed.
  std::optional<std::string> take_pong(core::Deadline deadline);
  // The closing handshake (code 1000), bounded by a short wait, then the socket goes.
  void close();
  // From any thread, without waiting: the connection is over (`why`), every
  // take() returns at once and the socket is shut down; no close frame is
  // written (the peer may be the reason we stop). The destructor still joins.
  void abort(const std::string& why);

 private:
  struct Impl;
  explicit WsConnection(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace a2a::transport
