#include "runner/core/escape.hpp"

#include <chrono>
#include <cstdio>
#include <random>

#include "runner/core/utf8.hpp"

namespace a2a::core {

std::string escape_bytes(std::string_view bytes, size_t max_len) {
  std::string out;
  out.reserve(std::min(bytes.size(), max_len) + 16);
  size_t n = 0;
  for (unsigned char c : bytes) {
    if (n++ >= max_len) {
      out += "...";
      break;
    }
    switch (c) {
      case '\r': out += "\\r"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c >= 0x20 && c < 0x7f) {
          out += static_cast<char>(c);
        } else {
          char buf[5];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        }
    }
  }
  return out;
}

namespace {

void append_hex(std::string& out, std::string_view bytes) {
  constexpr char kHex[] = "0123456789abcdef";
  for (unsigned char c : bytes) {
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 0x0f];
  }
}

// One ASCII control or the backslash, the way `mode` shows it.
void append_control(std::string& out, char c, TextMode mode) {
  switch (c) {
    case '\\': out += "\\\\"; break;
    case '\r': out += "\\r"; break;
    case '\n': out += mode == TextMode::kText ? "\n" : mode == TextMode::kWire ? "\\n\n" : "\\n"; break;
    case '\t': out += mode == TextMode::kText ? "\t" : "\\t"; break;
    default: append_hex(out, std::string_view(&c, 1));
  }
}

}  // namespace

bool escaped_code_point(char32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069) || (cp & 0xFFFE) == 0xFFFE;
}

std::string display_text(std::string_view bytes, TextMode mode) {
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 8);
  for (size_t i = 0; i < bytes.size();) {
    char32_t cp = 0;
    size_t n = decode_utf8(bytes, i, cp);
    if (n == 0) {
      append_hex(out, bytes.substr(i, 1));
      ++i;
      continue;
    }
    if (cp == '\\' || cp < 0x20) append_control(out, static_cast<char>(cp), mode);
    else if (escaped_code_point(cp)) append_hex(out, bytes.substr(i, n));
    else out.append(bytes.substr(i, n));
    i += n;
  }
  return out;
}

std::string terminal_json(std::string_view json) {
  constexpr char kHex[] = "0123456789abcdef";
  auto append_u = [&](std::string& out, unsigned unit) {
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(unit >> shift) & 0xF];
  };
  std::string out;
  out.reserve(json.size());
  for (size_t i = 0; i < json.size();) {
    auto c = static_cast<unsigned char>(json[i]);
    char32_t cp = 0;
    size_t n = c < 0x7F ? 1 : decode_utf8(json, i, cp);
    if (n == 0) n = 1;  // not UTF-8: left as it is
    if (c < 0x7F || !escaped_code_point(cp)) {
      out.append(json.substr(i, n));
      i += n;
      continue;
    }
    if (cp > 0xFFFF) {
      char32_t v = cp - 0x10000;
      append_u(out, 0xD800 + static_cast<unsigned>(v >> 10));
      append_u(out, 0xDC00 + static_cast<unsigned>(v & 0x3FF));
    } else {
      append_u(out, static_cast<unsigned>(cp));
    }
    i += n;
  }
  return out;
}


bool unescape_bytes(std::string_view text, std::string& out, std::string* error) {
  std::string tmp;
  tmp.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c != '\\') {
      tmp += c;
      continue;
    }
    if (i + 1 >= text.size()) {
      if (error) *error = "dangling backslash at end of text";
      return false;
    }
    char e = text[++i];
    switch (e) {
      case 'r': tmp += '\r'; break;
      case 'n': tmp += '\n'; break;
      case 't': tmp += '\t'; break;
      case '0': tmp += '\0'; break;
      case '\\': tmp += '\\'; break;
      case '"': tmp += '"'; break;
      case 'x': {
        int hi = i + 1 < text.size() ? hex_digit_value(text[i + 1]) : -1;
        int lo = i + 2 < text.size() ? hex_digit_value(text[i + 2]) : -1;
        if (hi < 0 || lo < 0) {
          if (error) *error = "\\x must be followed by two hex digits (offset " + std::to_string(i - 1) + ")";
          return false;
        }
        tmp += static_cast<char>(hi * 16 + lo);
        i += 2;
        break;
      }
      default:
        if (error) *error = std::string("unknown escape \\") + e + " (offset " + std::to_string(i - 1) + ")";
        return false;
    }
  }
  out = std::move(tmp);
  return true;
}

std::string uuid_v7() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::system_clock::now().time_since_epoch())
                .count();
  unsigned char b[16];
  for (int i = 0; i < 6; ++i) b[i] = static_cast<unsigned char>((ms >> (8 * (5 - i))) & 0xff);
  uint64_t r1 = rng(), r2 = rng();
  for (int i = 6; i < 16; ++i) b[i] = static_cast<unsigned char>(((i < 11 ? r1 : r2) >> (8 * (i % 8))) & 0xff);
  b[6] = static_cast<unsigned char>(0x70 | (b[6] & 0x0f));  // version 7
  b[8] = static_cast<unsigned char>(0x80 | (b[8] & 0x3f));  // RFC 4122 variant
  // Hex by hand: snprintf was a measurable part of a small request's cost.
  constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[b[i] >> 4];
    out += kHex[b[i] & 0x0f];
  }
  return out;
}

}  // namespace a2a::core
