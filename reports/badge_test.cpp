#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "reports/badge.hpp"
#include "runner/result/sample_run.hpp"

using namespace a2a::reports;
using namespace a2a::result;
using a2a::result::fixtures::sample_scenario;

namespace {

RunResult run_of(std::vector<std::pair<Outcome, Level>> outcomes) {
  RunResult r;
  int n = 0;
  for (auto [o, l] : outcomes) r.scenarios.push_back(sample_scenario("T-" + std::to_string(++n), "t", o, l));
  return r;
}

std::string svg_of(const BadgeText& t) {
  std::ostringstream os;
  write_badge(os, t);
  return os.str();
}

int attr_int(const std::string& svg, const std::string& name) {
  std::smatch m;
  std::regex re(name + "=\"([0-9]+)\"");
  return std::regex_search(svg, m, re) ? std::stoi(m[1]) : -1;
}

}  // namespace

TEST(Badge, ConformantRunIsGreenWithTheConsolesMustCount) {
  auto r = run_of({{Outcome::kPass, Level::kMust}, {Outcome::kSkip, Level::kMust}, {Outcome::kNonStrict, Level::kMust},
                   {Outcome::kFail, Level::kShould}});
  auto t = badge_text(r);
  EXPECT_TRUE(t.good);
  EXPECT_EQ(t.value, "CONFORMANT \xC2\xB7 MUST 2/3");  // the SKIP counts in the total, as on the console
  auto svg = svg_of(t);
  EXPECT_NE(svg.find("#2e7d32"), std::string::npos);
  EXPECT_EQ(svg.find("#c62828"), std::string::npos);
  EXPECT_NE(svg.find("<title>A2A conformance: CONFORMANT"), std::string::npos);
}

TEST(Badge, AMustFailureMakesItRed) {
  auto r = run_of({{Outcome::kPass, Level::kMust}, {Outcome::kFail, Level::kMust}});
  auto t = badge_text(r);
  EXPECT_FALSE(t.good);
  EXPECT_EQ(t.value, "NOT CONFORMANT \xC2\xB7 MUST 1/2");
  EXPECT_NE(svg_of(t).find("#c62828"), std::string::npos);
}

TEST(Badge, ADiagnosedTargetIsNotConformantWhateverItsCounts) {
  auto r = run_of({{Outcome::kSkip, Level::kMust}});
  r.diagnosis = "the agent could not be started";
  EXPECT_FALSE(badge_text(r).good);
}

TEST(Badge, SeveralTargetsAreConformantOnlyTogether) {
  auto good = run_of({{Outcome::kPass, Level::kMust}});
  auto bad = run_of({{Outcome::kTimeout, Level::kMust}, {Outcome::kPass, Level::kMust}});
  auto t = badge_text(std::vector<const RunResult*>{&good, &bad});
  EXPECT_FALSE(t.good);
  EXPECT_EQ(t.value, "NOT CONFORMANT \xC2\xB7 MUST 2/3");
  EXPECT_TRUE(badge_text(std::vector<const RunResult*>{&good, &good}).good);
  EXPECT_FALSE(badge_text(std::vector<const RunResult*>{}).good);  // nothing tested proves nothing
}

TEST(Badge, TheSvgIsOneWellFormedImageWhoseBoxesHoldTheirText) {
  auto svg = svg_of(badge_text(run_of({{Outcome::kPass, Level::kMust}})));
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  // Tags balance (every element here is either self-closed or closed).
  std::regex open(R"(<(svg|title|clipPath|g|text)[ >])"), close(R"(</(svg|title|clipPath|g|text)>)");
  auto count = [&](const std::regex& re) {
    return std::distance(std::sregex_iterator(svg.begin(), svg.end(), re), std::sregex_iterator());
  };
  EXPECT_EQ(count(open), count(close)) << svg;
  // The width is the two boxes, and each text is fitted to its box.
  int width = attr_int(svg, "width");
  ASSERT_GT(width, 100);
  std::smatch m;
  std::regex lengths(R"re(textLength="([0-9]+)")re");
  int sum = 0, n = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), lengths); it != std::sregex_iterator(); ++it, ++n)
    sum += std::stoi((*it)[1]);
  EXPECT_EQ(n, 2);
  EXPECT_EQ(sum + 4 * 6, width);  // two boxes, each text padded 6 px on both sides
}

TEST(Badge, TextIsEscapedForXml) {
  BadgeText t{"a<b>&\"c", "x", true};
  auto svg = svg_of(t);
  EXPECT_EQ(svg.find("a<b>"), std::string::npos);
  EXPECT_NE(svg.find("a&lt;b&gt;&amp;&quot;c"), std::string::npos);
}
