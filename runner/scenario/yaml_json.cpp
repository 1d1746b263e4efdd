#include "runner/scenario/yaml_json.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

namespace a2a::scenario {

namespace {

constexpr std::string_view kTagStr = "tag:yaml.org,2002:str";
constexpr std::string_view kTagInt = "tag:yaml.org,2002:int";
constexpr std::string_view kTagFloat = "tag:yaml.org,2002:float";
constexpr std::string_view kTagBool = "tag:yaml.org,2002:bool";
constexpr std::string_view kTagNull = "tag:yaml.org,2002:null";

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool all_of(std::string_view s, bool (*pred)(char)) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!pred(c)) return false;
  }
  return true;
}

bool is_null_text(std::string_view t) {
  return t.empty() || t == "~" || t == "null" || t == "Null" || t == "NULL";
}

std::optional<bool> bool_text(std::string_view t) {
  if (t == "true" || t == "True" || t == "TRUE") return true;
  if (t == "false" || t == "False" || t == "FALSE") return false;
  return std::nullopt;
}

std::optional<double> to_double(std::string_view t) {
  double v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
  return v;
}

// [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+ (YAML 1.2 core schema).
std::optional<nlohmann::json> int_text(std::string_view t) {
  int base = 10;
  std::string_view digits = t;
  bool negative = false;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'o' || t[1] == 'x')) {
    base = t[1] == 'o' ? 8 : 16;
    digits = t.substr(2);
  } else if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
    negative = t[0] == '-';
    digits = t.substr(1);
  }
  auto ok = [base](char c) {
    if (base == 8) return c >= '0' && c <= '7';
    if (base == 16) return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    return is_digit(c);
  };
  if (digits.empty()) return std::nullopt;
  for (char c : digits) {
    if (!ok(c)) return std::nullopt;
  }
  uint64_t magnitude = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (ec == std::errc::result_out_of_range) {
    // Too large for 64 bits: YAML keeps it a number, so it becomes a float.
    auto v = to_double(digits);
    return nlohmann::json(negative ? -v.value_or(0) : v.value_or(0));
  }
  if (!negative) {
    if (magnitude <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return nlohmann::json(static_cast<int64_t>(magnitude));
    }
    return nlohmann::json(magnitude);
  }
  if (magnitude <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + 1) {
    return nlohmann::json(static_cast<int64_t>(0 - magnitude));
  }
  return nlohmann::json(-static_cast<double>(magnitude));
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? | [-+]?\.inf | \.nan
std::optional<double> float_text(std::string_view t) {
  std::string_view body = t;
  bool negative = false;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body == ".inf" || body == ".Inf" || body == ".INF") {
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  }
  if (t == ".nan" || t == ".NaN" || t == ".NAN") return std::numeric_limits<double>::quiet_NaN();
  size_t i = 0;
  size_t int_digits = 0, frac_digits = 0;
  while (i < body.size() && is_digit(body[i])) ++i, ++int_digits;
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && is_digit(body[i])) ++i, ++frac_digits;
  }
  if (int_digits == 0 && frac_digits == 0) return std::nullopt;
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '-' || body[i] == '+')) ++i;
    if (!all_of(body.substr(i), is_digit)) return std::nullopt;
    i = body.size();
  }
  if (i != body.size()) return std::nullopt;
  auto v = to_double(body);
  if (!v) return std::nullopt;
  return negative ? -*v : *v;
}

template <class J>
J scalar_value(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  std::string_view tag = node.Tag();
  if (tag == "!" || tag == kTagStr) return J(text);
  if (tag == kTagNull) return J(nullptr);
  if (tag == kTagBool) {
    if (auto b = bool_text(text)) return J(*b);
    return J(text);
  }
  if (tag == kTagInt) {
    if (auto i = int_text(text)) return J(*i);
    return J(text);
  }
  if (tag == kTagFloat) {
    if (auto i = int_text(text)) return J(static_cast<double>(*i));
    if (auto f = float_text(text)) return J(*f);
    return J(text);
  }
  if (tag != "?" && !tag.empty()) return J(text);  // a local tag: keep the text
  nlohmann::json v = plain_scalar_value(text);
  return J(v);
}

template <class J>
J convert(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return J(nullptr);
    case YAML::NodeType::Scalar:
      return scalar_value<J>(node);
    case YAML::NodeType::Sequence: {
      J out = J::array();
      for (const auto& item : node) out.push_back(convert<J>(item));
      return out;
    }
    case YAML::NodeType::Map: {
      J out = J::object();
      for (const auto& kv : node) {
        std::string key = kv.first.IsScalar() ? kv.first.Scalar() : YAML::Dump(kv.first);
        out[key] = convert<J>(kv.second);
      }
      return out;
    }
  }
  return J(nullptr);
}

nlohmann::json scalar_json(const YAML::Node& node) {
  if (!node.IsScalar()) return convert<nlohmann::json>(node);
  return scalar_value<nlohmann::json>(node);
}

}  // namespace

nlohmann::json plain_scalar_value(std::string_view text) {
  if (is_null_text(text)) return nullptr;
  if (auto b = bool_text(text)) return *b;
  if (auto i = int_text(text)) return *i;
  if (auto f = float_text(text)) return *f;
  return std::string(text);
}

nlohmann::json yaml_to_json(const YAML::Node& node) { return convert<nlohmann::json>(node); }

nlohmann::ordered_json yaml_to_ordered_json(const YAML::Node& node) {
  return convert<nlohmann::ordered_json>(node);
}

std::string describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "null";
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a map";
  nlohmann::json v = scalar_json(node);
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number_integer()) return "an integer";
  if (v.is_number()) return "a number";
  return "a string";
}

bool is_string(const YAML::Node& node) {
  return node.IsDefined() && node.IsScalar() && scalar_json(node).is_string();
}

bool is_integer(const YAML::Node& node) {
  return node.IsDefined() && node.IsScalar() && scalar_json(node).is_number_integer();
}

bool is_bool(const YAML::Node& node) {
  return node.IsDefined() && node.IsScalar() && scalar_json(node).is_boolean();
}

core::SourceLocation location_of(const YAML::Node& node, const std::string& file) {
  const YAML::Mark mark = node.Mark();
  if (mark.line < 0) return {file, 0, 0};
  return {file, mark.line + 1, mark.column + 1};
}

}  // namespace a2a::scenario
