#include "runner/bindings/websocket/websocket_state.hpp"

#include "runner/transport/transcript.hpp"

namespace a2a::bindings::wsb {

std::shared_ptr<WsState> state_of(engine::Session& s) {
  // Branches share the parent's binding_state (Session::branch), so the
  // first use is on the scenario's own thread.
  auto st = std::dynamic_pointer_cast<WsState>(s.binding_state);
  if (!st) {
    st = std::make_shared<WsState>();
    s.binding_state = st;
  }
  return st;
}

std::vector<std::pair<std::string, std::string>> default_headers(const engine::Session& s) {
  std::vector<std::pair<std::string, std::string>> h = {{"A2A-Version", s.a2a_version()}};
  for (const auto& kv : s.config->http_headers) h.push_back(kv);
  return h;
}

std::shared_ptr<transport::WsConnection> connection(engine::Session& s, core::Deadline d, std::string& why) {
  auto st = state_of(s);
  std::lock_guard<std::mutex> lk(st->mu);
  if (!st->conn && st->failed.empty()) {
    transport::WsOptions o;
    o.headers = default_headers(s);
    o.insecure_tls = s.config->insecure_tls;
    if (s.transcript) s.transcript->note("WebSocket upgrade to " + s.target->url + " (A2A-Version " + s.a2a_version() + ")");
    auto c = transport::WsConnection::connect(s.target->url, std::move(o), d);
    if (c) st->conn = std::shared_ptr<transport::WsConnection>(std::move(*c));
    else st->failed = c.error().message;
  }
  if (!st->failed.empty()) {
    why = st->failed;
    return nullptr;
  }
  return st->conn;
}

}  // namespace a2a::bindings::wsb
