// The HTML report: one self-contained file (inline CSS and JS, no external
// fetch of any kind, enforced by a Content-Security-Policy) that a person reads
// to see what failed and why. Every byte that came from the agent is rendered
// with display_bytes and then HTML-escaped, so it can never become markup.
#pragma once

#include <ostream>
#include <string>

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
};

void write_html(std::ostream& out, const result::RunResult& r, const HtmlOptions& options = {});

}  // namespace a2a::reports
