#include "peers/a2a-ref-agent/http_server.hpp"

#include <dlfcn.h>
#include <malloc.h>
#include <unistd.h>

#include "peers/a2a-ref-agent/http_binding.hpp"
#include "peers/a2a-ref-agent/http_push.hpp"
#include "peers/a2a-ref-agent/worker_pool.hpp"
#include "runner/a2a/v03.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/transport/http_server.hpp"

namespace a2a::agent {
namespace {

// Above kMaxBody the bindings answer 413 themselves (with their own error
// body, or not at all under http-no-body-limit); the server's cap only
// bounds memory.
constexpr size_t kServerMaxBody = 16u << 20;
constexpr core::Millis kStopGrace{1000};
constexpr core::Millis kPushGrace{2000};
// Requests served since the last trim that make one worth its milliseconds.
constexpr long kTrimAfterRequests = 1000;

std::string url_host(const std::string& bind) {
  if (bind == "0.0.0.0" || bind.empty()) return "127.0.0.1";
  if (bind == "::") return "[::1]";
  if (bind.find(':') != std::string::npos) return "[" + bind + "]";
  return bind;
}

// Gives freed heap back to the system. a2a-ref-agent links jemalloc when it
// is installed (peers/CMakeLists.txt): malloc_trim then reaches only glibc's
// idle heap, so jemalloc's purge of every arena is asked too, by name (no
// header or link dependency; absent under glibc's malloc).
void release_free_memory() {
  malloc_trim(0);
  using Mallctl = int (*)(const char*, void*, size_t*, void*, size_t);
  static const auto mallctl = reinterpret_cast<Mallctl>(dlsym(RTLD_DEFAULT, "mallctl"));
  if (mallctl) mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);  // 4096: MALLCTL_ARENAS_ALL
}

bool serves(const std::vector<HttpBinding>& v, HttpBinding b) { return std::find(v.begin(), v.end(), b) != v.end(); }

// Errors the server itself detects (unreadable request, 413 above its cap,
// 431): the body follows the binding the port serves (REST when it serves both).
ServerReply protocol_error_reply(bool rest, int status, std::string_view why) {
  std::string message = std::to_string(status) + " " + std::string(why);
  if (rest) {
    ServerReply r = rest_status_reply(status, "INVALID_ARGUMENT", message, Faults{}, false);
    r.close = true;
    return r;
  }
  ServerReply r = json_reply(status, jsonrpc::make_error(nullptr, jsonrpc::kInvalidRequest, message));
  r.close = true;
  return r;
}

}  // namespace

Json http_interfaces(const std::string& url, const std::vector<HttpBinding>& bindings, const std::string& tenant,
                     bool v03) {
  Json out = Json::array();
  for (HttpBinding b : bindings) {
    Json i = {{"url", url},
              {"protocolBinding", b == HttpBinding::kJsonRpc ? "JSONRPC" : "HTTP+JSON"},
              {"protocolVersion", std::string(kServedVersion)}};
    if (!tenant.empty()) i["tenant"] = tenant;
    out.push_back(std::move(i));
  }
  // Last: a 1.0 client takes the first interface it speaks (§7.2), so the
  // 1.0 entries keep their preference.
  if (v03) out.push_back({{"url", url}, {"protocolBinding", "JSONRPC"}, {"protocolVersion", std::string(kV03Version)}});
  return out;
}

void add_v03_card_fields(Json& card) {
  // card_to_v03 derives the 0.3 endpoint members from the 0.x interfaces;
  // only those are merged: the shared members (securitySchemes,
  // capabilities, skills) keep their 1.0 shape, which 1.0 readers require.
  Json v03_card = model::v03::card_to_v03(card).json;
  for (const char* key : {"url", "preferredTransport", "supportsAuthenticatedExtendedCard"}) {
    if (v03_card.contains(key)) card[key] = v03_card[key];
  }
  if (!card.contains("url")) return;
  // 0.3 cards spelled the full version, and advised repeating the main
  // interface in additionalInterfaces (0.3 spec §5.6.3).
  card["protocolVersion"] = "0.3.0";
  Json extra = v03_card.value("additionalInterfaces", Json::array());
  extra.insert(extra.begin(), Json{{"url", card["url"]}, {"transport", card.value("preferredTransport", "JSONRPC")}});
  card["additionalInterfaces"] = std::move(extra);
}

HttpAgent::HttpAgent(HttpAgentOptions options) : options_(std::move(options)) {}

HttpAgent::~HttpAgent() { stop(); }

uint16_t HttpAgent::port() const { return port_; }
std::string HttpAgent::url() const { return url_; }
AgentCore& HttpAgent::core() { return *core_; }

