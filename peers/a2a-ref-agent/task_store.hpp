// The task store: every task with its status, history, artifacts, push
// configs and an append-only event log. One mutex guards the whole store
// (tasks are small and operations short); each task has a condition
// variable, used with that mutex, that streams, subscribers and blocking
// sends wait on, always with a deadline. close() wakes every waiter so a
// shutdown never waits for a task to finish.
//
// Bounded: tasks in a terminal state are kept while their total weight (log
// entries + history messages + 1 each, about 2 KiB a unit) stays within
// kMaxFinishedWeight; above it the oldest finished ones are forgotten
// (GetTask: TaskNotFound), so an agent under load for hours keeps a steady
// size (docs/ref-agent.md, docs/performance.md). Unfinished tasks are never
// forgotten; a stream or blocked send holding a forgotten task still ends well.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "peers/a2a-ref-agent/behaviour.hpp"
#include "peers/a2a-ref-agent/call_result.hpp"
#include "peers/a2a-ref-agent/choices.hpp"
#include "runner/a2a/model.hpp"
#include "runner/core/deadline.hpp"

namespace a2a::agent {

// A logged event is kept serialized (jsonrpc::dump of the StreamResponse):
// an SSE stream sends those bytes as they are, and a finished task holds one
// string per event instead of a tree to build and later free; a binding
// that wants the tree parses it (docs/performance.md, "HTTP").
struct LogEntry {
  std::string event;                        // a StreamResponse, serialized; "" for an error entry
  std::optional<CallError> error;           // a mid-stream error
  std::optional<model::TaskState> state;    // set on status updates
};

// The weight of finished tasks a store keeps (see above): about 20 MiB.
inline constexpr size_t kMaxFinishedWeight = 10000;

struct TaskRecord {
  std::string id;
  std::string context_id;
  Behaviour behaviour = Behaviour::kEcho;
  int turn = 0;             // user messages accepted so far, minus one
  uint64_t generation = 0;  // bumped per accepted message and by cancel: stale plans are dropped
  model::TaskState state = model::TaskState::kSubmitted;
  Json status;
  long long status_ms = 0;  // status timestamp, epoch ms
  uint64_t status_seq = 0;  // store-wide order of status changes: the ListTasks tiebreak
  std::vector<Json> history;
  std::vector<Json> artifacts;
  std::vector<LogEntry> log;
  std::vector<Json> push_configs;
  std::condition_variable cv;  // waits use TaskStore's mutex

  TaskRecord() = default;
  TaskRecord(const TaskRecord&) = delete;
  TaskRecord& operator=(const TaskRecord&) = delete;
  // Frees its JSON trees leaves first: cheaper than nlohmann's destructor,
  // which moves every child of every container to a heap stack first
  // (docs/performance.md, "HTTP").
  ~TaskRecord();
};

// How a task is rendered: historyLength (unset = all, 0 = no history key)
// and whether the artifacts key may appear.
struct TaskView {
  std::optional<long long> history_length;
  bool artifacts = true;
};
Json task_json(const TaskRecord& r, const TaskView& view = {});
// Appends jsonrpc::dump(task_json(r, view)) to `out`, byte for byte, without
// building the task as a tree: a send's answer is written straight from the
// store (docs/performance.md, "HTTP").
void append_task_text(std::string& out, const TaskRecord& r, const TaskView& view = {});

class TaskStore {
 public:
  using Lock = std::unique_lock<std::mutex>;

  // Frees, first, the tasks this thread evicted under its last lock (see
  // retire): a task is destroyed outside the lock, where it keeps no other
  // thread waiting.
  Lock lock() const {
    release_evicted();
    return Lock(mu_);
  }

  // Everything below requires the lock, held by the caller.
  std::shared_ptr<TaskRecord> find(const std::string& id) const;
  // A new SUBMITTED task holding `user_message` (taskId/contextId filled in).
  std::shared_ptr<TaskRecord> create(const std::string& context_id, Behaviour b, const Json& user_message);
  std::shared_ptr<TaskRecord> create(const std::string& context_id, Behaviour b, Json&& user_message);
  void append_user_message(TaskRecord& r, const Json& user_message);
  void append_user_message(TaskRecord& r, Json&& user_message);  // moved in, not copied
  bool knows_context(const std::string& context_id) const { return contexts_.count(context_id) > 0; }
  // New status (with an agent message when `text` is non-empty), logged as a statusUpdate.
  void set_status(TaskRecord& r, model::TaskState s, const std::string& text, bool reply_in_history);
  // Logs an artifactUpdate and merges the chunk into the task's artifacts
  // (by value: a chunk moved in is not copied again into its event).
  void add_chunk(TaskRecord& r, Json artifact, bool append, bool last_chunk);
  void add_error(TaskRecord& r, const CallError& e);
  std::vector<std::shared_ptr<TaskRecord>> all() const;
  size_t size() const { return tasks_.size(); }

  // Waits on r.cv until pred() holds, the deadline passes or the store closes.
  // Returns pred() (so false on timeout or close).
  template <class Pred>
  bool wait(Lock& lk, TaskRecord& r, core::Deadline deadline, Pred pred) {
    auto until = deadline.is_never() ? core::Clock::now() + std::chrono::hours(24) : deadline.time();
    r.cv.wait_until(lk, until, [&] { return closed_ || pred(); });
    return pred();
  }

  bool closed() const { return closed_; }

  // Called (lock held) for each push config of a task on each status or
  // artifact event logged; must not block. Set before the store is shared.
  using PushHook = std::function<void(const TaskRecord&, const Json& config, const Json& event)>;
  void set_push_hook(PushHook hook) { push_hook_ = std::move(hook); }
  // Who makes task and message ids. Set before the store is shared.
  void set_choices(std::shared_ptr<const Choices> c) { choices_ = std::move(c); }
  // Wakes every waiter; later waits return at once. Takes the lock itself.
  void close();

 private:
  Json agent_message(const TaskRecord& r, const std::string& text) const;
  void notify_push(const TaskRecord& r, const Json& event) const;
  // `r` reached a terminal state: it joins the finished tasks, and the
  // oldest of them go while their weight is above the bound.
  void retire(const TaskRecord& r);
  // Drops the evicted tasks this thread holds (a thread_local list that
  // retire() fills); at most what one locked section evicted.
  static void release_evicted();

  mutable std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<TaskRecord>> tasks_;
  std::unordered_map<std::string, size_t> contexts_;  // contextId -> tasks kept in it
  struct Finished {
    std::string id;
    size_t weight;
  };
  std::deque<Finished> finished_;  // oldest first
  size_t finished_weight_ = 0;
  uint64_t seq_ = 0;
  bool closed_ = false;
  PushHook push_hook_;
  std::shared_ptr<const Choices> choices_ = reference_choices();
};

}  // namespace a2a::agent
