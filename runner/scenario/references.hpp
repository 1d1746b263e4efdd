// Undefined variables, found before anything runs (docs/scenario-format.md
// §5, "Undefined variables"). The runner resolves `{{expr}}` when a step uses
// it (match/vars.hpp) and reports an unresolvable one as that scenario's
// ERROR; `check` finds the same references at load time, at their own
// file:line:col, so a file that passes `check` does not ERROR on one.
#pragma once

#include <string>
#include <vector>

#include "runner/scenario/model.hpp"

namespace a2a::scenario {

// One "file:line:col: message" per undefined reference of the document's
// tests (each place once, in the order the tests use them). A reference is defined when its
// first name is, as match::Vars resolves it: a document variable (or one of
// `given`, the names --var sets), a step of the same test followed by a
// captured name ({{send.taskId}}), profile.* and agent.* (set by the runner),
// webhookUrl, env.NAME or $uuid. A document variable's value is checked
// where it is written, when a test uses that variable.
std::vector<std::string> undefined_references(const Document& doc, const std::vector<std::string>& given);

}  // namespace a2a::scenario
