#include "runner/core/utf8.hpp"

#include <array>

namespace a2a::core {

namespace {

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Length and initial bits from the lead byte; 0 when it cannot start a sequence.
size_t lead_length(unsigned char c, char32_t& bits) {
  if (c < 0x80) { bits = c; return 1; }
  if (c >= 0xC2 && c <= 0xDF) { bits = c & 0x1F; return 2; }
  if (c >= 0xE0 && c <= 0xEF) { bits = c & 0x0F; return 3; }
  if (c >= 0xF0 && c <= 0xF4) { bits = c & 0x07; return 4; }
  return 0;  // continuation byte, C0/C1 (overlong 2-byte), F5..FF
}

}  // namespace

size_t decode_utf8(std::string_view s, size_t pos, char32_t& cp) {
  char32_t v = 0;
  size_t n = lead_length(static_cast<unsigned char>(s[pos]), v);
  if (n == 0 || pos + n > s.size()) return 0;
  for (size_t i = 1; i < n; ++i) {
    auto c = static_cast<unsigned char>(s[pos + i]);
    if (!continuation(c)) return 0;
    v = (v << 6) | (c & 0x3F);
  }
  static constexpr std::array<char32_t, 5> kMin = {0, 0, 0x80, 0x800, 0x10000};
  if (v < kMin[n] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  cp = v;
  return n;
}

}  // namespace a2a::core
