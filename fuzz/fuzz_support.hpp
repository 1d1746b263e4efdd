// Shared by the libFuzzer targets (docs/fuzzing.md): a cursor over the input
// and an invariant check that reports and aborts, so libFuzzer saves the input
// as a crash. A target checks properties (chunking does not matter, ids are
// echoed, errors are located), not only that nothing crashed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace a2a::fuzz {

[[noreturn]] inline void violated(const char* file, int line, const char* what, const std::string& detail) {
  std::fprintf(stderr, "\n%s:%d: invariant violated: %s\n%s\n", file, line, what, detail.c_str());
  std::abort();
}

#define A2A_FUZZ_CHECK(cond, detail)                                      \
  do {                                                                    \
    if (!(cond)) ::a2a::fuzz::violated(__FILE__, __LINE__, #cond, detail); \
  } while (0)

// Reads the fuzzer's bytes front to back; past the end it yields zeros, so a
// short input is still a valid (if dull) configuration.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : rest_(reinterpret_cast<const char*>(data), size) {}
  uint8_t byte() {
    if (rest_.empty()) return 0;
    auto b = static_cast<uint8_t>(rest_.front());
    rest_.remove_prefix(1);
    return b;
  }
  uint16_t u16() { return static_cast<uint16_t>(byte() | (byte() << 8)); }
  std::string_view rest() const { return rest_; }

 private:
  std::string_view rest_;
};

// splitmix64: chunk boundaries derived from input bytes, so a crash reproduces.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // In [1, max] (max >= 1).
  size_t chunk(size_t max) { return 1 + static_cast<size_t>(next() % max); }

 private:
  uint64_t s_;
};

// Printable form of bytes for invariant messages.
inline std::string show(std::string_view s, size_t max = 200) {
  std::string out;
  for (size_t i = 0; i < s.size() && i < max; ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  if (s.size() > max) out += "...(" + std::to_string(s.size()) + " bytes)";
  return out;
}

}  // namespace a2a::fuzz
