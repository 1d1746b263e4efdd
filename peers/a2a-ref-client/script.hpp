// The `script` operation: one JSON object per line, run in order in one
// session, so a single agent process serves a whole scenario.
//
//   {"op":"send","params":{...},"as":"t1"}         raw A2A params; save the result as t1
//   {"op":"get","params":{"id":"${t1.task.id}"}}    use a saved value
//   {"op":"sleep","ms":200}                         pause (for polling)
//   {"op":"parallel","ops":[{"op":"get",...},...]}  unary ops written at once,
//                                                   one result line each, in list order
//
// Empty lines and lines starting with '#' are skipped. A string that is
// exactly "${name.path}" becomes the saved JSON value (any type); "${...}"
// inside a longer string is replaced by the value's text. Path segments are
// object keys or array indexes. A stream saves the array of its events.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/a2a/methods.hpp"
#include "runner/core/expected.hpp"

namespace a2a::client {

using Json = nlohmann::json;

struct ScriptStep {
  int line = 0;              // 1-based line number in the script
  std::string op_name;       // as written ("send", "sleep")
  std::optional<model::Operation> op;  // unset for "sleep"
  Json params = Json::object();
  std::string save_as;       // "as": name under which the result is saved
  int sleep_ms = 0;          // "sleep" only
  std::vector<ScriptStep> parallel;  // "parallel" only: unary ops, all in flight at once
};

// nullopt for a line to skip (blank or comment); kParse/kSchema errors name
// the line and the member ("script:3: unknown op 'sned'").
core::Expected<std::optional<ScriptStep>> parse_script_line(std::string_view text, int line,
                                                            std::string_view source = "script");

using SavedValues = std::map<std::string, Json>;

// Replaces ${name.path} references in every string of `params`.
// kInvalidArgument naming the reference when a name or path is unknown.
core::Expected<Json> substitute(const Json& params, const SavedValues& saved);

// The value at a dotted path ("t1.task.id") in the saved values, or nullopt.
std::optional<Json> lookup(const SavedValues& saved, std::string_view path);

}  // namespace a2a::client
