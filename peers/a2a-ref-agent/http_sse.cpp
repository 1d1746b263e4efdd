// Streams over SSE for both HTTP bindings (a2a-protocol.md §4.5): 200
// text/event-stream, one event per StreamResponse; the body ends when the
// EventStream does. A mid-stream error is an `event: error` whose data is the
// binding's error shape, and it ends the stream: that is what the JS and
// Python SDK clients expect (they stop at it, and the JS REST client only
// recognises it by the label); docs/http-bindings.md.
#include "peers/a2a-ref-agent/http_binding.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/wire/sse.hpp"

namespace a2a::agent {
namespace {

// How long one wait for the next item lasts before the pump re-checks the
// connection: a client that left is noticed within this time even if its
// close notification were lost.
constexpr core::Millis kPumpSlice{1000};

}  // namespace

std::string sse_event(const Json& data, const Faults& faults, std::string_view event) {
  std::string ev = wire::encode_sse(jsonrpc::dump(data), event);
  // http-sse-no-blank-line: without the blank line the next event's data
  // lines join this one.
  if (faults.has(Fault::kHttpSseNoBlankLine) && ev.ends_with("\n\n")) ev.pop_back();
  return ev;
}

void pump_stream(const HttpContext& ctx, const std::shared_ptr<HttpExchange>& ex,
                 std::unique_ptr<EventStream> owned, const SseFormat& format) {
  std::shared_ptr<EventStream> stream = std::move(owned);
  // The client leaving ends the wait at once rather than at the next slice.
  ex->on_close([stream] { stream->cancel(); });
  std::string content_type = ctx.faults.has(Fault::kHttpSseContentType) ? "application/json" : format.content_type;
  HeaderList headers = {{"Content-Type", content_type},
                        {"Cache-Control", "no-cache"},
                        {"A2A-Version", std::string(kServedVersion)}};
  if (!ex->start_stream(200, std::move(headers))) {
    stream->cancel();
    return;
  }
  auto limit = core::Deadline::after(ctx.max_stream);
  for (;;) {
    StreamItem item = stream->next(core::Deadline::after(kPumpSlice).min(limit));
    if (item.kind == StreamItem::Kind::kEnd) break;
    if (item.kind == StreamItem::Kind::kTimeout) {
      if (ex->closed()) break;
      if (!limit.expired()) continue;
      ex->write(sse_event(format.error(internal_error("Stream time limit reached; subscribe again")), ctx.faults,
                          "error"));
      break;
    }
    bool is_event = item.kind == StreamItem::Kind::kEvent;
    Json data = is_event ? format.event(item.event) : format.error(item.error);
    if (!ex->write(sse_event(data, ctx.faults, is_event ? "" : "error"))) break;
    if (!is_event) break;
    if (ctx.faults.has(Fault::kHttpSseCloseEarly)) break;
  }
  stream->cancel();
  ex->end();
}

}  // namespace a2a::agent
