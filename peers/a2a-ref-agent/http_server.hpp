// The reference agent on HTTP: JSON-RPC (POST /) and REST (the §4.1 paths)
// on one port, the agent card at /.well-known/agent-card.json, push
// notifications delivered to webhooks. JSON-RPC calls that cannot block
// are answered on the I/O threads, with the events a stream has ready at
// once; blocking sends, streams that wait for events and REST run on a
// growing worker pool, so they never stall the I/O (docs/performance.md).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "peers/a2a-ref-agent/agent_core.hpp"
#include "runner/core/expected.hpp"

namespace a2a::transport {
class HttpServer;
class HttpExchange;
}  // namespace a2a::transport

namespace a2a::agent {

enum class HttpBinding { kJsonRpc, kRest };

struct HttpAgentOptions {
  std::string bind = "127.0.0.1";
  uint16_t port = 0;  // 0 = the system picks
  std::string tenant;  // "" = none; else the card's interfaces carry it and /T/... REST paths are served
  // Bearer tokens GetExtendedAgentCard accepts (spec §13.3: it requires
  // authentication with a scheme the public card declares, here "bearer").
  std::vector<std::string> auth_tokens = {"a2a-conform"};
  std::vector<HttpBinding> interfaces = {HttpBinding::kJsonRpc, HttpBinding::kRest};  // card order; served set
  // JSON-RPC also serves A2A 0.3 (a request without A2A-Version, or with 0.3)
  // and the card declares it (docs/ref-agent.md "A2A 0.3 beside 1.0").
  bool serve_v03 = false;
  // Card entries after the HTTP ones (before a 0.3 entry): another binding
  // served over the same core, e.g. the gRPC interface of --grpc.
  Json extra_interfaces = Json::array();
  AgentConfig agent;   // long_running, max_block, faults (interfaces and push_sink are set here)
  int io_threads = 2;
  int workers = 8;        // at start; grows while all are busy
  int max_workers = 2048; // bounds blocking calls + open streams together
  size_t max_queue = 4096;
  core::Millis max_stream{600000};
  int log_fd = 2;  // -1 = silent
  // Wraps every exchange before the bindings see it (the legal variation's
  // wire choices, http_variation.hpp); empty = the bindings answer as they are.
  std::function<std::shared_ptr<transport::HttpExchange>(std::shared_ptr<transport::HttpExchange>, AgentCore&)>
      decorate_exchange;
};

class PushDelivery;
class WorkerPool;
struct HttpContext;

class HttpAgent {
 public:
  // Listens before returning (port() is final) and serves until stop().
  static core::Expected<std::unique_ptr<HttpAgent>> start(HttpAgentOptions options);
  ~HttpAgent();  // stop()
  HttpAgent(const HttpAgent&) = delete;
  HttpAgent& operator=(const HttpAgent&) = delete;

  uint16_t port() const;
  // The interface URL: "http://127.0.0.1:PORT" (the root: JSON-RPC and REST share it).
  std::string url() const;
  // The core every binding of this agent serves (push delivery wired in):
  // another binding (the gRPC server) may serve it too, until stop().
  AgentCore& core();
  // Closes every connection (open streams end), ends blocked calls, joins
  // the workers, gives queued push notifications a short grace. Idempotent.
  void stop();

 private:
  explicit HttpAgent(HttpAgentOptions options);
  void on_request(std::shared_ptr<transport::HttpExchange> ex);
  void route(const std::shared_ptr<transport::HttpExchange>& ex);
  void on_idle();  // the last connection closed
  // Runs fn; an exception is logged and `ex` answered 500 (or, mid-stream, closed).
  void guarded(const std::shared_ptr<transport::HttpExchange>& ex, const std::function<void()>& fn);

  HttpAgentOptions options_;
  std::unique_ptr<PushDelivery> push_;
  std::unique_ptr<AgentCore> core_;
  std::unique_ptr<HttpContext> ctx_;
  std::unique_ptr<WorkerPool> pool_;
  std::unique_ptr<transport::HttpServer> server_;
  std::string url_;
  uint16_t port_ = 0;
  std::atomic<bool> ready_{false};
  std::atomic<long> served_{0};  // requests since the last idle trim
  bool stopped_ = false;
};

// The interfaces list of the card for `url` in the given order (+ tenant);
// with `v03` a last entry {url, JSONRPC, "0.3"} (0.3 has no tenant).
Json http_interfaces(const std::string& url, const std::vector<HttpBinding>& bindings, const std::string& tenant,
                     bool v03 = false);
// The public card's 0.3 top-level members beside the 1.0 ones (a merged
// card, as the Python SDK serves): url, preferredTransport, protocolVersion
// "0.3.0", additionalInterfaces, supportsAuthenticatedExtendedCard.
void add_v03_card_fields(Json& card);

}  // namespace a2a::agent
