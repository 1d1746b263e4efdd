// Making untrusted bytes safe to show. Agent bytes reach every report, so each
// writer renders them through one of these, never raw: control characters and
// invalid UTF-8 become visible escapes, then the format's own escaping applies.
#pragma once

#include <string>
#include <string_view>

namespace a2a::reports {

enum class Display {
  kWire,  // \r \n \t shown as escapes (framing matters); a line break follows each \n
  kText,  // \n and \t kept as they are (free text); \r still shown as \r
};

// core::display_text (runner/core/escape.hpp, the one terminal escaper): keeps
// valid printable UTF-8 (so "é" stays readable) and shows as \xNN every byte
// of: C0 controls, DEL, C1 controls, bidirectional overrides (U+202A..E,
// U+2066..9: "Trojan Source"), U+FFFE/U+FFFF, and invalid or overlong
// sequences. Backslash is doubled. Output is valid UTF-8.
std::string display_bytes(std::string_view bytes, Display mode = Display::kWire);

// display_bytes of at most `max_bytes` input bytes, plus " ... (N more bytes)".
std::string display_prefix(std::string_view bytes, size_t max_bytes, Display mode);

// Valid UTF-8 with only characters allowed in XML 1.0 and sane in HTML: every
// invalid byte, C0 control other than tab/LF/CR, DEL, C1 control, bidirectional
// override and U+FFFE/U+FFFF becomes U+FFFD. The backstop under xml_escape and html_escape.
std::string sanitize_text(std::string_view s);

// sanitize_text, then & < > " ' as entities. In attribute values tab, LF and
// CR become character references so attribute normalisation keeps them.
std::string xml_escape(std::string_view s, bool attribute = false);
std::string html_escape(std::string_view s);

// For console output: display_prefix in kText mode with \n shown as well (one line).
std::string one_line(std::string_view s, size_t max_bytes = 300);

// Text for one GitHub Markdown table cell (or a line of Markdown): one_line
// (control bytes, newlines and invalid UTF-8 shown as escapes, at most
// `max_bytes` input bytes), then every character Markdown, GitHub or inline
// HTML would act on (| \ ` * _ [ ] < > & ~ # ! $) escaped with a backslash,
// and '@' followed by U+2060 WORD JOINER so "@name" mentions no one.
std::string markdown_cell(std::string_view text, size_t max_bytes = 300);

// "3 ms", "1.25 s", "2 min 5 s" for people; the console prints raw ms.
std::string human_duration(long long ms);

}  // namespace a2a::reports
