#include "runner/bindings/loopback/loopback_binding.hpp"

#include <array>

#include "peers/a2a-ref-agent/choices.hpp"
#include "runner/a2a/methods.hpp"
#include "runner/a2a/model.hpp"
#include "runner/bindings/loopback/loopback_agent.hpp"
#include "runner/engine/session.hpp"
#include "runner/match/error_expect.hpp"
#include "runner/match/match_result.hpp"
#include "runner/transport/transcript.hpp"

namespace a2a::bindings {
namespace {

using engine::OpResult;
using engine::Session;
using loopback::LoopbackAgent;
using Json = nlohmann::json;

constexpr const char* kKey = "loopback";
constexpr const char* kUrl = "loopback:a2a-ref-agent";  // names the agent; nothing is dialled
constexpr size_t kMaxEvents = 10000;  // a stream beyond this is cut (and fails), as on HTTP and gRPC

// Push delivery is a wire of its own (HTTP POSTs to a webhook), which
// loopback does not wire. The card therefore does not declare
// pushNotifications, and since the core reads its capabilities from the
// card, it refuses push-config operations as an agent without them must
// (PushNotificationNotSupportedError): the push scenarios SKIP, their
// capability-false counterparts run.
class NoPushChoices : public agent::Choices {
 public:
  explicit NoPushChoices(std::shared_ptr<const agent::Choices> base) : base_(std::move(base)) {}
  std::string new_id(agent::IdKind kind) const override { return base_->new_id(kind); }
  agent::PlanSettings plan_settings(agent::PlanSettings from_cli) const override {
    return base_->plan_settings(from_cli);
  }
  void shape_plan(agent::Behaviour b, agent::TurnPlan& plan) const override { base_->shape_plan(b, plan); }
  long long default_page_size() const override { return base_->default_page_size(); }
  void shape_card(Json& card) const override {
    base_->shape_card(card);
    if (card.contains("capabilities") && card["capabilities"].is_object())
      card["capabilities"]["pushNotifications"] = false;
  }
  void shape_output(Json& value) const override { base_->shape_output(value); }
  std::unique_ptr<agent::EventStream> shape_stream(std::unique_ptr<agent::EventStream> s) const override {
    return base_->shape_stream(std::move(s));
  }

