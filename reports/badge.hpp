// A README badge (`run ... --badge FILE.svg`): a small self-contained SVG
// with the run's verdict and its MUST-level pass count, in the shape of the
// badges READMEs already show ("A2A conformance | CONFORMANT · MUST 121/136").
// Green when the run is conformant, red when it is not. Every piece of text
// is ours (the verdict and two numbers), never the agent's.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "runner/result/result.hpp"

namespace a2a::reports {

struct BadgeText {
  std::string label;  // "A2A conformance"
  std::string value;  // "CONFORMANT · MUST 121/136"
  bool good = false;  // conformant: the green colour
};

// One run; the MUST count is the console's ("MUST: p/t passed"): p met the
// requirement, t is every MUST-level result, skipped ones included.
BadgeText badge_text(const result::RunResult& r);
// Several targets (a multi-target run): conformant when every one is, the
// MUST counts summed.
BadgeText badge_text(const std::vector<const result::RunResult*>& runs);

void write_badge(std::ostream& out, const BadgeText& text);

}  // namespace a2a::reports
