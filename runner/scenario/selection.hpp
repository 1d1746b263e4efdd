// Which tests to run: the --filter / --tag / --level / --section / --binding
// flags of a2a-conform, applied to loaded documents.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runner/scenario/model.hpp"

namespace a2a::scenario {

// Every list is OR-ed inside itself and AND-ed with the others; an empty
// list does not filter. In `ids` and `tags` an entry starting with '!'
// excludes (an exclusion wins over any inclusion); a list holding only
// exclusions starts from everything.
struct Selection {
  std::vector<std::string> ids;       // globs over test ids: STDIO-FRAME-*, !*-004
  std::vector<std::string> tags;      // exact tag names (suite tags included)
  std::vector<Level> levels;
  std::vector<std::string> sections;  // case-insensitive substrings of spec_ref
  std::vector<std::string> bindings;  // stdio / jsonrpc / rest / grpc

  bool empty() const;
};

// Shell-style glob: '*' any run, '?' one character, [abc] / [a-z] / [!a] a
// class; everything else literal. Case-sensitive, matches the whole text.
bool glob_match(std::string_view pattern, std::string_view text);

// Whether a test is meant for a binding: its x-binding if set, else its ACTS
// `transport` list if set, else every binding (abstract operations run on all).
bool applies_to_binding(const Test& test, std::string_view binding);

bool matches(const Test& test, const Selection& selection);

// The selected tests of all documents, in document / suite / test order.
std::vector<const Test*> select_tests(const std::vector<Document>& documents,
                                      const Selection& selection);

// "a, b,,c" -> {"a", "b", "c"}: comma-separated flag values, blanks trimmed.
std::vector<std::string> split_list(std::string_view text);

}  // namespace a2a::scenario
