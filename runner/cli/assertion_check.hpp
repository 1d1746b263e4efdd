// Assertions in scenario files checked before any agent starts, so a
// malformed one is a file:line error of `check`, not an ERROR mid-run.
#pragma once

#include <string>
#include <vector>

#include "runner/scenario/model.hpp"
#include "runner/scenario/profile.hpp"

namespace a2a::cli {

// Every problem, one "file:line:col: error[schema]: ..." line each; "" when none.
std::string check_assertions(const std::vector<scenario::Document>& docs);

// Every {{profile.PATH}} of a test resolved in each profile it may run under
// (its x-profiles, else every one of `profiles`): a path a profile lacks is
// what a run under that profile reports as the scenario's ERROR. One
// "file:line:col: ..." line each; "" when none.
std::string check_profile_references(const std::vector<scenario::Document>& docs,
                                     const std::vector<scenario::Profile>& profiles);

}  // namespace a2a::cli
