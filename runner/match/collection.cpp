#include "runner/match/collection.hpp"

#include <array>

#include "runner/match/assert.hpp"
#include "runner/match/path.hpp"

namespace a2a::match {
namespace {

// The array just before the first wildcard is a key missing from an object.
bool absent_array(const Json& target, const Path& path) {
  std::size_t w = 0;
  while (w < path.segments.size() && path.segments[w].kind != PathSegment::Kind::kWildcard) ++w;
  if (w == 0 || w == path.segments.size() || path.segments[w - 1].kind != PathSegment::Kind::kKey) return false;
  Path parent;
  parent.segments.assign(path.segments.begin(), path.segments.begin() + static_cast<std::ptrdiff_t>(w - 1));
  auto p = resolve(target, parent);
  return p && (*p)->is_object() && !(*p)->contains(path.segments[w - 1].key);
}

// The elements a collection-match path reaches; false (with a mismatch) when it cannot.
bool elements(const Json& target, const std::string& base, const Json& spec, std::string_view mode,
              std::vector<PathHit>& hits, MatchResult& out) {
  std::string text = spec.value("path", std::string("[*]"));
  auto path = parse_path(text);
  if (!path) {
    out.add_error(base, std::string(mode) + ".path: " + path.error().message);
    return false;
  }
  PathHits found = resolve_all(target, *path, base);
  if (!found.unresolved.empty() && !absent_array(target, *path)) {
    out.add(join_path(base, text), std::string(mode) + " " + compact(spec.value("match", Json())),
            "<missing>", "cannot reach the elements: " + found.unresolved);
    return false;
  }
  hits = std::move(found.hits);
  return true;
}

void match_elements(const Json& target, const std::string& base, const Json& spec, std::string_view mode,
                    MatchResult& out) {
  if (!spec.is_object() || !spec.contains("match") || (spec.contains("path") && !spec["path"].is_string())) {
    return out.add_error(base, std::string(mode) + " must be a map with path (a string) and match");
  }
  std::vector<PathHit> hits;
  if (!elements(target, base, spec, mode, hits, out)) return;
  const Json& want = spec["match"];
  std::string where = join_path(base, spec.value("path", std::string("[*]")));
  std::string closest;
  std::size_t matched = 0;
  for (const auto& hit : hits) {
    MatchResult r = match(*hit.value, want, hit.path);
    out.take_error(r);
    if (r.malformed()) return;
    if (r.ok) ++matched;
    if (r.ok && mode == "none") {
      out.add(hit.path, "none to match " + compact(want), compact(*hit.value),
              "matched " + compact(want) + ", but no element may");
    }
    if (!r.ok && closest.empty()) closest = r.mismatches.front().message;
    if (!r.ok && mode == "all") out.merge(std::move(r));
  }
  if (mode != "any" || matched > 0) return;
  std::string what = hits.empty() ? "no elements, expected one to match " + compact(want)
                                  : "none of the " + std::to_string(hits.size()) + " elements matched " +
                                        compact(want) + "; first: " + closest;
  out.add(where, "any to match " + compact(want), std::to_string(hits.size()) + " elements", what);
}

// The value at source/path: a wildcard path gives the array of its matches.
struct Target {
  const Json* value = nullptr;  // nullptr: the path does not resolve
  Json holder;                  // owns the array of a wildcard path
  std::string path;
  std::string unresolved;
};

bool select_target(const Json& source, const Json& assertion, const std::string& base, Target& t,
                   MatchResult& out) {
  t.value = &source;
  t.path = base;
  auto it = assertion.find("path");
  if (it == assertion.end()) return true;
  if (!it->is_string()) {
    out.add_error(base, "path must be a dot-path string, got " + compact(*it));
    return false;
  }
  auto path = parse_path(it->get<std::string>());
  if (!path) {
    out.add_error(base, "path: " + path.error().message);
    return false;
  }
  t.path = join_path(base, path->str());
  if (path->has_wildcard()) {
    t.holder = Json::array();
    for (const auto& h : resolve_all(source, *path).hits) t.holder.push_back(*h.value);
    t.value = &t.holder;
    return true;
  }
  auto hit = resolve(source, *path);
  t.value = hit ? *hit : nullptr;
  if (!hit) t.unresolved = hit.error().message;
  return true;
}

constexpr std::array kKeys{"id", "description", "source", "path", "match", "any", "all", "none"};

bool known_key(const std::string& key) {
  if (key.starts_with("x-")) return true;
  for (std::string_view k : kKeys) {
    if (k == key) return true;
  }
  return false;
}

}  // namespace

MatchResult match_collection(const Json& source, const Json& assertion, std::string_view source_name) {
  MatchResult out;
  std::string base(source_name);
  if (!assertion.is_object()) {
    out.add_error(base, "an assertion entry must be a map");
    return out;
  }
  for (const auto& [key, value] : assertion.items()) {
    if (!known_key(key)) out.add_error(base, "unknown key '" + key + "' in a named assertion");
  }
  Target t;
  if (!select_target(source, assertion, base, t, out)) return out;
  bool checked = false;
  if (auto it = assertion.find("match"); it != assertion.end()) {
    checked = true;
    MatchResult r = match_optional(t.value, *it, t.path);
    if (!t.value && !r.mismatches.empty()) r.mismatches.front().message += " (" + t.unresolved + ")";
    out.merge(std::move(r));
  }
  for (const char* mode : {"any", "all", "none"}) {
    auto it = assertion.find(mode);
    if (it == assertion.end()) continue;
    checked = true;
    if (t.value) match_elements(*t.value, t.path, *it, mode, out);
    else out.add(t.path, mode, "<missing>", "missing: " + t.unresolved);
  }
  if (!checked) out.add_error(base, "a named assertion needs match, any, all or none");
  return out;
}

}  // namespace a2a::match
