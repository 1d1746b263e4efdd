#include "runner/scenario/selection.hpp"

#include <algorithm>
#include <cctype>

namespace a2a::scenario {

namespace {

// Matches one [...] class at pattern[p] against c; sets p past the class.
// A '[' without its ']' is taken literally.
bool class_match(std::string_view pattern, size_t& p, char c, bool& valid) {
  size_t i = p + 1;
  bool negate = i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^');
  if (negate) ++i;
  size_t close = pattern.find(']', i + 1 <= pattern.size() ? i + 1 : i);
  if (close == std::string_view::npos) {
    valid = false;
    return false;
  }
  valid = true;
  bool hit = false;
  for (size_t k = i; k < close; ++k) {
    if (k + 2 < close && pattern[k + 1] == '-') {
      hit = hit || (c >= pattern[k] && c <= pattern[k + 2]);
      k += 2;
    } else {
      hit = hit || c == pattern[k];
    }
  }
  p = close + 1;
  return hit != negate;
}

bool lower_contains(std::string_view hay, std::string_view needle) {
  auto eq = [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  };
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), eq) != hay.end();
}

// Include/exclude filter over a list of candidates (one id, or a test's tags).
template <class Pred>
bool passes(const std::vector<std::string>& filters, Pred hit) {
  bool any_include = false, included = false;
  for (const auto& f : filters) {
    if (!f.empty() && f[0] == '!') {
      if (hit(std::string_view(f).substr(1))) return false;
    } else {
      any_include = true;
      included = included || hit(f);
    }
  }
  return !any_include || included;
}

}  // namespace

bool Selection::empty() const {
  return ids.empty() && tags.empty() && levels.empty() && sections.empty() && bindings.empty();
}

bool glob_match(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0;
  size_t star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
      continue;
    }
    if (p < pattern.size()) {
      size_t next = p;
      bool valid = false;
      bool ok = false;
      if (pattern[p] == '[') ok = class_match(pattern, next, text[t], valid);
      if (!valid) {
        ok = pattern[p] == '?' || pattern[p] == text[t];
        next = p + 1;
      }
      if (ok) {
        p = next;
        ++t;
        continue;
      }
    }
    if (star == std::string_view::npos) return false;
    p = star + 1;
    t = ++resume;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool applies_to_binding(const Test& test, std::string_view binding) {
  if (!test.binding.empty()) return test.binding == binding;
  if (!test.transport.empty()) {
    return std::find(test.transport.begin(), test.transport.end(), binding) != test.transport.end();
  }
  return true;
}

bool matches(const Test& test, const Selection& s) {
  if (!passes(s.ids, [&](std::string_view g) { return glob_match(g, test.id); })) return false;
  auto has_tag = [&](std::string_view tag) {
    return std::find(test.tags.begin(), test.tags.end(), tag) != test.tags.end();
  };
  if (!passes(s.tags, has_tag)) return false;
  if (!s.levels.empty() &&
      std::find(s.levels.begin(), s.levels.end(), test.level) == s.levels.end()) {
    return false;
  }
  if (!s.sections.empty() &&
      std::none_of(s.sections.begin(), s.sections.end(),
                   [&](const std::string& sec) { return lower_contains(test.spec_ref, sec); })) {
    return false;
  }
  return s.bindings.empty() ||
         std::any_of(s.bindings.begin(), s.bindings.end(),
                     [&](const std::string& b) { return applies_to_binding(test, b); });
}

std::vector<const Test*> select_tests(const std::vector<Document>& documents, const Selection& s) {
  std::vector<const Test*> out;
  for (const auto& doc : documents) {
    for (const auto& suite : doc.suites) {
      for (const auto& test : suite.tests) {
        if (matches(test, s)) out.push_back(&test);
      }
    }
  }
  return out;
}

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(start, comma - start);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front()))) item.remove_prefix(1);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back()))) item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
    start = comma + 1;
  }
  return out;
}

}  // namespace a2a::scenario
