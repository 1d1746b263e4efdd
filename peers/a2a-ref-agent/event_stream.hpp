// A stream of StreamResponse objects for SendStreamingMessage and
// SubscribeToTask, independent of how a binding carries it (P46
// notifications, SSE, gRPC server stream). The consumer pulls with a
// deadline, so a binding never blocks longer than it chooses.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "peers/a2a-ref-agent/call_result.hpp"
#include "peers/a2a-ref-agent/faults.hpp"
#include "runner/core/deadline.hpp"

namespace a2a::agent {

struct StreamItem {
  enum class Kind {
    kEvent,    // `event` holds one StreamResponse
    kError,    // a mid-stream error; the stream goes on
    kEnd,      // no more items (terminal/interrupted state reached, canceled, or shutdown)
    kTimeout,  // nothing new before the deadline; call next() again
  };
  Kind kind = Kind::kEnd;
  Json event;
  CallError error;
};

class EventStream {
 public:
  virtual ~EventStream() = default;
  virtual StreamItem next(core::Deadline deadline) = 0;
  // Like next(), but an event may be shown to `view` in place rather than
  // copied out. A task's logged events are kept as text (task_store.hpp), so
  // for them this is next(): the text parsed once. `view` may run with the
  // store locked: it must not block.
  virtual StreamItem next_view(core::Deadline deadline, const std::function<void(const Json&)>& view) {
    StreamItem item = next(deadline);
    if (item.kind == StreamItem::Kind::kEvent) view(item.event);
    return item;
  }
  // Like next(), for a binding that only sends the event serialized: an
  // event is shown to `text` as jsonrpc::dump of it (its `event` is then
  // null). A task's logged events are kept as text and shown as they are
  // (task_store.hpp). `text` may run with the store locked: it must not block.
  virtual StreamItem next_text(core::Deadline deadline, const std::function<void(std::string_view)>& text);
  // Like next_view(), but an event the stream keeps as text (a task's
  // logged events, when no output fault reshapes them) is shown to `text`
  // as it was logged, not parsed into a tree; the others go to `view`.
  // Default: next_view(). Both may run with the store locked: no blocking.
  virtual StreamItem next_view_or_text(core::Deadline deadline, const std::function<void(const Json&)>& view,
                                       const std::function<void(std::string_view)>& text) {
    (void)text;
    return next_view(deadline, view);
  }
  // Ends the stream: the next next() returns kEnd. Thread-safe.
  virtual void cancel() = 0;
};

// The outcome of opening a stream: an error before the first event, or the stream.
struct StreamOpen {
  std::optional<CallError> error;
  std::unique_ptr<EventStream> stream;
};

class TaskStore;
struct TaskRecord;

// A stream of given events (a direct Message reply).
std::unique_ptr<EventStream> make_fixed_stream(std::vector<Json> events, Faults faults);
// Follows a task: `first` (the task snapshot, unless a fault drops it), then
// the task's log from `start_index`, ending after a terminal or interrupted
// status (or after `first` itself when it is already interrupted).
std::unique_ptr<EventStream> make_task_stream(TaskStore& store, std::shared_ptr<TaskRecord> record,
                                              std::optional<Json> first, size_t start_index, Faults faults);

}  // namespace a2a::agent
