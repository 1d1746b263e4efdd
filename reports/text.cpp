#include "reports/text.hpp"

#include <cstdio>

#include "runner/core/escape.hpp"
#include "runner/result/utf8.hpp"

namespace a2a::reports {

using result::append_utf8;
using result::decode_utf8;

namespace {

// XML 1.0 Char minus DEL, C1 and the bidirectional overrides (which would
// reorder what a reader sees around them): what the terminal escaper shows
// as escapes, but tab, LF and CR.
bool xml_allowed(char32_t cp) {
  if (cp == '\t' || cp == '\n' || cp == '\r') return true;
  return !core::escaped_code_point(cp);
}

}  // namespace

std::string display_bytes(std::string_view bytes, Display mode) {
  return core::display_text(bytes, mode == Display::kWire ? core::TextMode::kWire : core::TextMode::kText);
}

std::string display_prefix(std::string_view bytes, size_t max_bytes, Display mode) {
  if (bytes.size() <= max_bytes) return display_bytes(bytes, mode);
  // Back off to a code point boundary so a cut does not show a bogus \xNN.
  size_t cut = max_bytes;
  while (cut > 0 && cut > max_bytes - 3 && (static_cast<unsigned char>(bytes[cut]) & 0xC0) == 0x80)
    --cut;
  return display_bytes(bytes.substr(0, cut), mode) + " ... (" +
         std::to_string(bytes.size() - cut) + " more bytes)";
}

std::string sanitize_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    size_t n = decode_utf8(s, i, cp);
    if (n == 0 || !xml_allowed(cp)) {
      append_utf8(out, result::kReplacementChar);
      i += n == 0 ? 1 : n;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

namespace {

std::string escape_markup(std::string_view s, bool attribute, bool html) {
  std::string clean = sanitize_text(s);
  std::string out;
  out.reserve(clean.size() + clean.size() / 8);
  for (char c : clean) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += html ? "&#39;" : "&apos;"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      case '\r': out += "&#13;"; break;  // a raw CR would be normalised away
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string xml_escape(std::string_view s, bool attribute) {
  return escape_markup(s, attribute, false);
}

std::string html_escape(std::string_view s) { return escape_markup(s, false, true); }

std::string one_line(std::string_view s, size_t max_bytes) {
  std::string out = display_prefix(s, max_bytes, Display::kText);
  std::string flat;
  flat.reserve(out.size());
  for (char c : out) {
    if (c == '\n') flat += "\\n";
    else if (c == '\t') flat += "\\t";
    else flat += c;
  }
  return flat;
}

std::string human_duration(long long ms) {
  if (ms < 1000) return std::to_string(ms) + " ms";
  char buf[32];
  if (ms < 60'000) {
    std::snprintf(buf, sizeof buf, "%.2f s", static_cast<double>(ms) / 1000.0);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%lld min %lld s", ms / 60'000, (ms % 60'000) / 1000);
  return buf;
}

std::string markdown_cell(std::string_view text, size_t max_bytes) {
  std::string shown = one_line(text, max_bytes);
  std::string out;
  out.reserve(shown.size() + 8);
  for (char c : shown) {
    if (std::string_view("|\\`*_[]<>&~#!$").find(c) != std::string_view::npos) out += '\\';
    out += c;
    // GitHub turns "@name" in rendered text into a mention (a notification).
    if (c == '@') out += "\xe2\x81\xa0";
  }
  return out;
}

}  // namespace a2a::reports
