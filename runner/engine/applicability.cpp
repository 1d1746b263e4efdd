// Which tests run on which binding, and how a result describes itself
// (declared in scenario_runner.hpp).
#include <algorithm>
#include <cctype>

#include "runner/a2a/methods.hpp"
#include "runner/a2a/v03.hpp"
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

// ACTS §3.3 capabilities precondition against the agent card, when we have one.
std::string unmet_capabilities(const Json& pre, const std::optional<Json>& card) {
  if (!pre.is_object() || !pre.contains("capabilities") || !card) return {};
  const Json caps = card->value("capabilities", Json::object());
  for (const auto& [k, v] : pre["capabilities"].items()) {
    if (!caps.contains(k) || caps[k] != v)
      return "agent card capability " + k + " is not " + v.dump();
  }
  return {};
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
  // b is a binding key: "jsonrpc", "rest", or either with "@0.3".
  bool v03 = b.ends_with("@0.3");
  std::string transport = v03 ? b.substr(0, b.size() - 4) : b;
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

std::string skip_reason(const scenario::Test& t, const RunConfig& c, const BindingTarget* target) {
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
  if (!t.requires_behaviors.empty() && !c.assume_behaviors)
    return "needs the ACTS behaviour prefixes (" + t.requires_behaviors.front() + ", ...)";
  if (auto why = unmet_capabilities(t.preconditions, c.agent_card); !why.empty())
    return "precondition not met: " + why;
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
  } else if (!c.target_url.empty()) {
    cmd = "a2a-conform run --url " + shell_quote(c.target_url);
    if (target && target->is_http()) cmd += " --binding " + target->binding;
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
