#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "reports/html.hpp"
#include "reports/markdown.hpp"
#include "reports/matrix.hpp"
#include "runner/result/sample_run.hpp"
#include "runner/result/utf8.hpp"

using namespace a2a::reports;
using namespace a2a::result;
namespace fs = std::filesystem;

namespace {

std::string matrix_md(const RunResult& r, MarkdownOptions o = {}) {
  std::ostringstream out;
  write_markdown(out, r, o);
  return out.str();
}

std::string matrix_html(const RunResult& r) {
  std::ostringstream out;
  write_html(out, r, {.nonce = "n"});
  return out.str();
}

size_t occurrences(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

std::vector<std::string> matrix_ids(const SupportMatrix& m) {
  std::vector<std::string> ids;
  for (const auto& row : m.rows) ids.push_back(row.id);
  return ids;
}

// One requirement on three bindings, failing on one and not run on another.
RunResult three_binding_run_() {
  RunResult r;
  r.target = "http://localhost:9999";
  r.bindings = {"jsonrpc", "rest", "grpc"};
  auto a = fixtures::sample_http("CORE-SEND-001", "SendMessage returns a task", Outcome::kPass, Level::kMust);
  auto b = a;
  b.binding = "rest";
  b.outcome = Outcome::kFail;
  b.failure = Failure{"status 500 instead of 200", "send", "200", "500", ""};
  auto c = fixtures::sample_http("CORE-GET-001", "GetTask", Outcome::kPass, Level::kShould);
  c.binding = "grpc";
  r.scenarios = {a, b, c};
  return r;
}

// A table cell split: '|' not preceded by a backslash ends a cell (GFM).
std::vector<std::string> md_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cur;
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size()) {
      cur += line.substr(i, 2);
      ++i;
    } else if (line[i] == '|') {
      cells.push_back(cur);
      cur.clear();
    } else {
      cur += line[i];
    }
  }
  return cells;
}

// Every GFM table in `md`: rows start and end with an unescaped '|', the
// delimiter row is ":?-+:?" cells, every row has its header's cell count, and
// no cell holds an unescaped character Markdown or HTML would read as syntax.
// Returns the tables' body row counts; problems are reported as failures.
std::vector<size_t> check_gfm_tables(const std::string& md) {
  std::vector<size_t> bodies;
  std::istringstream in(md);
  std::vector<std::string> table;
  auto finish = [&] {
    if (table.empty()) return;
    ASSERT_GE(table.size(), 2u) << table[0];
    size_t width = md_cells(table[0]).size();
    auto delim = md_cells(table[1]);
    EXPECT_EQ(delim.size(), width) << table[1];
    for (const auto& d : delim) {
      std::string t = d.substr(d.find_first_not_of(' '));
      t = t.substr(0, t.find_last_not_of(' ') + 1);
      EXPECT_TRUE(t.size() >= 3 && t.find_first_not_of(":-") == std::string::npos && t.find('-') != std::string::npos &&
                  t.find(':', 1) >= t.size() - 1)
          << "delimiter cell '" << d << "'";
    }
    for (size_t i = 0; i < table.size(); ++i) {
      const auto& line = table[i];
      EXPECT_EQ(line.back(), '|') << line;
      EXPECT_NE(line[line.size() - 2], '\\') << "last pipe escaped: " << line;
      EXPECT_EQ(md_cells(line).size(), width) << line;
      for (size_t k = 0; k < line.size(); ++k) {
        if (line[k] == '\\') { ++k; continue; }
        EXPECT_EQ(std::string("`<>*_[]&$").find(line[k]), std::string::npos)
            << "unescaped '" << line[k] << "' in: " << line;
        EXPECT_GE(static_cast<unsigned char>(line[k]), 0x20) << line;
      }
    }
    bodies.push_back(table.size() - 2);
    table.clear();
  };
  std::string line;
  for (int guard = 0; guard < 100000 && std::getline(in, line); ++guard) {
    if (!line.empty() && line[0] == '|') table.push_back(line);
    else finish();
  }
  finish();
  return bodies;
}

std::string run_capture(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  pclose(p);
  return out;
}

}  // namespace

TEST(SupportMatrix, HasAColumnPerBindingAndProfileAndACellPerResult) {
  auto m = support_matrix(fixtures::sample_run());
  ASSERT_EQ(m.columns.size(), 2u);
  EXPECT_EQ(m.columns[0].label(), "stdio (p46)");
  EXPECT_EQ(m.columns[1].label(), "jsonrpc");
  ASSERT_EQ(m.rows.size(), 9u);
  const auto& frame = m.rows[0];
  EXPECT_EQ(frame.id, "STDIO-FRAME-004");
  EXPECT_EQ(frame.level, Level::kMust);
  ASSERT_TRUE(frame.cells[0]);
  EXPECT_EQ(frame.cells[0]->outcome, Outcome::kFail);
  EXPECT_EQ(frame.cells[0]->index, 1u);
  EXPECT_FALSE(frame.cells[1]) << "a stdio scenario was not run on jsonrpc";
  EXPECT_NE(frame.reason().find("response is not valid JSON"), std::string::npos);
}

