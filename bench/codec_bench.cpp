// Content-Length decode throughput against memcpy of the same bytes, in the
// same run (so the machine's speed cancels out). Standalone: prints numbers,
// asserts nothing. Usage: codec_bench [total_MiB [body_bytes]]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "runner/wire/codec.hpp"

namespace {

constexpr size_t kChunk = 64 * 1024;  // a typical pipe read
constexpr int kRuns = 5;

// A stream event as the reference agent writes it, padded with artifact text.
std::string make_body(size_t size, size_t seq) {
  std::string body = "{\"jsonrpc\":\"2.0\",\"method\":\"event/streamResponse\",\"params\":{\"artifactUpdate\":"
                     "{\"taskId\":\"task-" + std::to_string(seq) + "\",\"contextId\":\"ctx-1\",\"artifact\":"
                     "{\"artifactId\":\"a-1\",\"parts\":[{\"text\":\"";
  const std::string tail = "\"}]}}}}";
  const std::string words = "lorem ipsum dolor sit amet \\u00e9t\xc3\xa9 \xe2\x82\xac ";
  while (body.size() + tail.size() + words.size() <= size) body += words;
  body.append(size - std::min(size, body.size() + tail.size()), '.');
  return body + tail;
}

std::string make_stream(size_t body_size, size_t total, size_t& frames) {
  std::string stream;
  stream.reserve(total + body_size + 256);
  frames = 0;
  while (stream.size() < total) stream += a2a::wire::encode_content_length(make_body(body_size, frames++));
  return stream;
}

template <class F>
double best_seconds(F&& run) {
  double best = 1e300;
  for (int i = 0; i < kRuns; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    run();
    std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    best = std::min(best, dt.count());
  }
  return best;
}

void bench(size_t body_size, size_t total) {
  size_t frames = 0;
  const std::string stream = make_stream(body_size, total, frames);
  const std::string_view all(stream);

  size_t decoded = 0, body_bytes = 0;
  double decode_s = best_seconds([&] {
    auto d = a2a::wire::make_content_length_decoder(a2a::wire::ContentLengthRules::lenient_strict());
    decoded = body_bytes = 0;
    for (size_t i = 0; i < all.size(); i += kChunk) {
      d->feed(all.substr(i, kChunk));
      for (auto r = d->next(); r.status == a2a::wire::DecodeResult::Status::kFrame; r = d->next()) {
        ++decoded;
        body_bytes += r.frame.body.size();
      }
    }
  });
  if (decoded != frames) {
    std::fprintf(stderr, "codec_bench: decoded %zu of %zu frames\n", decoded, frames);
    std::exit(1);
  }

  // The baseline copies each chunk into one reused chunk-sized buffer, as a
  // read() loop would: a 64 MiB destination would miss the caches that the
  // decoder's recycled frame allocations hit, and flatter the decoder.
  std::vector<char> dst(kChunk, 1);
  volatile unsigned sink = 0;
  double memcpy_s = best_seconds([&] {
    for (size_t i = 0; i < all.size(); i += kChunk) {
      size_t n = std::min(kChunk, all.size() - i);
      std::memcpy(dst.data(), all.data() + i, n);
      sink = sink + static_cast<unsigned char>(dst[n - 1]);
    }
  });

  double mb = static_cast<double>(stream.size()) / 1e6;
  double decode_mbs = mb / decode_s, memcpy_mbs = mb / memcpy_s;
  std::printf("codec: content-length decode %.0f MB/s, memcpy %.0f MB/s, ratio %.2f"
              " (body %zu B, %zu frames, %.1f MB)\n",
              decode_mbs, memcpy_mbs, decode_mbs / memcpy_mbs, body_size, frames, mb);
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