core::Expected<std::unique_ptr<HttpAgent>> HttpAgent::start(HttpAgentOptions options) {
  std::unique_ptr<HttpAgent> a(new HttpAgent(std::move(options)));
  HttpAgentOptions& o = a->options_;
  bool rest = serves(o.interfaces, HttpBinding::kRest);
  transport::HttpServerOptions so;
  so.address = o.bind;
  so.port = o.port;
  so.threads = o.io_threads;
  so.max_body = kServerMaxBody;
  so.protocol_error = [rest](int status, std::string_view why) { return protocol_error_reply(rest, status, why); };
  HttpAgent* self = a.get();
  so.on_idle = [self] { self->on_idle(); };
  auto server = transport::HttpServer::start(so, [self](std::shared_ptr<HttpExchange> ex) { self->on_request(ex); });
  if (!server) return core::fail(server.error());
  a->server_ = std::move(*server);
  a->port_ = a->server_->port();
  // The card names the port, known only now: requests before `ready_` get 503
  // (nobody knows the port yet, so none arrive in practice).
  a->url_ = "http://" + url_host(o.bind) + ":" + std::to_string(a->port_);
  PushOptions po;
  po.faults = o.agent.faults;
  po.log_fd = o.log_fd;
  a->push_ = std::make_unique<PushDelivery>(po);
  AgentConfig cfg = o.agent;
  bool v03 = o.serve_v03 && serves(o.interfaces, HttpBinding::kJsonRpc);
  cfg.interfaces = http_interfaces(a->url_, o.interfaces, o.tenant, false);
  for (const auto& i : o.extra_interfaces) cfg.interfaces.push_back(i);
  if (v03) cfg.interfaces.push_back(http_interfaces(a->url_, {}, "", true).back());
  cfg.push_sink = a->push_->sink();
  a->core_ = std::make_unique<AgentCore>(cfg);
  auto ctx = std::make_unique<HttpContext>();
  ctx->core = a->core_.get();
  ctx->faults = cfg.faults;
  ctx->tenant = o.tenant;
  ctx->auth_tokens = o.auth_tokens;
  ctx->jsonrpc = serves(o.interfaces, HttpBinding::kJsonRpc);
  ctx->rest = rest;
  ctx->serve_v03 = v03;
  ctx->max_stream = o.max_stream;
  // The public card declares the scheme the extended card requires (§13.3);
  // no securityRequirements: every other operation is open.
  Json card = agent_card(cfg);
  Json scheme = {{"httpAuthSecurityScheme",
                  {{"scheme", "Bearer"}, {"description", "GetExtendedAgentCard only; see --auth-token"}}}};
  card["securitySchemes"] = {{"bearer", scheme}};
  if (v03 && !cfg.faults.has(Fault::kV03NoCardFields)) add_v03_card_fields(card);
  ctx->card_body = jsonrpc::dump(card);
  ctx->card_etag = card_etag(ctx->card_body);
  a->ctx_ = std::move(ctx);
  a->pool_ = std::make_unique<WorkerPool>(o.workers, o.max_workers, o.max_queue);
  a->ctx_->offload = [self](const std::shared_ptr<HttpExchange>& ex, std::function<void()> job) {
    return self->pool_->submit([self, ex, job = std::move(job)] { self->guarded(ex, job); });
  };
  a->ready_ = true;
  return a;
}

// After a burst the heap holds freed memory in many thread arenas; glibc
// keeps it. Trimming when the last client left gives it back (a load test
// sees VmRSS return), and is skipped after light use, where it buys nothing.
void HttpAgent::on_idle() {
  if (served_.exchange(0) >= kTrimAfterRequests) release_free_memory();
}

void HttpAgent::on_request(std::shared_ptr<HttpExchange> ex) {
  ++served_;
  if (!ready_) {
    ex->reply(ServerReply{503, {{"Retry-After", "1"}}, "", true});
    return;
  }
  if (options_.decorate_exchange) ex = options_.decorate_exchange(std::move(ex), *core_);
  const ServerRequest& req = ex->request();
  if (req.path() == kCardPath) {
    handle_card(*ctx_, *ex);
    return;
  }
  // JSON-RPC is answered on this I/O thread (a hand-off would cost more than
  // most calls); only what may block goes to a worker (ctx_->offload).
  if (ctx_->jsonrpc && req.method == "POST" && req.path() == "/") {
    guarded(ex, [this, &ex] { handle_jsonrpc(*ctx_, ex); });
    return;
  }
  // REST too: its calls and the 404/405 answers do not block; a REST send
  // that may block, and a stream that waits, are offloaded by handle_rest.
  // (Before, every REST request took a worker: two thread hand-offs, half of
  // the agent's CPU in context switches; docs/performance.md.)
  guarded(ex, [this, &ex] { route(ex); });
}

void HttpAgent::route(const std::shared_ptr<HttpExchange>& ex) {
  if (ctx_->rest) {
    handle_rest(*ctx_, ex);
  } else if (ex->request().path() == "/") {
    ex->reply(ServerReply{405, {{"Allow", "POST"}, {"Content-Type", "text/plain"}},
                          "405 JSON-RPC requests are POSTed to this URL\n", false});
  } else {
    ex->reply(ServerReply{404, {{"Content-Type", "text/plain"}},
                          "404 not found: this agent serves JSON-RPC at / only\n", false});
  }
}

void HttpAgent::guarded(const std::shared_ptr<HttpExchange>& ex, const std::function<void()>& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    // A bug of ours costs one request, not the agent.
    if (options_.log_fd >= 0) {
      std::string line = "a2a-ref-agent: internal error: " + std::string(e.what()) + "\n";
      [[maybe_unused]] ssize_t n = ::write(options_.log_fd, line.data(), line.size());
    }
    ex->reply(ServerReply{500, {{"Content-Type", "text/plain"}}, "500 internal error\n", true});
    ex->abort();  // a stream already begun ends here (ignored after the reply above)
  }
}

void HttpAgent::stop() {
  if (stopped_) return;
  stopped_ = true;
  if (server_) server_->stop(kStopGrace);  // open streams see closed() and end
  server_.reset();  // no exchange callback outlives the core below
  if (core_) core_->shutdown();            // blocked sends and stream waits return
  if (pool_) pool_->stop();
  core_.reset();  // no more push events
  if (push_) push_->stop(kPushGrace);
}

}  // namespace a2a::agent
