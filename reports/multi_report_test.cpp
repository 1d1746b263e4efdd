#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "reports/multi_report.hpp"
#include "runner/result/sample_run.hpp"
#include "runner/result/utf8.hpp"

using namespace a2a::reports;
using namespace a2a::result;

namespace {

const std::string kHostileTarget = "./agent '<script>alert(1)</script>' \"&\" \x1b[31m\xff";

RunResult passing_run(std::string target) {
  RunResult r = fixtures::sample_run();
  r.scenarios.resize(1);  // STDIO-FRAME-001, PASS at MUST level
  r.target = std::move(target);
  return r;
}

// Target 1 passes, target 2 (hostile command) fails, target 3 never ran.
std::vector<TargetRun> three_targets() {
  std::vector<TargetRun> t(3);
  t[0].id = target_id(1, "./agent");
  t[0].run = passing_run("./agent");
  t[0].files = {"targets/1-agent/report.json"};
  t[1].id = target_id(2, kHostileTarget);
  t[1].run = fixtures::sample_run();
  t[1].run.target = kHostileTarget;
  t[2].id = target_id(3, "http://127.0.0.1:1/a");
  t[2].run.target = "http://127.0.0.1:1/a";
  t[2].run.profile = "";
  t[2].error = "--url http://127.0.0.1:1/a: connection refused <b>";
  return t;
}

CombinedInfo info() {
  CombinedInfo i;
  i.tool_version = "0.1.0";
  i.started_at = "2025-05-25T21:00:00Z";
  i.duration_ms = 1500;
  i.command_line = "a2a-conform run --agent ./agent --agent x";
  return i;
}

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

}  // namespace

struct SlugCase {
  std::string name, target, slug;
};

class TargetSlug : public ::testing::TestWithParam<SlugCase> {};

TEST_P(TargetSlug, IsAFileNameSafeNameOfTheTarget) { EXPECT_EQ(target_slug(GetParam().target), GetParam().slug); }

INSTANTIATE_TEST_SUITE_P(
    Cases, TargetSlug,
    ::testing::Values(SlugCase{"ProgramWithoutFolder", "build/bin/a2a-ref-agent", "a2a-ref-agent"},
                      SlugCase{"ArgumentsJoined", "build/bin/a2a-ref-agent --fault X_Y", "a2a-ref-agent-fault-x-y"},
                      SlugCase{"UrlWithoutScheme", "http://127.0.0.1:8080/a2a", "127.0.0.1-8080-a2a"},
                      SlugCase{"HostileBytesDropped", "../../x\x1b/\xff;rm -rf /", "rm-rf"},
                      SlugCase{"NothingLeft", "///", "target"},
                      SlugCase{"Capped", std::string(100, 'a'), std::string(40, 'a')}),
    [](const auto& info) { return info.param.name; });

TEST(MultiReport, ExitCodeIsTheWorstOverTargetsAndASetupErrorIsTwo) {
  auto t = three_targets();
  EXPECT_EQ(t[0].exit_code(), 0);
  EXPECT_EQ(t[1].exit_code(), 2);  // the sample has an ERROR scenario
  EXPECT_EQ(t[2].exit_code(), 2);
  EXPECT_EQ(t[2].verdict(), "ERROR");
  EXPECT_EQ(combined_exit_code({t[0]}), 0);
  t[1].run.scenarios.erase(t[1].run.scenarios.begin() + 8);  // drop the ERROR: FAIL remains
  EXPECT_EQ(combined_exit_code({t[0], t[1]}), 1);
  EXPECT_EQ(combined_exit_code(t), 2);
  EXPECT_TRUE(combined_conformant({t[0]}));
  EXPECT_FALSE(combined_conformant({t[0], t[1]}));
}

TEST(MultiReport, CombinedJsonListsTargetsWithSummariesAndFiles) {
  auto t = three_targets();
  auto j = combined_json(t, info());
  EXPECT_EQ(j["schema"], "a2a-conform-multi-result");
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["exit_code"], 2);
  EXPECT_EQ(j["conformant"], false);
  ASSERT_EQ(j["targets"].size(), 3u);
  EXPECT_EQ(j["targets"][0]["index"], 1);
  EXPECT_EQ(j["targets"][0]["id"], "1-agent");
  EXPECT_EQ(j["targets"][0]["role"], "agent");
  EXPECT_EQ(j["targets"][0]["profile"], "p46");
  EXPECT_EQ(j["targets"][0]["verdict"], "CONFORMANT");
  EXPECT_EQ(j["targets"][0]["counts"]["passed"], 1);
  EXPECT_EQ(j["targets"][0]["files"][0], "targets/1-agent/report.json");
  EXPECT_EQ(j["targets"][1]["verdict"], "NOT CONFORMANT");
  EXPECT_EQ(j["targets"][1]["counts"]["total"], 9);
  // Invalid UTF-8 in a target: a readable copy and the exact bytes.
  std::string exact;
  ASSERT_TRUE(base64_decode(j["targets"][1]["target_b64"].get<std::string>(), exact));
  EXPECT_EQ(exact, kHostileTarget);
  EXPECT_EQ(j["targets"][2]["verdict"], "ERROR");
  EXPECT_EQ(j["targets"][2]["exit_code"], 2);
  EXPECT_EQ(j["targets"][2]["error"], "--url http://127.0.0.1:1/a: connection refused <b>");
  EXPECT_EQ(j["counts"]["total"], 10);
  EXPECT_NO_THROW((void)j.dump());
}

