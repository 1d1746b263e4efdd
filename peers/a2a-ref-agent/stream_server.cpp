#include "peers/a2a-ref-agent/stream_server.hpp"

#include <algorithm>

#include "runner/a2a/methods.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::agent {
namespace {

// How often a waiting stream re-checks its time limit.
constexpr core::Millis kPollSlice{250};
// stdio-json: streams open at once (each has a thread) before new ones are refused.
constexpr size_t kMaxJsonStreams = 256;

// The task id an event is about, for the stream-final-nonnull fault.
Json task_id_of(const Json& event) {
  if (event.contains("task")) return event["task"].value("id", Json(nullptr));
  for (const char* k : {"statusUpdate", "artifactUpdate"}) {
    if (event.contains(k)) return event[k].value("taskId", Json(nullptr));
  }
  return nullptr;
}

Json wrong_id(const Json& id) {
  if (id.is_string()) return id.get<std::string>() + "-other";
  if (id.is_number_integer()) return id.get<long long>() + 1000;
  return "other";
}

}  // namespace

StreamServer::StreamServer(AgentCore& core, RpcOut& out, core::Millis max_stream, StreamShape shape)
    : core_(core), out_(out), max_stream_(max_stream), shape_(shape), worker_([this] { loop(); }) {}

StreamServer::~StreamServer() { close(); }

bool StreamServer::submit(StreamJob job) {
  const Faults& f = out_.faults();
  std::lock_guard<std::mutex> lk(mu_);
  if (closing_) return true;
  if (json()) {
    reap_locked();
    std::string key = job.id.dump();
    if (json_open_.count(key) && !f.has(Fault::kJsonStreamIdReuse)) return false;
    if (f.has(Fault::kConcDropQueuedStream) && !json_open_.empty()) return true;  // silently lost
    if (runners_.size() >= kMaxJsonStreams) {
      // One thread per open stream: a flood of subscriptions must not exhaust the process.
      out_.write_error(job.id, internal_error("Server overloaded: too many open streams"));
      return true;
    }
    json_open_[key] = JsonStream{};
    auto done = std::make_shared<std::atomic<bool>>(false);
    runners_.push_back(Runner{std::thread([this, job = std::move(job), done] {
                                serve(job);
                                done->store(true);
                              }),
                              done});
    return true;
  }
  if (f.has(Fault::kConcInterleaveStreams)) {
    extra_.emplace_back([this, job = std::move(job)] { serve(job); });
    return true;
  }
  if (f.has(Fault::kConcDropQueuedStream) && (busy_ || !queue_.empty())) return true;  // silently lost
  queue_.emplace_back(std::move(job));
  cv_.notify_one();
  return true;
}

void StreamServer::reap_locked() {
  for (auto it = runners_.begin(); it != runners_.end();) {
    if (!it->done->load()) {
      ++it;
      continue;
    }
    it->thread.join();  // finished: returns at once
    it = runners_.erase(it);
  }
}

void StreamServer::cancel(const Json& id) {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = json_open_.find(id.dump());
  if (it == json_open_.end()) return;
  if (it->second.stream) {
    it->second.stream->cancel();
  } else {
    it->second.cancel_requested = true;
  }
}

bool StreamServer::is_open(const Json& id) {
  std::lock_guard<std::mutex> lk(mu_);
  return json_open_.count(id.dump()) > 0;
}

void StreamServer::bind_id(const Json& id, EventStream* s) {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = json_open_.find(id.dump());
  if (it == json_open_.end()) return;
  it->second.stream = s;
  if (it->second.cancel_requested) s->cancel();
}

void StreamServer::release_id(const Json& id) {
  std::lock_guard<std::mutex> lk(mu_);
  json_open_.erase(id.dump());
}

void StreamServer::end_marker(const Json& id) {
  release_id(id);  // before the frame: a client may reuse the id as soon as it reads streamEnd
  out_.write(Json{{"jsonrpc", "2.0"}, {"id", out_.out_id(id)}, {"streamEnd", true}});
}

void StreamServer::submit_unary(std::function<void()> job) {
  std::lock_guard<std::mutex> lk(mu_);
  if (closing_) return;
  queue_.emplace_back(std::move(job));
  cv_.notify_one();
}

void StreamServer::close() {
  std::deque<Item> left;
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (!closing_) {
      closing_ = true;
      for (auto* s : open_) s->cancel();
      left.swap(queue_);
    }
  }
  cv_.notify_all();
  for (auto& item : left) {
    if (auto* job = std::get_if<StreamJob>(&item)) {
      out_.write_error(job->id, internal_error("Stream not started: the session is closing (stdin EOF)"));
    } else if (auto* unary = std::get_if<std::function<void()>>(&item)) {
      (*unary)();  // conc-serialize: a unary request read before the end is still answered
    }
  }
  if (worker_.joinable()) worker_.join();
  for (auto& t : extra_) {
    if (t.joinable()) t.join();
  }
  std::vector<Runner> runners;
  {
    std::lock_guard<std::mutex> lk(mu_);
    runners.swap(runners_);
  }
  for (auto& r : runners) {
    if (r.thread.joinable()) r.thread.join();
  }
}

