// Live console output: one line per finished scenario, then a recap of what
// did not pass, the ACTS §12.7 summary by level, and a last line CI can grep.
#pragma once

#include <mutex>
#include <ostream>

#include "runner/result/result.hpp"

namespace a2a::reports {

enum class ColorMode { kAuto, kAlways, kNever };

struct ConsoleOptions {
  // kAuto: colour only when the stream is std::cout / std::cerr / std::clog,
  // that file descriptor is a terminal, and NO_COLOR is unset or empty.
  ColorMode color = ColorMode::kAuto;
  bool progress = true;            // print the per-scenario lines
  size_t max_value_bytes = 400;    // expected / actual / reason in the recap
};

// Thread-safe: scenarios finish on several engine threads, and each call
// writes its lines under one mutex so lines never interleave.
class ConsoleReporter {
 public:
  explicit ConsoleReporter(std::ostream& out, ConsoleOptions options = {});

  // "running N scenarios"; fixes the width of the progress counter.
  void on_start(int total);
  // Which target is tested, before on_start: "testing agent ./a (profile p46)",
  // or with several targets (count > 1) a header "=== target 2/3: ...".
  void on_target(std::string_view role, std::string_view profile, std::string_view target,
                 int index = 1, int count = 1);
  // `[ 12/140] PASS           STDIO-FRAME-004  lower-case header name accepted  (3 ms)`.
  // `index` is the 1-based number to show; 0 numbers scenarios in the order
  // they finish (what a parallel engine wants).
  void on_scenario_done(const result::ScenarioResult& s, int index = 0);
  // Recap, summary by level, verdict, then exactly "N passed, N failed, N skipped".
  void finish(const result::RunResult& r);

  bool colored() const { return color_; }

 private:
  std::string paint(result::Outcome o, std::string_view text) const;
  void write_recap(const result::RunResult& r);
  void write_recap_entry(const result::ScenarioResult& s);
  void write_not_applicable(const result::RunResult& r);
  void write_levels(const result::RunResult& r);

  std::mutex mu_;
  std::ostream& out_;
  ConsoleOptions options_;
  bool color_ = false;
  int total_ = 0;
  int done_ = 0;
};

// "MUST:   45/47 passed (2 skipped)": the §12.7 line for one level.
std::string level_summary_line(result::Level level, const result::Counts& c);
// "N passed, N failed, N skipped".
std::string final_line(const result::Counts& c);
// "agent ./a --stdio (profile p46)": role, target (made visible, cut at 300
// bytes) and profile, for the console's header and summary.
std::string target_label(std::string_view role, std::string_view profile, std::string_view target);
// Whether kAuto would colour `out` here and now.
bool stream_wants_color(const std::ostream& out);

}  // namespace a2a::reports
