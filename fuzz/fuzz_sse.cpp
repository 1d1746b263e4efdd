// Fuzzes the SSE parser of runner/wire/sse.hpp. Input: [limits][seed lo]
// [seed hi][max chunk] then the stream bytes. Invariants: whole, random
// chunks and one byte at a time give the same events, error, comment count
// and partial-event state; every event respects the limits and has no CR or
// LF where a line ends; encode_sse of an event parses back to the same event;
// feed_views() yields what feed() does.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "runner/wire/sse.hpp"

namespace {

using a2a::fuzz::Input;
using a2a::fuzz::Rng;
using a2a::fuzz::show;
using namespace a2a::wire;

struct Outcome {
  std::vector<SseEvent> events;
  SseError error = SseError::kNone;
  size_t comments = 0;
  bool partial = false;
};

// `views`: read with feed_views(), copying each view inside the sink (views
// live only while it runs). Chunks are fresh heap copies freed after each
// call, so ASan reports any view the parser kept into the caller's bytes.
Outcome parse(SseLimits limits, std::string_view bytes, Rng* rng, size_t max_chunk, bool views = false) {
  SseParser p(limits);
  Outcome o;
  auto sink = [&o](const SseEventView& e) {
    o.events.push_back(SseEvent{std::string(e.event), std::string(e.data), std::string(e.id), e.retry});
  };
  while (!bytes.empty()) {
    size_t n = rng ? std::min(bytes.size(), rng->chunk(max_chunk)) : bytes.size();
    const std::string chunk(bytes.substr(0, n));
    SseError e = views ? p.feed_views(chunk, sink) : p.feed(chunk, o.events);
    A2A_FUZZ_CHECK(e == p.error(), "feed() and error() disagree");
    if (e != SseError::kNone) {
      // Sticky: nothing more comes out, the error stays.
      std::vector<SseEvent> more;
      A2A_FUZZ_CHECK(p.feed("data: x\n\n", more) == e && more.empty(), "error not sticky");
      break;
    }
    bytes.remove_prefix(n);
  }
  o.error = p.error();
  o.comments = p.comment_count();
  o.partial = p.has_partial_event();
  return o;
}

std::string describe(const Outcome& o) {
  std::string s = std::to_string(o.events.size()) + " events, error '" + std::string(to_string(o.error)) +
                  "', comments " + std::to_string(o.comments) + ", partial " + (o.partial ? "yes" : "no");
  for (const SseEvent& e : o.events) {
    s += "\n  event '" + show(e.event, 40) + "' id '" + show(e.id, 40) + "' data '" + show(e.data, 60) + "'";
  }
  return s;
}

bool same_event(const SseEvent& a, const SseEvent& b) {
  return a.event == b.event && a.data == b.data && a.id == b.id && a.retry == b.retry;
}

void check_same(const Outcome& a, const Outcome& b, const char* how) {
  bool same = a.events.size() == b.events.size() && a.error == b.error;
  // After an error the parser stops where the bad line was noticed, so only
  // streams that parsed cleanly must agree on comments and the partial state.
  if (same && a.error == SseError::kNone) same = a.comments == b.comments && a.partial == b.partial;
  for (size_t i = 0; same && i < a.events.size(); ++i) same = same_event(a.events[i], b.events[i]);
  A2A_FUZZ_CHECK(same, std::string(how) + " differs from whole input:\nwhole: " + describe(a) + "\n" + how + ": " +
                           describe(b));
}

void check_event(const SseEvent& e, const SseLimits& limits) {
  A2A_FUZZ_CHECK(e.data.size() <= limits.max_event, "event data above max_event");
  A2A_FUZZ_CHECK(e.data.find('\r') == std::string::npos && e.event.find_first_of("\r\n") == std::string::npos &&
                     e.id.find_first_of("\r\n") == std::string::npos && e.id.find('\0') == std::string::npos,
                 "line terminator inside a field: " + show(e.data));
  A2A_FUZZ_CHECK(!e.retry || *e.retry >= 0, "negative retry");
  // The encoder writes what the parser read; a fresh parser reads it back.
  SseParser p;
  std::vector<SseEvent> back;
  A2A_FUZZ_CHECK(p.feed(encode_sse(e.data, e.event, e.id), back) == SseError::kNone, "re-encoded event: error");
  SseEvent want = e;
  want.retry.reset();
  A2A_FUZZ_CHECK(back.size() == 1 && same_event(back[0], want) && !p.has_partial_event(),
                 "re-encoded event reads back differently: data '" + show(e.data) + "'");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t l = in.byte();
  static constexpr size_t kCaps[] = {0, 1, 7, 64, 1024, 16u << 20, 16u << 20, 16u << 20};
  SseLimits limits;
  limits.max_line = kCaps[l & 7];
  limits.max_event = kCaps[(l >> 3) & 7];
  Rng rng(in.u16());
  const size_t max_chunk = 1 + in.byte();
  const std::string_view bytes = in.rest();

  Outcome whole = parse(limits, bytes, nullptr, 0);
  for (const SseEvent& e : whole.events) check_event(e, limits);
  check_same(whole, parse(limits, bytes, &rng, max_chunk), "chunked");
  check_same(whole, parse(limits, bytes, &rng, 1), "byte-at-a-time");
  check_same(whole, parse(limits, bytes, &rng, max_chunk, true), "feed_views() chunked");

  // Comments: one counted per line the encoder writes.
  SseParser p;
  std::vector<SseEvent> none;
  std::string comment = encode_sse_comment(bytes.substr(0, 64));
  A2A_FUZZ_CHECK(p.feed(comment, none) == SseError::kNone && none.empty(), "comment produced an event");
  size_t lines = 0;
  for (char ch : comment) lines += ch == '\n';
  A2A_FUZZ_CHECK(p.comment_count() == lines, "comment lines " + std::to_string(lines) + " counted " +
                                                std::to_string(p.comment_count()));
  return 0;
}
