#include "runner/result/utf8.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace a2a::result {

bool valid_utf8(std::string_view s) {
  // ASCII (always valid) is passed eight bytes at a step first: most text
  // checked here is ASCII, and decoding each code point was 5 to 8 % of a
  // gRPC GetTask (docs/performance.md, "gRPC").
  uint64_t high = 0;
  size_t k = 0;
  for (; k + 8 <= s.size(); k += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + k, 8);
    high |= w;
  }
  for (; k < s.size(); ++k) high |= static_cast<unsigned char>(s[k]);
  if ((high & 0x8080808080808080ULL) == 0) return true;
  char32_t cp;
  for (size_t i = 0; i < s.size();) {
    size_t n = decode_utf8(s, i, cp);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string to_valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  char32_t cp;
  for (size_t i = 0; i < s.size();) {
    size_t n = decode_utf8(s, i, cp);
    if (n == 0) {
      append_utf8(out, kReplacementChar);
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

namespace {
constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int sextet(char c) {
  auto p = kAlphabet.find(c);
  return p == std::string_view::npos ? -1 : static_cast<int>(p);
}
}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    size_t n = std::min<size_t>(3, bytes.size() - i);
    uint32_t v = 0;
    for (size_t k = 0; k < 3; ++k)
      v = (v << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0);
    for (size_t k = 0; k < 4; ++k)
      out += k <= n ? kAlphabet[(v >> (18 - 6 * k)) & 0x3F] : '=';
  }
  return out;
}

bool base64_decode(std::string_view text, std::string& out) {
  if (text.size() % 4 != 0) return false;
  std::string tmp;
  tmp.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    uint32_t v = 0;
    int pad = 0;
    for (size_t k = 0; k < 4; ++k) {
      char c = text[i + k];
      bool last_quad = i + 4 == text.size();
      if (c == '=' && last_quad && k >= 2 && (k == 3 || text[i + 3] == '=')) {
        ++pad;
        v <<= 6;
        continue;
      }
      int s = sextet(c);
      if (s < 0 || pad > 0) return false;
      v = (v << 6) | static_cast<uint32_t>(s);
    }
    for (int k = 0; k < 3 - pad; ++k) tmp += static_cast<char>((v >> (16 - 8 * k)) & 0xFF);
  }
  out = std::move(tmp);
  return true;
}

}  // namespace a2a::result