TEST(MultiReport, CombinedJunitHasOneSuitePerTargetAndUniqueTestcases) {
  auto t = three_targets();
  t[0].run = fixtures::sample_run();  // the same tests as target 2: names must still be unique
  t[0].run.target = "./agent";
  std::ostringstream out;
  write_combined_junit(out, t, info());
  std::string xml = out.str();
  EXPECT_TRUE(valid_utf8(xml));
  EXPECT_EQ(count(xml, "<testsuite "), 3u);
  EXPECT_NE(xml.find("<testsuite name=\"1-agent\""), std::string::npos);
  EXPECT_NE(xml.find("<testsuites name=\"a2a-conform\" tests=\"19\" failures=\"6\" errors=\"3\""),
            std::string::npos)
      << xml.substr(0, 300);
  EXPECT_EQ(xml.find("<script>"), std::string::npos);
  EXPECT_EQ(xml.find('\x1b'), std::string::npos);
  EXPECT_NE(xml.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(xml.find("<testcase classname=\"3-127.0.0.1-1-a\" name=\"target setup\""), std::string::npos);
  std::regex testcase("<testcase classname=\"([^\"]*)\" name=\"([^\"]*)\"");
  std::set<std::string> seen;
  size_t n = 0;
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), testcase); it != std::sregex_iterator(); ++it, ++n) {
    EXPECT_TRUE(seen.insert((*it)[1].str() + "|" + (*it)[2].str()).second) << (*it)[0];
    std::string cls = (*it)[1];
    EXPECT_TRUE(cls.starts_with("1-agent.") || cls.starts_with(t[1].id + ".") || cls == "3-127.0.0.1-1-a") << cls;
  }
  EXPECT_EQ(n, 19u);
}

TEST(MultiReport, CombinedHtmlHasAnOverviewLinkingToOneSectionPerTarget) {
  auto t = three_targets();
  HtmlOptions o;
  o.nonce = "abc";
  std::ostringstream out;
  write_combined_html(out, t, info(), o);
  std::string html = out.str();
  EXPECT_TRUE(valid_utf8(html));
  EXPECT_EQ(count(html, "<!DOCTYPE html>"), 1u);
  EXPECT_EQ(count(html, "Content-Security-Policy"), 1u);
  EXPECT_EQ(count(html, "<script nonce=\"abc\">"), 1u);
  EXPECT_EQ(count(html, "<script"), 1u);  // the hostile target's <script> is text
  EXPECT_EQ(html.find('\x1b'), std::string::npos);
  EXPECT_EQ(count(html, "<tr class=\"target-row\""), 3u);
  EXPECT_NE(html.find("data-verdict=\"CONFORMANT\"><td>1</td><td>agent</td><td>p46</td><td><a href=\"#t1\">"),
            std::string::npos);
  EXPECT_NE(html.find("data-verdict=\"NOT CONFORMANT\"><td>2</td>"), std::string::npos);
  EXPECT_NE(html.find("data-verdict=\"ERROR\"><td>3</td>"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"targets/1-agent/report.json\">"), std::string::npos);
  EXPECT_NE(html.find("<section class=\"scope target\" id=\"t1\""), std::string::npos);
  EXPECT_NE(html.find("<section class=\"scope target\" id=\"t2\""), std::string::npos);
  EXPECT_NE(html.find("<section class=\"scope target\" id=\"t3\""), std::string::npos);
  EXPECT_NE(html.find("connection refused &lt;b&gt;"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("id=\"t2-s-1\""), std::string::npos);
  // Every id on the page once, every in-page link to an id that exists.
  std::regex id_attr(" id=\"([^\"]*)\"");
  std::map<std::string, int> ids;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), id_attr); it != std::sregex_iterator(); ++it)
    ++ids[(*it)[1]];
  EXPECT_GT(ids.size(), 20u);
  for (const auto& [id, n] : ids) EXPECT_EQ(n, 1) << id;
  std::regex link("href=\"#([^\"]*)\"");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), link); it != std::sregex_iterator(); ++it)
    EXPECT_TRUE(ids.contains((*it)[1])) << (*it)[0];
}

TEST(MultiReport, ConsoleTableHasOneLinePerTargetThenTheOverallVerdict) {
  auto t = three_targets();
  std::ostringstream out;
  write_targets_table(out, t);
  std::string text = out.str();
  EXPECT_NE(text.find("targets (3):"), std::string::npos);
  EXPECT_NE(text.find("  1  agent  p46              1       0        0  CONFORMANT      ./agent\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  2  agent  p46              4       4        1  NOT CONFORMANT  ./agent"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  3  agent  -                0       0        0  ERROR           http://127.0.0.1:1/a\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("NOT CONFORMANT (every target), exit code 2: harness or scenario error"), std::string::npos);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_TRUE(text.ends_with("5 passed, 4 failed, 1 skipped\n")) << text;
}
