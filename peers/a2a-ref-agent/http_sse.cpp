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
// Bytes of ready events gathered into one write.
constexpr size_t kBatchBytes = 64u << 10;

// The next item; an event's SSE bytes are appended to `batch` as it is read.
// Without faults the event is written as `data: <json>` and a blank line
// directly: what wire::encode_sse writes for data without CR or LF, which a
// compact JSON dump never holds (JSON escapes every control character), so
// the copy and the line scan are skipped.
StreamItem next_into(const HttpContext& ctx, const SseFormat& format, EventStream& stream, core::Deadline until,
                     std::string& batch) {
  if (ctx.faults.any() || !format.event_text) {
    StreamItem item = stream.next(until);
    if (item.kind == StreamItem::Kind::kEvent) batch += sse_event_text(format.event(item.event), ctx.faults);
    return item;
  }
  return stream.next_text(until, [&](std::string_view event) {
    batch += "data: ";
    batch += format.event_text(event);
    batch += "\n\n";
  });
}

// Appends what `item` adds beyond its event bytes; false when the stream ends with it.
bool add_item(const HttpContext& ctx, const SseFormat& format, const StreamItem& item, std::string& batch) {
  if (item.kind == StreamItem::Kind::kEnd) return false;
  if (item.kind == StreamItem::Kind::kEvent) return !ctx.faults.has(Fault::kHttpSseCloseEarly);
  batch += sse_event(format.error(item.error), ctx.faults, "error");
  return false;
}

}  // namespace

std::string sse_event(const Json& data, const Faults& faults, std::string_view event) {
  return sse_event_text(jsonrpc::dump(data), faults, event);
}

std::string sse_event_text(std::string_view data, const Faults& faults, std::string_view event) {
  std::string ev = wire::encode_sse(data, event);
  // http-sse-no-blank-line: without the blank line the next event's data
  // lines join this one.
  if (faults.has(Fault::kHttpSseNoBlankLine) && ev.ends_with("\n\n")) ev.pop_back();
  return ev;
}

namespace {

// Sends the stream's items until it ends (true) or, when `wait` is false,
// until none is ready (false). With `wait` it waits for items in slices,
// ending when the client left or the stream's time limit passed.
bool pump(const HttpContext& ctx, HttpExchange& ex, EventStream& stream, const SseFormat& format,
          core::Deadline limit, bool wait) {
  for (;;) {
    auto until = wait ? core::Deadline::after(kPumpSlice).min(limit) : core::Deadline::after(core::Millis(0));
    std::string batch;
    StreamItem item = next_into(ctx, format, stream, until, batch);
    if (item.kind == StreamItem::Kind::kTimeout) {
      if (ex.closed()) return true;
      if (!limit.expired()) {
        if (!wait) return false;
        continue;
      }
      ex.write(sse_event(format.error(internal_error("Stream time limit reached; subscribe again")), ctx.faults,
                         "error"));
      return true;
    }
    // Events already logged go out in the same write: one wake-up of the I/O
    // thread and one send per burst rather than per event.
    bool open = true;
    while ((open = add_item(ctx, format, item, batch)) && batch.size() < kBatchBytes) {
      item = next_into(ctx, format, stream, core::Deadline::after(core::Millis(0)), batch);
      if (item.kind == StreamItem::Kind::kTimeout) break;
    }
    if (!batch.empty() && !ex.write(std::move(batch))) return true;
    if (!open) return true;
  }
}

void finish(EventStream& stream, HttpExchange& ex) {
  stream.cancel();
  ex.end();
}

}  // namespace

void pump_stream(const HttpContext& ctx, const std::shared_ptr<HttpExchange>& ex,
                 std::unique_ptr<EventStream> owned, const SseFormat& format) {
  std::shared_ptr<EventStream> stream = std::move(owned);
  // The client leaving ends the wait at once rather than at the next slice.
  ex->on_close([stream] { stream->cancel(); });
  std::string content_type = ctx.faults.has(Fault::kHttpSseContentType) ? "application/json" : format.content_type;
  HeaderList headers = {{"Content-Type", content_type},
                        {"Cache-Control", "no-cache"},
                        {"A2A-Version", format.version}};
  if (!ex->start_stream(200, std::move(headers))) {
    stream->cancel();
    return;
  }
  auto limit = core::Deadline::after(ctx.max_stream);
  if (pump(ctx, *ex, *stream, format, limit, false)) return finish(*stream, *ex);
  // The stream goes on: a worker waits for the rest (this thread must not).
  auto rest = [&ctx, ex, stream, format, limit] {
    pump(ctx, *ex, *stream, format, limit, true);
    finish(*stream, *ex);
  };
  if (ctx.offload(ex, std::move(rest))) return;
  ex->write(sse_event(format.error(internal_error("Server overloaded: no worker to follow this stream")), ctx.faults,
                      "error"));
  finish(*stream, *ex);
}

}  // namespace a2a::agent