void StreamServer::loop() {
  std::unique_lock<std::mutex> lk(mu_);
  for (;;) {
    // Bounded idle wait: a lost notification cannot park the worker for good.
    cv_.wait_for(lk, std::chrono::seconds(1), [&] { return closing_ || !queue_.empty(); });
    if (closing_) return;
    if (queue_.empty()) continue;
    Item item = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lk.unlock();
    if (auto* job = std::get_if<StreamJob>(&item)) {
      serve(*job);
    } else {
      std::get<std::function<void()>>(item)();
    }
    lk.lock();
    busy_ = false;
  }
}

bool StreamServer::track(EventStream* s, bool add) {
  std::lock_guard<std::mutex> lk(mu_);
  if (!add) {
    open_.erase(std::remove(open_.begin(), open_.end(), s), open_.end());
    return true;
  }
  open_.push_back(s);
  return !closing_;
}

void StreamServer::serve(const StreamJob& job) {
  try {
    serve_checked(job);
  } catch (const std::exception& e) {
    // A bug of ours must cost one stream, not the session; the request still gets its response.
    if (json()) release_id(job.id);
    out_.write_error(job.id, internal_error(std::string("Internal error: ") + e.what()));
  }
}

void StreamServer::fail(const StreamJob& job, const CallError& e) {
  if (json()) release_id(job.id);
  if (json() && out_.faults().has(Fault::kJsonStreamEndAfterError)) {
    // Wrong on purpose: under stdio-json an error response ends the stream by
    // itself. Both frames go out in one write, so an answer written by the
    // reader thread cannot come between them and hide the defect.
    std::string bytes;
    out_.frames().encode_into(bytes, jsonrpc::dump(out_.error(job.id, e)));
    out_.frames().encode_into(bytes, jsonrpc::dump(Json{{"jsonrpc", "2.0"}, {"id", out_.out_id(job.id)}, {"streamEnd", true}}));
    out_.frames().write_raw(bytes);
    return;
  }
  out_.write_error(job.id, e);
}

void StreamServer::serve_checked(const StreamJob& job) {
  StreamOpen opened = core_.open_stream(job.op, job.params);
  if (!opened.stream) {
    // Refused before the first event: one error response, no notifications (C7).
    fail(job, opened.error.value_or(internal_error("stream refused")));
    return;
  }
  if (!track(opened.stream.get(), true)) opened.stream->cancel();
  if (json()) bind_id(job.id, opened.stream.get());
  // Untracked before the stream is destroyed, whatever happens.
  struct Untrack {
    StreamServer* server;
    EventStream* stream;
    ~Untrack() { server->track(stream, false); }
  } untrack{this, opened.stream.get()};
  Json last_task_id;
  if (!run_events(job, *opened.stream, last_task_id)) finish(job, last_task_id);
}

bool StreamServer::run_events(const StreamJob& job, EventStream& stream, Json& last_task_id) {
  const Faults& f = out_.faults();
  auto limit = core::Deadline::after(max_stream_);
  std::optional<Json> held;  // stream-reorder: the first event, sent after the second
  bool reordered = false;
  for (;;) {
    StreamItem item = stream.next(core::Deadline::after(kPollSlice).min(limit));
    if (item.kind == StreamItem::Kind::kEnd) break;
    if (item.kind == StreamItem::Kind::kTimeout) {
      if (!limit.expired()) continue;
      if (json()) {
        fail(job, internal_error("Stream time limit reached; subscribe again"));
        return true;
      }
      out_.write_notification(model::kP46StreamError,
                              Json{{"code", -32603}, {"message", "Stream time limit reached; subscribe again"}});
      break;
    }
    if (item.kind == StreamItem::Kind::kError) {
      if (json()) {
        fail(job, item.error);
        return true;
      }
      if (f.has(Fault::kStreamErrorEventAsFinal)) {
        out_.write_error(job.id, item.error);
        return true;
      }
      out_.write_notification(model::kP46StreamError, Json{{"code", item.error.code}, {"message", item.error.message}});
      continue;
    }
    if (Json tid = task_id_of(item.event); !tid.is_null()) last_task_id = tid;
    if (f.has(Fault::kStreamReorder) && !reordered && !held) {
      held = std::move(item.event);
      continue;
    }
    emit(job, item.event);
    if (held) {
      emit(job, *held);
      held.reset();
      reordered = true;
    }
  }
  if (held) emit(job, *held);
  return false;
}

void StreamServer::emit(const StreamJob& job, const Json& event) {
  if (json() || out_.faults().has(Fault::kStreamEventsAsResponses)) {
    out_.write_result(job.id, event);
  } else {
    out_.write_notification(model::kP46StreamEvent, event);
  }
}

void StreamServer::finish(const StreamJob& job, const Json& last_task_id) {
  const Faults& f = out_.faults();
  if (json()) {
    if (f.has(Fault::kJsonNoStreamEnd) || f.has(Fault::kStreamNoFinal)) {
      release_id(job.id);
      return;
    }
    end_marker(f.has(Fault::kStreamFinalWrongId) ? wrong_id(job.id) : job.id);
    if (f.has(Fault::kStreamFinalWrongId)) release_id(job.id);
    return;
  }
  if (f.has(Fault::kStreamNoFinal)) return;
  Json result = nullptr;
  if (f.has(Fault::kStreamFinalNonnull) && last_task_id.is_string()) {
    CallResult task = core_.call(model::Operation::kGetTask, Json{{"id", last_task_id}});
    if (task.ok()) result = task.value();
  }
  Json id = f.has(Fault::kStreamFinalWrongId) ? wrong_id(job.id) : job.id;
  out_.write_result(id, result);
}

}  // namespace a2a::agent