TEST(SupportMatrix, PutsRowsThatFailAnywhereFirstInReportOrder) {
  auto m = support_matrix(fixtures::sample_run());
  EXPECT_EQ(matrix_ids(m), (std::vector<std::string>{"STDIO-FRAME-004", "STDIO-FRAME-010", "CORE-CANCEL-001",
                                                 "STDIO-STREAM-003", "CORE-SEND-009", "STDIO-FRAME-001",
                                                 "STDIO-INFO-001", "CORE-PUSH-001", "CORE-GET-002"}));
  EXPECT_EQ(m.failing_rows(), 5u);
}

TEST(SupportMatrix, JoinsOneRequirementAcrossBindings) {
  auto m = support_matrix(three_binding_run_());
  ASSERT_EQ(m.columns.size(), 3u);
  EXPECT_EQ(m.columns[2].binding, "grpc");
  ASSERT_EQ(m.rows.size(), 2u);
  const auto& send = m.rows[0];
  EXPECT_EQ(send.id, "CORE-SEND-001");
  EXPECT_TRUE(send.failing);
  EXPECT_EQ(send.cells[0]->outcome, Outcome::kPass);
  EXPECT_EQ(send.cells[1]->outcome, Outcome::kFail);
  EXPECT_FALSE(send.cells[2]);
  EXPECT_EQ(send.reason(), "status 500 instead of 200");
  EXPECT_FALSE(m.rows[1].cells[0]);
  EXPECT_EQ(m.rows[1].cells[2]->outcome, Outcome::kPass);
}

TEST(SupportMatrix, KeepsTheFailingResultOfARequirementRunTwiceOnABinding) {
  RunResult r = three_binding_run_();
  r.scenarios[1].binding = "jsonrpc";
  auto m = support_matrix(r);
  EXPECT_EQ(m.rows[0].cells[0]->outcome, Outcome::kFail);
  EXPECT_EQ(m.rows[0].cells[0]->index, 1u);
}

TEST(MarkdownReport, StartsWithTheVerdictTargetAndCountsByLevel) {
  auto md = matrix_md(fixtures::sample_run());
  EXPECT_EQ(md.rfind("## A2A conformance: NOT CONFORMANT \xe2\x80\x94 ./agent --stdio\n", 0), 0u) << md;
  EXPECT_NE(md.find("| Level | Passed | Failed | Skipped | Total |"), std::string::npos);
  // MUST: PASS, FAIL, XFAIL, XPASS, TIMEOUT -> 2 passed (PASS, XFAIL), 3 failed.
  EXPECT_NE(md.find("| MUST | 2 | 3 | 0 | 5 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| All | 4 | 4 | 1 | 9 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| Requirement | Level | Title | stdio (p46) | jsonrpc | Reason |"), std::string::npos);
  EXPECT_NE(md.find("| STDIO-FRAME-001 | MUST | header and body | PASS | \xe2\x80\x94 |  |"), std::string::npos) << md;
  EXPECT_LT(md.find("| CORE-SEND-009 |"), md.find("| STDIO-FRAME-001 |"));
  EXPECT_EQ(md.find("Diagnosis"), std::string::npos);
  EXPECT_EQ(check_gfm_tables(md), (std::vector<size_t>{4, 9}));
  EXPECT_EQ(md.find("Not applicable"), std::string::npos);
  RunResult r = fixtures::sample_run();
  r.add_not_applicable("written for the stdio binding; this run is jsonrpc", "STDIO-X-1");
  r.add_not_applicable("client test (this run tests an agent)", "CLIENT-X-1");
  EXPECT_NE(matrix_md(r).find("Not applicable to this run (another binding, profile or role; not skipped): 2 scenarios."),
            std::string::npos);
}

TEST(MarkdownReport, ConformantRunHasNoReasonColumnAndSaysTheDiagnosis) {
  RunResult r = fixtures::sample_run();
  r.scenarios.resize(1);
  auto md = matrix_md(r);
  EXPECT_EQ(md.rfind("## A2A conformance: CONFORMANT", 0), 0u) << md;
  EXPECT_EQ(md.find("Reason"), std::string::npos);
  r.diagnosis = "could not start: ./agent: No such file | or directory\n";
  md = matrix_md(r);
  EXPECT_NE(md.find("> **Diagnosis: the target is broken.** could not start: ./agent: No such file \\| or directory\\\\n"),
            std::string::npos)
      << md;
}

