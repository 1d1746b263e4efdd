#include "runner/match/until.hpp"

#include <cctype>

#include "runner/match/assert.hpp"
#include "runner/match/match_result.hpp"

namespace a2a::match {
namespace {

using core::ErrorKind;
using core::Expected;
using core::fail;
using core::Unexpected;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

Unexpected bad(std::string_view text, const std::string& why) {
  return fail(ErrorKind::kParse, "until '" + std::string(text) + "': " + why);
}

// Position of `needle` in `s` outside quoted strings, or npos.
std::size_t find_unquoted(std::string_view s, std::string_view needle, std::size_t from = 0) {
  char quote = 0;
  for (std::size_t i = from; i < s.size(); ++i) {
    if (quote) {
      if (s[i] == '\\' && quote == '"') ++i;
      else if (s[i] == quote) quote = 0;
    } else if (s[i] == '"' || s[i] == '\'') {
      quote = s[i];
    } else if (s.substr(i, needle.size()) == needle) {
      return i;
    }
  }
  return std::string_view::npos;
}

Expected<Json> parse_value(std::string_view whole, std::string_view token) {
  token = trim(token);
  if (token.empty()) return bad(whole, "missing value");
  if (token.front() == '"') {
    Json v = Json::parse(token, nullptr, false);
    if (!v.is_string()) return bad(whole, "bad quoted string " + std::string(token));
    return v;
  }
  if (token.front() == '\'') {
    if (token.size() < 2 || token.back() != '\'') return bad(whole, "unclosed quote in " + std::string(token));
    return Json(std::string(token.substr(1, token.size() - 2)));
  }
  if (token == "true" || token == "false" || token == "null") return Json::parse(token);
  char c = token.front();
  if (c == '-' || (c >= '0' && c <= '9')) {
    Json v = Json::parse(token, nullptr, false);
    if (v.is_number()) return v;
  }
  for (char ch : token) {
    if (std::isspace(static_cast<unsigned char>(ch)) || ch == '[' || ch == ']' || ch == ',') {
      return bad(whole, "bare value " + std::string(token) + " needs quotes");
    }
  }
  return Json(std::string(token));
}

Expected<std::vector<Json>> parse_list(std::string_view whole, std::string_view list) {
  list = trim(list);
  if (list.size() < 2 || list.front() != '[' || list.back() != ']') {
    return bad(whole, "'in' needs a list: [v1, v2]");
  }
  std::string_view inner = list.substr(1, list.size() - 2);
  std::vector<Json> out;
  if (trim(inner).empty()) return bad(whole, "empty list");
  std::size_t pos = 0;
  for (;;) {
    std::size_t comma = find_unquoted(inner, ",", pos);
    auto v = parse_value(whole, inner.substr(pos, comma == std::string_view::npos ? comma : comma - pos));
    if (!v) return fail(v.error());
    out.push_back(std::move(*v));
    if (comma == std::string_view::npos) return out;
    pos = comma + 1;
  }
}

// Splits "lhs OP rhs"; `op_at` and `op_len` locate the operator.
Expected<UntilExpr> build(std::string_view text, std::size_t op_at, std::size_t op_len, UntilExpr::Op op) {
  UntilExpr e;
  e.text = std::string(text);
  e.op = op;
  std::string_view lhs = trim(text.substr(0, op_at));
  std::string_view rhs = text.substr(op_at + op_len);
  if (lhs.empty()) return bad(text, "missing path");
  auto path = parse_path(lhs);
  if (!path) return bad(text, path.error().message);
  if (path->has_wildcard()) return bad(text, "a wildcard path names several values");
  e.path = std::move(*path);
  if (op == UntilExpr::Op::kIn) {
    auto values = parse_list(text, rhs);
    if (!values) return fail(values.error());
    e.values = std::move(*values);
  } else {
    auto v = parse_value(text, rhs);
    if (!v) return fail(v.error());
    e.values.push_back(std::move(*v));
  }
  return e;
}

std::string list_text(const std::vector<Json>& values) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : ", ") + show(v);
  return "[" + out + "]";
}

}  // namespace

Expected<UntilExpr> parse_until(std::string_view raw) {
  std::string_view text = trim(raw);
  if (text.empty()) return bad(raw, "empty condition");
  if (auto at = find_unquoted(text, "=="); at != std::string_view::npos) {
    return build(text, at, 2, UntilExpr::Op::kEq);
  }
  if (auto at = find_unquoted(text, "!="); at != std::string_view::npos) {
    return build(text, at, 2, UntilExpr::Op::kNe);
  }
  for (std::size_t at = find_unquoted(text, "in"); at != std::string_view::npos;
       at = find_unquoted(text, "in", at + 1)) {
    bool spaced_before = at > 0 && std::isspace(static_cast<unsigned char>(text[at - 1]));
    bool spaced_after = at + 2 < text.size() && std::isspace(static_cast<unsigned char>(text[at + 2]));
    if (spaced_before && spaced_after) return build(text, at, 2, UntilExpr::Op::kIn);
  }
  return bad(text, "expected 'path == value', 'path != value' or 'path in [values]'");
}

UntilResult eval_until(const UntilExpr& e, const Json& response) {
  auto hit = resolve(response, e.path);
  if (!hit) return {false, hit.error().message};
  const Json& v = **hit;
  std::string is = e.path.str() + " is " + show(v);
  switch (e.op) {
    case UntilExpr::Op::kEq:
      return {values_equal(v, e.values[0]), is + ", want " + show(e.values[0])};
    case UntilExpr::Op::kNe:
      return {!values_equal(v, e.values[0]), is + ", want anything but " + show(e.values[0])};
    case UntilExpr::Op::kIn:
      for (const auto& want : e.values) {
        if (values_equal(v, want)) return {true, is + ", want one of " + list_text(e.values)};
      }
      return {false, is + ", want one of " + list_text(e.values)};
  }
  return {};
}

}  // namespace a2a::match
