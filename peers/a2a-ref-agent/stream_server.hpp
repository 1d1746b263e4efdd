// Streams under P46 (stdio-binding.md §3.6): each event is an id-less
// `event/streamResponse` notification and one response {id, result:null}
// ends the stream. Because the notifications carry no id, two open streams
// could not be told apart: streams are served one at a time by one worker,
// in arrival order (FIFO), while unary requests keep being served by the
// worker pool. A queued stream is never lost: it is served when the open
// one ends, or answered with an error if the session closes first.
//
// Under stdio-json (§4) every event is a response carrying the request id,
// so streams are multiplexed: each runs on its own thread at once, ends with
// {id, streamEnd:true} (or an error response, which ends it without one),
// and can be ended early by cancelStream. An id stays taken while its stream
// is open: a second request with it is refused (-32600).
#pragma once

#include <condition_variable>
#include <deque>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <mutex>
#include <thread>
#include <variant>
#include <vector>

#include "peers/a2a-ref-agent/agent_core.hpp"
#include "peers/a2a-ref-agent/profile.hpp"
#include "peers/a2a-ref-agent/rpc_out.hpp"

namespace a2a::agent {

struct StreamJob {
  Json id;
  model::Operation op;
  Json params;
};

class StreamServer {
 public:
  // `max_stream` bounds how long one stream stays open (a subscription to a
  // task that never finishes): then it ends with a streamError and result null.
  StreamServer(AgentCore& core, RpcOut& out, core::Millis max_stream,
               StreamShape shape = StreamShape::kP46Notifications);
  ~StreamServer();  // close()
  StreamServer(const StreamServer&) = delete;
  StreamServer& operator=(const StreamServer&) = delete;

  // False (nothing started) when stdio-json and `job.id` names an open stream.
  bool submit(StreamJob job);
  // stdio-json cancelStream: ends the open stream with this id (streamEnd);
  // an unknown id is ignored. The task itself is not canceled.
  void cancel(const Json& id);
  // stdio-json: whether `id` names a stream that is still open.
  bool is_open(const Json& id);
  // --fault conc-serialize only: a unary job queued behind the streams.
  void submit_unary(std::function<void()> job);
  // Cancels open streams (they still get their final response), answers
  // queued stream requests with an error, and joins. Idempotent.
  void close();

 private:
  using Item = std::variant<StreamJob, std::function<void()>>;
  void loop();
  void serve(const StreamJob& job);
  void serve_checked(const StreamJob& job);
  // True when the stream was already answered (stream-error-event-as-final).
  bool run_events(const StreamJob& job, EventStream& stream, Json& last_task_id);
  void finish(const StreamJob& job, const Json& last_task_id);
  void emit(const StreamJob& job, const Json& event);
  void fail(const StreamJob& job, const CallError& e);  // an error response ends the stream
  bool track(EventStream* s, bool add);  // false when closing (the stream is canceled at once)
  bool json() const { return shape_ == StreamShape::kJsonResponses; }
  void end_marker(const Json& id);        // stdio-json {id, streamEnd:true}
  void release_id(const Json& id);        // stdio-json: the id may be reused from now on
  void bind_id(const Json& id, EventStream* s);  // stdio-json: cancelStream reaches `s`
  void reap_locked();                     // joins finished stdio-json stream threads

  struct JsonStream {
    EventStream* stream = nullptr;  // set once opened
    bool cancel_requested = false;  // cancelStream before the stream opened
  };
  struct Runner {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };

  AgentCore& core_;
  RpcOut& out_;
  core::Millis max_stream_;
  StreamShape shape_;
  std::map<std::string, JsonStream> json_open_;  // dumped id -> stream (stdio-json)
  std::vector<Runner> runners_;                   // stdio-json stream threads
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> queue_;
  std::vector<EventStream*> open_;  // canceled by close()
  bool busy_ = false;
  bool closing_ = false;
  std::thread worker_;
  std::vector<std::thread> extra_;  // --fault conc-interleave-streams
};

}  // namespace a2a::agent
