#include "runner/scenario/until.hpp"

#include <cctype>
#include <vector>

#include "runner/scenario/yaml_json.hpp"

namespace a2a::scenario {

namespace {

using core::ErrorKind;
using core::fail;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '$' || c == '@';
}

// A quoted string ("a \"b\"" or 'it''s') or a plain scalar; false if malformed.
bool parse_value(std::string_view text, Json& out, std::string& why) {
  text = trim(text);
  if (text.empty()) {
    why = "missing value";
    return false;
  }
  char q = text.front();
  if (q != '"' && q != '\'') {
    if (text.front() == '[' || text.find_first_of("[],") != std::string_view::npos) {
      why = "unexpected '[', ']' or ',' in value '" + std::string(text) + "' (lists need 'in')";
      return false;
    }
    out = plain_scalar_value(text);
    return true;
  }
  std::string value;
  size_t i = 1;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (q == '"' && c == '\\' && i + 1 < text.size()) {
      value += text[++i];
    } else if (q == '\'' && c == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
      value += '\'';
      ++i;
    } else if (c == q) {
      break;
    } else {
      value += c;
    }
  }
  if (i >= text.size() || i + 1 != text.size()) {
    why = "unterminated or trailing text after quoted value " + std::string(text);
    return false;
  }
  out = value;
  return true;
}

// Splits "[a, 'b, c', d]" at top-level commas (quotes respected).
bool split_list(std::string_view text, std::vector<std::string_view>& items, std::string& why) {
  text = trim(text);
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') {
    why = "'in' must be followed by a list like [A, B]";
    return false;
  }
  text = text.substr(1, text.size() - 2);
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ',';
    if (quote) {
      if (c == '\\' && quote == '"') ++i;
      else if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == ',') {
      items.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  if (quote) {
    why = "unterminated quote in list";
    return false;
  }
  if (items.size() == 1 && trim(items[0]).empty()) {
    why = "the list after 'in' is empty";
    return false;
  }
  return true;
}

// Fills path / op / value of `out` from `s`; false with `why` if malformed.
bool parse_parts(std::string_view s, UntilExpr& out, std::string& why) {
  size_t i = 0;
  auto in_path = [](char c) { return is_name_char(c) || c == '.' || c == '[' || c == ']' || c == '*'; };
  while (i < s.size() && in_path(s[i])) ++i;
  out.path = std::string(s.substr(0, i));
  if (!is_valid_path(out.path, false, &why)) {
    why = "bad path: " + why;
    return false;
  }
  std::string_view rest = trim(s.substr(i));
  if (rest.starts_with("==") || rest.starts_with("!=")) {
    out.op = rest[0] == '=' ? UntilExpr::Op::kEquals : UntilExpr::Op::kNotEquals;
    return parse_value(rest.substr(2), out.value, why);
  }
  if (!rest.starts_with("in") || rest.size() <= 2 ||
      !(rest[2] == '[' || std::isspace(static_cast<unsigned char>(rest[2])))) {
    why = "expected 'path == value', 'path != value' or 'path in [a, b]'";
    return false;
  }
  out.op = UntilExpr::Op::kIn;
  std::vector<std::string_view> items;
  if (!split_list(rest.substr(2), items, why)) return false;
  out.value = Json::array();
  for (auto item : items) {
    Json v;
    if (!parse_value(item, v, why)) return false;
    out.value.push_back(std::move(v));
  }
  return true;
}

}  // namespace

bool is_valid_path(std::string_view path, bool allow_wildcard, std::string* why) {
  auto bad = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return false;
  };
  if (path.empty()) return bad("empty path");
  size_t i = 0;
  bool need_segment = true;
  while (i < path.size()) {
    size_t start = i;
    while (i < path.size() && is_name_char(path[i])) ++i;
    bool named = i > start;
    if (!named && !(start == 0 && i < path.size() && path[i] == '[')) {
      return bad("empty or invalid segment at offset " + std::to_string(start));
    }
    while (i < path.size() && path[i] == '[') {
      size_t close = path.find(']', i);
      if (close == std::string_view::npos) return bad("'[' without ']'");
      std::string_view idx = path.substr(i + 1, close - i - 1);
      bool digits = !idx.empty();
      for (char c : idx) digits = digits && std::isdigit(static_cast<unsigned char>(c));
      if (idx == "*" && !allow_wildcard) return bad("wildcard [*] is only allowed in collection paths");
      if (!digits && idx != "*") return bad("index must be a number or * (got [" + std::string(idx) + "])");
      i = close + 1;
    }
    need_segment = false;
    if (i < path.size()) {
      if (path[i] != '.') return bad(std::string("unexpected '") + path[i] + "'");
      ++i;
      need_segment = true;
    }
  }
  if (need_segment) return bad("path ends with '.'");
  return true;
}

core::Expected<UntilExpr> parse_until(std::string_view text) {
  UntilExpr out;
  out.text = std::string(text);
  std::string why;
  if (!parse_parts(trim(text), out, why)) {
    return fail(ErrorKind::kSchema, "cannot parse until expression '" + out.text + "': " + why);
  }
  return out;
}

}  // namespace a2a::scenario
