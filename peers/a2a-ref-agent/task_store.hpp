// The task store: every task with its status, history, artifacts, push
// configs and an append-only event log. The store is split into shards by
// task id (kStoreShards by default), each with its own mutex and map of
// tasks, so two I/O threads serving different tasks do not wait for each
// other (docs/ref-agent.md, "The sharded task store"). Each task has
// a condition variable, used with its shard's mutex, that streams,
// subscribers and blocking sends wait on, always with a deadline. close()
// wakes every waiter so a shutdown never waits for a task to finish.
//
// Bounded: tasks in a terminal state are kept while their total weight (log
// entries + history messages + 1 each, about 2 KiB a unit) stays within
// kMaxFinishedWeight; above it the oldest finished ones are forgotten
// (GetTask: TaskNotFound), in one order for the whole store, so an agent
// under load for hours keeps a steady size (docs/ref-agent.md,
// docs/performance.md). Unfinished tasks are never forgotten; a stream or
// blocked send holding a forgotten task still ends well.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
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
// Shards of the agent's store: enough that two I/O threads and the timer
// thread rarely meet on one (docs/ref-agent.md, "The sharded task store").
inline constexpr size_t kStoreShards = 16;

// A finished task's artifacts, history and status as jsonrpc::dump text, in
// one buffer: TaskStore::set_status packs a task when it reaches a terminal
// state and frees its trees right then, while they are still in cache, so
// that evicting it ~1600 tasks later frees one string and one small vector
// instead of a JSON tree per message (docs/ref-agent.md, "Finished tasks as
// text"). Readers that want text (append_task_text, the gRPC wire) copy it;
// those that want a tree (task_json) parse it back.
class TaskText {
 public:
  // Whether the task is packed (a packed task always has its status item).
  bool packed() const { return !ends_.empty(); }
  size_t artifacts() const { return n_artifacts_; }
  size_t history() const { return packed() ? ends_.size() - 1 - n_artifacts_ : 0; }
  std::string_view artifact(size_t i) const { return item(i); }
  std::string_view message(size_t i) const { return item(n_artifacts_ + i); }
  // "" when the task had no status (null), or is not packed.
  std::string_view status() const { return packed() ? item(ends_.size() - 1) : std::string_view(); }
  // Packs the three as their text; false (nothing kept) if the text would
  // not fit the 32-bit offsets.
  bool pack(const std::vector<Json>& artifacts, const std::vector<Json>& history, const Json& status);
  void clear() {
    std::string().swap(text_);
    std::vector<uint32_t>().swap(ends_);
    n_artifacts_ = 0;
  }

 private:
  std::string_view item(size_t k) const {
    size_t begin = k == 0 ? 0 : ends_[k - 1];
    return std::string_view(text_).substr(begin, ends_[k] - begin);
  }
  std::string text_;            // the items' texts back to back: artifacts, history, status
  std::vector<uint32_t> ends_;  // where each item ends in text_
  uint32_t n_artifacts_ = 0;
};

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
  // status, history and artifacts are trees while the task runs; once it
  // is finished they are empty (status null) and `text` holds them.
  std::vector<Json> history;
  std::vector<Json> artifacts;
  TaskText text;
  std::vector<LogEntry> log;
  std::vector<Json> push_configs;
  uint32_t shard = 0;          // of the store, fixed at creation (TaskStore::lock(const TaskRecord&))
  std::condition_variable cv;  // waits use the mutex of the task's shard

  TaskRecord() = default;
  TaskRecord(const TaskRecord&) = delete;
  TaskRecord& operator=(const TaskRecord&) = delete;
  // Frees its JSON trees leaves first: cheaper than nlohmann's destructor,
  // which moves every child of every container to a heap stack first
  // (docs/performance.md, "HTTP").
  ~TaskRecord();

  // Messages in the history, packed or not.
  size_t history_size() const { return text.packed() ? text.history() : history.size(); }
};

