// The reports of `a2a-conform diff` (result/diff.hpp): console text,
// GitHub-flavoured Markdown (a PR comment or a job summary) and JSON (schema
// a2a-conform-diff). Reasons carry agent bytes: every writer escapes them.
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "runner/result/diff.hpp"

namespace a2a::reports {

inline constexpr std::string_view kDiffSchema = "a2a-conform-diff";
inline constexpr int kDiffSchemaVersion = 1;

// "REGRESSED: 2 regressions, 1 fix, ..." or "NO REGRESSIONS: ...".
std::string diff_verdict(const result::RunDiff& d);

void write_diff_console(std::ostream& os, const result::RunDiff& d);
void write_diff_markdown(std::ostream& os, const result::RunDiff& d);
nlohmann::json diff_to_json(const result::RunDiff& d);

}  // namespace a2a::reports
