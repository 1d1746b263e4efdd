// Writes every report of the sample run into <build>/reports-sample/ so a
// person (or reports/render_check.sh) can look at them; with
// A2A_RENDER_CHECK=1 it also renders the HTML in headless Chromium.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "reports/console.hpp"
#include "reports/html.hpp"
#include "reports/json_report.hpp"
#include "reports/junit.hpp"
#include "reports/markdown.hpp"
#include "runner/result/sample_run.hpp"

using namespace a2a::reports;
namespace fs = std::filesystem;

namespace {

fs::path sample_dir() {
  fs::path dir = fs::path(A2A_BINARY_DIR) / "reports-sample";
  fs::create_directories(dir);
  return dir;
}

template <class Fn>
void write(const fs::path& path, Fn fn) {
  std::ostringstream out;
  fn(out);
  ASSERT_TRUE(write_text_file(path.string(), out.str()).ok()) << path;
}

}  // namespace

TEST(SampleOutput, WritesEveryFormatOfTheSampleRun) {
  auto run = a2a::result::fixtures::sample_run();
  fs::path dir = sample_dir();
  write(dir / "sample.html", [&](std::ostream& o) { write_html(o, run); });
  write(dir / "sample.json", [&](std::ostream& o) { write_json_report(o, run); });
  write(dir / "sample.md", [&](std::ostream& o) { write_markdown(o, run); });
  write(dir / "sample.junit.xml", [&](std::ostream& o) { write_junit(o, run); });
  write(dir / "sample.console.txt", [&](std::ostream& o) {
    ConsoleReporter rep(o, {.color = ColorMode::kNever});
    rep.on_start(static_cast<int>(run.scenarios.size()));
    for (const auto& s : run.scenarios) rep.on_scenario_done(s);
    rep.finish(run);
  });
  ActsOptions acts;
  acts.sdk_name = "sample-sdk";
  acts.generated_at = run.started_at;
  auto written = write_acts_reports(dir.string(), run, acts);
  ASSERT_TRUE(written.ok()) << written.error().str();
  EXPECT_GT(fs::file_size(dir / "sample.html"), 10000u);
}

TEST(SampleOutput, RendersInHeadlessChromiumWhenAsked) {
  const char* enabled = std::getenv("A2A_RENDER_CHECK");
  if (!enabled || std::string(enabled) != "1") GTEST_SKIP() << "set A2A_RENDER_CHECK=1 to render";
  fs::path dir = sample_dir();
  write(dir / "sample.html", [](std::ostream& o) { write_html(o, a2a::result::fixtures::sample_run()); });
  std::string cmd = "bash '" + std::string(A2A_SOURCE_DIR) + "/reports/render_check.sh' '" +
                    (dir / "sample.html").string() + "' '" + (dir / "sample.png").string() + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

// The support matrix as a browser builds it: the table, its 9 rows (5
// failing first), one badge per cell run and a dash per cell not run, in
// an open <details>. Chromium's DOM, not our string: a row the HTML parser
// had to move out of the table would change the counts.
TEST(SampleOutput, RendersTheSupportMatrixInHeadlessChromiumWhenAsked) {
  const char* enabled = std::getenv("A2A_RENDER_CHECK");
  if (!enabled || std::string(enabled) != "1") GTEST_SKIP() << "set A2A_RENDER_CHECK=1 to render";
  if (std::system("command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || "
                  "command -v google-chrome >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no Chromium installed (apt-get install chromium; scripts/install-deps.sh)";
  fs::path dir = sample_dir();
  write(dir / "matrix.html", [](std::ostream& o) { write_html(o, a2a::result::fixtures::sample_run()); });
  std::string cmd = "bash '" + std::string(A2A_SOURCE_DIR) + "/reports/render_check.sh' '" +
                    (dir / "matrix.html").string() + "' '" + (dir / "matrix.png").string() + "' 20000" +
                    " '<details class=\"matrix\" open=\"\">=1' '<table class=\"sum matrix\">=1'" +
                    " '<tr class=\"mrow=9' '<tr class=\"mrow failing\">=5' '<td class=\"cell\"=9'" +
                    " '<td class=\"cell none\"=9'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}
