// The diff's three forms: the verdict first, regressions before the rest,
// and agent bytes escaped in each (Markdown table cells above all).
#include <gtest/gtest.h>

#include <sstream>

#include "reports/diff_report.hpp"
#include "reports/text.hpp"
#include "runner/result/sample_run.hpp"

using namespace a2a::result;
using a2a::reports::diff_to_json;
using a2a::reports::markdown_cell;
using a2a::reports::write_diff_console;
using a2a::reports::write_diff_markdown;

namespace {

ScenarioResult scenario(const std::string& id, Outcome o, const std::string& reason = "") {
  ScenarioResult s;
  s.id = id;
  s.name = id + " name";
  s.binding = "stdio";
  s.outcome = o;
  s.reason = reason;
  return s;
}

RunDiff sample_diff() {
  RunResult before, after;
  before.target = after.target = "./agent";
  before.scenarios = {scenario("REG-1", Outcome::kPass), scenario("FIX-1", Outcome::kFail, "no reply"),
                      scenario("GONE-1", Outcome::kPass), scenario("WHY-1", Outcome::kSkip, "old | reason")};
  after.scenarios = {scenario("REG-1", Outcome::kFail, "bad frame: " + fixtures::hostile_bytes()),
                     scenario("FIX-1", Outcome::kPass), scenario("NEW-1", Outcome::kPass),
                     scenario("WHY-1", Outcome::kSkip, "new\nreason")};
  auto d = diff_runs("old.json", {before}, "new.json", {after});
  EXPECT_TRUE(d);
  return *d;
}

}  // namespace

TEST(DiffReport, MarkdownCellEscapesPipesNewlinesAndMarkup) {
  EXPECT_EQ(markdown_cell("a|b\nc"), "a\\|b\\\\nc");
  EXPECT_EQ(markdown_cell("<img src=x>"), "\\<img src=x\\>");
  EXPECT_EQ(markdown_cell("*x* _y_ `z` [l](u) ~s~ &amp;"), "\\*x\\* \\_y\\_ \\`z\\` \\[l\\](u) \\~s\\~ \\&amp;");
  EXPECT_EQ(markdown_cell("\x1b[31m"), "\\\\x1b\\[31m");
}

TEST(DiffReport, MarkdownHasVerdictCountsThenRegressionsFirst) {
  std::ostringstream os;
  write_diff_markdown(os, sample_diff());
  std::string md = os.str();
  EXPECT_NE(md.find("**REGRESSED: 1 regression, 1 fix"), std::string::npos) << md;
  auto counts = md.find("| Level | Passed |");
  auto regressions = md.find("### Regressions");
  auto fixes = md.find("### Fixes");
  auto fresh = md.find("### New");
  auto removed = md.find("### Removed");
  auto reasons = md.find("### Changed reasons");
  ASSERT_NE(counts, std::string::npos);
  EXPECT_LT(counts, regressions);
  EXPECT_LT(regressions, fixes);
  EXPECT_LT(fixes, fresh);
  EXPECT_LT(fresh, removed);
  EXPECT_LT(removed, reasons);
  EXPECT_NE(md.find("| old \\| reason | new\\\\nreason |"), std::string::npos) << md;
  // Every table row keeps its column count: no raw | or newline from the agent.
  EXPECT_EQ(md.find("\x1b"), std::string::npos);
  EXPECT_EQ(md.find("<script>"), std::string::npos);
}

TEST(DiffReport, ConsoleShowsAgentBytesEscaped) {
  std::ostringstream os;
  write_diff_console(os, sample_diff());
  std::string text = os.str();
  EXPECT_NE(text.find("REG-1  [must, stdio]  PASS -> FAIL"), std::string::npos) << text;
  EXPECT_LT(text.find("Regressions"), text.find("Fixes"));
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_NE(text.find("exit code 1: something regressed"), std::string::npos);
}

TEST(DiffReport, JsonListsEachKindAndKeepsExactBytes) {
  auto j = diff_to_json(sample_diff());
  EXPECT_EQ(j["schema"], "a2a-conform-diff");
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["regressed"], true);
  EXPECT_EQ(j["exit_code"], 1);
  EXPECT_EQ(j["summary"]["regressions"], 1);
  EXPECT_EQ(j["regressions"][0]["id"], "REG-1");
  EXPECT_EQ(j["regressions"][0]["old_outcome"], "PASS");
  EXPECT_EQ(j["regressions"][0]["new_outcome"], "FAIL");
  EXPECT_TRUE(j["regressions"][0].contains("new_reason_b64"));  // hostile bytes are not UTF-8
  EXPECT_EQ(j["new"]["targets"][0]["target"], "./agent");
  EXPECT_EQ(j["new_scenarios"][0]["id"], "NEW-1");
  EXPECT_EQ(j["removed_scenarios"][0]["new_outcome"], nullptr);
  EXPECT_EQ(j["by_level"]["must"]["new"]["FAIL"], 1);
  EXPECT_EQ(j["old"]["file"], "old.json");
  EXPECT_NO_THROW(j.dump());
}