// A finished task's trees to text (TaskText) and back; TaskStore does both
// (unpack when a packed task changes again, as kSemTerminalMutable's cancel
// does). Public for the tests, which compare what readers give either way.
void pack_task(TaskRecord& r);
void unpack_task(TaskRecord& r);

// How a task is rendered: historyLength (unset = all, 0 = no history key)
// and whether the artifacts key may appear.
struct TaskView {
  std::optional<long long> history_length;
  bool artifacts = true;
  // How many of a history of `total` messages are shown: the last ones.
  size_t history_shown(size_t total) const {
    return history_length ? std::min<size_t>(total, static_cast<size_t>(*history_length)) : total;
  }
};
Json task_json(const TaskRecord& r, const TaskView& view = {});
// Appends jsonrpc::dump(task_json(r, view)) to `out`, byte for byte, without
// building the task as a tree: a send's answer is written straight from the
// store (docs/performance.md, "HTTP").
void append_task_text(std::string& out, const TaskRecord& r, const TaskView& view = {});

class TaskStore {
 public:
  using Lock = std::unique_lock<std::mutex>;
  // Every shard locked, in index order (the only place two shards are held
  // at once, so there is no lock-order cycle).
  class AllLocks {
   public:
    AllLocks() = default;
    AllLocks(AllLocks&& o) noexcept : locks_(std::move(o.locks_)), store_(std::exchange(o.store_, nullptr)) {}
    AllLocks& operator=(AllLocks&&) = delete;
    ~AllLocks() { unlock(); }
    void unlock() {
      if (store_ && all_locked_ == store_) all_locked_ = nullptr;
      store_ = nullptr;
      locks_.clear();
    }

   private:
    friend class TaskStore;
    std::vector<Lock> locks_;
    const TaskStore* store_ = nullptr;
  };

  // `shards` = 1: one mutex for every task (the unit tests that evict
  // synchronously use it; see retire()).
  explicit TaskStore(size_t shards = kStoreShards);
  ~TaskStore();
  TaskStore(const TaskStore&) = delete;
  TaskStore& operator=(const TaskStore&) = delete;

  // The lock of the shard that holds (or will hold) task `id`, of the shard
  // of `r`. First forgets the tasks whose eviction retire() left pending
  // (their shard was busy), then frees the tasks this thread evicted under
  // its last lock: a task is destroyed outside any lock, where it keeps no
  // other thread waiting.
  Lock lock(std::string_view id) const;
  Lock lock(const TaskRecord& r) const;
  AllLocks lock_all() const;

  // The shard of task `id` (a record's is r.shard).
  size_t shard_of(std::string_view id) const;
  // Whether retire() left evictions for the next lock() (tests).
  bool evictions_pending() const { return has_pending_.load(std::memory_order_relaxed); }

  // A new task id (the choices' IdKind::kTask), made without a lock: the
  // caller then locks its shard and creates the task.
  std::string new_task_id() const { return choices_->new_id(IdKind::kTask); }

  // Everything below requires the lock of the task's shard (lock(id) or
  // lock(r)), held by the caller, unless it says otherwise.
  std::shared_ptr<TaskRecord> find(const std::string& id) const;
  // A new SUBMITTED task `id` holding `user_message` (taskId/contextId filled in).
  std::shared_ptr<TaskRecord> create(std::string id, const std::string& context_id, Behaviour b,
                                     Json&& user_message);
  // The same with an id made here; the caller holds lock_all().
  std::shared_ptr<TaskRecord> create(const std::string& context_id, Behaviour b, const Json& user_message);
  void append_user_message(TaskRecord& r, const Json& user_message);
  void append_user_message(TaskRecord& r, Json&& user_message);  // moved in, not copied
  // Whether a kept task is in `context_id`. Needs no shard lock (contexts
  // have their own small locks, taken after a shard's, never before).
  bool knows_context(const std::string& context_id) const;
  // New status (with an agent message when `text` is non-empty), logged as a statusUpdate.
  void set_status(TaskRecord& r, model::TaskState s, const std::string& text, bool reply_in_history);
  // Logs an artifactUpdate and merges the chunk into the task's artifacts
  // (by value: a chunk moved in is not copied again into its event).
  void add_chunk(TaskRecord& r, Json artifact, bool append, bool last_chunk);
  void add_error(TaskRecord& r, const CallError& e);
  // These two require lock_all().
  std::vector<std::shared_ptr<TaskRecord>> all() const;
  size_t size() const;

