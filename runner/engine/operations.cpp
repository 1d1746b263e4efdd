#include "runner/engine/operations.hpp"

#include "runner/engine/binding_registry.hpp"
#include "runner/engine/call_log.hpp"
#include "runner/engine/session.hpp"

namespace a2a::engine {

bool is_streaming_operation(std::string_view operation) {
  return operation == "send_streaming_message" || operation == "subscribe_to_task";
}

std::string operation_binding_key(const Session& s) { return s.target ? s.target->key() : "stdio"; }

OpResult call_operation(Session& s, const std::string& operation, const Json& params,
                        core::Deadline deadline) {
  std::string key = operation_binding_key(s);
  if (const auto* b = find_binding(key); b && b->call) {
    OpResult r = b->call(s, operation, params, deadline);
    // run --bundle: the binding layer's record, which verify --regrade replays.
    if (s.config && s.config->call_log && s.test && !s.test->id.empty())
      s.config->call_log->add(s.test->id, key, RecordedCall{operation, params, op_result_to_json(r)});
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
