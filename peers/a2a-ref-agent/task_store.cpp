#include "peers/a2a-ref-agent/task_store.hpp"

#include <algorithm>

#include "runner/core/escape.hpp"

namespace a2a::agent {

Json task_json(const TaskRecord& r, const TaskView& view) {
  Json t = model::make_task(r.id, r.context_id, r.status);
  if (view.artifacts && !r.artifacts.empty()) t["artifacts"] = r.artifacts;
  size_t n = r.history.size();
  if (view.history_length) n = std::min<size_t>(n, static_cast<size_t>(*view.history_length));
  if (n > 0) {
    Json h = Json::array();
    for (size_t i = r.history.size() - n; i < r.history.size(); ++i) h.push_back(r.history[i]);
    t["history"] = std::move(h);
  } else {
    t.erase("history");
  }
  return t;
}

std::shared_ptr<TaskRecord> TaskStore::find(const std::string& id) const {
  auto it = tasks_.find(id);
  return it == tasks_.end() ? nullptr : it->second;
}

std::shared_ptr<TaskRecord> TaskStore::create(const std::string& context_id, Behaviour b,
                                              const Json& user_message) {
  auto r = std::make_shared<TaskRecord>();
  r->id = choices_->new_id(IdKind::kTask);
  r->context_id = context_id;
  r->behaviour = b;
  r->state = model::TaskState::kSubmitted;
  r->status = model::make_status(model::TaskState::kSubmitted);
  if (!r->status.contains("timestamp")) r->status["timestamp"] = model::now_timestamp();
  r->status_ms = model::parse_timestamp_ms(r->status["timestamp"].get<std::string>()).value_or(0);
  r->status_seq = ++seq_;
  append_user_message(*r, user_message);
  tasks_.emplace(r->id, r);
  ++contexts_[context_id];
  return r;
}

void TaskStore::append_user_message(TaskRecord& r, const Json& user_message) {
  Json m = user_message;
  m["taskId"] = r.id;
  m["contextId"] = r.context_id;
  r.history.push_back(std::move(m));
}

Json TaskStore::agent_message(const TaskRecord& r, const std::string& text) const {
  return model::make_message(model::to_string(model::Role::kAgent), choices_->new_id(IdKind::kMessage),
                             Json::array({model::text_part(text)}), r.context_id, r.id);
}

void TaskStore::set_status(TaskRecord& r, model::TaskState s, const std::string& text, bool reply_in_history) {
  Json message = text.empty() ? Json(nullptr) : agent_message(r, text);
  if (reply_in_history && !message.is_null()) r.history.push_back(message);
  r.state = s;
  r.status = model::make_status(s, message);
  if (!r.status.contains("timestamp")) r.status["timestamp"] = model::now_timestamp();
  r.status_ms = model::parse_timestamp_ms(r.status["timestamp"].get<std::string>()).value_or(r.status_ms);
  r.status_seq = ++seq_;
  Json ev = Json::object();
  ev["statusUpdate"] = model::status_update(r.id, r.context_id, r.status);
  notify_push(r, ev);
  r.log.push_back(LogEntry{std::move(ev), std::nullopt, s});
  r.cv.notify_all();
  if (model::is_terminal(s)) retire(r);
}

void TaskStore::retire(const TaskRecord& r) {
  size_t weight = 1 + r.log.size() + r.history.size();
  finished_.push_back(Finished{r.id, weight});
  finished_weight_ += weight;
  // The newest finished task always stays: a client reads it right after.
  while (finished_weight_ > kMaxFinishedWeight && finished_.size() > 1) {
    Finished old = std::move(finished_.front());
    finished_.pop_front();
    finished_weight_ -= old.weight;
    auto it = tasks_.find(old.id);
    if (it == tasks_.end()) continue;
    auto ctx = contexts_.find(it->second->context_id);
    if (ctx != contexts_.end() && --ctx->second == 0) contexts_.erase(ctx);
    tasks_.erase(it);
  }
}

void TaskStore::add_chunk(TaskRecord& r, const Json& artifact, bool append, bool last_chunk) {
  const std::string id = artifact.value("artifactId", "");
  auto it = std::find_if(r.artifacts.begin(), r.artifacts.end(),
                         [&](const Json& a) { return a.value("artifactId", "") == id; });
  if (it == r.artifacts.end()) {
    r.artifacts.push_back(artifact);
  } else if (append) {
    for (const auto& p : artifact["parts"]) (*it)["parts"].push_back(p);
  } else {
    *it = artifact;
  }
  // Wrapped by moving, not through wrap_artifact_update (one deep copy less per event).
  Json ev = Json::object();
  ev["artifactUpdate"] = model::artifact_update(r.id, r.context_id, artifact, append, last_chunk);
  notify_push(r, ev);
  r.log.push_back(LogEntry{std::move(ev), std::nullopt, std::nullopt});
  r.cv.notify_all();
}

void TaskStore::notify_push(const TaskRecord& r, const Json& event) const {
  if (!push_hook_) return;
  for (const auto& cfg : r.push_configs) push_hook_(r, cfg, event);
}

void TaskStore::add_error(TaskRecord& r, const CallError& e) {
  r.log.push_back(LogEntry{nullptr, e, std::nullopt});
  r.cv.notify_all();
}

std::vector<std::shared_ptr<TaskRecord>> TaskStore::all() const {
  std::vector<std::shared_ptr<TaskRecord>> out;
  out.reserve(tasks_.size());
  for (const auto& [id, r] : tasks_) out.push_back(r);
  return out;
}

void TaskStore::close() {
  Lock lk(mu_);
  closed_ = true;
  for (auto& [id, r] : tasks_) r->cv.notify_all();
}

}  // namespace a2a::agent
