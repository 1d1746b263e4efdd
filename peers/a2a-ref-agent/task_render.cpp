// AgentCore::render_task: GetTask (task_ops.cpp get_task) for a binding that
// encodes the task straight from the store. Only the success path: anything
// else (a bad parameter, an unknown task, faults, choices that reshape
// results) is left to call(), which words it.
#include "peers/a2a-ref-agent/core_state.hpp"
#include "peers/a2a-ref-agent/params.hpp"

namespace a2a::agent {

bool AgentCore::render_task(const Json& params,
                            const std::function<bool(const TaskRecord&, const TaskView&)>& render) {
  CoreState& st = *state_;
  if (st.config.faults.any() || st.config.choices->shapes_output()) return false;
  if (require_object(params, false)) return false;
  std::string id;
  if (get_required_string(params, "id", id)) return false;
  TaskView view;
  if (get_history_length(params, view.history_length)) return false;
  auto lk = st.store.lock(id);
  auto r = st.store.find(id);
  if (!r) return false;
  return render(*r, view);
}

}  // namespace a2a::agent
