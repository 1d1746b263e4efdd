#include "runner/match/vars.hpp"

#include <cstdlib>

#include "runner/core/escape.hpp"
#include "runner/match/path.hpp"

namespace a2a::match {

using core::ErrorKind;
using core::Expected;
using core::fail;

namespace {

// Document variables may refer to each other; deeper nesting is a cycle.
constexpr int kMaxDepth = 8;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "nothing" : out;
}

std::string splice_text(const Json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// The value below `value` along path.segments[from..]; `name` is what `value` is called.
Expected<Json> descend(const Json& value, const Path& path, std::size_t from, const std::string& name) {
  Path rest;
  rest.segments.assign(path.segments.begin() + static_cast<std::ptrdiff_t>(from), path.segments.end());
  if (rest.empty()) return value;
  auto hit = resolve(value, rest);
  if (!hit) return fail(ErrorKind::kNotFound, "unresolved variable {{" + path.str() + "}}: in " + name + ", " +
                                                  hit.error().message);
  return **hit;
}

}  // namespace

struct VarsAccess {
  static Expected<Json> resolve(const Vars& vars, std::string_view expr, int depth) {
    return vars.resolve_at_depth(expr, depth);
  }

  static Expected<std::string> splice(std::string_view s, const Vars& vars, int depth) {
    std::string out;
    std::size_t pos = 0;
    for (;;) {
      auto open = s.find("{{", pos);
      auto close = open == std::string_view::npos ? open : s.find("}}", open + 2);
      if (close == std::string_view::npos) break;
      out.append(s.substr(pos, open - pos));
      auto v = resolve(vars, s.substr(open + 2, close - open - 2), depth);
      if (!v) return fail(v.error());
      out += splice_text(*v);
      pos = close + 2;
    }
    out.append(s.substr(pos));
    return out;
  }

  static Expected<Json> string_value(const std::string& s, const Vars& vars, int depth) {
    if (s.find("{{") == std::string::npos) return Json(s);
    bool single = s.size() >= 4 && s.starts_with("{{") && s.find("}}") == s.size() - 2;
    if (single) return resolve(vars, std::string_view(s).substr(2, s.size() - 4), depth);
    auto text = splice(s, vars, depth);
    if (!text) return fail(text.error());
    return Json(std::move(*text));
  }

