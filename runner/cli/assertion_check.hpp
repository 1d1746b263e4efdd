// Assertions in scenario files checked before any agent starts, so a
// malformed one is a file:line error of `check`, not an ERROR mid-run.
#pragma once

#include <string>
#include <vector>

#include "runner/scenario/model.hpp"

namespace a2a::cli {

// Every problem, one "file:line:col: error[schema]: ..." line each; "" when none.
std::string check_assertions(const std::vector<scenario::Document>& docs);

}  // namespace a2a::cli