TEST(MarkdownReport, EscapesHostileBytesInEveryCell) {
  RunResult r = fixtures::sample_run();
  for (auto& s : r.scenarios) {
    s.id += "|`x`<b>";
    s.name += " @octocat *bold* [link](http://x) $x$" + fixtures::hostile_bytes();
    s.reason += fixtures::hostile_bytes();
    if (s.failure) s.failure->message += "\n| injected | row |\n";
  }
  r.target = "./agent | `rm -rf` <script>";
  r.profile = "p46|x";
  auto md = matrix_md(r);
  EXPECT_TRUE(valid_utf8(md));
  EXPECT_EQ(occurrences(md, "<"), occurrences(md, "\\<")) << "every '<' escaped";
  EXPECT_EQ(occurrences(md, "`"), occurrences(md, "\\`"));
  EXPECT_EQ(md.find("\n| injected"), std::string::npos);
  EXPECT_EQ(md.find("@octocat"), std::string::npos) << "a mention would notify someone";
  EXPECT_NE(md.find("@\xe2\x81\xa0octocat"), std::string::npos);
  EXPECT_NE(md.find("\\*bold\\*"), std::string::npos);
  EXPECT_EQ(check_gfm_tables(md), (std::vector<size_t>{4, 9}));
}

TEST(MarkdownCell, EscapesGithubSyntaxAndMentionsAndShowsControlBytes) {
  EXPECT_EQ(markdown_cell("a|b"), "a\\|b");
  EXPECT_EQ(markdown_cell("`code`"), "\\`code\\`");
  EXPECT_EQ(markdown_cell("<b>&amp;"), "\\<b\\>\\&amp;");
  EXPECT_EQ(markdown_cell("line1\nline2"), "line1\\\\nline2");
  EXPECT_EQ(markdown_cell(std::string("nul\0end", 7)), "nul\\\\x00end");
  EXPECT_EQ(markdown_cell("\xff"), "\\\\xff");
  EXPECT_EQ(markdown_cell("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(markdown_cell("#1 !img $x$"), "\\#1 \\!img \\$x\\$");
  EXPECT_EQ(markdown_cell("cc @octocat"), "cc @\xe2\x81\xa0octocat");
}

TEST(MarkdownReport, TruncatesLongReasons) {
  RunResult r = fixtures::sample_run();
  r.scenarios[1].failure->message = std::string(5000, 'x');
  auto md = matrix_md(r, {.max_reason_bytes = 50});
  EXPECT_NE(md.find(std::string(50, 'x') + " ... (4950 more bytes) |"), std::string::npos) << md;
  EXPECT_EQ(md.find(std::string(51, 'x')), std::string::npos);
}

TEST(MarkdownReport, ABigRunShowsEveryFailingRowThenHowManyMore) {
  RunResult r = fixtures::sample_run();
  for (int i = 0; i < 300; ++i)
    r.scenarios.push_back(
        fixtures::sample_scenario("GEN-" + std::to_string(i), "generated", Outcome::kPass, Level::kMay));
  auto md = matrix_md(r, {.full_report = "out/report.html"});
  EXPECT_NE(md.find("| CORE-SEND-009 |"), std::string::npos);
  EXPECT_EQ(md.find("| GEN-0 |"), std::string::npos);
  EXPECT_NE(md.find("\n304 more rows (none failing) in out/report.html.\n"), std::string::npos) << md;
  EXPECT_EQ(check_gfm_tables(md), (std::vector<size_t>{4, 5}));
  r.scenarios.resize(200);  // 200 rows: all shown
  EXPECT_EQ(check_gfm_tables(matrix_md(r)), (std::vector<size_t>{4, 200}));
}

TEST(MarkdownReport, CombinedFormHasATargetTableAndASectionPerTarget) {
  std::vector<TargetRun> t(3);
  t[0].run = fixtures::sample_run();
  t[0].run.scenarios.resize(1);
  t[1].run = three_binding_run_();
  t[2].run.target = "./missing | agent";
  t[2].error = "cannot start ./missing";
  std::ostringstream out;
  write_combined_markdown(out, t);
  auto md = out.str();
  EXPECT_EQ(md.rfind("## A2A conformance: NOT CONFORMANT \xe2\x80\x94 3 targets\n", 0), 0u) << md;
  EXPECT_NE(md.find("### 1. A2A conformance: CONFORMANT \xe2\x80\x94 ./agent --stdio"), std::string::npos) << md;
  EXPECT_NE(md.find("### 2. A2A conformance: NOT CONFORMANT \xe2\x80\x94 http://localhost:9999"), std::string::npos);
  EXPECT_NE(md.find("### 3. A2A conformance: ERROR \xe2\x80\x94 ./missing \\| agent"), std::string::npos) << md;
  EXPECT_NE(md.find("could not be run.** cannot start ./missing"), std::string::npos);
  EXPECT_NE(md.find("| CORE-SEND-001 | MUST | SendMessage returns a task | PASS | FAIL | \xe2\x80\x94 | status 500"),
            std::string::npos)
      << md;
  // Targets table, then counts and matrix of targets 1 and 2.
  EXPECT_EQ(check_gfm_tables(md), (std::vector<size_t>{3, 4, 1, 4, 2}));
}

TEST(MarkdownReport, ParsesAsGithubFlavouredMarkdownWithCmarkGfm) {
  if (std::system("command -v cmark-gfm >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "cmark-gfm is not installed (apt-get install cmark-gfm; scripts/install-deps.sh): "
                    "the GFM parse is not checked, the structural checks above still ran";
  RunResult r = fixtures::sample_run();
  for (auto& s : r.scenarios) s.reason += fixtures::hostile_bytes() + " | x `y` <b>";
  fs::path file = fs::path(A2A_BINARY_DIR) / "reports-sample" / "matrix_gfm_test.md";
  fs::create_directories(file.parent_path());
  { std::ofstream(file) << matrix_md(r); }
  auto html = run_capture("cmark-gfm -e table '" + file.string() + "'");
  EXPECT_EQ(occurrences(html, "<table>"), 2u) << html;
  EXPECT_EQ(occurrences(html, "<tr>"), 2u + 4 + 9) << html;  // header rows + counts + matrix rows
  EXPECT_EQ(occurrences(html, "<td"), 5u * 4 + 6u * 9) << html;
  EXPECT_NE(html.find("<td>STDIO-FRAME-004</td>"), std::string::npos) << html;
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

TEST(HtmlMatrix, IsAtTheTopWithBadgesLinksAndTooltips) {
  auto html = matrix_html(fixtures::sample_run());
  auto matrix = html.find("<section class=\"matrix-sec\" id=\"matrix\">");
  ASSERT_NE(matrix, std::string::npos);
  EXPECT_LT(html.find("class=\"verdict bad\""), matrix);
  EXPECT_LT(matrix, html.find("Summary by level"));
  EXPECT_NE(html.find("<details class=\"matrix\" open>"), std::string::npos);
  EXPECT_EQ(occurrences(html, "<tr class=\"mrow"), 9u);
  EXPECT_EQ(occurrences(html, "<tr class=\"mrow failing\">"), 5u);
  EXPECT_NE(html.find("<th class=\"col\">stdio<br><span class=\"note\">p46</span></th><th class=\"col\">jsonrpc</th>"),
            std::string::npos);
  EXPECT_NE(html.find("<a href=\"#s-1\"><span class=\"badge o-FAIL\">FAIL</span></a>"), std::string::npos);
  EXPECT_NE(html.find("title=\"no response within 10000 ms (step expect-end)\""), std::string::npos);
  EXPECT_EQ(occurrences(html, "<td class=\"cell none\""), 9u);
}

TEST(HtmlMatrix, IsClosedForABigRunAndEscapesAgentBytes) {
  RunResult r = fixtures::sample_run();
  for (auto& s : r.scenarios) s.reason += "\"><script>alert(1)</script>";
  for (int i = 0; i < 60; ++i)
    r.scenarios.push_back(fixtures::sample_scenario("GEN-" + std::to_string(i), "g", Outcome::kPass, Level::kMay));
  auto html = matrix_html(r);
  EXPECT_NE(html.find("<details class=\"matrix\">"), std::string::npos);
  EXPECT_EQ(occurrences(html, "<script>alert(1)"), 0u);
  EXPECT_TRUE(valid_utf8(html));
}

TEST(HtmlMatrix, CombinedReportHasOneMatrixPerTarget) {
  std::vector<TargetRun> t(2);
  t[0].run = fixtures::sample_run();
  t[1].run = three_binding_run_();
  std::ostringstream out;
  write_combined_html(out, t, {}, {.nonce = "n"});
  auto html = out.str();
  EXPECT_NE(html.find("id=\"t1-matrix\""), std::string::npos);
  EXPECT_NE(html.find("id=\"t2-matrix\""), std::string::npos);
  EXPECT_NE(html.find("<a href=\"#t2-s-1\"><span class=\"badge o-FAIL\">"), std::string::npos);
}
