// The agent's own gRPC-over-HTTP/2 server (h2c with prior knowledge), built
// on nghttp2: it replaces grpc++'s server underneath GrpcAgent, which spent
// two thirds of a unary call's CPU in its own threads and hand-offs. Epoll
// I/O threads each own their connections (an nghttp2 session is touched by
// its thread only); a call's reactor (the grpc++ shape: on_read_done,
// on_write_done, on_cancel, on_done) is driven from that thread, and its
// operations (write, finish, ...) may come from any thread: from a worker
// they are posted to the connection's thread. Design, bounds, flow control:
// docs/grpc.md, "Our own HTTP/2 server".
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runner/core/expected.hpp"
#include "runner/grpc/status.hpp"

namespace a2a::agent::h2 {

struct CallState;

// One call's side of the transport. Every method but the accessors may be
// called from any thread. The accessors read what the request's HEADERS
// and its message set before the reactor saw them, never changed after.
class CallHandle {
 public:
  CallHandle() = default;
  explicit CallHandle(std::shared_ptr<CallState> s) : s_(std::move(s)) {}

  // ":path", "/pkg.Service/Method".
  std::string_view path() const;
  // The first request header named `key` (lower-case), "" when absent.
  std::string_view header(std::string_view key) const;
  // The request message (without its 5-byte prefix); after on_read_done(true).
  std::string_view request() const;

  // Initial metadata; before the first write.
  void add_initial_metadata(std::string key, std::string value);
  // `framed` holds 5 bytes of room for the gRPC message prefix, then the
  // message (frame_room()); the transport fills the prefix. One write in
  // flight at a time: on_write_done(ok) reports it.
  void write(std::string framed);
  // The last message and the status together (no on_write_done).
  void write_and_finish(std::string framed, grpcwire::WireStatus status);
  // Several messages at once (a stream whose events were all ready), then
  // the status (no on_write_done).
  void write_all_and_finish(std::vector<std::string> framed, grpcwire::WireStatus status);
  // Ends the call (exactly once); on_done follows.
  void finish(grpcwire::WireStatus status);
  // Resets the stream (RST_STREAM CANCEL): on_cancel, a pending write fails.
  void try_cancel();

 private:
  std::shared_ptr<CallState> s_;
};

// The 5 bytes a framed message starts with.
inline constexpr size_t kFrameRoom = 5;

// A call's logic. Its callbacks run on the connection's I/O thread, never
// at the same time, never inside another of its own calls into the handle.
// on_read_done comes once unless the call finished first; on_cancel at
// most once, before on_done; on_done once, after finish, as the last one.
class Reactor {
 public:
  virtual ~Reactor() = default;
  virtual void on_read_done(bool ok) = 0;
  virtual void on_write_done(bool ok) = 0;
  virtual void on_cancel() = 0;
  virtual void on_done() = 0;
};

struct ServerOptions {
  std::string bind = "127.0.0.1";
  uint16_t port = 0;
  int io_threads = 2;
  int max_receive = 4 << 20;          // a larger request message: RESOURCE_EXHAUSTED
  int max_connections = 1024;         // more are closed at once
  uint32_t max_streams = 1024;        // SETTINGS_MAX_CONCURRENT_STREAMS
  uint32_t max_header_list = 16384;   // SETTINGS_MAX_HEADER_LIST_SIZE; larger: RST_STREAM
  size_t max_buffered_request = 32u << 20;  // request bytes held per connection; more: GOAWAY
  // Request bytes held by all connections together; the connection whose
  // DATA would pass it gets GOAWAY ENHANCE_YOUR_CALM (docs/grpc.md, Bounds).
  size_t max_buffered_request_total = 256u << 20;
  size_t max_output = 1u << 20;       // output not yet taken by the socket: reading pauses
  // A connection that has not sent the client preface and its SETTINGS by
  // then is closed (no GOAWAY: it has not spoken HTTP/2 yet).
  std::chrono::milliseconds preface_timeout{10000};
  // A connection with no open stream for this long gets GOAWAY NO_ERROR and
  // is closed (at the latest goaway_linger later). A stream open, even
  // silent, keeps it (its call's own grpc-timeout bounds it). docs/grpc.md,
  // "Our own HTTP/2 server", Bounds.
  std::chrono::milliseconds idle_timeout{60000};
  // After that GOAWAY the connection is still read (and nghttp2 ignores new
  // streams) until the client closes or this passes, so the GOAWAY is not
  // lost to a reset by a close with unread bytes.
  std::chrono::milliseconds goaway_linger{1000};
  // A call whose request message is not complete this long after its
  // HEADERS is reset (RST_STREAM CANCEL; its reactor hears on_cancel and
  // its bytes are freed). Once the message is complete it no longer applies.
  std::chrono::milliseconds request_timeout{10000};
};

// What the server counts (any thread may read it; tests and diagnostics).
struct ServerStats {
  int connections = 0;            // open now
  size_t output_high_water = 0;   // most output one connection held, not yet taken by its socket
  uint64_t read_pauses = 0;       // times a connection's reading paused at max_output
  uint64_t preface_timeouts = 0;  // connections closed by preface_timeout
  uint64_t idle_goaways = 0;      // connections sent GOAWAY by idle_timeout
  uint64_t request_timeouts = 0;  // streams reset by request_timeout
  size_t buffered_request_total = 0;  // request bytes held now, all connections
  uint64_t total_refusals = 0;    // connections sent GOAWAY by max_buffered_request_total
};

// Creates the reactor of a call whose request HEADERS arrived (on the I/O
// thread). It may finish the call at once (an unknown method).
using ReactorFactory = std::function<Reactor*(CallHandle)>;

class Loop;
struct Shared;

class Server {
 public:
  static core::Expected<std::unique_ptr<Server>> start(ServerOptions options, ReactorFactory factory);
  ~Server();  // stop()
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  uint16_t port() const { return port_; }
  // Stops accepting and sends GOAWAY on every connection (calls in flight go on).
  void goaway();
  // Resets every call still open (on_cancel).
  void cancel_all();
  // True once every reactor had on_done; false at the deadline.
  bool wait_calls(std::chrono::milliseconds within);
  // Closes every connection and joins the I/O threads. Idempotent.
  void stop();
  ServerStats stats() const;

 private:
  Server() = default;
  std::unique_ptr<Shared> shared_;
  std::vector<std::unique_ptr<Loop>> loops_;
  uint16_t port_ = 0;
  bool stopped_ = false;
};

// Percent-encoding of grpc-message (PROTOCOL-HTTP2.md): bytes outside
// 0x20..0x7E and '%' as %XX.
std::string percent_encode(std::string_view text);
// grpc-timeout ("100m", "5S", ...) in milliseconds (rounded up); -1 when malformed.
int64_t parse_grpc_timeout(std::string_view value);

}  // namespace a2a::agent::h2
