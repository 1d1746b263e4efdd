#include "runner/scenario/parse_support.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include "runner/scenario/yaml_json.hpp"

namespace a2a::scenario::detail {

core::SourceLocation Diagnostics::at(const YAML::Node& node) const { return location_of(node, file_); }

void Diagnostics::error(const YAML::Node& at_node, std::string message, core::ErrorKind kind) {
  error(at(at_node), std::move(message), kind);
}

void Diagnostics::error(core::SourceLocation where, std::string message, core::ErrorKind kind) {
  if (where.file.empty()) where.file = file_;
  items_.push_back({std::move(where), kind, std::move(message)});
}

// One problem per line is the contract (loader.hpp), but a message may quote
// a key or value holding line breaks (a quoted YAML key can): escape them.
std::string one_line(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  for (char c : message) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += c;
    }
  }
  return out;
}

core::Error Diagnostics::to_error() const {
  std::vector<Diagnostic> sorted = items_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.where.line != b.where.line) return a.where.line < b.where.line;
    return a.where.column < b.where.column;
  });
  core::Error out;
  out.kind = sorted.empty() ? core::ErrorKind::kInternal : sorted.front().kind;
  for (const auto& d : sorted) {
    if (!out.message.empty()) out.message += '\n';
    out.message += d.where.str() + ": " + one_line(d.message);
  }
  return out;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1, 0));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

std::string did_you_mean(std::string_view word, Keys candidates) {
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  const size_t reach = word.size() <= 3 ? 1 : word.size() <= 6 ? 2 : 3;
  size_t best = std::numeric_limits<size_t>::max();
  std::string_view pick;
  for (auto c : candidates) {
    // A truncated name ("TaskNotFound" for "TaskNotFoundError") is close too.
    size_t dist = word.size() >= 4 && c.starts_with(word) ? 1 : edit_distance(lower(word), lower(c));
    if (dist < best) {
      best = dist;
      pick = c;
    }
  }
  if (pick.empty() || best > reach) return {};
  return " (did you mean '" + std::string(pick) + "'?)";
}

std::string join(Keys words, std::string_view sep) {
  std::string out;
  for (auto w : words) {
    if (!out.empty()) out += sep;
    out += w;
  }
  return out;
}

MapReader::MapReader(const YAML::Node& node, std::string context, Diagnostics& diags)
    : node_(node), context_(std::move(context)), diags_(diags) {
  is_map_ = node.IsDefined() && node.IsMap();
  if (!is_map_) {
    diags_.error(node, context_ + " must be a map (got " + describe(node) + ")");
    return;
  }
  for (const auto& kv : node) {
    std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
    entries_.push_back({std::move(key), kv.first, kv.second});
  }
}

const MapReader::Entry* MapReader::find(std::string_view key) const {
  for (const auto& e : entries_) {
    if (e.key_node.IsScalar() && e.key == key) return &e;
  }
  return nullptr;
}

core::SourceLocation MapReader::where(std::string_view key) const {
  const Entry* e = find(key);
  if (!e) return where();
  if (e->value.IsNull()) return diags_.at(e->key_node);
  return diags_.at(e->value);
}

bool MapReader::has(std::string_view key) const { return find(key) != nullptr; }

YAML::Node MapReader::get(std::string_view key) const {
  const Entry* e = find(key);
  return e ? e->value : YAML::Node(YAML::NodeType::Undefined);
}

std::vector<std::string> MapReader::keys() const {
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e.key);
  return out;
}

void MapReader::check_duplicates() const {
  for (size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    if (!e.key_node.IsScalar()) {
      diags_.error(e.key_node, "keys must be plain text in " + context_);
      continue;
    }
    for (size_t j = 0; j < i; ++j) {
      if (entries_[j].key == e.key) {
        diags_.error(e.key_node, "duplicate key '" + e.key + "' in " + context_);
        break;
      }
    }
  }
}

void MapReader::check_keys(Keys known, bool allow_extensions) const {
  check_duplicates();
  for (const Entry& e : entries_) {
    if (!e.key_node.IsScalar()) continue;
    if (allow_extensions && e.key.starts_with("x-")) continue;
    if (std::find(known.begin(), known.end(), e.key) == known.end()) {
      diags_.error(e.key_node,
                   "unknown key '" + e.key + "' in " + context_ + did_you_mean(e.key, known));
    }
  }
}

