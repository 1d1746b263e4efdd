// The runner's webhook receiver (push notifications, A2A spec §4.3.3): one
// run-wide HttpServer on 127.0.0.1, started only when a selected test needs
// it. Each scenario run gets its own path /hooks/<uuid> (the {{webhookUrl}}
// variable) and inbox; the receiver answers 200 and records every request,
// bounded in count and size. x-expect-webhook steps wait on the inbox.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"
#include "runner/engine/session.hpp"
#include "runner/engine/step_outcome.hpp"
#include "runner/scenario/model.hpp"
#include "runner/transport/http_server.hpp"
#include "runner/transport/transcript.hpp"

namespace a2a::engine {

struct WebhookDelivery {
  std::string method;
  std::string target;
  transport::HeaderList headers;
  std::string body;
  bool truncated = false;  // body above the per-request cap: only its head is kept
  core::Clock::time_point at;
};

class WebhookInbox {
 public:
  static constexpr size_t kMaxDeliveries = 1000;
  static constexpr size_t kMaxBody = 1u << 20;

  // From the receiver's I/O thread. Beyond kMaxDeliveries only counted.
  void add(WebhookDelivery d);
  // Waits until `enough` holds for the deliveries from index `from` on, or the
  // deadline; returns those deliveries either way.
  std::vector<WebhookDelivery> wait(size_t from, const std::function<bool(const std::vector<WebhookDelivery>&)>& enough,
                                    core::Deadline deadline);
  size_t dropped() const;
  // Where deliveries are noted as they arrive (nullptr: nowhere). The
  // scenario runner clears it before its transcript goes away.
  void set_transcript(transport::Transcript* t);

  // x-expect-webhook steps take deliveries in order: the next step looks
  // from here on (atomic: x-concurrent branches share the inbox).
  std::atomic<size_t> cursor{0};

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<WebhookDelivery> deliveries_;
  size_t dropped_ = 0;
  transport::Transcript* transcript_ = nullptr;
};

class WebhookReceiver {
 public:
  static core::Expected<std::unique_ptr<WebhookReceiver>> start();
  ~WebhookReceiver();

  // A fresh path for one scenario run; `url` gets its full URL.
  std::shared_ptr<WebhookInbox> open(std::string& url);
  void close(const std::shared_ptr<WebhookInbox>& inbox);
  uint16_t port() const;

 private:
  WebhookReceiver() = default;
  void on_request(const std::shared_ptr<transport::HttpExchange>& ex);

  std::unique_ptr<transport::HttpServer> server_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<WebhookInbox>> inboxes_;  // by path
};

// Whether a test needs the receiver: runner_requirements webhook_endpoint, a
// step mentioning {{webhookUrl}}, or an x-expect-webhook step.
bool needs_webhooks(const scenario::Test& t);

// x-expect-webhook: {count, within_ms, until, body, headers, each_body}.
// Steps take deliveries in order from the inbox's cursor; `consume=false`
// only looks (graded steps), `took` gets how many deliveries matched.
// count: 0 means no delivery may arrive within the window.
StepOutcome expect_webhook(Session& s, const scenario::WireAction& w, const std::string& step_id,
                           const scenario::StringPairs& capture, bool consume = true, size_t* took = nullptr);

}  // namespace a2a::engine
