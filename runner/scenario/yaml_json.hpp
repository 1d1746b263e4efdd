// YAML -> JSON with YAML 1.2 core-schema typing. yaml-cpp leaves every scalar
// a string; ACTS assertions compare JSON types exactly (`1` is not `"1"`), so
// the conversion decides types the way the YAML 1.2 core schema does: a plain
// scalar that reads as null / bool / int / float becomes that type, a quoted or
// block scalar (yaml-cpp tag "!") always stays a string.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "runner/core/error.hpp"

namespace a2a::scenario {

// The JSON value of a plain (unquoted) scalar's text under the core schema:
// "~" / "null" / "" -> null, "true" -> true, "0x1f" -> 31, "1e3" -> 1000.0,
// anything else -> the string itself.
nlohmann::json plain_scalar_value(std::string_view text);

// Converts a node (tag-aware: "!!str 1" is a string, "!!int '3'" is 3).
nlohmann::json yaml_to_json(const YAML::Node& node);
// Same, keeping map key order.
nlohmann::ordered_json yaml_to_ordered_json(const YAML::Node& node);

// What the node is, for "must be a string (got an integer)" messages:
// "null", "a boolean", "an integer", "a number", "a string", "a list", "a map".
std::string describe(const YAML::Node& node);

bool is_string(const YAML::Node& node);   // a scalar whose JSON type is string
bool is_integer(const YAML::Node& node);  // a scalar whose JSON type is an integer
bool is_bool(const YAML::Node& node);

// 1-based location of the node in `file` (yaml-cpp marks are 0-based).
core::SourceLocation location_of(const YAML::Node& node, const std::string& file);

}  // namespace a2a::scenario