  static Expected<Json> interpolate(const Json& tmpl, const Vars& vars, int depth) {
    if (tmpl.is_string()) return string_value(tmpl.get_ref<const std::string&>(), vars, depth);
    if (!tmpl.is_structured()) return tmpl;
    Json out = tmpl.is_array() ? Json::array() : Json::object();
    for (auto it = tmpl.begin(); it != tmpl.end(); ++it) {
      auto v = interpolate(*it, vars, depth);
      if (!v) return v;
      if (tmpl.is_array()) out.push_back(std::move(*v));
      else out[it.key()] = std::move(*v);
    }
    return out;
  }
};

Vars::Vars()
    : env_([](std::string_view name) -> std::optional<std::string> {
        const char* v = std::getenv(std::string(name).c_str());
        if (!v) return std::nullopt;
        return std::string(v);
      }),
      uuid_(core::uuid_v7) {}

void Vars::set_variable(std::string name, Json value) { variables_[std::move(name)] = std::move(value); }

void Vars::set_variables(const Json& object) {
  if (!object.is_object()) return;
  for (const auto& [name, value] : object.items()) set_variable(name, value);
}

void Vars::set_capture(std::string_view step, std::string name, Json value) {
  captures_[std::string(step)][std::move(name)] = std::move(value);
}

void Vars::set_root(std::string name, Json value) { roots_[std::move(name)] = std::move(value); }
void Vars::set_env_lookup(EnvLookup lookup) { env_ = std::move(lookup); }
void Vars::set_uuid_generator(std::function<std::string()> generate) { uuid_ = std::move(generate); }

Expected<Json> Vars::resolve(std::string_view expr) const { return resolve_at_depth(expr, 0); }

Expected<Json> Vars::resolve_at_depth(std::string_view raw, int depth) const {
  std::string expr(trim(raw));
  if (depth > kMaxDepth) {
    return fail(ErrorKind::kSchema, "variable {{" + expr + "}}: references nest deeper than " +
                                        std::to_string(kMaxDepth) + " (a cycle?)");
  }
  auto expand = [&](const Json& value) { return VarsAccess::interpolate(value, *this, depth + 1); };
  auto whole = variables_.find(expr);  // a name that is not a plain path, or has dots
  auto path = parse_path(expr);
  std::string why;
  if (path && !path->empty() && path->segments[0].kind == PathSegment::Kind::kKey) {
    const auto& segs = path->segments;
    const std::string& head = segs[0].key;
    auto step = captures_.find(head);
    if (step != captures_.end() && segs.size() >= 2 && segs[1].kind == PathSegment::Kind::kKey) {
      if (auto c = step->second.find(segs[1].key); c != step->second.end()) {
        return descend(c->second, *path, 2, head + "." + segs[1].key);
      }
      std::vector<std::string> names;
      for (const auto& [n, v] : step->second) names.push_back(n);
      why = "step '" + head + "' captured no '" + segs[1].key + "' (it has " + joined(names) + ")";
    }
    if (whole != variables_.end()) return expand(whole->second);
    if (auto v = variables_.find(head); v != variables_.end()) {
      auto value = expand(v->second);
      return value ? descend(*value, *path, 1, head) : value;
    }
    if (auto r = roots_.find(head); r != roots_.end()) return descend(r->second, *path, 1, head);
    if (head == "env" && segs.size() == 2 && segs[1].kind == PathSegment::Kind::kKey) {
      if (auto v = env_(segs[1].key)) return Json(*v);
      why = "environment variable " + segs[1].key + " is not set";
    }
  }
  if (whole != variables_.end()) return expand(whole->second);
  if (expr == "$uuid") return Json(uuid_());
  if (expr.empty()) why = "empty reference";
  return fail(ErrorKind::kNotFound, "unresolved variable {{" + expr + "}}" + (why.empty() ? "" : ": " + why) +
                                        "; known: " + joined(known()));
}

std::vector<std::string> Vars::known() const {
  std::vector<std::string> out;
  for (const auto& [step, names] : captures_) {
    for (const auto& [name, v] : names) out.push_back(step + "." + name);
  }
  for (const auto& [name, v] : variables_) out.push_back(name);
  for (const auto& [name, v] : roots_) out.push_back(name + ".*");
  out.push_back("env.*");
  out.push_back("$uuid");
  return out;
}

Expected<Json> interpolate(const Json& tmpl, const Vars& vars) { return VarsAccess::interpolate(tmpl, vars, 0); }

Expected<std::string> interpolate_text(std::string_view text, const Vars& vars) {
  return VarsAccess::splice(text, vars, 0);
}

Expected<Json> capture(const Json& response, std::string_view path_text) {
  auto path = parse_path(path_text);
  if (!path) return fail(path.error());
  if (path->has_wildcard()) {
    auto hits = resolve_all(response, *path);
    if (!hits.unresolved.empty()) return fail(ErrorKind::kNotFound, hits.unresolved);
    Json out = Json::array();
    for (const auto& h : hits.hits) out.push_back(*h.value);
    return out;
  }
  auto hit = resolve(response, *path);
  if (!hit) return fail(hit.error());
  return **hit;
}

Expected<void> apply_captures(std::string_view step, const Json& block, const Json& response, Vars& vars) {
  if (!block.is_object()) return fail(ErrorKind::kSchema, "capture must be a map of name: path");
  for (const auto& [name, path] : block.items()) {
    if (!path.is_string()) {
      return fail(ErrorKind::kSchema, "capture " + name + ": the path must be a string, got " + path.dump());
    }
    auto value = capture(response, path.get<std::string>());
    if (!value) return fail(value.error().kind, "capture " + name + ": " + value.error().message);
    vars.set_capture(step, name, std::move(*value));
  }
  return {};
}

}  // namespace a2a::match
