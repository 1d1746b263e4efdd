#include "peers/a2a-ref-agent/http_variation.hpp"

#include <mutex>
#include <vector>

#include "peers/a2a-ref-agent/http_binding.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/wire/sse.hpp"

namespace a2a::agent {
namespace {

enum class Endpoint { kCard, kJsonRpc, kRest };

Endpoint endpoint_of(const ServerRequest& req) {
  if (req.path() == kCardPath) return Endpoint::kCard;
  if (req.method == "POST" && req.path() == "/") return Endpoint::kJsonRpc;
  return Endpoint::kRest;
}

// The Content-Type the variation sends instead of `ct` on `endpoint`.
//  JSON-RPC and the card: application/json; charset=utf-8 (RFC 8259 §11: the
//  parameter has no effect on compliant recipients). REST:
//  application/a2a+json (spec §11.1: it SHOULD be used for responses).
std::string varied_content_type(Endpoint endpoint, const std::string& ct) {
  std::string media = media_type(ct);
  if (media == "application/json") {
    return endpoint == Endpoint::kRest ? "application/a2a+json" : "application/json; charset=utf-8";
  }
  if (media == "text/event-stream") return "text/event-stream; charset=utf-8";
  return ct;
}

bool is_json_media(std::string_view media) {
  return media == "application/json" || media == "application/a2a+json" || media == "application/problem+json";
}

// A JSON body pretty-printed: whitespace between tokens is insignificant
// (RFC 8259 §2), so a client must not depend on the compact form.
void pretty_print(const HeaderList& headers, std::string& body) {
  auto ct = transport::find_header(headers, "Content-Type");
  if (!ct || !is_json_media(media_type(*ct))) return;
  Json j = Json::parse(body, nullptr, false);
  if (!j.is_discarded()) body = j.dump(2) + "\n";
}

void vary_headers(Endpoint endpoint, HeaderList& headers) {
  for (auto& [name, value] : headers) {
    if (media_type(name) == "content-type") value = varied_content_type(endpoint, value);
  }
}

// Re-writes SSE events: `retry:` on the first, `id:` on each, a
// `: keep-alive` comment before every other one, CRLF line ends on even
// events and LF on odd ones, and each JSON payload split over two `data:`
// lines right after its opening brace (the lines join with "\n", which JSON
// allows between tokens).
class SseRewriter {
 public:
  std::string rewrite(std::string_view bytes) {
    std::vector<wire::SseEvent> events;
    parser_.feed(bytes, events);
    std::string out;
    for (const auto& ev : events) {
      note(ev);
      out += encode(ev);
    }
    return out;
  }

  // One more event of the stream's own shape.
  std::string add(const Json& data) {
    wire::SseEvent ev;
    ev.data = jsonrpc::dump(data);
    return encode(ev);
  }

  // The task the stream follows ("" before its first Task), and whether the
  // last event was a status update (REST data: a bare StreamResponse).
  const std::string& task_id() const { return task_id_; }
  bool ended_on_status() const { return last_status_; }

 private:
  void note(const wire::SseEvent& ev) {
    Json j = Json::parse(ev.data, nullptr, false);
    last_status_ = ev.event.empty() && j.is_object() && j.contains("statusUpdate");
    if (task_id_.empty() && j.is_object() && j.contains("task") && j["task"].is_object())
      task_id_ = j["task"].value("id", "");
  }

  std::string encode(const wire::SseEvent& ev) {
    size_t n = count_++;
    std::string_view eol = n % 2 == 0 ? "\r\n" : "\n";
    std::string out;
    if (n % 2 == 1) out += ": keep-alive" + std::string(eol);
    if (n == 0) out += "retry: 3000" + std::string(eol);
    out += "id: " + std::to_string(n + 1) + std::string(eol);
    if (!ev.event.empty()) out += "event: " + ev.event + std::string(eol);
    std::string_view data = ev.data;
    if (data.size() > 1 && data.front() == '{' && data.find('\n') == std::string_view::npos) {
      out += "data: {" + std::string(eol);
      out += "data: " + std::string(data.substr(1)) + std::string(eol);
    } else {
      size_t start = 0;
      for (;;) {
        size_t nl = data.find('\n', start);
        out += "data: " + std::string(data.substr(start, nl - start)) + std::string(eol);
        if (nl == std::string_view::npos) break;
        start = nl + 1;
      }
    }
    out += eol;
    return out;
  }

