#include "runner/engine/webhooks.hpp"

#include <cctype>

#include "runner/core/escape.hpp"
#include "runner/match/assert.hpp"
#include "runner/match/until.hpp"
#include "runner/match/vars.hpp"

namespace a2a::engine {

namespace {

constexpr size_t kNotedBody = 4096;  // transcript notes keep the head of each body

std::string describe(const WebhookDelivery& d, size_t n) {
  std::string out = "webhook delivery #" + std::to_string(n) + ": " + d.method + " " + d.target + "\n";
  for (const auto& [k, v] : d.headers) out += k + ": " + v + "\n";
  out += "\n" + d.body.substr(0, kNotedBody);
  if (d.body.size() > kNotedBody || d.truncated) out += "\n... (body cut)";
  return out;
}

}  // namespace

void WebhookInbox::add(WebhookDelivery d) {
  {
    std::lock_guard lk(mu_);
    if (deliveries_.size() >= kMaxDeliveries) {
      ++dropped_;
      return;
    }
    if (transcript_) transcript_->note(describe(d, deliveries_.size() + 1));
    deliveries_.push_back(std::move(d));
  }
  cv_.notify_all();
}

std::vector<WebhookDelivery> WebhookInbox::wait(
    size_t from, const std::function<bool(const std::vector<WebhookDelivery>&)>& enough, core::Deadline deadline) {
  std::unique_lock lk(mu_);
  auto tail = [&] {
    return from < deliveries_.size() ? std::vector<WebhookDelivery>(deliveries_.begin() + static_cast<long>(from),
                                                                    deliveries_.end())
                                     : std::vector<WebhookDelivery>{};
  };
  for (;;) {
    auto got = tail();
    if (enough(got) || deadline.expired()) return got;
    // Re-checked every 50 ms as well, so a deadline of never() stays bounded
    // by the scenario watchdog through the caller's deadline.
    cv_.wait_for(lk, std::min(deadline.remaining(), core::Millis(50)));
  }
}

size_t WebhookInbox::dropped() const {
  std::lock_guard lk(mu_);
  return dropped_;
}

void WebhookInbox::set_transcript(transport::Transcript* t) {
  std::lock_guard lk(mu_);
  transcript_ = t;
}

core::Expected<std::unique_ptr<WebhookReceiver>> WebhookReceiver::start() {
  std::unique_ptr<WebhookReceiver> r(new WebhookReceiver());
  transport::HttpServerOptions o;
  o.address = "127.0.0.1";
  o.port = 0;
  o.threads = 1;
  o.max_body = WebhookInbox::kMaxBody;
  auto* self = r.get();
  auto server = transport::HttpServer::start(o, [self](std::shared_ptr<transport::HttpExchange> ex) {
    self->on_request(ex);
  });
  if (!server) return core::fail(server.error());
  r->server_ = std::move(*server);
  return r;
}

WebhookReceiver::~WebhookReceiver() {
  if (server_) server_->stop();
}

uint16_t WebhookReceiver::port() const { return server_->port(); }

std::shared_ptr<WebhookInbox> WebhookReceiver::open(std::string& url) {
  std::string path = "/hooks/" + core::uuid_v7();
  url = "http://127.0.0.1:" + std::to_string(port()) + path;
  auto inbox = std::make_shared<WebhookInbox>();
  std::lock_guard lk(mu_);
  inboxes_[path] = inbox;
  return inbox;
}

void WebhookReceiver::close(const std::shared_ptr<WebhookInbox>& inbox) {
  inbox->set_transcript(nullptr);
  std::lock_guard lk(mu_);
  for (auto it = inboxes_.begin(); it != inboxes_.end(); ++it) {
    if (it->second != inbox) continue;
    inboxes_.erase(it);
    return;
  }
}

void WebhookReceiver::on_request(const std::shared_ptr<transport::HttpExchange>& ex) {
  const auto& req = ex->request();
  std::shared_ptr<WebhookInbox> inbox;
  {
    std::lock_guard lk(mu_);
    auto it = inboxes_.find(req.path());
    if (it != inboxes_.end()) inbox = it->second;
  }
  if (!inbox) {
    ex->reply({404, {{"Content-Type", "text/plain"}}, "no scenario listens on this path\n", false});
    return;
  }
  WebhookDelivery d{req.method, req.target, req.headers, req.body, false, core::Clock::now()};
  if (d.body.size() > WebhookInbox::kMaxBody) {
    d.body.resize(WebhookInbox::kMaxBody);
    d.truncated = true;
  }
  inbox->add(std::move(d));
  ex->reply({200, {}, "", false});
}

namespace {

// "{{webhookUrl}}" or "{{ webhookUrl.x }}" somewhere in `text`.
bool mentions_webhook_url(std::string_view text) {
  for (size_t at = text.find("{{"); at != std::string_view::npos; at = text.find("{{", at + 2)) {
    size_t i = at + 2;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    if (text.substr(i).starts_with("webhookUrl")) return true;
  }
  return false;
}

}  // namespace

bool needs_webhooks(const scenario::Test& t) {
  for (const auto& r : t.runner_requirements)
    if (r == "webhook_endpoint") return true;
  for (const auto& [k, v] : t.agent.env)
    if (mentions_webhook_url(v)) return true;
  bool found = false;
  scenario::for_each_step(t.steps, [&](const scenario::Step& s) {
    if (found) return;
    if (s.wire && s.wire->type == scenario::WireActionType::kExpectWebhook) found = true;
    for (const Json* j : {&s.params, &s.raw, &s.assertions})
      if (mentions_webhook_url(j->dump())) found = true;
    if (s.wire && mentions_webhook_url(s.wire->spec.dump())) found = true;
    for (const auto* e : {&s.expect, &s.expect_stream})
      if (*e && mentions_webhook_url((*e)->dump())) found = true;
  });
  return found;
}

}  // namespace a2a::engine
