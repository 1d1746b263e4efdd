#include "peers/a2a-ref-agent/event_stream.hpp"

#include <mutex>

#include "peers/a2a-ref-agent/task_store.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::agent {

StreamItem EventStream::next_text(core::Deadline deadline, const std::function<void(std::string_view)>& text) {
  StreamItem item = next(deadline);
  if (item.kind == StreamItem::Kind::kEvent) {
    text(jsonrpc::dump(item.event));
    item.event = nullptr;
  }
  return item;
}

namespace {

bool ends_stream(model::TaskState s) { return model::is_terminal(s) || model::is_interrupted(s); }

class FixedStream : public EventStream {
 public:
  FixedStream(std::vector<Json> events, Faults faults) : events_(std::move(events)), faults_(faults) {}

  StreamItem next(core::Deadline) override {
    std::lock_guard<std::mutex> lk(mu_);
    if (canceled_ || index_ >= events_.size()) return StreamItem{};
    StreamItem item{StreamItem::Kind::kEvent, events_[index_++], {}};
    apply_output_faults(faults_, item.event);
    return item;
  }
  void cancel() override {
    std::lock_guard<std::mutex> lk(mu_);
    canceled_ = true;
  }

 private:
  std::mutex mu_;
  std::vector<Json> events_;
  size_t index_ = 0;
  bool canceled_ = false;
  Faults faults_;
};

class TaskStream : public EventStream {
 public:
  TaskStream(TaskStore& store, std::shared_ptr<TaskRecord> r, std::optional<Json> first, size_t start,
             Faults faults)
      : store_(store), record_(std::move(r)), first_(std::move(first)), index_(start), faults_(faults) {}

  StreamItem next(core::Deadline deadline) override {
    auto lk = store_.lock(*record_);
    const LogEntry* e = nullptr;
    StreamItem item = take(lk, deadline, e);
    if (e) {
      item.event = Json::parse(e->event);  // our own dump: it parses
      apply_output_faults(faults_, item.event);  // take_first() applied them to the first item
    }
    return item;
  }

  // Without output faults a logged event is shown as it was logged: no
  // tree at all (the HTTP pump).
  StreamItem next_text(core::Deadline deadline, const std::function<void(std::string_view)>& text) override {
    if (faults_.any()) return EventStream::next_text(deadline, text);
    StreamItem item = next_view_or_text(deadline, [&](const Json& event) { text(jsonrpc::dump(event)); }, text);
    item.event = nullptr;  // shown as text
    return item;
  }

  StreamItem next_view_or_text(core::Deadline deadline, const std::function<void(const Json&)>& view,
                               const std::function<void(std::string_view)>& text) override {
    if (faults_.any()) return EventStream::next_view_or_text(deadline, view, text);
    auto lk = store_.lock(*record_);
    const LogEntry* e = nullptr;
    StreamItem item = take(lk, deadline, e);
    if (item.kind == StreamItem::Kind::kEvent) {
      if (e) {
        text(e->event);
      } else {
        view(item.event);
      }
    }
    return item;
  }

  void cancel() override {
    auto lk = store_.lock(*record_);
    canceled_ = true;
    record_->cv.notify_all();
  }

 private:
  // Lock held. The next item; for a logged event, kind kEvent with a null
  // event and `entry` set to it (valid while the lock is held).
  StreamItem take(TaskStore::Lock& lk, core::Deadline deadline, const LogEntry*& entry) {
    if (canceled_ || done_) return StreamItem{};
    if (first_) return take_first();
    TaskRecord& r = *record_;
    bool ready = store_.wait(lk, r, deadline, [&] { return canceled_ || index_ < r.log.size(); });
    if (canceled_ || store_.closed()) return StreamItem{};
    if (!ready) return StreamItem{StreamItem::Kind::kTimeout, nullptr, {}};
    const LogEntry& e = r.log[index_++];
    if (e.error) return StreamItem{StreamItem::Kind::kError, nullptr, *e.error};
    if (e.state && ends_stream(*e.state)) done_ = true;
    entry = &e;
    return StreamItem{StreamItem::Kind::kEvent, nullptr, {}};
  }

  // Lock held by the caller.
  StreamItem take_first() {
    StreamItem item{StreamItem::Kind::kEvent, std::move(*first_), {}};
    first_.reset();
    const Json* state = nullptr;
    if (item.event.contains("task")) state = &item.event["task"]["status"]["state"];
    if (state) {
      auto s = model::task_state_from_json(*state);
      if (s && ends_stream(*s)) done_ = true;
    }
    apply_output_faults(faults_, item.event);
    return item;
  }

  TaskStore& store_;
  std::shared_ptr<TaskRecord> record_;
  std::optional<Json> first_;
  size_t index_;
  bool canceled_ = false;  // guarded by the store's mutex
  bool done_ = false;
  Faults faults_;
};

}  // namespace

std::unique_ptr<EventStream> make_fixed_stream(std::vector<Json> events, Faults faults) {
  return std::make_unique<FixedStream>(std::move(events), faults);
}

std::unique_ptr<EventStream> make_task_stream(TaskStore& store, std::shared_ptr<TaskRecord> record,
                                              std::optional<Json> first, size_t start_index, Faults faults) {
  return std::make_unique<TaskStream>(store, std::move(record), std::move(first), start_index, faults);
}

}  // namespace a2a::agent