  // Waits on r.cv (`lk` is the lock of r's shard) until pred() holds, the
  // deadline passes or the store closes. Returns pred() (so false on timeout or close).
  template <class Pred>
  bool wait(Lock& lk, TaskRecord& r, core::Deadline deadline, Pred pred) {
    if (pred()) return true;
    auto until = deadline.is_never() ? core::Clock::now() + std::chrono::hours(24) : deadline.time();
    r.cv.wait_until(lk, until, [&] { return closed() || pred(); });
    return pred();
  }

  bool closed() const { return closed_.load(std::memory_order_acquire); }

  // Called (lock held) for each push config of a task on each status or
  // artifact event logged; must not block. Set before the store is shared.
  using PushHook = std::function<void(const TaskRecord&, const Json& config, const Json& event)>;
  void set_push_hook(PushHook hook) { push_hook_ = std::move(hook); }
  // Who makes task and message ids. Set before the store is shared.
  void set_choices(std::shared_ptr<const Choices> c) { choices_ = std::move(c); }
  // Wakes every waiter; later waits return at once. Takes the locks itself.
  void close();

 private:
  struct Finished {
    std::string id;
    uint32_t shard;
    size_t weight;
  };
  // Its own cache lines: the shards' mutexes are written by different threads.
  struct alignas(64) Shard {
    mutable std::mutex mu;
    std::unordered_map<std::string, std::shared_ptr<TaskRecord>> tasks;
  };
  struct alignas(64) ContextShard {
    mutable std::mutex mu;
    std::unordered_map<std::string, size_t> counts;  // contextId -> tasks kept in it
  };

  ContextShard& context_shard(const std::string& context_id) const;
  Json agent_message(const TaskRecord& r, const std::string& text) const;
  void notify_push(const TaskRecord& r, const Json& event) const;
  // `r` (its shard locked) reached a terminal state: it joins the finished
  // tasks, and the oldest of them go while their weight is above the bound.
  // A task of r's shard, or of a shard whose lock is free (try_lock), goes
  // at once; one of a busy shard is left pending for the next lock().
  void retire(const TaskRecord& r);
  // Lock of `id`'s shard held: removes the task from its shard and context
  // and hands it to this thread's evicted list.
  void forget(Shard& sh, const std::string& id) const;
  // No lock held, first thing in every lock of the store: forgets the
  // pending evictions, if any, then frees what this thread evicted.
  void settle() const;
  // No lock held: forgets the pending evictions.
  void forget_pending() const;
  // Drops the evicted tasks this thread holds (a thread_local list that
  // retire() fills); at most what one locked section evicted.
  static void release_evicted();

  size_t n_shards_;
  std::unique_ptr<Shard[]> shards_;
  // The finished tasks in the order they finished, for the whole store: the
  // oldest goes first, whatever its shard. Taken after a shard's lock; a
  // shard's lock is only try_lock'ed under it.
  mutable std::mutex finished_mu_;
  std::deque<Finished> finished_;
  size_t finished_weight_ = 0;
  mutable std::vector<Finished> pending_;  // evictions retire() could not do (finished_mu_)
  mutable std::atomic<bool> has_pending_{false};
  // The store whose every shard this thread holds (lock_all()): retire()
  // then evicts from any shard at once.
  static inline thread_local const TaskStore* all_locked_ = nullptr;
  std::unique_ptr<ContextShard[]> contexts_;  // n_shards_ of them, by contextId
  std::atomic<uint64_t> seq_{0};
  std::atomic<bool> closed_{false};
  PushHook push_hook_;
  std::shared_ptr<const Choices> choices_ = reference_choices();
};

}  // namespace a2a::agent
