#include "reports/badge.hpp"

#include <string_view>

#include "reports/text.hpp"

namespace a2a::reports {

namespace {

using result::Level;

// Width in pixels of `s` in an 11 px sans-serif face: an estimate per
// character class. The text is also drawn with textLength, so a viewer's
// own font is fitted to the box instead of overflowing it.
int text_width(std::string_view s) {
  double w = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) == 0x80) continue;  // UTF-8 continuation byte
    if (c >= 'A' && c <= 'Z') w += 7.5;
    else if (c == ' ' || c == '.' || c == ',' || c == ':' || c == '/' || c == '|' || c == 'i' || c == 'l')
      w += 3.8;
    else if (c >= 0x80) w += 5.0;  // the middle dot
    else w += 6.5;
  }
  return static_cast<int>(w + 0.5);
}

BadgeText make(bool conformant, int must_passed, int must_total) {
  BadgeText t;
  t.label = "A2A conformance";
  t.good = conformant;
  t.value = std::string(conformant ? "CONFORMANT" : "NOT CONFORMANT") + " \xC2\xB7 MUST " +
            std::to_string(must_passed) + "/" + std::to_string(must_total);
  return t;
}

}  // namespace

BadgeText badge_text(const result::RunResult& r) {
  auto c = r.counts_for(Level::kMust);
  return make(r.conformant(), c.passed(), c.total);
}

BadgeText badge_text(const std::vector<const result::RunResult*>& runs) {
  bool conformant = !runs.empty();
  int passed = 0, total = 0;
  for (const auto* r : runs) {
    conformant = conformant && r->conformant();
    auto c = r->counts_for(Level::kMust);
    passed += c.passed();
    total += c.total;
  }
  return make(conformant, passed, total);
}

void write_badge(std::ostream& out, const BadgeText& t) {
  constexpr int kPad = 6, kHeight = 20;
  const int lw = text_width(t.label) + 2 * kPad;
  const int vw = text_width(t.value) + 2 * kPad;
  const int w = lw + vw;
  const char* colour = t.good ? "#2e7d32" : "#c62828";
  const std::string title = xml_escape(t.label + ": " + t.value, true);
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << kHeight
      << "\" role=\"img\" aria-label=\"" << title << "\">\n"
      << "  <title>" << title << "</title>\n"
      << "  <clipPath id=\"r\"><rect width=\"" << w << "\" height=\"" << kHeight << "\" rx=\"3\" fill=\"#fff\"/></clipPath>\n"
      << "  <g clip-path=\"url(#r)\">\n"
      << "    <rect width=\"" << lw << "\" height=\"" << kHeight << "\" fill=\"#555\"/>\n"
      << "    <rect x=\"" << lw << "\" width=\"" << vw << "\" height=\"" << kHeight << "\" fill=\"" << colour << "\"/>\n"
      << "  </g>\n"
      << "  <g fill=\"#fff\" font-family=\"Verdana,DejaVu Sans,sans-serif\" font-size=\"11\">\n"
      << "    <text x=\"" << kPad << "\" y=\"14\" textLength=\"" << lw - 2 * kPad << "\">" << xml_escape(t.label)
      << "</text>\n"
      << "    <text x=\"" << lw + kPad << "\" y=\"14\" textLength=\"" << vw - 2 * kPad << "\">" << xml_escape(t.value)
      << "</text>\n"
      << "  </g>\n"
      << "</svg>\n";
}

}  // namespace a2a::reports
