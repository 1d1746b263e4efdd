// Reading a2a-conform's own report.json files back (merge, diff): a run
// result (schema a2a-conform-result), or a combined index of several targets
// (schema a2a-conform-multi-result) whose targets' report.json files are
// read in its place, in its order. Every error names the file and what is
// wrong with it.
#pragma once

#include <string>
#include <vector>

#include "runner/core/expected.hpp"
#include "runner/result/merge.hpp"

namespace a2a::cli {

// Appends one MergeInput per run result `path` holds (one, or one per target
// of a combined index; `source` is the file each came from).
core::Expected<void> read_report(const std::string& path, std::vector<result::MergeInput>& out);

}  // namespace a2a::cli
