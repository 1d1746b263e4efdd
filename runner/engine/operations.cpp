#include "runner/engine/operations.hpp"

#include <thread>

#include "runner/engine/binding_registry.hpp"
#include "runner/engine/call_log.hpp"
#include "runner/engine/session.hpp"

namespace a2a::engine {

bool is_streaming_operation(std::string_view operation) {
  return operation == "send_streaming_message" || operation == "subscribe_to_task";
}

std::string operation_binding_key(const Session& s) { return s.target ? s.target->key() : "stdio"; }

namespace {

OpResult call_binding_once(Session& s, const OperationBinding& b, const std::string& key,
                           const std::string& operation, const Json& params, core::Deadline deadline) {
  OpResult r = b.call(s, operation, params, deadline);
  // run --bundle: the binding layer's record, which verify --regrade replays
  // (every attempt of a retried call, in order).
  if (s.config && s.config->call_log && s.test && !s.test->id.empty())
    s.config->call_log->add(s.test->id, key, RecordedCall{operation, params, op_result_to_json(r)});
  return r;
}

}  // namespace

OpResult call_operation(Session& s, const std::string& operation, const Json& params,
                        core::Deadline deadline) {
  std::string key = operation_binding_key(s);
  if (const auto* b = find_binding(key); b && b->call) {
    OpResult r = call_binding_once(s, *b, key, operation, params, deadline);
    if (!s.retry_shed) return r;  // a2a-conform load counts declines itself
    // `run`: an answer of the "try again later" kinds is retried, at most
    // kShedRetries times, never past the deadline (docs/runner.md "When the
    // agent declines a request"). A WebSocket the agent closed with 1013 is
    // not: the scenario's one connection is gone (the decline is counted).
    for (int shed = 1; shed <= kShedRetries + 1; ++shed) {
      std::string sig = run_shed_signal(r);
      if (sig.empty()) break;
      r.shed_answers = shed;
      if (shed > kShedRetries || sig == "WebSocket close 1013") break;
      auto wait = core::Millis(shed_retry_wait_ms(shed, r));
      if (deadline.remaining() <= wait) break;
      std::this_thread::sleep_for(wait);  // at most 2 s, and before the deadline
      r = call_binding_once(s, *b, key, operation, params, deadline);
    }
    return r;
  }
  OpResult r;
  r.binding = key;
  r.problem = "this build has no " + key + " binding (registered: ";
  auto keys = registered_bindings();
  for (size_t i = 0; i < keys.size(); ++i) r.problem += (i ? ", " : "") + keys[i];
  r.problem += keys.empty() ? "none)" : ")";
  return r;
}

Json with_tenant(const Session& s, const Json& params) {
  Json p = params;
  if (s.target && !s.target->tenant.empty() && p.is_object() && !p.contains("tenant"))
    p["tenant"] = s.target->tenant;
  return p;
}

transport::Url interface_url(const Session& s) {
  if (!s.target) return {};
  auto u = transport::Url::parse(s.target->url);
  return u ? *u : transport::Url{};
}

}  // namespace a2a::engine
