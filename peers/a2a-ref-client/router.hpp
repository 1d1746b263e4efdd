// Correlation of what the agent writes with what we asked (stdio-binding.md
// §3.6, §8.4). The reader thread calls route() for every frame body; callers
// wait for their own id. No I/O here, so every row is testable with literals.
//
// Thread-safety: every member is safe to call from any thread. Waits take a
// deadline. Rules:
// - Responses are matched by the exact JSON value of the id (1 != "1", C2).
//   An id nobody waits for is dropped with a diagnostic (C3).
// - event/streamResponse and event/streamError go to the one open stream
//   (P46 events carry no id); other notifications are ignored (C4).
// - The open stream ends only on a response with its own id (C10); a
//   non-null final result is yielded as one more event (C9).
// - fail_all() (EOF, framing error) ends every wait with that error; EOF in
//   the middle of a stream is an error, never a normal end (C11).
// - stdio-json (json_streams, stdio-binding.md §4): a response with the open
//   stream's id is one more event, {id, streamEnd:true} ends it, an error
//   response ends it with that error; {"type":"heartbeat"} frames are ignored.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "peers/a2a-ref-client/client_error.hpp"
#include "runner/core/deadline.hpp"

namespace a2a::client {

struct StreamItem {
  enum class Type {
    kEvent,        // `value` is a StreamResponse (event/streamResponse params, or a C9 final result)
    kStreamError,  // `value` is the event/streamError params {code, message} (C8); the stream goes on
  };
  Type type = Type::kEvent;
  Json value;
};

// One step of an open stream: an item, or the end with its outcome.
struct StreamStep {
  bool ended = false;
  StreamItem item;     // when !ended
  CallResult outcome;  // when ended: success(null) or the error that ended it
};

using DiagnosticSink = std::function<void(const std::string&)>;

class Router {
 public:
  explicit Router(DiagnosticSink sink = {}, bool json_streams = false);

  // Unary calls. expect() before writing the request so that a fast answer
  // cannot arrive before anyone waits for it.
  void expect(const Json& id);
  // Waits for the answer to `id` and forgets the id. `what` prefixes error
  // messages ("request id 3 (tasks/get)").
  CallResult wait(const Json& id, core::Deadline deadline, const std::string& what);
  void forget(const Json& id);

  // Streams: at most one open at a time. open_stream() waits (until the
  // deadline; false then) while another stream is open or abandoned.
  bool open_stream(const Json& id, core::Deadline deadline);
  StreamStep next_stream_step(core::Deadline deadline, const std::string& what);
  // Ends our interest. A stream that has not seen its final response stays
  // "abandoned": its late events are discarded (C13) until that response
  // arrives, so they can never leak into the next stream.
  // True when the stream was abandoned (no end seen yet): under stdio-json
  // the caller then sends cancelStream.
  bool close_stream();

  // Reader side.
  void route(std::string_view body);
  // Marks the session dead: every current and future wait ends with `e`.
  void fail_all(const ClientError& e);
  std::optional<ClientError> dead() const;

  size_t pending_count() const;

 private:
  struct Slot {
    bool done = false;
    CallResult result;
  };
  struct OpenStream {
    std::string key;
    std::deque<StreamItem> items;
    bool ended = false;
    bool abandoned = false;
    CallResult outcome;
  };

  std::string route_locked(std::string_view body);  // returns a diagnostic or ""
  std::string route_response(const std::string& key, bool is_error, const Json& payload);
  std::string route_notification(const std::string& method, const Json& params);
  // stdio-json frames that are not plain JSON-RPC; nullopt = not one of them.
  std::optional<std::string> route_json_control(const Json& doc);
  std::string route_stream_response(bool is_error, const Json& payload);
  template <class Pred>
  bool wait_for(std::unique_lock<std::mutex>& lock, core::Deadline deadline, Pred pred);
  void emit(const std::string& diagnostic) const;

  DiagnosticSink sink_;
  bool json_streams_ = false;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::unordered_map<std::string, Slot> pending_;  // key: compact JSON text of the id
  std::optional<OpenStream> stream_;
  std::optional<ClientError> dead_;
};

// The correlation key of an id: its compact JSON text, so 1 and "1" differ.
std::string id_key(const Json& id);

}  // namespace a2a::client
