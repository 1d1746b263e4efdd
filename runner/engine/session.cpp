#include "runner/engine/session.hpp"

#include <cmath>

#include "runner/wire/codec.hpp"

namespace a2a::engine {

core::Millis Session::scaled(int ms) const {
  return core::Millis(static_cast<long long>(std::llround(ms * config->timeout_scale)));
}

core::Deadline Session::step_deadline(int within_ms) const {
  int ms = within_ms > 0 ? within_ms : profile().timeouts.step_ms;
  core::Millis bound = scaled(ms);
  if (within_ms <= 0) bound = std::max(bound, core::Millis(behavior_wait_ms));
  return core::Deadline::after(bound).min(deadline);
}

std::unique_ptr<Session> Session::branch() {
  auto b = std::make_unique<Session>();
  b->config = config;
  b->test = test;
  b->conn = conn;
  b->target = target;
  b->http = http;
  b->transcript = transcript;
  b->hooks = hooks;
  b->binding_state = binding_state;
  b->session_id = session_id;
  b->deadline = deadline;
  b->behavior_wait_ms = behavior_wait_ms;
  b->watch_after_stream = watch_after_stream;
  b->retry_shed = retry_shed;
  b->interrupter = interrupter;
  b->next_id = next_id;
  std::lock_guard lk(vars_mu);
  b->vars = vars;
  return b;
}

core::Expected<Json> Session::interpolate(const Json& tmpl) {
  std::lock_guard lk(vars_mu);  // x-concurrent branches may capture meanwhile
  return match::interpolate(tmpl, vars);
}

std::string Session::a2a_version() const {
  return test && !test->spec_version.empty() ? test->spec_version : "1.0";
}

std::string Session::frame(std::string_view body) const {
  if (profile().framing.kind == "newline") return std::string(body) + "\n";
  return wire::encode_content_length(body);
}

}  // namespace a2a::engine
