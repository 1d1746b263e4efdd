// SendMessage and SendStreamingMessage (a2a-protocol.md §4.6.1-2): parse and
// validate, create or continue a task, run the behaviour's plan on the
// scheduler, then block / return at once / stream.
#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <variant>

#include "peers/a2a-ref-agent/core_state.hpp"
#include "peers/a2a-ref-agent/params.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::agent {
namespace {

using model::TaskState;

// Media types the agent accepts in message parts (documented in docs/ref-agent.md).
constexpr std::array<std::string_view, 4> kAcceptedExact = {"text/plain", "application/json",
                                                            "application/octet-stream", "application/pdf"};
constexpr std::array<std::string_view, 2> kAcceptedFamilies = {"text/", "image/"};

struct SendRequest {
  const Json* message = nullptr;  // in the caller's params, which outlive the call
  // The same message when the caller gave its params up: moved into the
  // task's history (create / append_user_message) instead of copied; not
  // read after that.
  Json* movable = nullptr;
  std::optional<std::string> task_id;
  std::optional<std::string> context_id;
  bool return_immediately = false;
  bool streaming = false;  // SendStreamingMessage: the stream starts with the task (first_event)
  TaskView view;
  std::optional<Json> push_config;  // configuration.taskPushNotificationConfig
};

bool media_type_accepted(std::string_view media) {
  std::string m;
  for (char c : media.substr(0, media.find(';'))) {
    if (!std::isspace(static_cast<unsigned char>(c))) m += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (std::find(kAcceptedExact.begin(), kAcceptedExact.end(), m) != kAcceptedExact.end()) return true;
  return std::any_of(kAcceptedFamilies.begin(), kAcceptedFamilies.end(),
                     [&](std::string_view fam) { return m.size() > fam.size() && m.starts_with(fam); });
}

// mediaType, or metadata.contentType as the ACTS tests spell it.
std::optional<CallError> check_content_types(const Json& message) {
  const Json& parts = message["parts"];
  for (size_t i = 0; i < parts.size(); ++i) {
    const Json& p = parts[i];
    const Json* media = field(p, "mediaType");
    if (!media && p.contains("metadata") && p["metadata"].is_object()) media = field(p["metadata"], "contentType");
    if (!media || !media->is_string() || media_type_accepted(media->get<std::string>())) continue;
    std::string mt = media->get<std::string>();
    return a2a_error(jsonrpc::A2AError::kContentTypeNotSupported,
                     "Content type '" + mt + "' of message.parts[" + std::to_string(i) +
                         "] is not supported; accepted: text/plain, text/*, application/json, image/*, "
                         "application/octet-stream, application/pdf",
                     Json{{"mediaType", mt}, {"field", "message.parts[" + std::to_string(i) + "]"}});
  }
  return std::nullopt;
}

std::optional<CallError> validation_error(const Json& message) {
  std::string why = model::validate_message(message, "message");
  if (why.empty()) return std::nullopt;
  auto colon = why.find(": ");
  if (colon == std::string::npos) return invalid_params("message", why);
  return invalid_params(why.substr(0, colon), why.substr(colon + 2));
}

std::optional<CallError> parse_configuration(const CoreState& st, const Json& params, SendRequest& out) {
  const Json* cfg = field(params, "configuration");
  if (!cfg) return std::nullopt;
  if (!cfg->is_object()) return invalid_params("configuration", "must be an object");
  std::optional<bool> immediate;
  if (auto e = get_bool(*cfg, "returnImmediately", immediate, "configuration")) return e;
  out.return_immediately = immediate.value_or(false);
  if (auto e = get_history_length(*cfg, out.view.history_length, "configuration")) return e;
  if (const Json* push = field(*cfg, "taskPushNotificationConfig")) {
    if (auto e = check_push_supported(st)) return e;
    if (!push->is_object()) return invalid_params("configuration.taskPushNotificationConfig", "must be an object");
    Json checked;
    if (auto e = normalize_push_config(*push, "", checked)) return e;
    out.push_config = *push;
  }
  if (const Json* modes = field(*cfg, "acceptedOutputModes")) {
    bool ok = modes->is_array() && std::all_of(modes->begin(), modes->end(), [](const Json& m) { return m.is_string(); });
    if (!ok) return invalid_params("configuration.acceptedOutputModes", "must be an array of strings");
  }
  return std::nullopt;
}

std::optional<CallError> parse_send(const CoreState& st, const Json& params, SendRequest& out) {
  if (auto e = require_object(params, false)) return e;
  const Json* message = field(params, "message");
  if (!message || !message->is_object()) return invalid_params("message", "is required and must be an object");
  out.message = message;
  if (auto e = validation_error(*message)) return e;
  if (auto e = check_content_types(*message)) return e;
  if (auto e = parse_configuration(st, params, out)) return e;
  // message.taskId/contextId; the request-level spelling the ACTS files use is accepted too.
  if (auto e = get_string(*message, "taskId", out.task_id, "message")) return e;
  if (!out.task_id) {
    if (auto e = get_string(params, "taskId", out.task_id)) return e;
  }
  if (auto e = get_string(*message, "contextId", out.context_id, "message")) return e;
  if (!out.context_id) {
    if (auto e = get_string(params, "contextId", out.context_id)) return e;
  }
  if (out.task_id && out.task_id->empty()) out.task_id.reset();
  if (out.context_id && out.context_id->empty()) out.context_id.reset();
  return std::nullopt;
}

struct Accepted {
  std::shared_ptr<TaskRecord> record;  // null for a direct Message reply
  Json reply;                          // the direct Message
  Json first_event;                    // {"task":...} a stream starts with (streams only)
  size_t start_index = 0;              // log entries after first_event
  Json immediate;                      // the task right after acceptance (when it is the answer)
  // The lock of the record's shard, still held: a plan due at once has run
  // under it, and a blocking send waits and writes its answer under it, so
  // a SendMessage locks the store once (docs/ref-agent.md, "The sharded task store").
  TaskStore::Lock lock;
};

// {"task": task}, moving the task in (model::wrap_task copies it: a deep
// copy per answer, a tenth of a small send's allocations).
Json task_response(Json task) {
  Json out = Json::object();
  out["task"] = std::move(task);
  return out;
}

// Whether the answer is the task as accepted rather than as it ends up.
bool answers_at_once(const CoreState& st, const SendRequest& req) {
  return req.return_immediately || st.fault(Fault::kSemBlockingReturnsEarly);
}

// Lock of r's shard held. Runs `plan` if the task is still in the turn that
// scheduled it. Its chunks are moved into the store: a plan runs once.
void apply_plan(CoreState& st, TaskRecord& r, uint64_t generation, TurnPlan& plan) {
  if (r.generation != generation || r.state != TaskState::kWorking) return;
  for (auto& c : plan.chunks) st.store.add_chunk(r, std::move(c.artifact), c.append, c.last_chunk);
  if (plan.stream_error) st.store.add_error(r, *plan.stream_error);
  if (plan.final_state != TaskState::kWorking) {
    st.store.set_status(r, plan.final_state, plan.status_text, plan.reply_in_history);
  }
}

// Lock held. A webhook registered with the send, before the turn's first event.
void add_inline_push_config(TaskRecord& r, const SendRequest& req) {
  Json stored;
  if (!req.push_config || normalize_push_config(*req.push_config, r.id, stored)) return;
  std::erase_if(r.push_configs, [&](const Json& c) { return c["id"] == stored["id"]; });
  r.push_configs.push_back(std::move(stored));
}

// A turn's plan due at once, with the generation it was made in.
struct DuePlan {
  uint64_t generation = 0;
  TurnPlan plan;
};

// Lock of r's shard held. Moves the task to WORKING and plans this turn: a
// plan due later goes to the scheduler; one due now is returned for the
// caller to run, still under the lock, once the answer or stream start was
// taken (so the outcome is the one the scheduler would give, without two
// thread hand-offs and without locking the store again).
std::optional<DuePlan> begin_turn(CoreState& st, const std::shared_ptr<TaskRecord>& r, const std::string& text) {
  uint64_t gen = ++r->generation;
  st.store.set_status(*r, TaskState::kWorking, "", false);
  TurnPlan plan = st.plan_turn(r->behaviour, r->turn, text);
  bool idle = plan.chunks.empty() && !plan.stream_error && plan.final_state == TaskState::kWorking;
  if (idle) return std::nullopt;  // tck-cancel: stays WORKING
  core::Millis delay = plan.delay;
  if (delay.count() <= 0) return DuePlan{gen, std::move(plan)};
  st.scheduler.post_after(delay, [&st, r, gen, plan = std::move(plan)]() mutable {
    auto lk = st.store.lock(*r);
    apply_plan(st, *r, gen, plan);
  });
  return std::nullopt;
}

void run_due(CoreState& st, TaskRecord& r, std::optional<DuePlan>& due) {
  if (due) apply_plan(st, r, due->generation, due->plan);
}

std::variant<Accepted, CallError> start_task(CoreState& st, const SendRequest& req, const Selection& sel,
                                             Behaviour behaviour) {
  if (req.context_id && !st.store.knows_context(*req.context_id)) {
    return invalid_params("message.contextId", "unknown contextId '" + *req.context_id +
                                                   "': this agent accepts only contextIds it generated");
  }
  Accepted acc;
  if (behaviour == Behaviour::kMessageResponse) {
    // No task and no new context: a contextId appears only when the client sent one.
    acc.reply = model::make_message(model::to_string(model::Role::kAgent), st.new_id(IdKind::kMessage),
                                    Json::array({model::text_part(message_reply_text(sel.text))}),
                                    req.context_id.value_or(""), "");
    return acc;
  }
  // Ids in the order the unsharded store made them (a context's, then the
  // task's): --legal-variation's ids count.
  std::string ctx = req.context_id ? *req.context_id : st.new_id(IdKind::kContext);
  std::string id = st.store.new_task_id();
  acc.lock = st.store.lock(id);
  acc.record = st.store.create(std::move(id), ctx, behaviour,
                               req.movable ? std::move(*req.movable) : Json(*req.message));
  if (req.streaming) acc.first_event = task_response(task_json(*acc.record, req.view));
  acc.start_index = acc.record->log.size();
  add_inline_push_config(*acc.record, req);
  auto due = begin_turn(st, acc.record, sel.text);
  if (!req.streaming && answers_at_once(st, req)) acc.immediate = task_json(*acc.record, req.view);
  run_due(st, *acc.record, due);
  return acc;
}

// `lk`: the lock of the shard of req.task_id, held; moved into the answer.
std::variant<Accepted, CallError> continue_task(CoreState& st, const SendRequest& req, const Selection& sel,
                                                TaskStore::Lock& lk) {
  auto r = st.store.find(*req.task_id);
  if (!r) return task_not_found(*req.task_id);
  if (req.context_id && *req.context_id != r->context_id) {
    return invalid_params("message.contextId", "'" + *req.context_id + "' does not match the contextId '" +
                                                   r->context_id + "' of task '" + r->id + "'");
  }
  if (model::is_terminal(r->state)) {
    std::string state(model::to_string(r->state));
    return a2a_error(jsonrpc::A2AError::kUnsupportedOperation,
                     "Task '" + r->id + "' is in terminal state " + state + " and accepts no more messages",
                     Json{{"taskId", r->id}, {"state", state}});
  }
  if (st.fault(Fault::kSemMultiTurnNewTask) && model::is_interrupted(r->state)) {
    SendRequest fresh = req;
    fresh.context_id = r->context_id;
    Behaviour b = r->behaviour;
    lk.unlock();  // the new task is in another shard: one shard lock at a time
    return start_task(st, fresh, sel, b);
  }
  if (req.movable) {
    st.store.append_user_message(*r, std::move(*req.movable));
  } else {
    st.store.append_user_message(*r, *req.message);
  }
  add_inline_push_config(*r, req);
  Accepted acc;
  acc.record = r;
  std::optional<DuePlan> due;
  if (model::is_interrupted(r->state)) {
    ++r->turn;
    due = begin_turn(st, r, sel.text);
  }
  // A message to a task that is still working is recorded; its work goes on.
  if (req.streaming) acc.first_event = task_response(task_json(*r, req.view));
  acc.start_index = r->log.size();
  if (!req.streaming && answers_at_once(st, req)) acc.immediate = task_json(*r, req.view);
  run_due(st, *r, due);
  acc.lock = std::move(lk);
  return acc;
}

std::variant<Accepted, CallError> accept(CoreState& st, SendRequest& req) {
  if (st.fault(Fault::kSemIgnoreHistoryLength)) req.view.history_length.reset();
  Selection sel = select_behaviour(*req.message);
  if (req.task_id) {
    auto lk = st.store.lock(*req.task_id);
    return continue_task(st, req, sel, lk);
  }
  return start_task(st, req, sel, sel.behaviour);
}

}  // namespace

namespace {

// What a unary SendMessage does before its answer is written: the request
// parsed and accepted, and this turn's plan run when it is due at once.
// `movable`: params are a non-const object the caller gave up
// (send_message_text(st, Json&&)), so their message may be moved into the
// store; the const_cast below is on that non-const object.
std::variant<Accepted, CallError> accept_unary_send(CoreState& st, const Json& params, SendRequest& req,
                                                    bool movable = false) {
  if (auto e = parse_send(st, params, req)) return *e;
  if (movable) req.movable = const_cast<Json*>(req.message);
  return accept(st, req);
}

// A blocking send's wait (`lk`: the lock of r's shard, held): until the task
// ends or is interrupted, bounded by --max-block. The caller writes the task
// under the lock.
void wait_for_blocking_send(CoreState& st, TaskRecord& r, TaskStore::Lock& lk) {
  auto done = [&] { return model::is_terminal(r.state) || model::is_interrupted(r.state); };
  if (done()) return;  // a plan due at once ran under the same lock
  st.store.wait(lk, r, core::Deadline::after(st.config.max_block), done);
}

}  // namespace

CallResult send_message(CoreState& st, const Json& params) {
  SendRequest req;
  auto outcome = accept_unary_send(st, params, req);
  if (auto* e = std::get_if<CallError>(&outcome)) return *e;
  Accepted& acc = std::get<Accepted>(outcome);
  Json result;
  if (!acc.record) {
    result = model::wrap_message(acc.reply);
  } else if (answers_at_once(st, req)) {
    acc.lock.unlock();
    result = task_response(std::move(acc.immediate));
  } else {
    wait_for_blocking_send(st, *acc.record, acc.lock);
    result = task_response(task_json(*acc.record, req.view));
    acc.lock.unlock();
  }
  apply_output_faults(st.config.faults, result);
  return result;
}

namespace {

// send_message's answer as the text jsonrpc::dump would give it, without the
// tree; `movable` is params' message when the caller gave params up.
std::variant<std::string, CallError> send_answer_text(CoreState& st, const Json& params, bool movable) {
  SendRequest req;
  auto outcome = accept_unary_send(st, params, req, movable);
  if (auto* e = std::get_if<CallError>(&outcome)) return *e;
  Accepted& acc = std::get<Accepted>(outcome);
  if (!acc.record) return jsonrpc::dump(model::wrap_message(acc.reply));
  std::string out = "{\"task\":";
  if (answers_at_once(st, req)) {
    acc.lock.unlock();
    out += jsonrpc::dump(acc.immediate);
  } else {
    wait_for_blocking_send(st, *acc.record, acc.lock);
    append_task_text(out, *acc.record, req.view);
    acc.lock.unlock();
  }
  out += '}';
  return out;
}

}  // namespace

std::variant<std::string, CallError> send_message_text(CoreState& st, const Json& params) {
  return send_answer_text(st, params, false);
}

std::variant<std::string, CallError> send_message_text(CoreState& st, Json&& params) {
  return send_answer_text(st, params, true);
}

bool send_may_block(const CoreState& st, const Json& params) {
  const Json* message = params.is_object() ? field(params, "message") : nullptr;
  if (!message || !message->is_object()) return false;  // answered with an error at once
  if (st.fault(Fault::kSemBlockingReturnsEarly)) return false;
  if (const Json* cfg = field(params, "configuration")) {
    const Json* immediate = cfg->is_object() ? field(*cfg, "returnImmediately") : nullptr;
    if (immediate && immediate->is_boolean() && immediate->get<bool>()) return false;
  }
  // A direct Message reply has no task to wait for; a message to an existing
  // task (message.taskId or the request-level taskId) may wait for it.
  if (field(*message, "taskId") || field(params, "taskId")) return true;
  // A new task whose first plan is due at once is finished before the wait
  // begins (send_message runs that plan itself); tck-cancel and a delayed
  // tck-long-running wait.
  Selection sel = select_behaviour(*message);
  switch (sel.behaviour) {
    case Behaviour::kMessageResponse: return false;
    case Behaviour::kCancel: return true;
    case Behaviour::kLongRunning: return st.plan_turn(sel.behaviour, 0, sel.text).delay.count() > 0;
    default: return false;
  }
}

StreamOpen send_streaming_message(CoreState& st, const Json& params) {
  SendRequest req;
  req.streaming = true;
  if (auto e = parse_send(st, params, req)) return StreamOpen{*e, nullptr};
  auto outcome = accept(st, req);
  if (auto* e = std::get_if<CallError>(&outcome)) return StreamOpen{*e, nullptr};
  Accepted& acc = std::get<Accepted>(outcome);
  if (acc.lock.owns_lock()) acc.lock.unlock();
  if (!acc.record) {
    return StreamOpen{std::nullopt, make_fixed_stream({model::wrap_message(acc.reply)}, st.config.faults)};
  }
  std::optional<Json> first;
  if (!st.fault(Fault::kSemStreamNoTaskFirst)) first = std::move(acc.first_event);
  return StreamOpen{std::nullopt, make_task_stream(st.store, acc.record, std::move(first), acc.start_index,
                                                   st.config.faults)};
}

}  // namespace a2a::agent