  wire::SseParser parser_;
  size_t count_ = 0;
  std::string task_id_;
  bool last_status_ = false;
};

class VariedExchange : public HttpExchange {
 public:
  VariedExchange(std::shared_ptr<HttpExchange> inner, AgentCore& core)
      : inner_(std::move(inner)), core_(core), endpoint_(endpoint_of(inner_->request())) {}

  const ServerRequest& request() const override { return inner_->request(); }

  // A body goes out chunked (RFC 9112 §7.1) in two chunks rather than with
  // Content-Length, except where HTTP forbids a body or a chunked one (HEAD,
  // 204, 304) and for replies that close the connection.
  void reply(ServerReply r) override {
    pretty_print(r.headers, r.body);
    vary_headers(endpoint_, r.headers);
    bool chunkable = !r.body.empty() && !r.close && r.status != 204 && r.status != 304 && r.status >= 200 &&
                     request().method != "HEAD";
    if (!chunkable) return inner_->reply(std::move(r));
    if (!inner_->start_stream(r.status, std::move(r.headers))) return;
    size_t half = r.body.size() / 2;
    if (half > 0) inner_->write(r.body.substr(0, half));
    inner_->write(r.body.substr(half));
    inner_->end();
  }

  bool start_stream(int status, HeaderList headers) override {
    for (const auto& [name, value] : headers) {
      if (media_type(name) == "content-type" && media_type(value) == "text/event-stream") {
        std::lock_guard<std::mutex> lk(mu_);
        sse_.emplace();
      }
    }
    vary_headers(endpoint_, headers);
    bool ok = inner_->start_stream(status, std::move(headers));
    if (ok && sse_) ok = inner_->write(": legal-variation stream (comments are ignored)\n\n");
    return ok;
  }

  bool write(std::string bytes) override {
    std::lock_guard<std::mutex> lk(mu_);
    if (!sse_) return inner_->write(std::move(bytes));
    std::string varied = sse_->rewrite(bytes);
    return varied.empty() ? !inner_->closed() : inner_->write(std::move(varied));
  }

  // §11.7 (REST): "Implementations SHOULD avoid re-ordering events and MAY
  // optionally resend a final Task snapshot before closing." Done once a
  // REST stream ends after a status update (not after an error event).
  void end() override {
    std::unique_lock<std::mutex> lk(mu_);
    if (sse_ && endpoint_ == Endpoint::kRest && sse_->ended_on_status() && !sse_->task_id().empty()) {
      std::string id = sse_->task_id();
      lk.unlock();
      CallResult task = core_.call(model::Operation::kGetTask, Json{{"id", id}});
      lk.lock();
      if (task.ok() && !inner_->closed()) inner_->write(sse_->add(Json{{"task", task.value()}}));
    }
    lk.unlock();
    inner_->end();
  }
  void abort() override { inner_->abort(); }
  bool closed() const override { return inner_->closed(); }
  void on_close(std::function<void()> fn) override { inner_->on_close(std::move(fn)); }

 private:
  std::shared_ptr<HttpExchange> inner_;
  AgentCore& core_;
  Endpoint endpoint_;
  std::mutex mu_;  // writes come from the I/O thread and a worker, one after the other
  std::optional<SseRewriter> sse_;
};

}  // namespace

std::shared_ptr<HttpExchange> legal_variation_exchange(std::shared_ptr<HttpExchange> inner, AgentCore& core) {
  return std::make_shared<VariedExchange>(std::move(inner), core);
}

}  // namespace a2a::agent
