#include "peers/a2a-ref-client/script.hpp"

#include <charconv>

#include "peers/a2a-ref-client/ops.hpp"
#include "runner/core/escape.hpp"

namespace a2a::client {
namespace {

using core::ErrorKind;

core::Unexpected line_error(ErrorKind kind, std::string_view source, int line, std::string message) {
  return core::fail(kind, std::move(message), core::SourceLocation{std::string(source), line, 0});
}

std::optional<size_t> as_index(std::string_view s) {
  size_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

core::Expected<Json> substitute_string(const std::string& s, const SavedValues& saved) {
  const bool whole = s.size() > 3 && s.rfind("${", 0) == 0 && s.find('}') == s.size() - 1;
  if (whole) {
    std::string path = s.substr(2, s.size() - 3);
    auto v = lookup(saved, path);
    if (!v) return core::fail(ErrorKind::kInvalidArgument, "unknown reference ${" + path + "}");
    return *v;
  }
  std::string out;
  size_t pos = 0;
  for (;;) {
    size_t start = s.find("${", pos);
    if (start == std::string::npos) break;
    size_t end = s.find('}', start);
    if (end == std::string::npos) break;
    std::string path = s.substr(start + 2, end - start - 2);
    auto v = lookup(saved, path);
    if (!v) return core::fail(ErrorKind::kInvalidArgument, "unknown reference ${" + path + "}");
    out += s.substr(pos, start - pos);
    out += v->is_string() ? v->get<std::string>() : v->dump();
    pos = end + 1;
  }
  out += s.substr(pos);
  return Json(out);
}

}  // namespace

std::optional<Json> lookup(const SavedValues& saved, std::string_view path) {
  size_t dot = path.find('.');
  auto it = saved.find(std::string(path.substr(0, dot)));
  if (it == saved.end()) return std::nullopt;
  const Json* cur = &it->second;
  while (dot != std::string_view::npos) {
    size_t next = path.find('.', dot + 1);
    std::string_view seg = path.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1);
    if (cur->is_object() && cur->contains(std::string(seg))) {
      cur = &(*cur)[std::string(seg)];
    } else if (auto idx = as_index(seg); cur->is_array() && idx && *idx < cur->size()) {
      cur = &(*cur)[*idx];
    } else {
      return std::nullopt;
    }
    dot = next;
  }
  return *cur;
}

core::Expected<Json> substitute(const Json& params, const SavedValues& saved) {
  if (params.is_string()) return substitute_string(params.get<std::string>(), saved);
  if (!params.is_structured()) return params;
  Json out = params;
  for (auto it = out.begin(); it != out.end(); ++it) {
    auto v = substitute(it.value(), saved);
    if (!v) return v;
    it.value() = std::move(*v);
  }
  return out;
}

core::Expected<std::optional<ScriptStep>> parse_script_line(std::string_view text, int line,
                                                            std::string_view source) {
  size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos || text[first] == '#') return std::optional<ScriptStep>{};
  Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    return line_error(ErrorKind::kParse, source, line,
                      "not a JSON object: '" + core::escape_bytes(text, 120) + "'");
  }
  ScriptStep step;
  step.line = line;
  if (!doc.contains("op") || !doc["op"].is_string()) {
    return line_error(ErrorKind::kSchema, source, line, "missing string member \"op\"");
  }
  step.op_name = doc["op"].get<std::string>();
  if (step.op_name == "sleep") {
    if (!doc.contains("ms") || !doc["ms"].is_number_integer() || doc["ms"].get<long long>() < 0 ||
        doc["ms"].get<long long>() > 60000) {
      return line_error(ErrorKind::kSchema, source, line, "sleep needs \"ms\": an integer 0..60000");
    }
    step.sleep_ms = doc["ms"].get<int>();
    return std::optional<ScriptStep>(std::move(step));
  }
  if (step.op_name == "parallel") {
    if (!doc.contains("ops") || !doc["ops"].is_array() || doc["ops"].size() < 2 || doc["ops"].size() > 16)
      return line_error(ErrorKind::kSchema, source, line, "parallel needs \"ops\": an array of 2..16 operations");
    for (const auto& o : doc["ops"]) {
      auto sub = parse_script_line(o.dump(), line, source);
      if (!sub) return core::fail(sub.error());
      if (!sub->has_value() || !(*sub)->op || model::is_streaming(*(*sub)->op) || !(*sub)->save_as.empty())
        return line_error(ErrorKind::kSchema, source, line, "parallel runs unary operations only, without \"as\"");
      step.parallel.push_back(std::move(**sub));
    }
    return std::optional<ScriptStep>(std::move(step));
  }
  step.op = operation_from_cli_name(step.op_name);
  if (!step.op) return line_error(ErrorKind::kSchema, source, line, "unknown op '" + step.op_name + "'");
  if (doc.contains("params")) step.params = doc["params"];
  if (doc.contains("as")) {
    if (!doc["as"].is_string() || doc["as"].get<std::string>().empty()) {
      return line_error(ErrorKind::kSchema, source, line, "\"as\" must be a non-empty string");
    }
    step.save_as = doc["as"].get<std::string>();
  }
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (it.key() != "op" && it.key() != "params" && it.key() != "as") {
      return line_error(ErrorKind::kSchema, source, line, "unknown member \"" + it.key() + "\"");
    }
  }
  return std::optional<ScriptStep>(std::move(step));
}

}  // namespace a2a::client
