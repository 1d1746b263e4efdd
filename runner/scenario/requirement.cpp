#include "runner/scenario/requirement.hpp"

#include <cctype>

namespace a2a::scenario {

const QuoteSource* find_quote_source(std::string_view name) {
  for (const auto& s : kQuoteSources)
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<std::string_view> quote_source_names() {
  std::vector<std::string_view> out;
  for (const auto& s : kQuoteSources) out.push_back(s.name);
  return out;
}

bool has_keyword(std::string_view text, std::string_view keyword) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  for (size_t at = text.find(keyword); at != std::string_view::npos; at = text.find(keyword, at + 1)) {
    bool left = at == 0 || !word(text[at - 1]);
    size_t end = at + keyword.size();
    bool right = end == text.size() || !word(text[end]);
    if (left && right) return true;
  }
  return false;
}

namespace {

// The HTML Standard (whatwg-sse) writes its requirements in lower case
// ("must", "should"; its §2.1 "Conformance requirements" makes them
// RFC 2119 keywords), so there the keywords match in either case.
bool any_keyword(const std::vector<Quote>& quotes, std::initializer_list<std::string_view> words) {
  for (const auto& q : quotes) {
    std::string text = q.quote;
    if (q.source == "whatwg-sse")
      for (auto& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (auto w : words)
      if (has_keyword(text, w)) return true;
  }
  return false;
}

}  // namespace

std::string quotes_back_level(const std::vector<Quote>& quotes, Level level) {
  if (level == Level::kMay) return "";
  if (quotes.empty()) return "a " + std::string(to_string(level)) + " test needs x-requirement (the normative sentence it enforces)";
  if (any_keyword(quotes, {"MUST", "SHALL", "REQUIRED"})) return "";
  if (level == Level::kShould) {
    if (any_keyword(quotes, {"SHOULD", "RECOMMENDED"})) return "";
    return "no quote carries SHOULD, RECOMMENDED, MUST, SHALL or REQUIRED: a should test needs one (else level: may)";
  }
  if (any_keyword(quotes, {"SHOULD", "RECOMMENDED"}))
    return "the quote says SHOULD, not MUST: the test is level should (a failure grades NON_STRICT)";
  return "no quote carries MUST, SHALL or REQUIRED: a must test needs one (else level should or may)";
}

std::string normalise_quote_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool line_start = true, space = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n' || c == '\r') {
      line_start = true;
      space = true;
      continue;
    }
    if (line_start) {
      if (c == ' ' || c == '\t') continue;
      if (c == '>') continue;
      if (text.substr(i, 3) == "///") { i += 2; continue; }
      if (text.substr(i, 2) == "//") { i += 1; continue; }
      line_start = false;
    }
    if (c == '*' || c == '`' || c == '[') continue;
    // A Markdown link keeps its text: "[Foo](#anchor)" reads "Foo".
    if (c == ']' && i + 1 < text.size() && text[i + 1] == '(') {
      size_t close = text.find(')', i + 2);
      if (close != std::string_view::npos && text.substr(i + 2, close - i - 2).find(' ') == std::string_view::npos) {
        i = close;
        continue;
      }
    }
    if (c == ']') continue;
    if (c == ' ' || c == '\t') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

bool quote_occurs_in(std::string_view quote, std::string_view document) {
  std::string doc = normalise_quote_text(document);
  std::string q(quote);
  // "…" (U+2026) counts as "...".
  for (size_t at = q.find("\xE2\x80\xA6"); at != std::string::npos; at = q.find("\xE2\x80\xA6", at)) q.replace(at, 3, "...");
  size_t from = 0, pos = 0;
  bool any = false;
  while (pos <= q.size()) {
    size_t cut = q.find("...", pos);
    std::string frag = normalise_quote_text(std::string_view(q).substr(pos, cut == std::string::npos ? std::string::npos : cut - pos));
    while (!frag.empty() && (frag.front() == ' ' || frag.front() == '.')) frag.erase(frag.begin());
    while (!frag.empty() && frag.back() == ' ') frag.pop_back();
    if (!frag.empty()) {
      size_t found = doc.find(frag, from);
      if (found == std::string::npos) return false;
      from = found + frag.size();
      any = true;
    }
    if (cut == std::string::npos) break;
    pos = cut + 3;
  }
  return any;
}

}  // namespace a2a::scenario
