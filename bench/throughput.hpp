// What codec_bench and sse_bench share: the CPU-time stopwatch, the memcpy
// baseline they are measured against, and the padded event payload.
#pragma once

#include <algorithm>
#include <cstring>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

namespace a2a::bench {

// The best of several timings in this thread's CPU time. The work is all in
// memory, so on a quiet machine that is the wall time, and on a shared one it
// leaves out the time other processes held the core. Callers let the
// contenders take turns run by run, so a burst of load hits them alike.
inline double thread_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Best {
  double seconds = 1e300;
  template <class F>
  void time(F&& run) {
    double t0 = thread_seconds();
    run();
    seconds = std::min(seconds, thread_seconds() - t0);
  }
};

// The baseline copies each chunk into one reused chunk-sized buffer, as a
// read() loop would: a destination as large as the stream would miss the
// caches that a parser's recycled buffers hit, and flatter the parser.
class ChunkCopy {
 public:
  explicit ChunkCopy(size_t chunk) : chunk_(chunk), dst_(chunk, 1) {}
  void operator()(std::string_view all) {
    for (size_t i = 0; i < all.size(); i += chunk_) {
      size_t n = std::min(chunk_, all.size() - i);
      std::memcpy(dst_.data(), all.data() + i, n);
      sink_ = sink_ + static_cast<unsigned char>(dst_[n - 1]);
    }
  }

 private:
  size_t chunk_;
  std::vector<char> dst_;
  volatile unsigned sink_ = 0;
};

// `head` + artifact text padded to `size` bytes + `tail`: a stream event as
// the reference agent writes it, with escapes and multi-byte UTF-8 inside.
inline std::string padded_event(std::string head, size_t size, const std::string& tail) {
  const std::string words = "lorem ipsum dolor sit amet \\u00e9t\xc3\xa9 \xe2\x82\xac ";
  while (head.size() + tail.size() + words.size() <= size) head += words;
  head.append(size - std::min(size, head.size() + tail.size()), '.');
  return head + tail;
}

}  // namespace a2a::bench
