#include "peers/a2a-ref-agent/agent_core.hpp"

#include <algorithm>

#include "peers/a2a-ref-agent/core_state.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::agent {

using model::Operation;

AgentCore::AgentCore(AgentConfig config) : state_(std::make_unique<CoreState>(std::move(config))) {}

AgentCore::~AgentCore() {
  state_->scheduler.stop();
  state_->store.close();
}

const AgentConfig& AgentCore::config() const { return state_->config; }

void AgentCore::shutdown() { state_->store.close(); }

TurnPlan CoreState::plan_turn(Behaviour b, int turn, std::string_view text) const {
  TurnPlan plan = agent::plan_turn(b, turn, text, plan_settings);
  config.choices->shape_plan(b, plan);
  // Artifact ids are the core's choice: one new id per artifact of the plan.
  // The behaviour's id is read in place and the new one assigned into the
  // same string (ids of one length reuse its buffer): no copy per chunk.
  std::vector<std::pair<std::string, std::string>> ids;
  for (auto& c : plan.chunks) {
    auto f = c.artifact.find("artifactId");
    bool has = f != c.artifact.end() && f->is_string();
    std::string_view old = has ? std::string_view(f->get_ref<const std::string&>()) : std::string_view();
    auto it = std::find_if(ids.begin(), ids.end(), [&](const auto& p) { return p.first == old; });
    if (it == ids.end()) it = ids.insert(ids.end(), {std::string(old), new_id(IdKind::kArtifact)});
    if (has) {
      f->get_ref<std::string&>() = it->second;
    } else {
      c.artifact["artifactId"] = it->second;
    }
  }
  return plan;
}

CallResult AgentCore::call(Operation op, const Json& params) {
  CallResult out = dispatch(op, params);
  if (out.ok()) state_->config.choices->shape_output(out.value());
  return out;
}

namespace {

AgentCore::CallText to_call_text(std::variant<std::string, CallError> r) {
  if (auto* e = std::get_if<CallError>(&r)) return AgentCore::CallText{std::move(*e), {}};
  return AgentCore::CallText{std::nullopt, std::get<std::string>(std::move(r))};
}

bool sends_as_text(const CoreState& st, Operation op) {
  return op == Operation::kSendMessage && !st.config.faults.any() && !st.config.choices->shapes_output();
}

}  // namespace

AgentCore::CallText AgentCore::call_text(Operation op, const Json& params) {
  CoreState& st = *state_;
  if (sends_as_text(st, op)) return to_call_text(send_message_text(st, params));
  CallResult r = call(op, params);
  if (!r.ok()) return CallText{r.error(), {}};
  return CallText{std::nullopt, jsonrpc::dump(r.value())};
}

AgentCore::CallText AgentCore::call_text(Operation op, Json&& params) {
  CoreState& st = *state_;
  if (sends_as_text(st, op)) return to_call_text(send_message_text(st, std::move(params)));
  const Json& read_only = params;
  return call_text(op, read_only);
}

CallResult AgentCore::dispatch(Operation op, const Json& params) {
  CoreState& st = *state_;
  switch (op) {
    case Operation::kSendMessage: return send_message(st, params);
    case Operation::kGetTask: return get_task(st, params);
    case Operation::kListTasks: return list_tasks(st, params);
    case Operation::kCancelTask: return cancel_task(st, params);
    case Operation::kCreatePushConfig: return create_push_config(st, params);
    case Operation::kGetPushConfig: return get_push_config(st, params);
    case Operation::kListPushConfigs: return list_push_configs(st, params);
    case Operation::kDeletePushConfig: return delete_push_config(st, params);
    case Operation::kGetExtendedAgentCard: return get_extended_agent_card(st, params);
    case Operation::kSendStreamingMessage:
    case Operation::kSubscribeToTask: break;
  }
  return internal_error("streaming operation called as unary: use open_stream");
}

bool AgentCore::may_block(Operation op, const Json& params) const {
  return op == Operation::kSendMessage && send_may_block(*state_, params);
}

StreamOpen AgentCore::open_stream(Operation op, const Json& params) {
  StreamOpen out = open(op, params);
  if (out.stream) out.stream = state_->config.choices->shape_stream(std::move(out.stream));
  return out;
}

StreamOpen AgentCore::open(Operation op, const Json& params) {
  CoreState& st = *state_;
  switch (op) {
    case Operation::kSendStreamingMessage: return send_streaming_message(st, params);
    case Operation::kSubscribeToTask: return subscribe_to_task(st, params);
    default: break;
  }
  return StreamOpen{internal_error("unary operation opened as a stream: use call"), nullptr};
}

}  // namespace a2a::agent
