#pragma once

#include <string>
#include <string_view>

namespace a2a::core {

// The value of one hex digit (0-9, a-f, A-F), else -1: the one reader of
// percent-escapes, \xNN and JSON's \uXXXX.
constexpr int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Renders arbitrary bytes as printable ASCII: \r \n \t \\ kept as escapes,
// other bytes outside 0x20..0x7e as \xNN. Used for diagnostics and transcripts.
std::string escape_bytes(std::string_view bytes, size_t max_len = std::string::npos);

// The one escaper for text shown to people: every command's console output
// and messages, and under the report writers' own escaping (docs/runner.md
// "What reaches the terminal"). Valid printable UTF-8 is kept (so "é" stays
// readable); shown as \xNN is every byte of: C0 controls (ESC, BEL, ...), DEL,
// C1 controls, bidirectional overrides and isolates (U+202A..E, U+2066..9:
// "Trojan Source"), U+FFFE/U+FFFF, and invalid or overlong UTF-8. A backslash
// is doubled, so an escape seen is never one the input spelt. Output is valid
// UTF-8 with no control byte other than the line breaks and tabs kText keeps.
enum class TextMode {
  kWire,  // \r \n \t shown as escapes (framing matters); a line break follows each \n
  kText,  // \n and \t kept as they are (free text, multi-line messages); \r shown as \r
  kLine,  // \n and \t shown as escapes too: one line (a key, a name, a path)
};
std::string display_text(std::string_view bytes, TextMode mode = TextMode::kText);

// The code points display_text shows as escapes even when validly encoded
// (the XML and HTML writers replace the same set).
bool escaped_code_point(char32_t cp);

// Shorthands for the CLI: a message that may span lines, and one field.
inline std::string terminal_text(std::string_view s) { return display_text(s, TextMode::kText); }
inline std::string terminal_line(std::string_view s) { return display_text(s, TextMode::kLine); }

// Compact JSON text (valid UTF-8, as jsonrpc::dump writes it) made safe for
// a terminal without changing its value: every code point display_text
// would escape that JSON leaves raw (DEL, C1 controls, bidi overrides and
// isolates, U+xFFFE/U+xFFFF) becomes a \uXXXX escape (a surrogate pair
// above U+FFFF). Such code points can only stand inside strings, so the
// result parses to the same value. Bytes that are not UTF-8 are left.
std::string terminal_json(std::string_view json);

// Inverse for scenario text: understands \r \n \t \0 \\ \" \xNN. Returns false
// (and leaves out untouched) on a malformed escape.
bool unescape_bytes(std::string_view text, std::string& out, std::string* error = nullptr);

// UUIDv7 (RFC 9562) string, lower-case hex with dashes.
std::string uuid_v7();

}  // namespace a2a::core
