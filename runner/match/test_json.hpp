// Test helper of the match tests: JSON from a literal.
#pragma once

#include "runner/match/assert.hpp"

namespace a2a::match::testing {

inline Json J(const char* text) { return Json::parse(text); }

}  // namespace a2a::match::testing
