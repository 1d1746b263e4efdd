// Internal to the HTML writer: the pieces html.cpp assembles.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "reports/html.hpp"
#include "reports/text.hpp"

namespace a2a::reports::html {

extern const std::string_view kCss;
extern const std::string_view kJs;

// Text we wrote or read from scenario files: sanitised and escaped.
inline std::string esc(std::string_view s) { return html_escape(s); }
// Bytes that may come from the agent: made visible, then escaped.
inline std::string agent(std::string_view s, Display mode = Display::kText) {
  return html_escape(display_bytes(s, mode));
}

std::string badge(result::Outcome o);
// id="s-N" (after HtmlOptions::id_prefix) of the scenario at `index` in RunResult::scenarios.
std::string anchor(size_t index, std::string_view prefix = "");

// The support matrix (reports/matrix.hpp), id "<id_prefix>matrix"; nothing when no scenario ran.
void write_matrix(std::ostream& out, const result::RunResult& r, const HtmlOptions& options);

void write_scenario(std::ostream& out, const result::ScenarioResult& s, size_t index,
                    const HtmlOptions& options);

}  // namespace a2a::reports::html
