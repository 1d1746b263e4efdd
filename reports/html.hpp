// The HTML report: one self-contained file (inline CSS and JS, no external
// fetch of any kind, enforced by a Content-Security-Policy) that a person reads
// to see what failed and why. Every byte that came from the agent is rendered
// with display_bytes and then HTML-escaped, so it can never become markup.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "runner/result/result.hpp"

namespace a2a::reports {

struct HtmlOptions {
  std::string title = "A2A conformance report";
  // One transcript payload longer than this (bytes) is folded behind "show all".
  size_t fold_bytes = 2048;
  // Transcript bytes shown per scenario; the rest is summarised in a note
  // (the JSON report keeps everything the engine recorded).
  size_t max_transcript_bytes = 256 * 1024;
  size_t max_value_bytes = 64 * 1024;  // expected / actual / stderr excerpt
  // CSP nonce of the inline <style> and <script>; empty: a random one, so
  // markup that slipped through escaping still could not run.
  std::string nonce;
  // Prefix of every id (scenario anchors "s-N", replay "r-N", the filter
  // tools): "" for a report of one target; "t1-", "t2-", ... in the combined
  // report so ids stay unique across targets.
  std::string id_prefix;
};

void write_html(std::ostream& out, const result::RunResult& r, const HtmlOptions& options = {});

// The pieces of write_html the combined report of several targets reuses
// (multi_report.cpp): the document up to <body>, one target's content
// (header with role, target and profile, summaries, filter bar, scenario
// blocks; ids prefixed with options.id_prefix), and the footer and script.
std::string html_nonce(const HtmlOptions& options);
void write_html_open(std::ostream& out, std::string_view title, std::string_view tool_version,
                     const std::string& nonce);
void write_html_target(std::ostream& out, const result::RunResult& r, const HtmlOptions& options);
void write_html_close(std::ostream& out, std::string_view tool_version, const std::string& nonce);

}  // namespace a2a::reports
