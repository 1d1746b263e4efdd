// Content-Length decode throughput against memcpy of the same bytes, in the
// same run (so the machine's speed cancels out), for both read paths:
// feed()/next() (owned frames: a body string and header strings per frame)
// and take() (views, nothing allocated per frame). Standalone: prints
// numbers, asserts nothing. Usage: codec_bench [total_MiB [body_bytes]]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "bench/throughput.hpp"
#include "runner/wire/codec.hpp"

namespace {

constexpr size_t kChunk = 64 * 1024;  // a typical pipe read
constexpr int kRuns = 11;

// A stream event as the reference agent writes it, padded with artifact text.
std::string make_body(size_t size, size_t seq) {
  std::string body = "{\"jsonrpc\":\"2.0\",\"method\":\"event/streamResponse\",\"params\":{\"artifactUpdate\":"
                     "{\"taskId\":\"task-" + std::to_string(seq) + "\",\"contextId\":\"ctx-1\",\"artifact\":"
                     "{\"artifactId\":\"a-1\",\"parts\":[{\"text\":\"";
  const std::string tail = "\"}]}}}}";
  return a2a::bench::padded_event(std::move(body), size, tail);
}

std::string make_stream(size_t body_size, size_t total, size_t& frames) {
  std::string stream;
  stream.reserve(total + body_size + 256);
  frames = 0;
  while (stream.size() < total) stream += a2a::wire::encode_content_length(make_body(body_size, frames++));
  return stream;
}

void check(size_t decoded, size_t frames, const char* path) {
  if (decoded == frames) return;
  std::fprintf(stderr, "codec_bench: %s decoded %zu of %zu frames\n", path, decoded, frames);
  std::exit(1);
}

void bench(size_t body_size, size_t total) {
  size_t frames = 0;
  const std::string stream = make_stream(body_size, total, frames);
  const std::string_view all(stream);
  using Status = a2a::wire::DecodeResult::Status;

  size_t owned_frames = 0, view_frames = 0, body_bytes = 0;
  auto owned = [&] {
    auto d = a2a::wire::make_content_length_decoder(a2a::wire::ContentLengthRules::lenient_strict());
    owned_frames = 0;
    for (size_t i = 0; i < all.size(); i += kChunk) {
      d->feed(all.substr(i, kChunk));
      for (auto r = d->next(); r.status == Status::kFrame; r = d->next()) {
        ++owned_frames;
        body_bytes += r.frame.body.size();
      }
    }
  };
  auto view = [&] {
    auto d = a2a::wire::make_content_length_decoder(a2a::wire::ContentLengthRules::lenient_strict());
    view_frames = 0;
    for (size_t i = 0; i < all.size(); i += kChunk) {
      std::string_view in = all.substr(i, kChunk);
      for (auto v = d->take(in); v.status == Status::kFrame; v = d->take(in)) {
        ++view_frames;
        body_bytes += v.body.size();
      }
    }
  };
  a2a::bench::ChunkCopy copier(kChunk);
  auto copy = [&] { copier(all); };
  a2a::bench::Best owned_t, view_t, copy_t;
  for (int r = 0; r < kRuns; ++r) {
    copy_t.time(copy);
    view_t.time(view);
    owned_t.time(owned);
  }
  check(owned_frames, frames, "feed/next");
  check(view_frames, frames, "take");

  double mb = static_cast<double>(stream.size()) / 1e6;
  double view_mbs = mb / view_t.seconds, owned_mbs = mb / owned_t.seconds, memcpy_mbs = mb / copy_t.seconds;
  std::printf("codec: content-length take() %.0f MB/s (ratio %.2f), feed/next %.0f MB/s (ratio %.2f),"
              " memcpy %.0f MB/s  (body %zu B, %zu frames, %.1f MB)\n",
              view_mbs, view_mbs / memcpy_mbs, owned_mbs, owned_mbs / memcpy_mbs, memcpy_mbs, body_size, frames, mb);
}

}  // namespace

int main(int argc, char** argv) {
  size_t total = (argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 64) * 1024 * 1024;
  size_t only = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 0;
  for (size_t body : {size_t{200}, size_t{64 * 1024}}) {
    if (only == 0 || only == body) bench(body, total);
  }
  return 0;
}
