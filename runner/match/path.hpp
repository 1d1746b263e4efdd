// Dot-paths into JSON values (ACTS §5.2): the paths of `capture` values,
// `repeat.until` expressions and collection assertions, e.g.
// `task.artifacts[0].parts[*].text`. Pure functions, no I/O.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "runner/core/expected.hpp"

namespace a2a::match {

using Json = nlohmann::json;

struct PathSegment {
  enum class Kind { kKey, kIndex, kWildcard };
  Kind kind = Kind::kKey;
  std::string key;      // kKey
  long long index = 0;  // kIndex; negative counts from the end ([-1] = last)
};

struct Path {
  std::vector<PathSegment> segments;

  bool empty() const { return segments.empty(); }
  bool has_wildcard() const;
  std::string str() const;  // canonical text, "" for the root
};

// Grammar: keys separated by '.', `[N]`, `[-N]`, `[*]`, and `["key"]` / `['key']`
// for keys holding '.', '[' or ']'. Any other character (dash, '@', '$') is part
// of a key: `error.data[*].@type`, `steps.get-missing.id`. "" is the root.
core::Expected<Path> parse_path(std::string_view text);

// Path text for diagnostics. A key that would not parse back plainly is quoted:
// append_key("a", "x.y") == "a[\"x.y\"]"; append_key("", "k") == "k".
std::string append_key(std::string_view base, std::string_view key);
std::string append_index(std::string_view base, std::size_t index);
// base + rest, where rest is a path text ("" -> base).
std::string join_path(std::string_view base, std::string_view rest);

// One value a path reached, with the concrete path (wildcards expanded).
struct PathHit {
  const Json* value = nullptr;
  std::string path;
};

// Exactly one value. Fails (ErrorKind::kNotFound) saying how far it got:
// "task.artifacts[3]: index out of range (size 1)". A wildcard path is an
// ErrorKind::kInvalidArgument error here; use resolve_all.
core::Expected<const Json*> resolve(const Json& root, const Path& path);
core::Expected<const Json*> resolve(const Json& root, std::string_view path);

// Every value the path reaches, in document order. A branch below a wildcard
// that does not resolve is skipped (`parts[*].text` over a part without text);
// when the part before the first wildcard does not resolve, `hits` is empty and
// `unresolved` says why, so "no such field" and "empty array" stay distinct.
struct PathHits {
  std::vector<PathHit> hits;
  std::string unresolved;
};
PathHits resolve_all(const Json& root, const Path& path, std::string_view base = "");

}  // namespace a2a::match
