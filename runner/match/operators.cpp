// The operator table of the assertion language (ACTS §5.1 plus x-type,
// x-equals and the de-facto `items`). Each operator validates its operand
// (a bad operand is a malformed scenario, reported as MatchResult::error) and
// then judges the value.
#include <array>
#include <regex>

#include "runner/match/assert.hpp"
#include "runner/match/assert_detail.hpp"
#include "runner/match/path.hpp"

namespace a2a::match::detail {
namespace {

// libstdc++'s std::regex matcher recurses once per character and overflows an
// 8 MiB stack on ~20 KiB subjects; above this size the harness declines.
constexpr std::size_t kMaxRegexSubject = 4096;

std::string expect_string(const Json& v) { return v.is_string() ? "" : "operand must be a string, got " + compact(v); }
std::string expect_bool(const Json& v) { return v.is_boolean() ? "" : "operand must be true or false, got " + compact(v); }
std::string expect_number(const Json& v) { return v.is_number() ? "" : "operand must be a number, got " + compact(v); }
std::string expect_any(const Json&) { return ""; }

std::string expect_count(const Json& v) {
  if (v.is_number_unsigned() || (v.is_number_integer() && v.get<long long>() >= 0)) return "";
  return "operand must be a non-negative integer, got " + compact(v);
}

std::string expect_list(const Json& v) {
  return v.is_array() && !v.empty() ? "" : "operand must be a non-empty list, got " + compact(v);
}

std::string expect_type(const Json& v) {
  if (v.is_string() && is_type_name(v.get<std::string>())) return "";
  return "unknown type " + compact(v) + " (string, number, integer, boolean, array, object, null)";
}

std::string expect_regex(const Json& v) {
  if (!v.is_string()) return expect_string(v);
  try {
    std::regex re(v.get<std::string>(), std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return "bad regular expression " + compact(v) + ": " + e.what();
  }
  return "";
}

void mismatch(const OpCall& c, std::string expected, std::string what) {
  c.out.add(c.path, std::move(expected), show_actual(c.actual), std::move(what));
}

std::string got(const Json& v) { return std::string(json_type(v)) + " " + compact(v); }

void apply_type(const OpCall& c) {
  auto name = c.operand.get<std::string>();
  if (has_type(*c.actual, name)) return;
  std::string kind(json_type(*c.actual));
  if (c.actual->is_number_float() && name == "integer") kind = "non-integer number";
  mismatch(c, "type " + name, "expected type " + name + ", got " + kind + " " + compact(*c.actual));
}

void apply_presence(const OpCall& c, bool want_present) {
  bool present = c.actual != nullptr;
  if (present == want_present) return;
  if (present) mismatch(c, "absent", "expected absent, got " + compact(*c.actual));
  else mismatch(c, "exists", "missing, expected it to exist");
}
void apply_exists(const OpCall& c) { apply_presence(c, c.operand.get<bool>()); }
void apply_absent(const OpCall& c) { apply_presence(c, !c.operand.get<bool>()); }

// `name` is what the operator wants of a string: "containing \"x\"".
bool need_string(const OpCall& c, const std::string& want) {
  if (c.actual->is_string()) return true;
  mismatch(c, want, "expected a string " + want + ", got " + got(*c.actual));
  return false;
}

void apply_contains(const OpCall& c) {
  const auto& needle = c.operand.get_ref<const std::string&>();
  std::string want = "containing " + compact(c.operand);
  if (c.actual->is_array()) {  // extension: an array contains an equal element
    for (const auto& e : *c.actual) {
      if (values_equal(e, c.operand)) return;
    }
    return mismatch(c, want, "expected an array " + want + ", got " + compact(*c.actual));
  }
  if (!need_string(c, want)) return;
  if (c.actual->get_ref<const std::string&>().find(needle) == std::string::npos) {
    mismatch(c, want, "expected a string " + want + ", got " + compact(*c.actual));
  }
}

void apply_affix(const OpCall& c, bool prefix) {
  const auto& affix = c.operand.get_ref<const std::string&>();
  std::string want = (prefix ? "starting with " : "ending with ") + compact(c.operand);
  if (!need_string(c, want)) return;
  const auto& s = c.actual->get_ref<const std::string&>();
  if (prefix ? s.starts_with(affix) : s.ends_with(affix)) return;
  mismatch(c, want, "expected a string " + want + ", got " + compact(*c.actual));
}
void apply_starts_with(const OpCall& c) { apply_affix(c, true); }
void apply_ends_with(const OpCall& c) { apply_affix(c, false); }

void apply_matches(const OpCall& c) {
  const auto& pattern = c.operand.get_ref<const std::string&>();
  std::string want = "matching /" + pattern + "/";
  if (!need_string(c, want)) return;
  const auto& s = c.actual->get_ref<const std::string&>();
  if (s.size() > kMaxRegexSubject) {
    return c.out.add_error(c.path, "matches: the value is " + std::to_string(s.size()) +
                                       " bytes; the regex engine is limited to " +
                                       std::to_string(kMaxRegexSubject) + " bytes");
  }
  std::regex re(pattern, std::regex::ECMAScript);  // ECMA-262 test(): a search, not a full match
  if (!std::regex_search(s, re)) mismatch(c, want, "expected a string " + want + ", got " + compact(*c.actual));
}

// -1, 0, 1; integers compared exactly, anything else as long double.
int compare_numbers(const Json& a, const Json& b) {
  if (a.is_number_integer() && b.is_number_integer()) {
    if (a.is_number_unsigned() || b.is_number_unsigned()) {
      bool a_neg = !a.is_number_unsigned() && a.get<long long>() < 0;
      bool b_neg = !b.is_number_unsigned() && b.get<long long>() < 0;
      if (a_neg != b_neg) return a_neg ? -1 : 1;
      auto x = a.get<unsigned long long>(), y = b.get<unsigned long long>();
      return x < y ? -1 : (x > y ? 1 : 0);
    }
    auto x = a.get<long long>(), y = b.get<long long>();
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  auto x = a.get<long double>(), y = b.get<long double>();
  return x < y ? -1 : (x > y ? 1 : 0);
}

void apply_compare(const OpCall& c, std::string_view sym, bool (*ok)(int)) {
  std::string want = "a number " + std::string(sym) + " " + compact(c.operand);
  if (!c.actual->is_number()) return mismatch(c, std::string(sym) + " " + compact(c.operand),
                                              "expected " + want + ", got " + got(*c.actual));
  if (!ok(compare_numbers(*c.actual, c.operand))) {
    mismatch(c, std::string(sym) + " " + compact(c.operand), "expected " + want + ", got " + compact(*c.actual));
  }
}
void apply_gte(const OpCall& c) { apply_compare(c, ">=", [](int r) { return r >= 0; }); }
void apply_lte(const OpCall& c) { apply_compare(c, "<=", [](int r) { return r <= 0; }); }
void apply_gt(const OpCall& c) { apply_compare(c, ">", [](int r) { return r > 0; }); }
void apply_lt(const OpCall& c) { apply_compare(c, "<", [](int r) { return r < 0; }); }

void apply_count(const OpCall& c, std::string_view words, bool (*ok)(std::size_t, std::size_t)) {
  auto n = c.operand.get<std::size_t>();
  std::string want = std::string(words) + std::to_string(n) + " element" + (n == 1 ? "" : "s");
  if (!c.actual->is_array()) return mismatch(c, want, "expected an array of " + want + ", got " + got(*c.actual));
  if (!ok(c.actual->size(), n)) {
    mismatch(c, want, "expected " + want + ", got " + std::to_string(c.actual->size()));
  }
}
void apply_count_eq(const OpCall& c) { apply_count(c, "", [](std::size_t a, std::size_t n) { return a == n; }); }
void apply_count_gte(const OpCall& c) { apply_count(c, "at least ", [](std::size_t a, std::size_t n) { return a >= n; }); }
void apply_count_lte(const OpCall& c) { apply_count(c, "at most ", [](std::size_t a, std::size_t n) { return a <= n; }); }

void apply_x_equals(const OpCall& c) {
  if (c.actual && strictly_equal(*c.actual, c.operand)) return;
  auto typed = [](const Json& v) {
    std::string kind(json_type(v));
    if (v.is_number()) kind = v.is_number_float() ? "float" : "integer";
    return compact(v) + " (" + kind + ")";
  };
  mismatch(c, "exactly " + compact(c.operand),
           "expected exactly " + typed(c.operand) + ", got " + (c.actual ? typed(*c.actual) : "<missing>"));
}

void apply_items(const OpCall& c) {
  if (c.operand.is_array()) return match_list(c.actual, c.operand, c.path, c.out);
  if (!c.actual->is_array()) return mismatch(c, "array", "expected an array, got " + got(*c.actual));
  for (std::size_t i = 0; i < c.actual->size(); ++i) {
    match_into(&(*c.actual)[i], c.operand, append_index(c.path, i), c.out);
  }
}

// x-any-item (ours): at least one element of the array matches the
// assertion. ErrorInfo entries sit at no fixed index in error.data /
// error.details, so an expectation on "the ErrorInfo" needs this.
void apply_any_item(const OpCall& c) {
  if (!c.actual->is_array()) return mismatch(c, "array", "expected an array, got " + got(*c.actual));
  std::string first;
  for (std::size_t i = 0; i < c.actual->size(); ++i) {
    MatchResult one;
    match_into(&(*c.actual)[i], c.operand, append_index(c.path, i), one);
    if (one.malformed()) return c.out.take_error(one);
    if (one.ok) return;
    if (first.empty() && !one.mismatches.empty()) first = one.mismatches.front().message;
  }
  mismatch(c, "an item matching " + compact(c.operand),
           "no item of " + compact(*c.actual) + " matches" + (first.empty() ? "" : " (first: " + first + ")"));
}

void apply_all_of(const OpCall& c) {
  for (const auto& sub : c.operand) match_into(c.actual, sub, c.path, c.out);
}

void apply_not(const OpCall& c) {
  MatchResult inner;
  match_into(c.actual, c.operand, c.path, inner);
  if (inner.malformed()) return c.out.take_error(inner);
  if (inner.ok) mismatch(c, "not " + compact(c.operand), "expected not " + compact(c.operand) + ", got " + show_actual(c.actual));
}

bool all_scalars(const Json& list) {
  return std::all_of(list.begin(), list.end(), [](const Json& v) { return !v.is_structured(); });
}

// one_of and any_of: every alternative is an assertion; at least one must hold.
// All are evaluated so a malformed alternative is reported even after a pass.
void apply_any(const OpCall& c, std::string_view name) {
  bool passed = false;
  std::string reasons;
  for (std::size_t i = 0; i < c.operand.size(); ++i) {
    MatchResult alt;
    match_into(c.actual, c.operand[i], c.path, alt);
    if (alt.malformed()) c.out.take_error(alt);
    passed = passed || alt.ok;
    if (!alt.mismatches.empty()) {
      reasons += (reasons.empty() ? "" : "; ") + ("[" + std::to_string(i + 1) + "] ") + alt.mismatches.front().message;
    }
  }
  if (passed) return;
  std::string expected = std::string(name) + " " + compact(c.operand);
  if (all_scalars(c.operand)) {
    std::string list;
    for (const auto& v : c.operand) list += (list.empty() ? "" : ", ") + show(v);
    return mismatch(c, expected, "expected one of [" + list + "], got " + (c.actual ? show(*c.actual) : "<missing>"));
  }
  mismatch(c, expected, "matched none of the " + std::to_string(c.operand.size()) + " alternatives of " +
                            std::string(name) + ": " + reasons);
}
void apply_one_of(const OpCall& c) { apply_any(c, "one_of"); }
void apply_any_of(const OpCall& c) { apply_any(c, "any_of"); }

constexpr std::array kOperators{
    Operator{"type", false, expect_type, apply_type},
    Operator{"x-type", false, expect_type, apply_type},
    Operator{"exists", true, expect_bool, apply_exists},
    Operator{"absent", true, expect_bool, apply_absent},
    Operator{"contains", false, expect_string, apply_contains},
    Operator{"matches", false, expect_regex, apply_matches},
    Operator{"starts_with", false, expect_string, apply_starts_with},
    Operator{"ends_with", false, expect_string, apply_ends_with},
    Operator{"gte", false, expect_number, apply_gte},
    Operator{"lte", false, expect_number, apply_lte},
    Operator{"gt", false, expect_number, apply_gt},
    Operator{"lt", false, expect_number, apply_lt},
    Operator{"count", false, expect_count, apply_count_eq},
    Operator{"count_gte", false, expect_count, apply_count_gte},
    Operator{"count_lte", false, expect_count, apply_count_lte},
    Operator{"one_of", true, expect_list, apply_one_of},
    Operator{"any_of", true, expect_list, apply_any_of},
    Operator{"all_of", true, expect_list, apply_all_of},
    Operator{"not", true, expect_any, apply_not},
    Operator{"x-equals", true, expect_any, apply_x_equals},
    Operator{"items", false, expect_any, apply_items},
    Operator{"x-any-item", false, expect_any, apply_any_item},
};

}  // namespace

const Operator* find_operator(std::string_view name) {
  for (const auto& op : kOperators) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

std::vector<std::string_view> operator_names() {
  std::vector<std::string_view> out;
  for (const auto& op : kOperators) out.push_back(op.name);
  return out;
}

bool is_type_name(std::string_view name) {
  static constexpr std::array kNames{"string", "number", "integer", "boolean", "array", "object", "null"};
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

bool has_type(const Json& v, std::string_view name) {
  if (name == "string") return v.is_string();
  if (name == "number") return v.is_number();
  if (name == "integer") return v.is_number_integer();
  if (name == "boolean") return v.is_boolean();
  if (name == "array") return v.is_array();
  if (name == "object") return v.is_object();
  return name == "null" && v.is_null();
}

}  // namespace a2a::match::detail
