// GetTask, CancelTask, SubscribeToTask (a2a-protocol.md §4.6.3, .5, .6).
#include "peers/a2a-ref-agent/core_state.hpp"
#include "peers/a2a-ref-agent/params.hpp"

namespace a2a::agent {
namespace {

using model::TaskState;

CallError not_cancelable(const TaskRecord& r) {
  std::string state(model::to_string(r.state));
  return a2a_error(jsonrpc::A2AError::kTaskNotCancelable,
                   "Task '" + r.id + "' cannot be canceled: it is in terminal state " + state,
                   Json{{"taskId", r.id}, {"state", state}});
}

}  // namespace

CallResult get_task(CoreState& st, const Json& params) {
  if (auto e = require_object(params, false)) return *e;
  std::string id;
  if (auto e = get_required_string(params, "id", id)) return *e;
  TaskView view;
  if (auto e = get_history_length(params, view.history_length)) return *e;
  if (st.fault(Fault::kSemIgnoreHistoryLength)) view.history_length.reset();
  auto lk = st.store.lock(id);
  auto r = st.store.find(id);
  if (!r) return task_not_found(id);
  Json result = task_json(*r, view);
  lk.unlock();
  apply_output_faults(st.config.faults, result);
  return result;
}

CallResult cancel_task(CoreState& st, const Json& params) {
  if (auto e = require_object(params, false)) return *e;
  std::string id;
  if (auto e = get_required_string(params, "id", id)) return *e;
  if (const Json* md = field(params, "metadata"); md && !md->is_object()) {
    return invalid_params("metadata", "must be an object");
  }
  auto lk = st.store.lock(id);
  auto r = st.store.find(id);
  if (!r) return task_not_found(id);
  bool terminal = model::is_terminal(r->state);
  if (terminal && !st.fault(Fault::kSemTerminalMutable)) return not_cancelable(*r);
  if (!st.fault(Fault::kSemCancelNoop) || terminal) {
    ++r->generation;  // drops the pending plan of the current turn
    st.store.set_status(*r, TaskState::kCanceled, "Task canceled at the client's request.", false);
  }
  Json result = task_json(*r);
  lk.unlock();
  apply_output_faults(st.config.faults, result);
  return result;
}

StreamOpen subscribe_to_task(CoreState& st, const Json& params) {
  if (auto e = require_object(params, false)) return StreamOpen{*e, nullptr};
  std::string id;
  if (auto e = get_required_string(params, "id", id)) return StreamOpen{*e, nullptr};
  auto lk = st.store.lock(id);
  auto r = st.store.find(id);
  if (!r) return StreamOpen{task_not_found(id), nullptr};
  if (model::is_terminal(r->state)) {
    std::string state(model::to_string(r->state));
    return StreamOpen{a2a_error(jsonrpc::A2AError::kUnsupportedOperation,
                                "Cannot subscribe to task '" + r->id + "': it is in terminal state " + state,
                                Json{{"taskId", r->id}, {"state", state}}),
                      nullptr};
  }
  std::optional<Json> first;
  if (!st.fault(Fault::kSemSubscribeNoSnapshot)) first = model::wrap_task(task_json(*r));
  size_t start = r->log.size();
  return StreamOpen{std::nullopt, make_task_stream(st.store, r, std::move(first), start, st.config.faults)};
}

}  // namespace a2a::agent
