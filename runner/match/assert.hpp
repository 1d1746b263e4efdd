// The ACTS §5 assertion language, plus our x-type / x-equals
// (docs/scenario-format.md §6). Pure functions on JSON values.
//
//   bare scalar    exact equality: numbers by value (1 == 1.0), strings
//                  case-sensitive, no coercion (1 != "1", true != 1)
//   operator map   every key an operator: all of them must hold (AND)
//   other map      nested object match: only the listed keys are checked; a key
//                  whose assertion is {absent: true} passes when missing, any
//                  other assertion on a missing key fails with "missing"
//   mixed map      operators apply to the value itself AND the plain keys are
//                  nested fields of it: {type: object, id: {type: string}}
//   list           element by element from the start; the actual list may be
//                  longer, a shorter one fails
//
// Operators: type, exists, absent, contains, matches, starts_with, ends_with,
// gte, lte, gt, lt, count, count_gte, count_lte, one_of, all_of, any_of, not,
// x-type, x-equals, and `items` (not in the ACTS grammar but used by the
// official ACTS files next to `type: array`: a list operand matches element by
// element, any other operand must hold for every element).
//
// Choices where ACTS §5 is silent:
//   - one_of / any_of need at least one alternative to hold (enum semantics,
//     not JSON Schema's "exactly one"); each alternative is an assertion.
//   - `contains` on an array holds when an element equals the operand.
//   - `matches` is an ECMAScript search (RegExp.test), not a full match;
//     subjects over 4 KiB are declined as an error (libstdc++'s std::regex
//     recurses per character and would overflow the stack).
//   - exists: false / absent: false are the negations of absent / exists.
//   - A plain key beside real operators is taken for a misspelt operator, and
//     the assertion is malformed, when it is snake_case or x- (A2A fields are
//     camelCase), a camelCase spelling of an operator (oneOf), or one edit away
//     from an operator of five letters or more (count_gt, exist).
//
// Where a key could be an operator or a field, the key decides by its value:
// `type` is the operator only when its value is a string naming a type, or a
// string with no plain key beside it ({type: strnig} is malformed), so a problem-details body
// {type: {type: string}, title: ...} checks the field `type`; `items` is an
// operator only next to other operators.
#pragma once

#include <string>
#include <string_view>

#include "runner/match/match_result.hpp"

namespace a2a::match {

MatchResult match(const Json& actual, const Json& assertion, std::string_view base_path = "");

// Same for a value that may be absent (nullptr): only {absent: true},
// {exists: false} and combinators over them pass on an absent value.
MatchResult match_optional(const Json* actual, const Json& assertion, std::string_view base_path = "");

// Checks an assertion without data (unknown operators, operand types, regex
// syntax), for validating scenarios before a run. "" when well-formed.
std::string check_assertion(const Json& assertion, std::string_view base_path = "");

// True for the operator keys above (not `items`, which is contextual).
bool is_operator(std::string_view key);

// Exact match of bare scalars: numbers by value, other types by type and value.
bool values_equal(const Json& a, const Json& b);
// x-equals: exact equality including the JSON type (1 != 1.0, 1 != "1"),
// recursively for arrays and objects; signed/unsigned integers are one type.
bool strictly_equal(const Json& a, const Json& b);

}  // namespace a2a::match
