// Streams under P46 (stdio-binding.md §3.6): each event is an id-less
// `event/streamResponse` notification and one response {id, result:null}
// ends the stream. Because the notifications carry no id, two open streams
// could not be told apart: streams are served one at a time by one worker,
// in arrival order (FIFO), while unary requests keep being served by the
// worker pool. A queued stream is never lost: it is served when the open
// one ends, or answered with an error if the session closes first.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <variant>
#include <vector>

#include "peers/a2a-ref-agent/agent_core.hpp"
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
  StreamServer(AgentCore& core, RpcOut& out, core::Millis max_stream);
  ~StreamServer();  // close()
  StreamServer(const StreamServer&) = delete;
  StreamServer& operator=(const StreamServer&) = delete;

  void submit(StreamJob job);
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
  bool track(EventStream* s, bool add);  // false when closing (the stream is canceled at once)

  AgentCore& core_;
  RpcOut& out_;
  core::Millis max_stream_;
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
