// Loader internals shared by the parse_*.cpp files: the error collector (every
// problem of a file is reported in one go, sorted by line) and MapReader, a
// typed view of one YAML map that reports wrong types and unknown keys with
// file:line:column and a did-you-mean.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "runner/core/error.hpp"
#include "runner/core/expected.hpp"
#include "runner/scenario/limits.hpp"

namespace a2a::scenario::detail {

using Keys = std::span<const std::string_view>;

struct Diagnostic {
  core::SourceLocation where;
  core::ErrorKind kind = core::ErrorKind::kSchema;
  std::string message;
};

class Diagnostics {
 public:
  explicit Diagnostics(std::string file) : file_(std::move(file)) {}

  const std::string& file() const { return file_; }
  core::SourceLocation at(const YAML::Node& node) const;
  void error(const YAML::Node& at, std::string message,
             core::ErrorKind kind = core::ErrorKind::kSchema);
  void error(core::SourceLocation where, std::string message,
             core::ErrorKind kind = core::ErrorKind::kSchema);
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  // One line per problem, "file:line:col: message", sorted by position; the
  // kind is the first problem's. `where` stays empty: the lines carry it.
  core::Error to_error() const;

 private:
  std::string file_;
  std::vector<Diagnostic> items_;
};

// yaml_text.cpp. The whole file: kNotFound when it does not exist, kIo when
// it is not a regular file (a FIFO, a device, a folder) or is larger than
// limits.max_bytes (its size is read first).
core::Expected<std::string> read_text_file(const std::filesystem::path& path, const LoadLimits& limits = {});
// What a path that is not a regular file is, for messages: "a FIFO (named
// pipe)", "a character device", "a folder", ... (yaml_text.cpp).
std::string file_type_text(std::filesystem::file_type type);
// Exactly one YAML document, else kParse (syntax, at yaml-cpp's mark made
// 1-based; a scenario limit crossed, at the node that crossed it) or kSchema
// (empty, several documents). The limits are checked on the parser's events
// before the node tree is built.
core::Expected<YAML::Node> parse_yaml_text(std::string_view text, const std::string& name,
                                           const LoadLimits& limits = {});
// "file:line:col: message" lines may quote keys holding line breaks: escaped.
std::string one_line(std::string_view message);

// Optimal-string-alignment distance (a transposition counts as one edit).
size_t edit_distance(std::string_view a, std::string_view b);
// " (did you mean 'x'?)" for the closest candidate within reach, else "".
std::string did_you_mean(std::string_view word, Keys candidates);
// "a, b, c"
std::string join(Keys words, std::string_view sep = ", ");

// A typed reader over one YAML map. `context` names the map in messages
// ("step 'send'", "test 'CORE-SEND-001'"). Construct only on a map node;
// is_map() tells the caller whether the node was one (an error was recorded
// if not).
class MapReader {
 public:
  MapReader(const YAML::Node& node, std::string context, Diagnostics& diags);

  bool is_map() const { return is_map_; }
  const std::string& context() const { return context_; }
  Diagnostics& diags() const { return diags_; }
  core::SourceLocation where() const { return diags_.at(node_); }
  // Location of a key's value (the key itself when the value is empty).
  core::SourceLocation where(std::string_view key) const;

  bool has(std::string_view key) const;
  YAML::Node get(std::string_view key) const;  // undefined when absent
  std::vector<std::string> keys() const;

  // Unknown keys (with did-you-mean), duplicate keys, non-scalar keys. With
  // `allow_extensions`, keys starting with "x-" pass unchecked.
  void check_keys(Keys known, bool allow_extensions = false) const;
  // Only duplicate and non-scalar keys (maps whose keys are data).
  void check_duplicates() const;
  void require(std::string_view key) const;  // "missing required key"

  std::optional<std::string> string(std::string_view key, bool required = false) const;
  std::optional<int64_t> integer(std::string_view key, int64_t min, int64_t max,
                                 bool required = false) const;
  std::optional<bool> boolean(std::string_view key) const;
  // A string that must be one of `allowed` (did-you-mean on a miss).
  std::optional<std::string> one_of(std::string_view key, Keys allowed, bool required = false) const;
  // A list of strings; `allowed` non-empty restricts the values.
  std::vector<std::string> string_list(std::string_view key, bool non_empty = false,
                                       Keys allowed = {}) const;
  // Checks the value's shape; records an error and returns false otherwise.
  bool expect_map(std::string_view key) const;
  bool expect_list(std::string_view key, bool non_empty = false) const;
  nlohmann::json json(std::string_view key) const;  // null when absent

  // "problem in <context><hint>" at the key's value (hint: a did-you-mean).
  void error(std::string_view key, const std::string& problem, const std::string& hint = {}) const;
  // Location of the key itself (for unknown-key reports).
  core::SourceLocation key_where(std::string_view key) const;

 private:
  struct Entry {
    std::string key;
    YAML::Node key_node;
    YAML::Node value;
  };
  const Entry* find(std::string_view key) const;

  YAML::Node node_;
  std::string context_;
  Diagnostics& diags_;
  std::vector<Entry> entries_;
  bool is_map_ = false;
};

}  // namespace a2a::scenario::detail
