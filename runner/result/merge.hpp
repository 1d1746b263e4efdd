// Joining the results of a sharded run (or of runs of several targets) into
// what one unsharded run would have produced (a2a-conform merge;
// docs/sharding.md). Pure: files are read and written by the CLI.
#pragma once

#include <string>
#include <vector>

#include "runner/result/result.hpp"

namespace a2a::result {

// One input: a run result and where it came from (named in errors).
struct MergeInput {
  std::string source;
  RunResult run;
};

// One target's merged result (its shards joined), in order of first appearance.
struct MergedTarget {
  RunResult run;
  std::vector<std::string> sources;
};

struct MergeOutcome {
  std::vector<MergedTarget> targets;
  // Everything that makes the inputs not one whole run: a scenario twice,
  // a scenario or a shard missing, shards of different selections. The
  // merge is not to be trusted when this is not empty (exit code 2).
  std::vector<std::string> errors;
};

// Inputs of the same role and target are shards of one run: their
// scenarios are joined, each (scenario, binding) exactly once, ordered as an
// unsharded run orders them (binding by binding, then selection order), and
// checked against the selection the shards record. Inputs of other targets
// stay separate targets.
MergeOutcome merge_runs(std::vector<MergeInput> inputs);

// `command_line` without its --shard K/N (or --shard=K/N) argument.
std::string without_shard_flag(const std::string& command_line);

}  // namespace a2a::result