void MapReader::require(std::string_view key) const {
  if (!has(key)) {
    diags_.error(where(), "missing required key '" + std::string(key) + "' in " + context_);
  }
}

void MapReader::error(std::string_view key, const std::string& problem, const std::string& hint) const {
  diags_.error(where(key), problem + " in " + context_ + hint);
}

core::SourceLocation MapReader::key_where(std::string_view key) const {
  const Entry* e = find(key);
  return e ? diags_.at(e->key_node) : where();
}

std::optional<std::string> MapReader::string(std::string_view key, bool required) const {
  if (!has(key)) {
    if (required) require(key);
    return std::nullopt;
  }
  const YAML::Node v = get(key);
  if (!is_string(v)) {
    std::string hint = v.IsScalar() && !v.IsNull() ? "; quote it: \"" + v.Scalar() + "\"" : "";
    error(key, "'" + std::string(key) + "' must be a string (got " + describe(v) + hint + ")");
    return std::nullopt;
  }
  return v.Scalar();
}

std::optional<int64_t> MapReader::integer(std::string_view key, int64_t min, int64_t max,
                                          bool required) const {
  if (!has(key)) {
    if (required) require(key);
    return std::nullopt;
  }
  const YAML::Node v = get(key);
  if (!is_integer(v)) {
    error(key, "'" + std::string(key) + "' must be an integer (got " + describe(v) + ")");
    return std::nullopt;
  }
  nlohmann::json j = yaml_to_json(v);
  if (j.is_number_unsigned() || j.get<int64_t>() < min || j.get<int64_t>() > max) {
    error(key, "'" + std::string(key) + "' must be between " + std::to_string(min) + " and " +
                   std::to_string(max) + " (got " + v.Scalar() + ")");
    return std::nullopt;
  }
  return j.get<int64_t>();
}

std::optional<bool> MapReader::boolean(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  const YAML::Node v = get(key);
  if (!is_bool(v)) {
    error(key, "'" + std::string(key) + "' must be true or false (got " + describe(v) + ")");
    return std::nullopt;
  }
  return yaml_to_json(v).get<bool>();
}

std::optional<std::string> MapReader::one_of(std::string_view key, Keys allowed,
                                             bool required) const {
  if (!has(key)) {
    if (required) require(key);
    return std::nullopt;
  }
  const YAML::Node v = get(key);
  std::string text = v.IsScalar() ? v.Scalar() : describe(v);
  if (!is_string(v) || std::find(allowed.begin(), allowed.end(), text) == allowed.end()) {
    error(key, "'" + std::string(key) + "' must be one of " + join(allowed) + " (got '" + text + "')",
          did_you_mean(text, allowed));
    return std::nullopt;
  }
  return text;
}

std::vector<std::string> MapReader::string_list(std::string_view key, bool non_empty,
                                                Keys allowed) const {
  std::vector<std::string> out;
  if (!expect_list(key, non_empty)) return out;
  for (const auto& item : get(key)) {
    if (!is_string(item)) {
      diags_.error(item, "'" + std::string(key) + "' items must be strings (got " + describe(item) +
                             ") in " + context_);
      continue;
    }
    if (!allowed.empty() &&
        std::find(allowed.begin(), allowed.end(), item.Scalar()) == allowed.end()) {
      diags_.error(item, "'" + std::string(key) + "' items must be one of " + join(allowed) +
                             " (got '" + item.Scalar() + "') in " + context_ +
                             did_you_mean(item.Scalar(), allowed));
      continue;
    }
    out.push_back(item.Scalar());
  }
  return out;
}

bool MapReader::expect_map(std::string_view key) const {
  if (!has(key)) return false;
  const YAML::Node v = get(key);
  if (!v.IsMap()) {
    error(key, "'" + std::string(key) + "' must be a map (got " + describe(v) + ")");
    return false;
  }
  return true;
}

bool MapReader::expect_list(std::string_view key, bool non_empty) const {
  if (!has(key)) return false;
  const YAML::Node v = get(key);
  if (!v.IsSequence()) {
    error(key, "'" + std::string(key) + "' must be a list (got " + describe(v) + ")");
    return false;
  }
  if (non_empty && v.size() == 0) {
    error(key, "'" + std::string(key) + "' must not be empty");
    return false;
  }
  return true;
}

nlohmann::json MapReader::json(std::string_view key) const {
  if (!has(key)) return nullptr;
  return yaml_to_json(get(key));
}

}  // namespace a2a::scenario::detail
