// Bounds on scenario input (docs/scenario-format.md "Limits"). Scenario files
// come from strangers (the ACTS corpus, vendors, pull requests): every count
// that makes the loader's memory or time grow is checked while the YAML is
// read, before the node tree is built, so a hostile file is refused in
// milliseconds instead of exhausting memory. An alias counts as the copy it
// stands for, so an "alias bomb" is refused without being expanded.
#pragma once

#include <cstdint>

namespace a2a::scenario {

struct LoadLimits {
  // Defaults: far above our suites and the ACTS corpus (largest file 55 KB,
  // 3,300 nodes, 18 levels, one 5 KB string) and low enough that a file at
  // every limit loads in well under a second and 100 MB.
  static constexpr uint64_t kDefaultBytes = 4ULL << 20;   // --max-scenario-bytes
  static constexpr uint64_t kDefaultNodes = 200'000;      // --max-scenario-nodes
  static constexpr int kDefaultDepth = 64;
  static constexpr uint64_t kDefaultAliases = 1'000;
  static constexpr uint64_t kDefaultScalarBytes = 1ULL << 20;
  // What the flags accept: the counters below cannot overflow under them.
  static constexpr uint64_t kCeiling = 1ULL << 40;

  // The file's size, and the text of all its scalars with aliases expanded.
  uint64_t max_bytes = kDefaultBytes;
  // YAML nodes (scalars, lists, maps, keys included) with aliases expanded.
  uint64_t max_nodes = kDefaultNodes;
  int max_depth = kDefaultDepth;              // nesting of lists and maps
  uint64_t max_aliases = kDefaultAliases;     // `*name` occurrences
  uint64_t max_scalar_bytes = kDefaultScalarBytes;  // one string (or key)
};

}  // namespace a2a::scenario
