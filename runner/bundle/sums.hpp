// SHA256SUMS: the hash of every file of a bundle (docs/bundle.md), in the
// format `sha256sum` writes and `sha256sum -c` checks: one line per file,
// 64 hex digits, two spaces, the path relative to the bundle, '/'-separated,
// sorted by path. The file lists itself nowhere.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "runner/core/expected.hpp"

namespace a2a::bundle {

inline constexpr std::string_view kSumsFile = "SHA256SUMS";
// A bundle larger than this many files is refused (bounded time and memory).
inline constexpr size_t kMaxFiles = 100000;

struct SumEntry {
  std::string hash;  // lowercase hex
  std::string path;  // relative, '/'-separated
  bool operator==(const SumEntry&) const = default;
};

// Sorted by path, one "HASH  PATH\n" line each.
std::string format_sums(std::vector<SumEntry> entries);
// The lines of a SHA256SUMS text (binary-mode "HASH *PATH" lines too). An
// error names the line and what is wrong with it: a hash that is not 64 hex
// digits, an absolute path or one with "..", a path listed twice.
core::Expected<std::vector<SumEntry>> parse_sums(std::string_view text);
// Why a relative path cannot be in a bundle ("" when it can): absolute,
// "..", empty segments, a newline or a backslash (which sha256sum escapes).
std::string bad_path(std::string_view path);
// Every regular file under `dir` but SHA256SUMS, relative and sorted. A
// symbolic link or a special file is an error (a bundle holds plain files only).
core::Expected<std::vector<std::string>> list_files(const std::filesystem::path& dir);
// Hashes every file under `dir` and writes dir/SHA256SUMS.
core::Expected<void> write_sums(const std::filesystem::path& dir);

// What `a2a-conform verify` found: files whose hash changed, files listed
// but gone, files present but not listed. Intact when all three are empty.
struct VerifyReport {
  size_t checked = 0;
  std::vector<std::string> changed, missing, extra;
  bool intact() const { return changed.empty() && missing.empty() && extra.empty(); }
};
// An error only when SHA256SUMS itself cannot be read or parsed.
core::Expected<VerifyReport> verify_sums(const std::filesystem::path& dir);

}  // namespace a2a::bundle
