#include "runner/engine/client_http.hpp"

#include <nlohmann/json.hpp>

namespace a2a::engine {

namespace {
// Requests nobody answered pile up only while a scenario runs; a client that
// floods us is judged on the first ones.
constexpr size_t kMaxQueued = 1000;

std::string describe_request(const transport::ServerRequest& r) {
  std::string out = r.method + " " + r.target + "\n";
  for (const auto& [k, v] : r.headers) out += k + ": " + v + "\n";
  return out + "\n" + r.body;
}
}  // namespace

core::Expected<std::unique_ptr<ScriptedServer>> ScriptedServer::start(const std::string& binding,
                                                                       transport::Transcript* tr) {
  std::unique_ptr<ScriptedServer> s(new ScriptedServer());
  s->binding_ = binding;
  s->tr_ = tr;
  transport::HttpServerOptions o;
  o.threads = 1;
  auto srv = transport::HttpServer::start(o, [raw = s.get()](auto ex) { raw->on_request(std::move(ex)); });
  if (!srv) return core::fail(srv.error());
  s->server_ = std::move(srv.value());
  return s;
}

ScriptedServer::~ScriptedServer() {
  interrupt();
  if (server_) server_->stop(core::Millis(500));
}

std::string ScriptedServer::base_url() const { return "http://127.0.0.1:" + std::to_string(server_->port()); }

void ScriptedServer::set_card_members(nlohmann::json members) {
  std::lock_guard lk(mu_);
  card_members_ = std::move(members);
}

void ScriptedServer::set_interface(std::string url, std::string protocol_binding) {
  std::lock_guard lk(mu_);
  iface_url_ = std::move(url);
  iface_binding_ = std::move(protocol_binding);
}

nlohmann::json ScriptedServer::card() const {
  std::string url = base_url() + (binding_ == "rest" ? "" : "/");
  std::string protocol_binding = binding_ == "rest" ? "HTTP+JSON" : "JSONRPC";
  {
    std::lock_guard lk(mu_);
    if (!iface_url_.empty()) {
      url = iface_url_;
      protocol_binding = iface_binding_;
    }
  }
  nlohmann::json card = {
      {"name", "a2a-conform scripted agent"},
      {"description", "the runner playing an agent for a client under test"},
      {"version", "1.0.0"},
      {"supportedInterfaces",
       {{{"url", url},
         {"protocolBinding", protocol_binding},
         {"protocolVersion", "1.0"}}}},
      {"capabilities", {{"streaming", true}, {"pushNotifications", true}}},
      {"defaultInputModes", {"text/plain"}},
      {"defaultOutputModes", {"text/plain"}},
      {"skills", nlohmann::json::array()}};
  std::lock_guard lk(mu_);
  for (auto it = card_members_.begin(); it != card_members_.end(); ++it) card[it.key()] = it.value();
  return card;
}

void ScriptedServer::on_request(std::shared_ptr<transport::HttpExchange> ex) {
  const auto& req = ex->request();
  if (tr_) tr_->add(transport::Direction::kFromPeer, describe_request(req));
  if (req.method == "GET" && req.path() == "/.well-known/agent-card.json") {
    transport::ServerReply r;
    r.headers = {{"Content-Type", "application/json"}};
    r.body = card().dump();
    if (tr_) tr_->add(transport::Direction::kToPeer, "200 (the scripted agent's card)\n" + r.body);
    ex->reply(std::move(r));
    return;
  }
  std::lock_guard lk(mu_);
  if (stop_ || inbox_.size() >= kMaxQueued) {
    ex->reply({503, {}, "", true});
    return;
  }
  inbox_.push_back(std::move(ex));
  cv_.notify_all();
}

std::shared_ptr<transport::HttpExchange> ScriptedServer::take(core::Deadline d) {
  std::unique_lock lk(mu_);
  while (inbox_.empty() && !stop_ && !d.expired()) cv_.wait_until(lk, d.time());
  if (inbox_.empty()) return nullptr;
  auto ex = std::move(inbox_.front());
  inbox_.pop_front();
  return ex;
}

size_t ScriptedServer::pending() const {
  std::lock_guard lk(mu_);
  return inbox_.size();
}

void ScriptedServer::interrupt() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
}

}  // namespace a2a::engine
