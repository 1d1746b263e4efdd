// `repeat.until` expressions and dot-paths (ACTS §5.2, §9.1).
#pragma once

#include <string>
#include <string_view>

#include "runner/core/expected.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::scenario {

// Parses `path == value`, `path != value` or `path in [a, b, ...]`. A value is
// a quoted string ("..." or '...') or a plain scalar typed like YAML
// (TASK_STATE_WORKING is a string, 3 an integer, true a boolean, null null).
// Errors are kSchema without a location (the caller adds it).
core::Expected<UntilExpr> parse_until(std::string_view text);

// A dot-path: `task.id`, `task.artifacts[0].parts[*]`, `[0].id`. Segments are
// names of letters, digits, '_', '-', '$' or '@'; an index is digits or '*'
// (only when `allow_wildcard`). On failure `why` says what is wrong.
bool is_valid_path(std::string_view path, bool allow_wildcard, std::string* why = nullptr);

}  // namespace a2a::scenario
