#include "peers/a2a-ref-agent/task_store.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <limits>

#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/jsonrpc/dump.hpp"

namespace a2a::agent {
namespace {

// Writes values as jsonrpc::dump does (compact, UTF-8 kept, invalid UTF-8
// replaced) into one string, interleaved with the caller's own bytes.
class StoreTextWriter {
 public:
  explicit StoreTextWriter(std::string& out) : out_(out) {}

  void value(const Json& j) { jsonrpc::dump_to(out_, j); }
  // A string member's value; ids are plain ASCII and skip the Json copy.
  void string(const std::string& v) {
    bool plain = std::all_of(v.begin(), v.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
    if (!plain) return value(Json(v));
    out_ += '"';
    out_ += v;
    out_ += '"';
  }
  // `"name":` after a comma unless it is the object's first member.
  void key(std::string_view name, bool& first) {
    if (!first) out_ += ',';
    first = false;
    out_ += '"';
    out_ += name;
    out_ += "\":";
  }
  void array(const std::vector<Json>& items, size_t from) {
    out_ += '[';
    for (size_t i = from; i < items.size(); ++i) {
      if (i > from) out_ += ',';
      value(items[i]);
    }
    out_ += ']';
  }

 private:
  std::string& out_;
};

// model::now_timestamp()'s text ("2026-01-02T03:04:05.678Z") and its epoch
// milliseconds from one clock read, so the status need not be parsed back;
// the date and time of day are formatted once per second on each thread
// (snprintf and gmtime_r were a visible part of a small send).
std::string store_timestamp(long long& ms_out) {
  using namespace std::chrono;
  const long long ms = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  ms_out = ms;
  thread_local long long cached_second = -1;
  thread_local char head[64] = {};  // "YYYY-MM-DDTHH:MM:SS"; room for any int, as now_timestamp's buffer
  const long long second = ms / 1000;
  if (second != cached_second) {
    const std::time_t secs = static_cast<std::time_t>(second);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    std::snprintf(head, sizeof head, "%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                  tm.tm_hour, tm.tm_min, tm.tm_sec);
    cached_second = second;
  }
  const int milli = static_cast<int>(ms % 1000);
  std::string out(head);
  out += '.';
  out += static_cast<char>('0' + milli / 100);
  out += static_cast<char>('0' + milli / 10 % 10);
  out += static_cast<char>('0' + milli % 10);
  out += 'Z';
  return out;
}

// model::make_status(s, message) with the message moved in, stamped by store_timestamp.
Json store_status(model::TaskState s, Json message, long long& ms_out) {
  Json st = Json::object();
  if (s != model::TaskState::kUnspecified) st["state"] = model::to_string(s);
  if (!message.is_null()) st["message"] = std::move(message);
  st["timestamp"] = store_timestamp(ms_out);
  return st;
}

// Below this depth clear_tree leaves a subtree to nlohmann's own
// (iterative) destructor; the store's trees are a few levels deep.
constexpr int kMaxClearDepth = 64;

// Empties `j` leaves first. nlohmann's destructor moves every child of a
// container into a heap-allocated stack before freeing it (a vector and a
// move per node); a container found empty costs it neither.
void clear_tree(Json& j, int depth = 0) {
  if (depth >= kMaxClearDepth) return;
  if (j.is_object()) {
    auto& members = j.get_ref<Json::object_t&>();
    for (auto& member : members) {
      if (member.second.is_structured()) clear_tree(member.second, depth + 1);
    }
    members.clear();
  } else if (j.is_array()) {
    auto& items = j.get_ref<Json::array_t&>();
    for (auto& item : items) {
      if (item.is_structured()) clear_tree(item, depth + 1);
    }
    items.clear();
  }
}

void clear_trees(std::vector<Json>& v) {
  for (auto& j : v) clear_tree(j);
}

// Tasks retire() evicted on this thread, destroyed at its next
// TaskStore::lock(), before the lock is taken (or by the store's destructor).
thread_local std::vector<std::shared_ptr<TaskRecord>> t_evicted;

}  // namespace

bool TaskText::pack(const std::vector<Json>& artifacts, const std::vector<Json>& history, const Json& status) {
  clear();
  ends_.reserve(artifacts.size() + history.size() + 1);
  auto add = [&](const Json& j) {
    jsonrpc::dump_to(text_, j);
    if (text_.size() > std::numeric_limits<uint32_t>::max()) return false;
    ends_.push_back(static_cast<uint32_t>(text_.size()));
    return true;
  };
  bool ok = true;
  for (const Json& a : artifacts) ok = ok && add(a);
  for (const Json& m : history) ok = ok && add(m);
  if (ok && !status.is_null()) ok = add(status);
  if (ok && status.is_null()) ends_.push_back(static_cast<uint32_t>(text_.size()));  // an empty status item
  if (!ok) {
    clear();
    return false;
  }
  n_artifacts_ = static_cast<uint32_t>(artifacts.size());
  return true;
}

namespace {

Json parse_stored(std::string_view text) { return Json::parse(text.begin(), text.end()); }

}  // namespace

void pack_task(TaskRecord& r) {
  if (r.text.packed() || !r.text.pack(r.artifacts, r.history, r.status)) return;
  // Freed here, leaves first, while the trees are still in cache.
  clear_trees(r.artifacts);
  clear_trees(r.history);
  clear_tree(r.status);
  std::vector<Json>().swap(r.artifacts);
  std::vector<Json>().swap(r.history);
  r.status = nullptr;
}

void unpack_task(TaskRecord& r) {
  if (!r.text.packed()) return;
  const TaskText& t = r.text;
  r.artifacts.clear();
  r.history.clear();
  for (size_t i = 0; i < t.artifacts(); ++i) r.artifacts.push_back(parse_stored(t.artifact(i)));
  for (size_t i = 0; i < t.history(); ++i) r.history.push_back(parse_stored(t.message(i)));
  r.status = t.status().empty() ? Json(nullptr) : parse_stored(t.status());
  r.text.clear();
}

TaskRecord::~TaskRecord() {
  clear_tree(status);
  clear_trees(history);
  clear_trees(artifacts);
  clear_trees(push_configs);
}

void TaskStore::release_evicted() {
  if (!t_evicted.empty()) t_evicted.clear();
}

namespace {

// append_task_text of a packed task: the same members from TaskText's items.
void append_packed_task_text(std::string& out, const TaskRecord& r, const TaskView& view) {
  const TaskText& t = r.text;
  StoreTextWriter w(out);
  bool first = true;
  auto items = [&](size_t from, size_t to, auto item) {
    out += '[';
    for (size_t i = from; i < to; ++i) {
      if (i > from) out += ',';
      out += item(i);
    }
    out += ']';
  };
  out += '{';
  if (view.artifacts && t.artifacts() > 0) {
    w.key("artifacts", first);
    items(0, t.artifacts(), [&](size_t i) { return t.artifact(i); });
  }
  if (!r.context_id.empty()) {
    w.key("contextId", first);
    w.string(r.context_id);
  }
  size_t n = view.history_shown(t.history());
  if (n > 0) {
    w.key("history", first);
    items(t.history() - n, t.history(), [&](size_t i) { return t.message(i); });
  }
  if (!r.id.empty()) {
    w.key("id", first);
    w.string(r.id);
  }
  if (!t.status().empty()) {
    w.key("status", first);
    out += t.status();
  }
  out += '}';
}

}  // namespace

// The members task_json writes, in the order nlohmann's sorted object
// dumps them: artifacts, contextId, history, id, status.
void append_task_text(std::string& out, const TaskRecord& r, const TaskView& view) {
  if (r.text.packed()) return append_packed_task_text(out, r, view);
  StoreTextWriter w(out);
  bool first = true;
  out += '{';
  if (view.artifacts && !r.artifacts.empty()) {
    w.key("artifacts", first);
    w.array(r.artifacts, 0);
  }
  if (!r.context_id.empty()) {
    w.key("contextId", first);
    w.string(r.context_id);
  }
  size_t n = view.history_shown(r.history.size());
  if (n > 0) {
    w.key("history", first);
    w.array(r.history, r.history.size() - n);
  }
  if (!r.id.empty()) {
    w.key("id", first);
    w.string(r.id);
  }
  if (!r.status.is_null()) {
    w.key("status", first);
    w.value(r.status);
  }
  out += '}';
}

Json task_json(const TaskRecord& r, const TaskView& view) {
  if (r.text.packed()) {
    // A finished task read as a tree (GetTask, ListTasks): its text parsed
    // back, members and all (docs/ref-agent.md, "Finished tasks as text").
    std::string text;
    append_packed_task_text(text, r, view);
    return parse_stored(text);
  }
  Json t = model::make_task(r.id, r.context_id, r.status);
  if (view.artifacts && !r.artifacts.empty()) t["artifacts"] = r.artifacts;
  size_t n = view.history_shown(r.history.size());
  if (n > 0) {
    Json h = Json::array();
    for (size_t i = r.history.size() - n; i < r.history.size(); ++i) h.push_back(r.history[i]);
    t["history"] = std::move(h);
  } else {
    t.erase("history");
  }
  return t;
}

TaskStore::TaskStore(size_t shards)
    : n_shards_(std::max<size_t>(shards, 1)),
      shards_(new Shard[n_shards_]),
      contexts_(new ContextShard[n_shards_]) {}

TaskStore::~TaskStore() { release_evicted(); }

size_t TaskStore::shard_of(std::string_view id) const {
  return n_shards_ == 1 ? 0 : std::hash<std::string_view>{}(id) % n_shards_;
}

TaskStore::ContextShard& TaskStore::context_shard(const std::string& context_id) const {
  return contexts_[n_shards_ == 1 ? 0 : std::hash<std::string_view>{}(context_id) % n_shards_];
}

TaskStore::Lock TaskStore::lock(std::string_view id) const {
  settle();
  return Lock(shards_[shard_of(id)].mu);
}

TaskStore::Lock TaskStore::lock(const TaskRecord& r) const {
  settle();
  return Lock(shards_[r.shard].mu);
}

TaskStore::AllLocks TaskStore::lock_all() const {
  settle();
  AllLocks all;
  all.locks_.reserve(n_shards_);
  for (size_t i = 0; i < n_shards_; ++i) all.locks_.emplace_back(shards_[i].mu);
  all.store_ = this;
  all_locked_ = this;
  return all;
}

bool TaskStore::knows_context(const std::string& context_id) const {
  ContextShard& cs = context_shard(context_id);
  std::lock_guard<std::mutex> lk(cs.mu);
  return cs.counts.count(context_id) > 0;
}

std::shared_ptr<TaskRecord> TaskStore::find(const std::string& id) const {
  const Shard& sh = shards_[shard_of(id)];
  auto it = sh.tasks.find(id);
  return it == sh.tasks.end() ? nullptr : it->second;
}

std::shared_ptr<TaskRecord> TaskStore::create(const std::string& context_id, Behaviour b,
                                              const Json& user_message) {
  return create(new_task_id(), context_id, b, Json(user_message));
}

std::shared_ptr<TaskRecord> TaskStore::create(std::string id, const std::string& context_id, Behaviour b,
                                              Json&& user_message) {
  auto r = std::make_shared<TaskRecord>();
  r->id = std::move(id);
  r->shard = static_cast<uint32_t>(shard_of(r->id));
  r->context_id = context_id;
  r->behaviour = b;
  r->state = model::TaskState::kSubmitted;
  r->status = store_status(model::TaskState::kSubmitted, nullptr, r->status_ms);
  r->status_seq = seq_.fetch_add(1, std::memory_order_relaxed) + 1;
  append_user_message(*r, std::move(user_message));
  shards_[r->shard].tasks.emplace(r->id, r);
  ContextShard& cs = context_shard(context_id);
  std::lock_guard<std::mutex> lk(cs.mu);
  ++cs.counts[context_id];
  return r;
}

void TaskStore::append_user_message(TaskRecord& r, const Json& user_message) {
  append_user_message(r, Json(user_message));
}

void TaskStore::append_user_message(TaskRecord& r, Json&& user_message) {
  unpack_task(r);
  Json m = std::move(user_message);
  m["taskId"] = r.id;
  m["contextId"] = r.context_id;
  r.history.push_back(std::move(m));
}

Json TaskStore::agent_message(const TaskRecord& r, const std::string& text) const {
  return model::make_message(model::to_string(model::Role::kAgent), choices_->new_id(IdKind::kMessage),
                             Json::array({model::text_part(text)}), r.context_id, r.id);
}

void TaskStore::set_status(TaskRecord& r, model::TaskState s, const std::string& text, bool reply_in_history) {
  unpack_task(r);  // a finished task changed again (kSemTerminalMutable)
  Json message = text.empty() ? Json(nullptr) : agent_message(r, text);
  if (reply_in_history && !message.is_null()) r.history.push_back(message);
  r.state = s;
  r.status = store_status(s, std::move(message), r.status_ms);
  r.status_seq = seq_.fetch_add(1, std::memory_order_relaxed) + 1;
  if (push_hook_ && !r.push_configs.empty()) {
    Json ev = Json::object();
    ev["statusUpdate"] = model::status_update(r.id, r.context_id, r.status);
    notify_push(r, ev);
  }
  // jsonrpc::dump of {"statusUpdate": model::status_update(...)}, members sorted.
  std::string event = "{\"statusUpdate\":";
  {
    StoreTextWriter w(event);
    bool first = true;
    event += '{';
    if (!r.context_id.empty()) {
      w.key("contextId", first);
      w.string(r.context_id);
    }
    if (!r.status.is_null()) {
      w.key("status", first);
      w.value(r.status);
    }
    if (!r.id.empty()) {
      w.key("taskId", first);
      w.string(r.id);
    }
    event += "}}";
  }
  r.log.push_back(LogEntry{std::move(event), std::nullopt, s});
  r.cv.notify_all();
  if (model::is_terminal(s)) {
    pack_task(r);
    retire(r);
  }
}

void TaskStore::retire(const TaskRecord& r) {
  Shard& own = shards_[r.shard];
  size_t weight = 1 + r.log.size() + r.history_size();
  std::lock_guard<std::mutex> fl(finished_mu_);
  finished_.push_back(Finished{r.id, r.shard, weight});
  finished_weight_ += weight;
  // The newest finished task always stays: a client reads it right after.
  while (finished_weight_ > kMaxFinishedWeight && finished_.size() > 1) {
    Finished old = std::move(finished_.front());
    finished_.pop_front();
    finished_weight_ -= old.weight;
    Shard& sh = shards_[old.shard];
    if (&sh == &own || all_locked_ == this) {
      forget(sh, old.id);
    } else if (std::unique_lock<std::mutex> other(sh.mu, std::try_to_lock); other.owns_lock()) {
      forget(sh, old.id);
    } else {
      // Never wait for a second shard while holding one (no lock-order
      // cycle): its task is forgotten at the next lock() of any thread.
      pending_.push_back(std::move(old));
      has_pending_.store(true, std::memory_order_relaxed);
    }
  }
}

void TaskStore::forget(Shard& sh, const std::string& id) const {
  auto it = sh.tasks.find(id);
  if (it == sh.tasks.end()) return;
  {
    ContextShard& cs = context_shard(it->second->context_id);
    std::lock_guard<std::mutex> lk(cs.mu);
    auto ctx = cs.counts.find(it->second->context_id);
    if (ctx != cs.counts.end() && --ctx->second == 0) cs.counts.erase(ctx);
  }
  // Freed at this thread's next lock(), outside the lock (a task's trees
  // were a sixth of a small send's time, all of it under the lock).
  t_evicted.push_back(std::move(it->second));
  sh.tasks.erase(it);
}

void TaskStore::settle() const {
  if (has_pending_.load(std::memory_order_relaxed)) forget_pending();
  release_evicted();
}

void TaskStore::forget_pending() const {
  std::vector<Finished> todo;
  {
    std::lock_guard<std::mutex> fl(finished_mu_);
    todo.swap(pending_);
    has_pending_.store(false, std::memory_order_relaxed);
  }
  for (const Finished& f : todo) {
    Shard& sh = shards_[f.shard];
    std::lock_guard<std::mutex> lk(sh.mu);
    forget(sh, f.id);
  }
}

namespace {

// An artifact's artifactId, "" when it has none (compared in place: no copy per artifact).
std::string_view stored_artifact_id(const Json& a) {
  auto f = a.find("artifactId");
  return f != a.end() && f->is_string() ? std::string_view(f->get_ref<const std::string&>()) : std::string_view();
}

}  // namespace

void TaskStore::add_chunk(TaskRecord& r, Json artifact, bool append, bool last_chunk) {
  unpack_task(r);
  if (push_hook_ && !r.push_configs.empty()) {
    Json ev = Json::object();
    ev["artifactUpdate"] = model::artifact_update(r.id, r.context_id, artifact, append, last_chunk);
    notify_push(r, ev);
  }
  // jsonrpc::dump of {"artifactUpdate": model::artifact_update(...)}, members sorted.
  std::string text = "{\"artifactUpdate\":";
  {
    StoreTextWriter w(text);
    bool first = true;
    text += '{';
    if (append) {
      w.key("append", first);
      text += "true";
    }
    if (!artifact.is_null()) {
      w.key("artifact", first);
      w.value(artifact);
    }
    if (!r.context_id.empty()) {
      w.key("contextId", first);
      w.string(r.context_id);
    }
    if (last_chunk) {
      w.key("lastChunk", first);
      text += "true";
    }
    if (!r.id.empty()) {
      w.key("taskId", first);
      w.string(r.id);
    }
    text += "}}";
  }
  // Merged into the task's artifacts after the event was written: the chunk
  // is moved there rather than copied.
  std::string_view id = stored_artifact_id(artifact);
  auto it = std::find_if(r.artifacts.begin(), r.artifacts.end(),
                         [&](const Json& a) { return stored_artifact_id(a) == id; });
  if (it == r.artifacts.end()) {
    r.artifacts.push_back(std::move(artifact));
  } else if (append) {
    auto parts = artifact.find("parts");
    if (parts != artifact.end()) {
      for (auto& p : *parts) (*it)["parts"].push_back(std::move(p));
    }
  } else {
    *it = std::move(artifact);
  }
  r.log.push_back(LogEntry{std::move(text), std::nullopt, std::nullopt});
  r.cv.notify_all();
}

void TaskStore::notify_push(const TaskRecord& r, const Json& event) const {
  if (!push_hook_) return;
  for (const auto& cfg : r.push_configs) push_hook_(r, cfg, event);
}

void TaskStore::add_error(TaskRecord& r, const CallError& e) {
  r.log.push_back(LogEntry{std::string(), e, std::nullopt});
  r.cv.notify_all();
}

std::vector<std::shared_ptr<TaskRecord>> TaskStore::all() const {
  std::vector<std::shared_ptr<TaskRecord>> out;
  out.reserve(size());
  for (size_t i = 0; i < n_shards_; ++i) {
    for (const auto& [id, r] : shards_[i].tasks) out.push_back(r);
  }
  return out;
}

size_t TaskStore::size() const {
  size_t n = 0;
  for (size_t i = 0; i < n_shards_; ++i) n += shards_[i].tasks.size();
  return n;
}

void TaskStore::close() {
  // Set first, then each shard's waiters woken under its lock: a waiter
  // either sees closed() before it sleeps or is asleep when notified.
  closed_.store(true, std::memory_order_release);
  for (size_t i = 0; i < n_shards_; ++i) {
    Lock lk(shards_[i].mu);
    for (auto& [id, r] : shards_[i].tasks) r->cv.notify_all();
  }
}

}  // namespace a2a::agent
