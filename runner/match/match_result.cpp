#include "runner/match/match_result.hpp"

namespace a2a::match {

void MatchResult::add(Mismatch m) {
  ok = false;
  mismatches.push_back(std::move(m));
}

void MatchResult::add(std::string path, std::string expected, std::string actual, std::string what) {
  std::string message = at_path(path, what);
  add(Mismatch{std::move(path), std::move(expected), std::move(actual), std::move(message)});
}

void MatchResult::add_error(std::string_view path, std::string_view what) {
  ok = false;
  std::string line = "malformed assertion at " + (path.empty() ? std::string("root") : std::string(path)) +
                     ": " + std::string(what);
  if (error.find(line) != std::string::npos) return;  // one alternative re-reporting it
  if (!error.empty()) error += "; ";
  error += line;
}

void MatchResult::merge(MatchResult other) {
  if (!other.error.empty()) {
    ok = false;
    if (error.empty()) error = std::move(other.error);
    else if (error.find(other.error) == std::string::npos) error += "; " + other.error;
  }
  for (auto& m : other.mismatches) add(std::move(m));
  if (!other.ok) ok = false;
}

void MatchResult::take_error(const MatchResult& other) {
  if (other.error.empty()) return;
  MatchResult only;
  only.ok = false;
  only.error = other.error;
  merge(std::move(only));
}

std::string MatchResult::summary(std::size_t max_lines) const {
  std::string out = error;
  std::size_t lines = error.empty() ? 0 : 1;
  for (std::size_t i = 0; i < mismatches.size(); ++i, ++lines) {
    if (lines == max_lines) {
      return out + "\n... and " + std::to_string(mismatches.size() - i) + " more";
    }
    if (!out.empty()) out += '\n';
    out += mismatches[i].message;
  }
  return out;
}

std::string compact(const Json& value, std::size_t max_len) {
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() <= max_len) return text;
  std::size_t cut = max_len;
  // Do not cut a UTF-8 sequence in half.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "...";
}

std::string show(const Json& value, std::size_t max_len) {
  if (!value.is_string()) return compact(value, max_len);
  std::string text = compact(value, max_len + 2);
  if (text.size() >= 2 && text.back() == '"') return text.substr(1, text.size() - 2);
  return text.substr(1);  // truncated: keep the "..." marker
}

std::string show_actual(const Json* value) { return value ? compact(*value) : "<missing>"; }

std::string_view json_type(const Json& value) {
  switch (value.type()) {
    case Json::value_t::string: return "string";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return "number";
    case Json::value_t::boolean: return "boolean";
    case Json::value_t::array: return "array";
    case Json::value_t::object: return "object";
    case Json::value_t::null: return "null";
    default: return "binary";
  }
}

std::string at_path(std::string_view path, std::string_view what) {
  if (path.empty()) return std::string(what);
  return std::string(path) + ": " + std::string(what);
}

}  // namespace a2a::match
