// The certification bundle (docs/bundle.md): `run --bundle DIR` writes it,
// `verify DIR [--regrade]` checks it.
#pragma once

#include <string>

#include "runner/cli/targets.hpp"
#include "runner/core/expected.hpp"
#include "runner/engine/config.hpp"
#include "runner/result/result.hpp"

namespace a2a::cli {

inline constexpr std::string_view kBundleSchema = "a2a-conform-bundle";
inline constexpr int kBundleSchemaVersion = 1;

// Before the run: "" when --bundle DIR can be written (absent or empty, or
// an earlier bundle with --bundle-overwrite), else why not.
std::string check_bundle_dir(const Options& o);

struct BundleRun {
  const Options& options;
  const engine::RunConfig& config;
  const SelectedTests& selection;
  const result::RunResult& run;
  std::string started_at, ended_at;  // RFC 3339 UTC
};
// Writes the bundle into options.bundle_dir; returns the SHA-256 of its
// SHA256SUMS (the one value that stands for the whole bundle).
core::Expected<std::string> write_bundle(const BundleRun& b);

// `verify DIR [--regrade]`: 0 intact (and every verdict reproduced), 1 a
// change (or a verdict not reproduced), 2 not a bundle / usage.
int cmd_verify(const std::string& dir, bool regrade);

}  // namespace a2a::cli
