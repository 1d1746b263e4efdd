#include "runner/match/assert.hpp"

#include <algorithm>
#include <cctype>

#include "runner/match/assert_detail.hpp"
#include "runner/match/path.hpp"

namespace a2a::match {
namespace {

using detail::Classified;

// Optimal-string-alignment distance, capped: only "is it 1?" matters here.
std::size_t osa_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// A plain key beside real operators that is most likely a misspelt operator
// rather than a field: A2A fields are camelCase, so a snake_case key, an
// unknown x- key, or a one-edit near miss of a long operator name.
std::string suspicious_key(std::string_view key) {
  std::string folded;  // "oneOf", "startsWith": JSON-Schema habits
  for (char c : key) {
    if (c != '_') folded += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  for (auto name : detail::operator_names()) {
    std::string bare;
    for (char c : name) {
      if (c != '_') bare += c;
    }
    if (folded == bare && key != name) {
      return "unknown operator '" + std::string(key) + "' (did you mean '" + std::string(name) + "'?)";
    }
    if (name.size() >= 5 && osa_distance(key, name) == 1) {
      return "unknown operator '" + std::string(key) + "' (did you mean '" + std::string(name) + "'?)";
    }
  }
  if (key.starts_with("x-") || key.find('_') != std::string_view::npos) {
    return "unknown operator '" + std::string(key) + "'";
  }
  return "";
}

void match_exact(const Json* actual, const Json& expected, const std::string& path, MatchResult& out) {
  if (!actual) {
    out.add(path, show(expected), "<missing>", "missing, expected " + show(expected));
    return;
  }
  if (values_equal(*actual, expected)) return;
  std::string what = "expected " + show(expected) + ", got " + show(*actual);
  if (json_type(*actual) != json_type(expected)) {
    what = "expected " + show(expected) + " (" + std::string(json_type(expected)) + "), got " +
           show(*actual) + " (" + std::string(json_type(*actual)) + ")";
  }
  out.add(path, show(expected), compact(*actual), what);
}

void match_fields(const Json* actual, const Classified& c, const Json& assertion, const std::string& path,
                  MatchResult& out) {
  if (!actual) {
    out.add(path, compact(assertion), "<missing>", "missing, expected an object matching " + compact(assertion));
    return;
  }
  if (!actual->is_object()) {
    out.add(path, "object", compact(*actual),
            "expected an object, got " + std::string(json_type(*actual)) + " " + compact(*actual));
    return;
  }
  for (const auto& [key, sub] : c.fields) {
    auto it = actual->find(key);
    detail::match_into(it == actual->end() ? nullptr : &*it, *sub, append_key(path, key), out);
  }
}

void match_operators(const Json* actual, const Classified& c, const Json& assertion, const std::string& path,
                     MatchResult& out) {
  bool missing_reported = false;
  for (const auto& [name, operand] : c.ops) {
    const detail::Operator* op = detail::find_operator(name);
    if (std::string e = op->check(*operand); !e.empty()) {
      out.add_error(path, name + ": " + e);
      continue;
    }
    if (!actual && !op->presence_aware) {
      if (!missing_reported) {
        out.add(path, compact(assertion), "<missing>", "missing, expected " + compact(assertion));
      }
      missing_reported = true;
      continue;
    }
    op->apply({actual, *operand, path, out});
  }
}

void check_into(const Json& assertion, const std::string& path, MatchResult& out);

void check_operand(std::string_view name, const Json& operand, const std::string& path, MatchResult& out) {
  if (std::string e = detail::find_operator(name)->check(operand); !e.empty()) {
    out.add_error(path, std::string(name) + ": " + e);
    return;
  }
  if (name == "not" || name == "items") check_into(operand, path, out);
  if (name == "all_of" || name == "any_of" || name == "one_of") {
    for (std::size_t i = 0; i < operand.size(); ++i) check_into(operand[i], append_index(path, i), out);
  }
}

void check_into(const Json& assertion, const std::string& path, MatchResult& out) {
  if (assertion.is_array()) {
    for (std::size_t i = 0; i < assertion.size(); ++i) check_into(assertion[i], append_index(path, i), out);
    return;
  }
  if (!assertion.is_object()) return;
  Classified c = detail::classify(assertion);
  if (!c.error.empty()) out.add_error(path, c.error);
  for (const auto& [name, operand] : c.ops) check_operand(name, *operand, path, out);
  for (const auto& [key, sub] : c.fields) check_into(*sub, append_key(path, key), out);
}

}  // namespace

namespace detail {

Classified classify(const Json& map) {
  Classified c;
  for (const auto& [key, value] : map.items()) {
    if (key == "type" || key == "items") continue;
    (is_operator(key) ? c.ops : c.fields).emplace_back(key, &value);
  }
  if (auto it = map.find("type"); it != map.end()) {
    bool op = it->is_string() && (is_type_name(it->get<std::string>()) || c.fields.empty());
    (op ? c.ops : c.fields).emplace_back("type", &*it);
  }
  if (auto it = map.find("items"); it != map.end()) {
    (c.ops.empty() ? c.fields : c.ops).emplace_back("items", &*it);
  }
  if (c.ops.empty()) return c;
  for (const auto& [key, value] : c.fields) {
    if (std::string e = suspicious_key(key); !e.empty()) {
      c.error = e;
      break;
    }
  }
  return c;
}

void match_into(const Json* actual, const Json& assertion, const std::string& path, MatchResult& out) {
  if (assertion.is_array()) return match_list(actual, assertion, path, out);
  if (!assertion.is_object()) return match_exact(actual, assertion, path, out);
  Classified c = classify(assertion);
  if (!c.error.empty()) return out.add_error(path, c.error);
  // `{items: ...}` alone reads as a field named "items" (objects have such
  // fields), unless the value it is matched against is an array, where only the
  // operator makes sense.
  if (c.ops.empty() && c.fields.size() == 1 && c.fields[0].first == "items" && actual &&
      actual->is_array())
    std::swap(c.ops, c.fields);
  if (!c.ops.empty()) match_operators(actual, c, assertion, path, out);
  // A missing value was already reported by the operators.
  if (c.ops.empty() || (!c.fields.empty() && actual)) match_fields(actual, c, assertion, path, out);
}

void match_list(const Json* actual, const Json& list, const std::string& path, MatchResult& out) {
  if (!actual || !actual->is_array()) {
    std::string got = actual ? std::string(json_type(*actual)) + " " + compact(*actual) : "<missing>";
    out.add(path, "array", show_actual(actual), "expected an array, got " + got);
    return;
  }
  std::size_t n = std::min(actual->size(), list.size());
  for (std::size_t i = 0; i < n; ++i) match_into(&(*actual)[i], list[i], append_index(path, i), out);
  if (actual->size() < list.size()) {
    out.add(path, "at least " + std::to_string(list.size()) + " elements", compact(*actual),
            "expected at least " + std::to_string(list.size()) + " elements, got " +
                std::to_string(actual->size()));
  }
}

}  // namespace detail

MatchResult match(const Json& actual, const Json& assertion, std::string_view base_path) {
  return match_optional(&actual, assertion, base_path);
}

MatchResult match_optional(const Json* actual, const Json& assertion, std::string_view base_path) {
  MatchResult out;
  detail::match_into(actual, assertion, std::string(base_path), out);
  return out;
}

std::string check_assertion(const Json& assertion, std::string_view base_path) {
  MatchResult out;
  check_into(assertion, std::string(base_path), out);
  return out.error;
}

bool is_operator(std::string_view key) {
  return key != "items" && detail::find_operator(key) != nullptr;
}

bool values_equal(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) return a == b;  // nlohmann compares across int/float
  if (a.type() != b.type()) return false;
  return a == b;
}

bool strictly_equal(const Json& a, const Json& b) {
  if (a.is_number_integer() && b.is_number_integer()) return a == b;
  if (a.type() != b.type()) return false;
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!strictly_equal(a[i], b[i])) return false;
    }
    return true;
  }
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (const auto& [key, value] : a.items()) {
      auto it = b.find(key);
      if (it == b.end() || !strictly_equal(value, *it)) return false;
    }
    return true;
  }
  return a == b;
}

}  // namespace a2a::match
