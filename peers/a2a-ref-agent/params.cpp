#include "peers/a2a-ref-agent/params.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace a2a::agent {
namespace {

std::string path_of(std::string_view prefix, std::string_view name) {
  if (prefix.empty()) return std::string(name);
  return std::string(prefix) + "." + std::string(name);
}

std::string_view type_name(const Json& j) {
  switch (j.type()) {
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::number_float: return "a fractional number";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return "an integer";
    default: return "null";
  }
}

constexpr long long kInt32Min = std::numeric_limits<int32_t>::min();
constexpr long long kInt32Max = std::numeric_limits<int32_t>::max();

}  // namespace

std::string snake_case(std::string_view camel) {
  std::string out;
  out.reserve(camel.size() + 4);
  for (char c : camel) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

const Json* field(const Json& obj, std::string_view camel) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(camel);
  if (it == obj.end()) {
    // The snake_case spelling, only when it differs, and spelled on the
    // stack: most lookups are of optional members that are absent, and a
    // string built per lookup was a tenth of a gRPC SendMessage
    // (docs/performance.md, "gRPC").
    auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
    size_t uppers = static_cast<size_t>(std::count_if(camel.begin(), camel.end(), upper));
    if (uppers == 0) return nullptr;
    std::array<char, 96> buf;
    if (camel.size() + uppers > buf.size()) {
      it = obj.find(snake_case(camel));
    } else {
      size_t n = 0;
      for (char c : camel) {
        if (upper(c)) {
          buf[n++] = '_';
          buf[n++] = static_cast<char>(c - 'A' + 'a');
        } else {
          buf[n++] = c;
        }
      }
      it = obj.find(std::string_view(buf.data(), n));
    }
    if (it == obj.end()) return nullptr;
  }
  return it->is_null() ? nullptr : &*it;
}

std::optional<CallError> require_object(const Json& params, bool allow_absent) {
  if (params.is_object()) return std::nullopt;
  if (allow_absent && params.is_null()) return std::nullopt;
  return invalid_params("params", "must be a JSON object, got " + std::string(type_name(params)));
}

std::optional<CallError> get_string(const Json& obj, std::string_view name, std::optional<std::string>& out,
                                    std::string_view prefix) {
  const Json* v = field(obj, name);
  if (!v) return std::nullopt;
  if (!v->is_string()) {
    return invalid_params(path_of(prefix, name), "must be a string, got " + std::string(type_name(*v)));
  }
  out = v->get<std::string>();
  return std::nullopt;
}

std::optional<CallError> get_required_string(const Json& obj, std::string_view name, std::string& out,
                                             std::string_view prefix) {
  std::optional<std::string> v;
  if (auto err = get_string(obj, name, v, prefix)) return err;
  if (!v || v->empty()) return invalid_params(path_of(prefix, name), "is required");
  out = std::move(*v);
  return std::nullopt;
}

std::optional<CallError> get_int(const Json& obj, std::string_view name, std::optional<long long>& out,
                                 std::string_view prefix) {
  const Json* v = field(obj, name);
  if (!v) return std::nullopt;
  long long n = 0;
  if (v->is_number_integer()) {
    if (v->is_number_unsigned() && v->get<unsigned long long>() > static_cast<unsigned long long>(kInt32Max)) {
      return invalid_params(path_of(prefix, name), "is out of the int32 range");
    }
    n = v->get<long long>();
  } else if (v->is_number_float()) {
    double d = v->get<double>();  // ProtoJSON accepts 5.0 for an int32, not 5.5
    if (!std::isfinite(d) || std::trunc(d) != d || std::fabs(d) > 1e12) {
      return invalid_params(path_of(prefix, name), "must be an integer, got " + v->dump());
    }
    n = static_cast<long long>(d);
  } else if (v->is_string()) {
    const std::string& s = v->get_ref<const std::string&>();
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) {
      return invalid_params(path_of(prefix, name), "'" + s + "' is not an integer");
    }
  } else {
    return invalid_params(path_of(prefix, name), "must be an integer, got " + std::string(type_name(*v)));
  }
  if (n < kInt32Min || n > kInt32Max) return invalid_params(path_of(prefix, name), "is out of the int32 range");
  out = n;
  return std::nullopt;
}

std::optional<CallError> get_bool(const Json& obj, std::string_view name, std::optional<bool>& out,
                                  std::string_view prefix) {
  const Json* v = field(obj, name);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) {
    return invalid_params(path_of(prefix, name), "must be a boolean, got " + std::string(type_name(*v)));
  }
  out = v->get<bool>();
  return std::nullopt;
}

std::optional<CallError> get_history_length(const Json& obj, std::optional<long long>& out,
                                            std::string_view prefix) {
  if (auto err = get_int(obj, "historyLength", out, prefix)) return err;
  if (out && *out < 0) {
    return invalid_params(path_of(prefix, "historyLength"),
                          "must not be negative, got " + std::to_string(*out));
  }
  return std::nullopt;
}

}  // namespace a2a::agent
