// SSE parse throughput against memcpy of the same bytes, in the same run (so
// the machine's speed cancels out), for both parser entry points: feed()
// (owned SseEvent strings per event) and feed_views() (views, nothing
// allocated per event). The stream is what a JSON-RPC SSE server writes: one
// `data:` line of JSON per event, a blank line, and now and then a keep-alive
// comment. Standalone: prints numbers, asserts nothing.
// Usage: sse_bench [total_MiB [data_bytes]]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "bench/throughput.hpp"
#include "runner/wire/sse.hpp"

namespace {

constexpr size_t kChunk = 64 * 1024;  // a typical socket read
constexpr int kRuns = 11;
constexpr size_t kKeepAliveEvery = 64;  // events between ": keep-alive" comments

// A JSON-RPC stream event as the reference agent writes it, padded with artifact text.
std::string make_data(size_t size, size_t seq) {
  std::string data = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"artifactUpdate\":{\"taskId\":\"task-" +
                     std::to_string(seq) + "\",\"contextId\":\"ctx-1\",\"artifact\":{\"artifactId\":\"a-1\","
                     "\"parts\":[{\"text\":\"";
  const std::string tail = "\"}]}}}}";
  return a2a::bench::padded_event(std::move(data), size, tail);
}

std::string make_stream(size_t data_size, size_t total, size_t& events) {
  std::string stream;
  stream.reserve(total + data_size + 256);
  events = 0;
  while (stream.size() < total) {
    stream += a2a::wire::encode_sse(make_data(data_size, events++));
    if (events % kKeepAliveEvery == 0) stream += a2a::wire::encode_sse_comment("keep-alive");
  }
  return stream;
}

void check(size_t parsed, size_t events, const char* path) {
  if (parsed == events) return;
  std::fprintf(stderr, "sse_bench: %s parsed %zu of %zu events\n", path, parsed, events);
  std::exit(1);
}

void bench(size_t data_size, size_t total) {
  size_t events = 0;
  const std::string stream = make_stream(data_size, total, events);
  const std::string_view all(stream);

  size_t view_events = 0, owned_events = 0, data_bytes = 0;
  auto view = [&] {
    a2a::wire::SseParser p;
    view_events = 0;
    auto sink = [&](const a2a::wire::SseEventView& e) {
      ++view_events;
      data_bytes += e.data.size();
    };
    for (size_t i = 0; i < all.size(); i += kChunk) (void)p.feed_views(all.substr(i, kChunk), sink);
  };
  auto owned = [&] {
    a2a::wire::SseParser p;
    std::vector<a2a::wire::SseEvent> out;
    owned_events = 0;
    for (size_t i = 0; i < all.size(); i += kChunk) {
      (void)p.feed(all.substr(i, kChunk), out);
      for (const auto& e : out) data_bytes += e.data.size();
      owned_events += out.size();
      out.clear();
    }
  };
  a2a::bench::ChunkCopy copier(kChunk);
  auto copy = [&] { copier(all); };
  a2a::bench::Best view_t, owned_t, copy_t;
  for (int r = 0; r < kRuns; ++r) {
    copy_t.time(copy);
    view_t.time(view);
    owned_t.time(owned);
  }
  check(view_events, events, "feed_views");
  check(owned_events, events, "feed");

  double mb = static_cast<double>(stream.size()) / 1e6;
  double view_mbs = mb / view_t.seconds, owned_mbs = mb / owned_t.seconds, memcpy_mbs = mb / copy_t.seconds;
  std::printf("sse: feed_views %.0f MB/s (ratio %.2f), feed %.0f MB/s (ratio %.2f), memcpy %.0f MB/s"
              "  (data %zu B, %zu events, %.1f MB)\n",
              view_mbs, view_mbs / memcpy_mbs, owned_mbs, owned_mbs / memcpy_mbs, memcpy_mbs, data_size, events, mb);
}

}  // namespace

int main(int argc, char** argv) {
  size_t total = (argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 64) * 1024 * 1024;
  size_t only = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 0;
  for (size_t data : {size_t{200}, size_t{64 * 1024}}) {
    if (only == 0 || only == data) bench(data, total);
  }
  return 0;
}
