// Named and inline assertions (ACTS §5.5): the `assertions` lists of steps and
// tests, and the `assertion` of an assertion step.
//
//   source   the value to check; the engine resolves it ("{{send.response}}")
//            and passes the JSON here (the key itself is not read)
//   path     optional sub-path of the source (wildcards give the list of matches)
//   match    an assertion applied at source/path
//   any      {path, match}: at least one element the path reaches matches
//   all      {path, match}: every element matches
//   none     {path, match}: no element matches
// id, description and x-* keys are ignored; any other key is an error.
//
// Collection paths are relative to source/path and default to "[*]". A2A JSON
// omits empty repeated fields (proto3 JSON mapping), so when the array right
// before the first wildcard is missing from an object it counts as empty:
// `all` and `none` hold, `any` fails. Anything else the path cannot reach fails.
#pragma once

#include <string_view>

#include "runner/match/match_result.hpp"

namespace a2a::match {

// `source_name` prefixes every mismatch path ("send.response").
MatchResult match_collection(const Json& source, const Json& assertion, std::string_view source_name = "");

}  // namespace a2a::match