 private:
  std::shared_ptr<const agent::Choices> base_;
};

// The faults the core applies whatever carries its answers (operations,
// output filters, the card), and the two error filters every binding applies
// to the core's {code, message, data} (apply_error_faults).
constexpr std::array kInProcessFaults = {
    agent::Fault::kSemTerminalMutable,     agent::Fault::kSemIgnoreHistoryLength,
    agent::Fault::kSemListNoNextToken,     agent::Fault::kSemListIgnoresPageSize,
    agent::Fault::kSemCancelNoop,          agent::Fault::kSemBlockingReturnsEarly,
    agent::Fault::kSemMultiTurnNewTask,    agent::Fault::kSemListIncludesArtifacts,
    agent::Fault::kSemWrongStateName,      agent::Fault::kSemSubscribeNoSnapshot,
    agent::Fault::kSemStreamNoTaskFirst,   agent::Fault::kTimestampAsNumber,
    agent::Fault::kBadTaskStateEnum,       agent::Fault::kCardMissingInterfaces,
    agent::Fault::kCardNoCapabilities,     agent::Fault::kErrNotFoundCode,
    agent::Fault::kErrNoErrorData,
};

// Where each other fault lives, by its name's prefix (faults.cpp groups them so).
struct WireOf {
  std::string_view prefix;
  std::string_view why;
};
constexpr std::array kWires = {
    WireOf{"push-", "it acts on push delivery (webhook POSTs or push-config storage), and loopback does not wire "
                    "push notifications: its card does not declare them"},
    WireOf{"sem-push-", "it acts on push-config storage, and loopback does not wire push notifications: its card "
                        "does not declare them"},
    WireOf{"card-", "it changes only what the card says about HTTP interfaces or how the card is served over HTTP; "
                    "the loopback card lists one LOOPBACK interface and is not fetched"},
    WireOf{"http-", "it lives on the HTTP wire (JSON-RPC over HTTP, REST, SSE)"},
    WireOf{"v03-", "it lives on the A2A 0.3 HTTP wire"},
    WireOf{"grpc-", "it lives on the gRPC wire (status codes, metadata, framing)"},
    WireOf{"json-", "it lives on the stdio-json wire (handshake, framing, process lifecycle)"},
};

std::string wire_reason(std::string_view name) {
  for (const auto& w : kWires)
    if (name.starts_with(w.prefix)) return std::string(w.why);
  // frame-, reader-, hs-, id-, err-, stream-, conc-, life-: the stdio
  // framing and JSON-RPC envelope faults.
  return "it lives on the stdio / JSON-RPC wire (framing, handshake, ids, envelopes, process lifecycle)";
}

LoopbackAgent* agent_of(Session& s) {
  return s.config ? dynamic_cast<LoopbackAgent*>(s.config->in_process_agent.get()) : nullptr;
}

Json error_json(const LoopbackAgent& a, const agent::CallError& e) {
  Json err = e.to_json();
  agent::apply_error_faults(a.faults(), err);
  return err;
}

void to_peer(Session& s, const std::string& operation, const Json& params) {
  if (s.transcript) s.transcript->add(transport::Direction::kToPeer, "loopback " + operation + " " + params.dump());
}
void from_peer(Session& s, const std::string& what) {
  if (s.transcript) s.transcript->add(transport::Direction::kFromPeer, "loopback " + what);
}

void no_answer(Session& s, OpResult& r, std::string problem) {
  r.status = OpResult::Status::kNoResponse;
  r.deadline_hit = s.deadline.expired();
  r.problem = std::move(problem);
}

void unary(Session& s, LoopbackAgent& a, model::Operation op, const Json& params, core::Deadline d, OpResult& r) {
  auto out = a.call(op, params, d);
  if (!out) return no_answer(s, r, "no answer within the step's deadline");
  if (!out->result) return no_answer(s, r, "the in-process agent failed: " + out->thrown);
  if (out->result->ok()) {
    r.status = OpResult::Status::kResult;
    r.result = out->result->value();
    from_peer(s, "result " + r.result.dump());
    return;
  }
  r.status = OpResult::Status::kError;
  r.error = error_json(a, out->result->error());
  from_peer(s, "error " + r.error.dump());
}

// The stream's events in order until it ends, bounded by `d` and kMaxEvents.
void stream(Session& s, LoopbackAgent& a, model::Operation op, const Json& params, core::Deadline d, OpResult& r) {
  agent::StreamOpen opened = a.core().open_stream(op, params);
  if (!opened.stream) {
    r.status = OpResult::Status::kError;
    r.error = error_json(a, opened.error.value_or(agent::internal_error("stream refused")));
    from_peer(s, "stream refused: " + r.error.dump());
    return;
  }
  while (true) {
    agent::StreamItem item = opened.stream->next(d);
    if (item.kind == agent::StreamItem::Kind::kTimeout) {
      if (!d.expired()) continue;  // a wake-up before the deadline: nothing new yet
      opened.stream->cancel();
      return no_answer(s, r,
                       "the stream did not end within the step's deadline, after " + std::to_string(r.events.size()) +
                           " event(s)");
    }
    if (item.kind == agent::StreamItem::Kind::kEnd) break;
    if (item.kind == agent::StreamItem::Kind::kError) {
      r.stream_errors.push_back(error_json(a, item.error));
      from_peer(s, "stream error " + r.stream_errors.back().dump());
    } else {
      from_peer(s, "stream event " + item.event.dump());
      r.events.push_back(std::move(item.event));
    }
    if (r.events.size() + r.stream_errors.size() >= kMaxEvents) {
      r.violations.push_back("the stream did not end within " + std::to_string(kMaxEvents) +
                             " items; the rest was not read");
      opened.stream->cancel();
      r.status = OpResult::Status::kResult;
      return;
    }
  }
  from_peer(s, "stream ended");
  r.status = OpResult::Status::kResult;
  engine::check_stream_closes_at_terminal(r);
  if (r.events.empty() && !r.stream_errors.empty()) {
    // An error before any event: the call failed (as the HTTP bindings read it).
    r.status = OpResult::Status::kError;
    r.error = r.stream_errors.front();
    r.stream_errors.erase(r.stream_errors.begin());
  }
}

OpResult loopback_call(Session& s, const std::string& operation, const Json& params, core::Deadline d) {
  OpResult r;
  r.binding = kKey;
  LoopbackAgent* a = agent_of(s);
  if (!a) {
    r.problem = "the loopback binding has no in-process agent (run it with `a2a-conform run --binding loopback`)";
    return r;
  }
  to_peer(s, operation, params);
  if (operation == "get_agent_card") {
    // The public card is the one the run was gated with (no endpoint to fetch it from).
    r.status = OpResult::Status::kResult;
    r.result = agent::agent_card(a->core().config());
    from_peer(s, "card " + r.result.dump());
    return r;
  }
  auto op = model::operation_from_acts(operation);
  if (!op) {
    r.problem = "operation " + operation + " is not an A2A operation the loopback agent serves";
    return r;
  }
  if (model::is_streaming(*op)) stream(s, *a, *op, params, d, r);
  else unary(s, *a, *op, params, d, r);
  return r;
}

}  // namespace

std::string loopback_fault_refusal(std::string_view name) {
  auto f = agent::fault_from_name(name);
  if (!f) return "unknown fault '" + std::string(name) + "' (a2a-ref-agent --list-faults lists them)";
  for (auto in : kInProcessFaults)
    if (in == *f) return "";
  return "'" + std::string(name) + "' cannot be injected in process: " + wire_reason(name) +
         ". Run it over that wire: a2a-ref-agent --fault " + std::string(name) + " (with --agent or --url)";
}

core::Expected<engine::InProcessAgent> start_loopback_agent(const std::vector<std::string>& faults) {
  agent::AgentConfig cfg;
  for (const auto& name : faults) {
    if (auto why = loopback_fault_refusal(name); !why.empty())
      return core::fail(core::ErrorKind::kInvalidArgument, "--loopback-fault " + name + ": " + why);
    cfg.faults.add(*agent::fault_from_name(name));
  }
  cfg.interfaces = Json::array({{{"url", kUrl}, {"protocolBinding", "LOOPBACK"}, {"protocolVersion", "1.0"}}});
  cfg.choices = std::make_shared<NoPushChoices>(cfg.choices);
  engine::InProcessAgent out;
  out.card = agent::agent_card(cfg);
  out.url = kUrl;
  out.agent = std::make_shared<LoopbackAgent>(std::move(cfg));
  return out;
}

engine::OperationBinding loopback_operation_binding() {
  engine::OperationBinding b;
  b.key = kKey;
  b.card_name = "LOOPBACK";
  b.title = "in-process loopback";
  b.check_url = [](const std::string& url) -> std::string {
    return url == kUrl ? "" : "the loopback agent runs inside the runner; it has no URL to reach (" + url + ")";
  };
  b.call = loopback_call;
  // The core's errors are JSON-RPC error objects: the default match_error reads them.
  b.start_agent = start_loopback_agent;
  b.fault_option = "--loopback-fault";
  return b;
}

}  // namespace a2a::bindings
