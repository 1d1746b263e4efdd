#include "peers/a2a-ref-client/http_session.hpp"

#include <optional>

#include "peers/a2a-ref-client/fault.hpp"
#include "peers/a2a-ref-client/http_answer.hpp"
#include "runner/a2a/rest_routes.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/wire/sse.hpp"

namespace a2a::client {
namespace {

// A body that should have been SSE is kept up to this size for the error.
constexpr size_t kMaxNonSseBody = 1u << 20;

ClientError transport_failure(const core::Error& e, const std::string& what) {
  ClientErrorKind kind = e.kind == core::ErrorKind::kTimeout ? ClientErrorKind::kTimeout : ClientErrorKind::kTransport;
  return ClientError{kind, what + ": " + e.message, nullptr};
}

CallResult with_context(CallResult r, const std::string& what) {
  if (r.ok()) return r;
  r.error.message = r.error.message.empty() ? what : what + ": " + r.error.message;
  return r;
}

// Fault client-sse-comment-as-data: every line that starts with ':' becomes a
// data line (a chunk boundary inside a line start is not handled: faults only
// need to fail the scenarios that check them).
std::string comments_as_data(std::string_view bytes) {
  std::string out;
  for (size_t i = 0; i < bytes.size(); ++i) {
    bool line_start = i == 0 || bytes[i - 1] == '\n' || bytes[i - 1] == '\r';
    if (line_start && bytes[i] == ':') out += "data";
    out += bytes[i];
  }
  return out;
}

// Fault client-sse-lf-only: a CR that is not part of a CRLF no longer ends a line.
std::string lf_only(std::string_view bytes) {
  std::string out;
  for (size_t i = 0; i < bytes.size(); ++i)
    if (bytes[i] != '\r' || (i + 1 < bytes.size() && bytes[i + 1] == '\n')) out += bytes[i];
  return out;
}

// The bytes a faulty SSE reader would see; nullopt (no copy) without a fault.
std::optional<std::string> faulty(std::string_view bytes) {
  if (fault_on("client-sse-comment-as-data")) return comments_as_data(bytes);
  if (fault_on("client-sse-lf-only")) return lf_only(bytes);
  return std::nullopt;
}

// Feeds SSE bytes and turns each event's data into a StreamItem.
class SseItems {
 public:
  SseItems(bool jsonrpc, Json id) : jsonrpc_(jsonrpc), id_(std::move(id)) {}

  // false (and error() set) when the stream cannot go on.
  bool feed(std::string_view bytes, const StreamCallback& on_event) {
    std::vector<wire::SseEvent> events;
    auto bad = faulty(bytes);
    wire::SseError e = parser_.feed(bad ? std::string_view(*bad) : bytes, events);
    for (wire::SseEvent& ev : events) {
      std::string why;
      if (fault_on("client-sse-last-data-line")) ev.data = ev.data.substr(ev.data.rfind('\n') + 1);
      auto item = jsonrpc_ ? jsonrpc_stream_item(ev.data, id_, &why) : rest_stream_item(ev.data, &why);
      if (!item) {
        error_ = "event " + std::to_string(count_ + 1) + ": " + why;
        return false;
      }
      ++count_;
      if (item->type == StreamItem::Type::kStreamError && fault_on("client-ignore-stream-error")) continue;
      on_event(*item);
    }
    if (e != wire::SseError::kNone) {
      error_ = "SSE stream broken after " + std::to_string(count_) + " events: " + std::string(wire::to_string(e));
      return false;
    }
    return true;
  }
  const std::string& error() const { return error_; }
  bool partial() const { return parser_.has_partial_event(); }
  size_t count() const { return count_; }

