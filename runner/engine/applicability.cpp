// Which tests run on which binding, and how a result describes itself
// (declared in scenario_runner.hpp).
#include <algorithm>
#include <cctype>

#include "runner/a2a/methods.hpp"
#include "runner/a2a/v03.hpp"
#include "runner/engine/binding_registry.hpp"
#include "runner/engine/scenario_runner.hpp"

namespace a2a::engine {


namespace {

const BindingTarget kStdio{"stdio", "", "", ""};

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string source_of(const scenario::Test& t) {
  return t.where.known() ? t.where.str() : t.file;
}

bool has_step_kind(const std::vector<scenario::Step>& steps, scenario::StepKind k) {
  bool found = false;
  scenario::for_each_step(steps, [&](const scenario::Step& s) { found = found || s.kind == k; });
  return found;
}

bool fetches_card(const scenario::Test& t) {
  bool found = false;
  scenario::for_each_step(t.steps, [&](const scenario::Step& s) { found = found || s.operation == "get_agent_card"; });
  return found;
}

std::string filter_text(const std::vector<std::string>& transport) {
  std::string out;
  for (const auto& x : transport) out += (out.empty() ? "" : ", ") + x;
  return "[" + out + "]";
}

// A capability as the card declares it: capabilities.<name>, or for the
// extended card the A2A 0.3 member supportsAuthenticatedExtendedCard (a 0.3
// card is gated like a 1.0 one). null when the card says nothing.
Json declared(const Json& card, const std::string& name) {
  const Json caps = card.value("capabilities", Json::object());
  if (caps.is_object() && caps.contains(name)) return caps[name];
  if (name == "extendedAgentCard" && card.contains("supportsAuthenticatedExtendedCard"))
    return card["supportsAuthenticatedExtendedCard"];
  return nullptr;
}

// ACTS §3.3 capabilities precondition against the agent card, when we have one.
std::string unmet_capabilities(const Json& pre, const std::optional<Json>& card) {
  if (!pre.is_object() || !pre.contains("capabilities") || !pre["capabilities"].is_object()) return {};
  if (!card) {
    // No card (a stdio agent that gives none): a capability the test needs
    // is tried (the agent's answer tells, step_exec.cpp); one it needs absent
    // cannot be known absent.
    for (const auto& [k, v] : pre["capabilities"].items())
      if (v == Json(false))
        return "the test needs capabilities." + k + " false and the agent gives no card to show it";
    return {};
  }
  for (const auto& [k, v] : pre["capabilities"].items()) {
    // Spec §3.3.4: a capability "false or not present" is not declared, so
    // `false` is met by an absent member.
    Json has = declared(*card, k);
    if (v == Json(false) && has.is_null()) continue;
    if (has != v) return "agent card capability " + k + " is not " + v.dump();
  }
  return {};
}

// The optional capability (AgentCapabilities member) an abstract operation
// needs, "" for operations every agent has (spec §4.6 / §8: push
// notifications, streaming and the extended card are declared in the card).
}  // namespace

std::string_view capability_of(std::string_view op) {
  if (op == "create_push_config" || op == "get_push_config" || op == "list_push_configs" || op == "delete_push_config")
    return "pushNotifications";
  if (op == "send_streaming_message" || op == "subscribe_to_task") return "streaming";
  if (op == "get_extended_agent_card") return "extendedAgentCard";
  return "";
}

std::vector<std::string> implied_capabilities(const scenario::Test& t) {
  std::vector<std::string> out;
  auto add = [&](std::string_view c) {
    if (!c.empty() && std::find(out.begin(), out.end(), c) == out.end()) out.emplace_back(c);
  };
  scenario::for_each_step(t.steps, [&](const scenario::Step& s) {
    if (!s.operation.empty()) add(capability_of(s.operation));
    if (s.wire && s.wire->type == scenario::WireActionType::kExpectWebhook) add("pushNotifications");
    if (s.wire && s.wire->type == scenario::WireActionType::kSendRequest && s.wire->spec.is_object()) {
      std::string m = s.wire->spec.value("method", std::string());
      const std::string ref = "{{profile.methods.";
      if (m.starts_with(ref) && m.ends_with("}}")) add(capability_of(std::string_view(m).substr(ref.size(), m.size() - ref.size() - 2)));
    }
  });
  // An explicit precondition on the same capability (e.g. `false`, to test
  // the error for an agent without it) wins over what the steps imply.
  if (t.preconditions.is_object() && t.preconditions.contains("capabilities") && t.preconditions["capabilities"].is_object())
    std::erase_if(out, [&](const std::string& c) { return t.preconditions["capabilities"].contains(c); });
  return out;
}

namespace {

// Capability gating (docs/behaviors.md "Capabilities"): a test that uses an
// optional capability runs only when the card declares it. Declared and
// broken is a FAIL ("false advertising"); undeclared is a SKIP. Without a card
// (a stdio agent that gives none) the test runs.
std::string undeclared_capability(const scenario::Test& t, const std::optional<Json>& card) {
  if (!card || !card->is_object()) return {};
  for (const auto& c : implied_capabilities(t)) {
    Json has = declared(*card, c);
    if (!(has.is_boolean() && has.get<bool>()))
      return "uses " + c + ", which the agent card does not declare (capabilities." + c + " is " +
             (has.is_null() ? std::string("absent") : has.dump()) + ")";
  }
  return {};
}

// A security scheme the card declares that the run brings no credentials
// for: the extended card is for authenticated clients (spec §3.1.11, §13.3),
// so without credentials its scenarios SKIP with the reason instead of
// failing on the 401 the spec prescribes.
std::string missing_credentials(const scenario::Test& t, const RunConfig& c, bool http) {
  if (!http || !c.agent_card || !c.agent_card->is_object()) return {};
  bool uses = false;
  scenario::for_each_step(t.steps, [&](const scenario::Step& s) {
    uses = uses || s.operation == "get_extended_agent_card" ||
           (s.wire && s.wire->type == scenario::WireActionType::kWs &&
            s.wire->spec.dump().find("\"GetExtendedAgentCard\"") != std::string::npos);  // x-ws request
  });
  if (!uses) return {};
  const Json schemes = c.agent_card->value("securitySchemes", Json::object());
  if (!schemes.is_object() || schemes.empty()) return {};
  for (const auto& [name, value] : c.http_headers)
    if (is_secret_header(name)) return {};
  std::string names;
  for (const auto& [k, v] : schemes.items()) names += (names.empty() ? "" : ", ") + k;
  return "GetExtendedAgentCard is for authenticated clients and the card declares securitySchemes (" + names +
         "), but this run gives no credentials (--header \"Authorization: Bearer ...\")";
}

// Runner requirements (ACTS §3.2) this binding cannot meet; "" when all can.
std::string missing_requirement(const scenario::Test& t, const RunConfig& c, const std::string& binding) {
  for (const auto& rr : t.runner_requirements) {
    if (rr == "webhook_endpoint") continue;  // the webhook receiver serves every binding
    if (binding == "stdio") {
      if (rr != "concurrent_streams" || c.profile.stream.event_method.size())
        return "runner requirement '" + rr + "' is not available on the stdio binding";
    } else if (rr != "concurrent_streams" && rr != "header_inspection") {
      return "runner requirement '" + rr + "' is not available on the " + binding + " binding";
    }
  }
  return {};
}

}  // namespace

std::vector<std::string> behaviors_needed(const scenario::Test& t, const RunConfig& c) {
  std::vector<std::string_view> known(std::begin(scenario::kActsPrefixes), std::end(scenario::kActsPrefixes));
  for (const auto& [p, b] : c.behaviors.by_prefix) known.push_back(p);
  return scenario::behaviors_used(t, known);
}

// The behaviour contract (docs/behaviors.md): a test may rely on the ACTS
// §11.2 prefixes, or on what the target declares with --behaviors.
std::string missing_behavior(const scenario::Test& t, const RunConfig& c) {
  auto used = behaviors_needed(t, c);
  if (used.empty()) return {};
  if (!c.assume_behaviors)
    return "needs the behaviour prefix " + used.front() + " (--no-behaviors: the agent implements none)";
  for (const auto& p : used) {
    if (c.behaviors.find(p)) continue;
    if (c.behaviors.file.empty())
      return "needs the behaviour " + p + (scenario::is_acts_prefix(p) ? "" : ", which is not an ACTS §11.2 prefix:") +
             " a target that implements it declares it with --behaviors FILE (docs/behaviors.md)";
    return "needs the behaviour " + p + ", which " + c.behaviors.file + " does not declare";
  }
  return {};
}

// How much longer than the scenario's own budgets its waits may take: the
// slowest behaviour it uses (tck-long-running: the declared delay_ms, else
// ACTS's example 5000 ms), plus a margin. 0 when it uses no slow behaviour.
int behavior_wait_ms(const scenario::Test& t, const RunConfig& c) {
  int slowest = 0;
  for (const auto& p : behaviors_needed(t, c)) slowest = std::max(slowest, c.behaviors.delay_ms(p));
  return slowest > 0 ? slowest + kBehaviorMarginMs : 0;
}

std::string binding_mismatch(const scenario::Test& t, const std::string& b) {
  if (b == "stdio") {
    if (!t.binding.empty() && t.binding != "stdio")
      return "written for the " + std::string(t.binding == "http" ? "HTTP" : t.binding) +
             " binding; this run is stdio";
    if (t.binding.empty() && !t.transport.empty())
      return "ACTS transport filter " + filter_text(t.transport) + " does not include stdio";
    if (has_step_kind(t.steps, scenario::StepKind::kRaw)) return "raw HTTP steps need an HTTP binding";
    if (fetches_card(t))
      return "agent card discovery (GET /.well-known/agent-card.json) needs an HTTP binding";
    return {};
  }
  // b is a binding key: "jsonrpc", "rest", either with "@0.3", "grpc", ...
  // A binding not over HTTP (OperationBinding::over_http) takes no raw HTTP
  // steps and no test written for the HTTP bindings.
  bool v03 = b.ends_with("@0.3");
  std::string transport = v03 ? b.substr(0, b.size() - 4) : b;
  const OperationBinding* rb = find_binding(b);
  if (!(rb && rb->over_http)) {
    if (t.binding == "http") return "written for the HTTP bindings; this run is " + b;
    if (!t.binding.empty() && t.binding != transport) return "written for the " + t.binding + " binding; this run is " + b;
    if (t.binding.empty() && has_step_kind(t.steps, scenario::StepKind::kRaw))
      return "raw HTTP steps need an HTTP binding; this run is " + b;
    if (!t.transport.empty() && std::find(t.transport.begin(), t.transport.end(), transport) == t.transport.end())
      return "ACTS transport filter " + filter_text(t.transport) + " does not include " + transport;
    return {};
  }
  bool for_v03 = t.binding.ends_with("@0.3");
  if (for_v03) {
    if (t.binding != b) return "written for the " + t.binding + " binding (A2A 0.3 interfaces); this run is " + b;
  } else if (t.binding == "stdio" || (t.binding != "http" && !t.binding.empty() && t.binding != transport)) {
    return "written for the " + t.binding + " binding; this run is " + b;
  } else if (v03 && !t.binding.empty() && t.binding != "http") {
    return "written for the A2A 1.0 " + t.binding + " wire; this interface runs under the 0.3 profile (" + b + ")";
  } else if (v03 && has_step_kind(t.steps, scenario::StepKind::kRaw)) {
    return "raw HTTP steps written for the A2A 1.0 wire; this interface runs under the 0.3 profile (" + b + ")";
  }
  if (!t.transport.empty() && std::find(t.transport.begin(), t.transport.end(), transport) == t.transport.end())
    return "ACTS transport filter " + filter_text(t.transport) + " does not include " + transport;
  return {};
}

namespace {

// Under the 0.3 profile: why the test's abstract operations cannot run there.
std::string v03_gap(const scenario::Test& t, const BindingTarget& /*b*/) {
  std::string why;
  scenario::for_each_step(t.steps, [&](const scenario::Step& st) {
    if (!why.empty()) return;
    // 0.3 webhooks deliver the whole Task each time (a2a-protocol.md §9.1
    // "Webhook body"), never a status-update: a wait for a 1.0 statusUpdate
    // delivery cannot be met by a conformant 0.3 agent.
    if (st.wire && st.wire->type == scenario::WireActionType::kExpectWebhook && st.wire->spec.is_object() &&
        st.wire->spec.value("until", std::string()).starts_with("statusUpdate.")) {
      why = "step " + st.id + " waits for a 1.0 statusUpdate webhook delivery; A2A 0.3 webhooks deliver the whole " +
            "Task (a2a-protocol.md §9.1 \"Webhook body\")";
      return;
    }
    if (st.operation.empty() || st.operation == "get_agent_card") return;
    auto op = model::operation_from_acts(st.operation);
    if (op && !model::v03::v03_method(*op))
      why = "operation " + st.operation + " has no A2A 0.3 form (a2a-protocol.md §9.1: " +
            std::string(model::method_name(*op, model::MethodNaming::kV1)) + " was added in 1.0)";
  });
  return why;
}

}  // namespace

std::string not_applicable_reason(const scenario::Test& t, const RunConfig& c, const BindingTarget* target) {
  const BindingTarget& b = target ? *target : kStdio;
  if (auto why = binding_mismatch(t, b.key()); !why.empty()) return why;
  if (b.is_v03())
    if (auto why = v03_gap(t, b); !why.empty()) return why;
  bool stdio = b.binding == "stdio";
  if (stdio && !t.profiles.empty() &&
      std::find(t.profiles.begin(), t.profiles.end(), c.profile.name) == t.profiles.end())
    return "not applicable to profile " + c.profile.name;
  bool client_run = !c.client_command.empty();
  if (!client_run && t.role == scenario::Role::kClient) return "client test (this run tests an agent)";
  if (client_run && t.role != scenario::Role::kClient) return "agent test (this run tests a client)";
  if (client_run && fetches_card(t))
    return "the client contract has no operation that prints the public agent card (get_agent_card)";
  if (auto why = missing_requirement(t, c, b.binding); !why.empty()) return why;
  return {};
}

std::string skip_reason(const scenario::Test& t, const RunConfig& c, const BindingTarget* target) {
  if (auto why = not_applicable_reason(t, c, target); !why.empty()) return why;
  const BindingTarget& b = target ? *target : kStdio;
  bool client_run = !c.client_command.empty();
  if (auto why = missing_behavior(t, c); !why.empty()) return why;
  if (auto why = unmet_capabilities(t.preconditions, c.agent_card); !why.empty())
    return "precondition not met: " + why;
  if (!client_run)
    if (auto why = undeclared_capability(t, c.agent_card); !why.empty()) return why;
  if (!client_run)
    if (auto why = missing_credentials(t, c, b.is_network()); !why.empty()) return why;
  return {};
}

// Reports travel (the HTML report goes to people who decide), so credentials
// given with --header stay out of the replay command; the user re-adds them.
bool is_secret_header(const std::string& name) {
  std::string n;
  for (char ch : name) n += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (n == "authorization" || n == "proxy-authorization" || n == "cookie") return true;
  for (const char* word : {"token", "key", "secret", "auth", "password", "session"})
    if (n.find(word) != std::string::npos) return true;
  return false;
}

std::string replay_command(const scenario::Test& t, const RunConfig& c, const BindingTarget* target) {
  std::string cmd;
  if (!c.client_command.empty()) {
    cmd = "a2a-conform client --cmd " + shell_quote(c.client_command) + " --binding " +
          (target ? target->binding : std::string("stdio"));
    if (!target && c.profile.name != "p46") cmd += " --profile " + shell_quote(c.profile.name);
  } else if (target && c.in_process_agent) {
    cmd = "a2a-conform run --binding " + target->binding;
    const auto* b = find_binding(target->binding);
    for (const auto& f : c.agent_faults)
      cmd += " " + (b && !b->fault_option.empty() ? b->fault_option : "--fault") + " " + shell_quote(f);
  } else if (!c.target_url.empty()) {
    cmd = "a2a-conform run --url " + shell_quote(c.target_url);
    if (target && target->is_network()) cmd += " --binding " + target->binding;
    if (target && target->is_v03()) cmd += " --a2a-version 0.3";
    else if (!c.forced_version.empty()) cmd += " --a2a-version " + c.forced_version;
    if (c.insecure_tls) cmd += " --insecure";
    for (const auto& [name, value] : c.http_headers)
      cmd += " --header " + shell_quote(name + ": " + (is_secret_header(name) ? "<redacted>" : value));
  } else {
    cmd = "a2a-conform run --agent " + shell_quote(c.agent_command) + " --profile " + shell_quote(c.profile.name);
  }
  cmd += " --id " + shell_quote(t.id);
  for (const auto& p : c.suite_paths) cmd += " " + shell_quote(p);
  return cmd;
}

result::ScenarioResult describe(const scenario::Test& t, const RunConfig& c, const BindingTarget* target) {
  result::ScenarioResult r;
  r.id = t.id;
  r.name = t.name;
  r.requirement = t.description;
  r.spec_ref = t.spec_ref;
  for (const auto& q : t.quotes) r.quotes.push_back({q.source, q.section, q.quote});
  r.level = static_cast<result::Level>(static_cast<int>(t.level));
  r.suite_id = t.suite_id;
  r.suite_name = t.suite_name;
  r.source = source_of(t);
  r.tags = t.tags;
  r.binding = target ? target->key() : "stdio";
  // Profiles are stdio wire profiles: HTTP results have none.
  if (r.binding == "stdio") r.profile = c.profile.name;
  r.replay_command = replay_command(t, c, target);
  return r;
}

}  // namespace a2a::engine
