// Variables, interpolation and capture (ACTS §8, §12.2; our extensions in
// docs/scenario-format.md §5). Pure apart from the environment lookup and the
// UUID generator, both replaceable for tests.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/core/expected.hpp"

namespace a2a::match {

using Json = nlohmann::json;

struct VarsAccess;

// What `{{expr}}` can name. Resolution order (ACTS §12.2, highest first):
//   1. captures of earlier steps   {{step.name}}, {{step.name.sub.path}}
//   2. document variables          {{name}}, {{name.sub.path}}
//   3. extra roots (ours)          {{profile.methods.get_task}}, {{agent.session_id}}
//   4. environment                 {{env.NAME}} (a string)
//   5. generators                  {{$uuid}} (fresh at each occurrence)
// A document variable's value may itself hold references ({{SUT_BASE_URL}});
// they are expanded when used. Captured values come from the agent and are
// never expanded: an agent cannot make the runner read the environment.
class Vars {
 public:
  using EnvLookup = std::function<std::optional<std::string>(std::string_view)>;

  Vars();  // environment = getenv, $uuid = UUIDv7

  void set_variable(std::string name, Json value);
  void set_variables(const Json& object);  // a document's `variables` map
  void set_capture(std::string_view step, std::string name, Json value);
  void set_root(std::string name, Json value);  // "profile", "agent", ...
  void set_env_lookup(EnvLookup lookup);
  void set_uuid_generator(std::function<std::string()> generate);

  // The value of one expression (the text between the braces). Fails with
  // ErrorKind::kNotFound naming the expression, why, and what is known.
  core::Expected<Json> resolve(std::string_view expr) const;
  // "send.taskId", "webhookUrl", "profile.*", "env.*", "$uuid", sorted by source.
  std::vector<std::string> known() const;

 private:
  friend struct VarsAccess;  // interpolation of document variables inside vars.cpp
  core::Expected<Json> resolve_at_depth(std::string_view expr, int depth) const;

  std::map<std::string, Json, std::less<>> variables_;
  std::map<std::string, std::map<std::string, Json, std::less<>>, std::less<>> captures_;
  std::map<std::string, Json, std::less<>> roots_;
  EnvLookup env_;
  std::function<std::string()> uuid_;
};

// Walks the tree; object keys are left alone. A string that is exactly one
// `{{expr}}` becomes the value with its JSON type; `{{expr}}` inside longer
// text is spliced as text (strings bare, other values as compact JSON). A `{{`
// without a closing `}}` is literal text. Any unresolvable reference fails.
core::Expected<Json> interpolate(const Json& tmpl, const Vars& vars);
// Always text: every reference spliced.
core::Expected<std::string> interpolate_text(std::string_view text, const Vars& vars);

// The value at a capture path (ACTS §8.2) in a response. A wildcard path gives
// the array of every match. ErrorKind::kParse: the path is malformed (a broken
// scenario); ErrorKind::kNotFound: the response lacks it (the agent's fault).
core::Expected<Json> capture(const Json& response, std::string_view path);
// A step's whole `capture` block {name: path}: each value stored as step.name.
core::Expected<void> apply_captures(std::string_view step, const Json& block, const Json& response,
                                    Vars& vars);

}  // namespace a2a::match