 private:
  bool jsonrpc_;
  Json id_;
  wire::SseParser parser_;
  std::string error_;
  size_t count_ = 0;
};

}  // namespace

core::Expected<std::unique_ptr<HttpSession>> HttpSession::create(SelectedInterface chosen,
                                                                 HttpSessionOptions options) {
  auto url = transport::Url::parse(chosen.iface.url);
  if (!url) {
    return core::fail(core::ErrorKind::kInvalidArgument,
                      "interface URL '" + chosen.iface.url + "' is unusable: " + url.error().message);
  }
  return std::unique_ptr<HttpSession>(new HttpSession(std::move(chosen), std::move(*url), std::move(options)));
}

core::Expected<std::unique_ptr<HttpSession>> HttpSession::discover(const transport::Url& base,
                                                                   std::optional<HttpBinding> forced,
                                                                   core::Deadline deadline,
                                                                   HttpSessionOptions options) {
  auto card = fetch_card(base, deadline, options.insecure_tls, options.transcript);
  if (!card) return core::fail(card.error());
  auto chosen = select_interface(*card, forced);
  if (!chosen) return core::fail(chosen.error());
  size_t count = card_interfaces(*card)->size();
  std::string description = chosen->describe(count);
  auto session = create(std::move(*chosen), std::move(options));
  if (session) (*session)->description_ = std::move(description);
  return session;
}

HttpSession::HttpSession(SelectedInterface chosen, transport::Url url, HttpSessionOptions options)
    : chosen_(std::move(chosen)), url_(std::move(url)), options_(std::move(options)) {
  description_ = chosen_.describe(chosen_.index + 1);
  client_ = std::make_unique<transport::HttpClient>(url_, client_options());
}

transport::HttpClientOptions HttpSession::client_options() const {
  transport::HttpClientOptions o;
  o.insecure_tls = options_.insecure_tls;
  o.transcript = options_.transcript;
  o.user_agent = "a2a-ref-client";
  return o;
}

void HttpSession::diagnose(const std::string& text) const {
  if (options_.on_diagnostic) options_.on_diagnostic(text);
}

Json HttpSession::next_id() {
  if (options_.uuid_ids) return core::uuid_v7();
  return next_id_.fetch_add(1);
}

Json HttpSession::with_tenant(const Json& params) const {
  // An explicit tenant in the caller's params (--raw-params) is sent as given.
  if (!chosen_.iface.tenant || !params.is_object() || params.contains("tenant")) return params;
  Json out = params;
  out["tenant"] = *chosen_.iface.tenant;
  return out;
}

HttpSession::Prepared HttpSession::prepare(model::Operation op, const Json& params, bool streaming) {
  Prepared p;
  p.req.headers = {{"A2A-Version", std::string(kClientVersion)},
                   {"Accept", streaming ? "text/event-stream" : "application/json"}};
  if (fault_on("client-no-version-header")) p.req.headers.erase(p.req.headers.begin());
  if (!options_.bearer_token.empty()) p.req.headers.emplace_back("Authorization", "Bearer " + options_.bearer_token);
  std::string name(model::canonical_name(op));
  if (chosen_.binding == HttpBinding::kJsonRpc) {
    p.id = next_id();
    std::string method(model::method_name(op, model::MethodNaming::kV1));
    p.req.method = "POST";
    p.req.target = url_.target();
    p.req.headers.emplace_back("Content-Type", "application/json");
    p.req.body = jsonrpc::dump(jsonrpc::make_request(p.id, method, with_tenant(params)));
    p.what = "request id " + jsonrpc::dump(p.id) + " (" + method + ") to " + url_.str();
    return p;
  }
  model::RestCall rc = model::rest_call(op, with_tenant(params));
  p.req.method = rc.method;
  p.req.target = url_.join(rc.target()).target();
  if (rc.body) {
    p.req.headers.emplace_back("Content-Type", "application/json");
    p.req.body = jsonrpc::dump(*rc.body);
  }
  p.what = rc.method + " " + url_.origin() + p.req.target + " (" + name + ")";
  return p;
}

CallResult HttpSession::call(model::Operation op, const Json& params, core::Deadline deadline) {
  std::string name(model::canonical_name(op));
  if (model::is_streaming(op)) {
    return CallResult::failure({ClientErrorKind::kUsage, name + " is a streaming operation: use stream()", nullptr});
  }
  Prepared p = prepare(op, params, false);
  auto resp = client_->request(p.req, deadline);
  if (!resp) return CallResult::failure(transport_failure(resp.error(), p.what));
  if (resp->truncated) {
    return CallResult::failure({ClientErrorKind::kTransport, p.what + ": response body above the size limit", nullptr});
  }
  if (chosen_.binding == HttpBinding::kJsonRpc) {
    return with_context(jsonrpc_answer(resp->status, resp->reason, resp->body, p.id), p.what);
  }
  return with_context(rest_answer(resp->status, resp->reason, resp->body), p.what);
}

CallResult HttpSession::stream(model::Operation op, const Json& params, const StreamCallback& on_event,
                               core::Deadline deadline) {
  std::string name(model::canonical_name(op));
  if (!model::is_streaming(op)) {
    return CallResult::failure({ClientErrorKind::kUsage, name + " is not a streaming operation: use call()", nullptr});
  }
  Prepared p = prepare(op, params, true);
  int status = 0;
  CallResult r = run_stream(p, on_event, deadline, status);
  // §10 C1: servers that follow the proto annotation only route GET.
  if (status == 405 && chosen_.binding == HttpBinding::kRest && op == model::Operation::kSubscribeToTask) {
    diagnose(p.what + ": HTTP 405, retrying once with GET (a2a-protocol.md §10 C1)");
    p.req.method = "GET";
    p.req.body.clear();
    std::erase_if(p.req.headers, [](const auto& h) { return h.first == "Content-Type"; });
    p.what = "GET" + p.what.substr(p.what.find(' '));
    r = run_stream(p, on_event, deadline, status);
  }
  return r;
}

CallResult HttpSession::run_stream(const Prepared& p, const StreamCallback& on_event, core::Deadline deadline,
                                   int& status) {
  const bool jsonrpc = chosen_.binding == HttpBinding::kJsonRpc;
  transport::HttpClient client(url_, client_options());
  transport::HttpResponse head;
  bool sse = false;
  std::string body;  // a non-SSE answer: an error before the first event
  SseItems items(jsonrpc, p.id);
  auto on_head = [&](const transport::HttpResponse& h) {
    head = h;
    sse = h.status >= 200 && h.status <= 299 && h.content_type() == "text/event-stream";
    return true;
  };
  auto on_data = [&](std::string_view bytes) {
    if (sse) return items.feed(bytes, on_event);
    body.append(bytes.substr(0, kMaxNonSseBody - std::min(body.size(), kMaxNonSseBody)));
    return true;
  };
  auto r = client.stream(p.req, deadline, on_head, on_data);
  status = head.status;
  if (!items.error().empty()) {
    return CallResult::failure({ClientErrorKind::kTransport, p.what + ": " + items.error(), nullptr});
  }
  if (!r && sse && fault_on("client-eof-mid-stream-ok")) return CallResult::success(nullptr);
  if (!r) {
    std::string after = " after " + std::to_string(items.count()) + " events";
    return CallResult::failure(transport_failure(r.error(), p.what + after));
  }
  if (sse && items.partial() && fault_on("client-sse-dispatch-at-eof")) items.feed("\n\n", on_event);
  if (sse) {
    if (items.partial()) diagnose(p.what + ": the stream ended in the middle of an SSE event (discarded)");
    return CallResult::success(nullptr);
  }
  CallResult answer = jsonrpc ? jsonrpc_answer(head.status, head.reason, body, p.id)
                              : rest_answer(head.status, head.reason, body);
  if (answer.ok()) {
    return CallResult::failure({ClientErrorKind::kTransport,
                                p.what + ": expected text/event-stream, got HTTP " + std::to_string(head.status) +
                                    " '" + head.content_type() + "': " + core::escape_bytes(body, kBodyExcerpt),
                                nullptr});
  }
  return with_context(std::move(answer), p.what);
}

}  // namespace a2a::client
