#include "runner/match/path.hpp"

#include <charconv>

namespace a2a::match {
namespace {

using core::ErrorKind;
using core::Expected;
using core::fail;
using Kind = PathSegment::Kind;

bool plain_key(std::string_view key) {
  if (key.empty()) return false;
  for (char c : key) {
    if (c == '.' || c == '[' || c == ']' || c == '"' || c == '\'' || c == ' ') return false;
  }
  return true;
}

std::string keys_of(const Json& object) {
  std::string out;
  std::size_t n = 0;
  for (const auto& [key, value] : object.items()) {
    if (n++ == 8) return out + ", ...";
    if (!out.empty()) out += ", ";
    out += key;
  }
  return out.empty() ? "no keys" : "keys " + out;
}

// Parses the inside of one `[...]` starting after '['; `pos` ends after ']'.
Expected<PathSegment> parse_bracket(std::string_view text, std::size_t& pos) {
  auto close = text.find(']', pos);
  if (close == std::string_view::npos) {
    return fail(ErrorKind::kParse, "path '" + std::string(text) + "': unclosed '['");
  }
  std::string_view inner = text.substr(pos, close - pos);
  PathSegment seg;
  if (inner == "*") {
    seg.kind = Kind::kWildcard;
  } else if (inner.size() >= 2 && (inner.front() == '"' || inner.front() == '\'') &&
             inner.back() == inner.front()) {
    seg.key = std::string(inner.substr(1, inner.size() - 2));
  } else {
    seg.kind = Kind::kIndex;
    auto [end, ec] = std::from_chars(inner.data(), inner.data() + inner.size(), seg.index);
    if (inner.empty() || ec != std::errc() || end != inner.data() + inner.size()) {
      return fail(ErrorKind::kParse, "path '" + std::string(text) + "': bad index [" +
                                         std::string(inner) + "]");
    }
  }
  pos = close + 1;
  return seg;
}

// A failure while stepping from `at` (reached at path `here`) through `seg`.
std::string step_failure(const Json& at, const PathSegment& seg, const std::string& here) {
  if (seg.kind == Kind::kKey) {
    std::string where = append_key(here, seg.key);
    if (!at.is_object()) return where + ": not found (" + (here.empty() ? "root" : here) +
                                " is " + at.type_name() + ", not an object)";
    return where + ": not found (" + (here.empty() ? "root" : here) + " has " + keys_of(at) + ")";
  }
  std::string where = std::string(here) + "[" +
                      (seg.kind == Kind::kWildcard ? "*" : std::to_string(seg.index)) + "]";
  if (!at.is_array()) return where + ": not an array (" + at.type_name() + ")";
  return where + ": index out of range (size " + std::to_string(at.size()) + ")";
}

// One non-wildcard step; nullptr when it does not resolve.
const Json* step(const Json& at, const PathSegment& seg, std::string& path) {
  if (seg.kind == Kind::kKey) {
    if (!at.is_object()) return nullptr;
    auto it = at.find(seg.key);
    if (it == at.end()) return nullptr;
    path = append_key(path, seg.key);
    return &*it;
  }
  if (!at.is_array()) return nullptr;
  long long size = static_cast<long long>(at.size());
  long long i = seg.index < 0 ? size + seg.index : seg.index;
  if (i < 0 || i >= size) return nullptr;
  path = append_index(path, static_cast<std::size_t>(i));
  return &at[static_cast<std::size_t>(i)];
}

}  // namespace

bool Path::has_wildcard() const {
  for (const auto& s : segments) {
    if (s.kind == Kind::kWildcard) return true;
  }
  return false;
}

std::string Path::str() const {
  std::string out;
  for (const auto& s : segments) {
    if (s.kind == Kind::kKey) out = append_key(out, s.key);
    else if (s.kind == Kind::kWildcard) out += "[*]";
    else out += "[" + std::to_string(s.index) + "]";
  }
  return out;
}

Expected<Path> parse_path(std::string_view text) {
  Path path;
  std::size_t pos = 0;
  bool need_key = false;  // after '.', a key must follow
  while (pos < text.size()) {
    if (text[pos] == '[') {
      ++pos;
      auto seg = parse_bracket(text, pos);
      if (!seg) return fail(seg.error());
      path.segments.push_back(std::move(*seg));
    } else {
      auto end = text.find_first_of(".[", pos);
      if (end == std::string_view::npos) end = text.size();
      std::string_view key = text.substr(pos, end - pos);
      if (key.empty() || key.find(']') != std::string_view::npos) {
        return fail(ErrorKind::kParse, "path '" + std::string(text) + "': empty or bad key at offset " +
                                           std::to_string(pos));
      }
      path.segments.push_back({Kind::kKey, std::string(key), 0});
      pos = end;
    }
    need_key = pos < text.size() && text[pos] == '.';
    if (need_key) ++pos;
    else if (pos < text.size() && text[pos] != '[') {
      return fail(ErrorKind::kParse, "path '" + std::string(text) + "': expected '.' or '[' at offset " +
                                         std::to_string(pos));
    }
  }
  if (need_key) return fail(ErrorKind::kParse, "path '" + std::string(text) + "': ends with '.'");
  return path;
}

std::string append_key(std::string_view base, std::string_view key) {
  std::string out(base);
  if (!plain_key(key)) return out + "[\"" + std::string(key) + "\"]";
  if (!out.empty()) out += '.';
  return out + std::string(key);
}

std::string append_index(std::string_view base, std::size_t index) {
  return std::string(base) + "[" + std::to_string(index) + "]";
}

std::string join_path(std::string_view base, std::string_view rest) {
  if (rest.empty()) return std::string(base);
  if (base.empty()) return std::string(rest);
  if (rest.front() == '[') return std::string(base) + std::string(rest);
  return std::string(base) + "." + std::string(rest);
}

Expected<const Json*> resolve(const Json& root, const Path& path) {
  if (path.has_wildcard()) {
    return fail(ErrorKind::kInvalidArgument,
                "path '" + path.str() + "' has a wildcard; it can name several values");
  }
  const Json* at = &root;
  std::string here;
  for (const auto& seg : path.segments) {
    const Json* next = step(*at, seg, here);
    if (!next) return fail(ErrorKind::kNotFound, step_failure(*at, seg, here));
    at = next;
  }
  return at;
}

Expected<const Json*> resolve(const Json& root, std::string_view path) {
  auto parsed = parse_path(path);
  if (!parsed) return fail(parsed.error());
  return resolve(root, *parsed);
}

PathHits resolve_all(const Json& root, const Path& path, std::string_view base) {
  PathHits out;
  std::vector<PathHit> current{{&root, std::string(base)}};
  bool expanded = false;
  for (const auto& seg : path.segments) {
    std::vector<PathHit> next;
    for (auto& hit : current) {
      if (seg.kind == Kind::kWildcard && hit.value->is_array()) {
        for (std::size_t i = 0; i < hit.value->size(); ++i) {
          next.push_back({&(*hit.value)[i], append_index(hit.path, i)});
        }
        continue;
      }
      std::string p = hit.path;
      const Json* v = seg.kind == Kind::kWildcard ? nullptr : step(*hit.value, seg, p);
      if (v) next.push_back({v, std::move(p)});
      else if (!expanded) out.unresolved = step_failure(*hit.value, seg, hit.path);
    }
    if (!out.unresolved.empty()) return out;
    expanded = expanded || seg.kind == Kind::kWildcard;
    current = std::move(next);
  }
  out.hits = std::move(current);
  return out;
}

}  // namespace a2a::match
