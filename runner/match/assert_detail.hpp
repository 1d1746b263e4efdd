// Internals shared by assert.cpp and operators.cpp; not part of the API.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runner/match/match_result.hpp"

namespace a2a::match::detail {

// Recursive entry: `actual` is nullptr when the value is absent.
void match_into(const Json* actual, const Json& assertion, const std::string& path, MatchResult& out);
// A list assertion: element by element from the start.
void match_list(const Json* actual, const Json& list, const std::string& path, MatchResult& out);

// An assertion map split into operators (applied to the value) and fields.
struct Classified {
  std::vector<std::pair<std::string, const Json*>> ops;
  std::vector<std::pair<std::string, const Json*>> fields;
  std::string error;  // an unknown operator among operators
};
Classified classify(const Json& map);

struct OpCall {
  const Json* actual;  // nullptr = absent (only for presence-aware operators)
  const Json& operand;
  const std::string& path;
  MatchResult& out;
};

struct Operator {
  std::string_view name;
  bool presence_aware;                         // decides itself about an absent value
  std::string (*check)(const Json& operand);   // "" when the operand is well-formed
  void (*apply)(const OpCall& call);
};

// nullptr for an unknown name; `items` is included.
const Operator* find_operator(std::string_view name);
// Names of all operators (for "did you mean").
std::vector<std::string_view> operator_names();

bool is_type_name(std::string_view name);  // the six ACTS types and "integer"
bool has_type(const Json& value, std::string_view name);

}  // namespace a2a::match::detail
