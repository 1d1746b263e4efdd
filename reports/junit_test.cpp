#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "reports/junit.hpp"
#include "runner/result/sample_run.hpp"
#include "runner/result/utf8.hpp"

using namespace a2a::reports;
using namespace a2a::result;

namespace {

// A deliberately small XML 1.0 well-formedness check, enough for what the
// writer emits: allowed characters only, entities known, tags balanced,
// attribute values quoted and free of '<'. Returns "" or the first problem.
std::string xml_problem(const std::string& xml) {
  if (!valid_utf8(xml)) return "invalid UTF-8";
  for (unsigned char c : xml)
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return "raw control byte";
  if (xml.find("\xef\xbf\xbe") != std::string::npos) return "U+FFFE";
  std::regex entity("&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);");
  for (size_t p = xml.find('&'); p != std::string::npos; p = xml.find('&', p + 1)) {
    auto end = xml.find(';', p);
    if (end == std::string::npos || !std::regex_match(xml.substr(p, end - p + 1), entity))
      return "bad entity at " + std::to_string(p);
  }
  std::vector<std::string> stack;
  std::regex tag(R"(<(/?)([A-Za-z_][\w.-]*)((?:\s+[\w.-]+="[^"<]*")*)\s*(/?)>)");
  size_t pos = xml.find("?>") + 2;
  for (size_t lt = xml.find('<', pos); lt != std::string::npos; lt = xml.find('<', lt + 1)) {
    auto gt = xml.find('>', lt);
    std::smatch m;
    std::string t = xml.substr(lt, gt - lt + 1);
    if (!std::regex_match(t, m, tag)) return "malformed tag: " + t.substr(0, 80);
    if (m[1] == "/") {
      if (stack.empty() || stack.back() != m[2]) return "unbalanced </" + m[2].str() + ">";
      stack.pop_back();
    } else if (m[4] != "/") {
      stack.push_back(m[2]);
    }
  }
  return stack.empty() ? "" : "unclosed <" + stack.back() + ">";
}

std::string junit_of(const RunResult& r) {
  std::ostringstream out;
  write_junit(out, r);
  return out.str();
}

}  // namespace

TEST(Junit, TheCheckerRejectsBrokenXml) {
  EXPECT_NE(xml_problem("<?xml?><a><b></a>"), "");
  EXPECT_NE(xml_problem("<?xml?><a>&bogus;</a>"), "");
  EXPECT_NE(xml_problem(std::string("<?xml?><a>\x01</a>")), "");
  EXPECT_NE(xml_problem("<?xml?><a x=\"<\"></a>"), "");
  EXPECT_EQ(xml_problem("<?xml?><a x=\"1\"><b/>&amp;&#10;</a>"), "");
}

TEST(Junit, IsWellFormedWithHostileAgentBytesEverywhere) {
  RunResult r = fixtures::sample_run();
  for (auto& s : r.scenarios) {
    s.name += fixtures::hostile_bytes();
    s.reason += fixtures::hostile_bytes();
    s.suite_id += "\"><evil/>";
  }
  r.target = fixtures::hostile_bytes();
  std::string xml = junit_of(r);
  EXPECT_EQ(xml_problem(xml), "");
  EXPECT_EQ(xml.find("<script>"), std::string::npos);
  EXPECT_EQ(xml.find("<evil/>"), std::string::npos);
  EXPECT_EQ(xml.find("]]>"), std::string::npos);
  EXPECT_NE(xml.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
}

TEST(Junit, InvalidUtf8AndControlsInFreeTextBecomeReplacementOrEscapes) {
  RunResult r;
  ScenarioResult s;
  s.id = "X-1";
  s.name = std::string("bad\x01\xff name", 10);
  s.outcome = Outcome::kFail;
  r.scenarios.push_back(s);
  std::string xml = junit_of(r);
  EXPECT_EQ(xml_problem(xml), "");
  EXPECT_NE(xml.find("name=\"X-1 bad\\x01\\xff name\""), std::string::npos) << xml;
}

TEST(Junit, MapsOutcomesToFailureErrorSkippedElements) {
  std::string xml = junit_of(fixtures::sample_run());
  EXPECT_NE(xml.find("<testsuites name=\"a2a-conform\" tests=\"9\" failures=\"3\" errors=\"1\" skipped=\"1\""),
            std::string::npos);
  EXPECT_NE(xml.find("<testsuite name=\"stdio-framing\" tests=\"5\" failures=\"2\" errors=\"0\" skipped=\"0\""),
            std::string::npos);
  EXPECT_NE(xml.find("<testcase classname=\"stdio-framing\" name=\"STDIO-FRAME-001 header and body\" time=\"0.003\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("<failure message=\"response is not valid JSON: &lt;script&gt;"), std::string::npos);
  EXPECT_NE(xml.find("type=\"XPASS\""), std::string::npos);
  EXPECT_NE(xml.find("type=\"TIMEOUT\""), std::string::npos);
  EXPECT_NE(xml.find("<error message=\"acts/core-operations.acts.yaml:88"), std::string::npos);
  EXPECT_NE(xml.find("<skipped message=\"precondition not met"), std::string::npos);
  EXPECT_NE(xml.find("replay: a2a-conform run --agent ./agent --only STDIO-FRAME-004"), std::string::npos);
  EXPECT_NE(xml.find("expected: {&quot;jsonrpc&quot;:&quot;2.0&quot;}"), std::string::npos);
}

TEST(Junit, SystemOutCarriesTheEscapedTranscriptOfFailingCases) {
  std::string xml = junit_of(fixtures::sample_run());
  auto at = xml.find("name=\"STDIO-FRAME-004");
  auto out = xml.find("<system-out>", at);
  auto end = xml.find("</system-out>", out);
  ASSERT_NE(out, std::string::npos);
  std::string text = xml.substr(out, end - out);
  EXPECT_NE(text.find("to-agent: Content-Length: 60\\r\\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\\x00\\x01\\x02"), std::string::npos);
  EXPECT_NE(text.find("1234 bytes not recorded"), std::string::npos);
}

TEST(Junit, CapsTheTranscriptPerTestcase) {
  RunResult r = fixtures::sample_run();
  r.scenarios[1].transcript.push_back({9.0, "from-agent", std::string(200000, 'A')});
  std::ostringstream out;
  write_junit(out, r, {.max_system_out_bytes = 1000});
  EXPECT_LT(out.str().size(), 40000u);
  EXPECT_NE(out.str().find("transcript cut at 1000 bytes"), std::string::npos);
}

TEST(Junit, TheSameTestOnTwoBindingsGivesTwoDistinctTestcases) {
  RunResult r = a2a::result::fixtures::sample_run();
  ScenarioResult a = r.scenarios[0];
  a.binding = "jsonrpc";
  ScenarioResult b = a;
  b.binding = "rest";
  r.scenarios = {a, b};
  std::ostringstream out;
  write_junit(out, r);
  std::string xml = out.str();
  EXPECT_EQ(xml_problem(xml), "");
  EXPECT_NE(xml.find(a.id + " " + a.name + " [jsonrpc]\""), std::string::npos) << xml;
  EXPECT_NE(xml.find(a.id + " " + a.name + " [rest]\""), std::string::npos) << xml;
}

TEST(Junit, EverySuiteStatesTheRoleProfileAndTarget) {
  RunResult r = fixtures::sample_run();
  r.role = "client";
  r.profile = "1.0";
  r.target = "./client \"<x>\"";
  std::string xml = junit_of(r);
  EXPECT_EQ(xml_problem(xml), "");
  std::regex suite("<testsuite ");
  size_t suites = std::distance(std::sregex_iterator(xml.begin(), xml.end(), suite), std::sregex_iterator());
  ASSERT_GT(suites, 0u);
  auto count = [&](const std::string& needle) {
    size_t n = 0;
    for (size_t p = xml.find(needle); p != std::string::npos; p = xml.find(needle, p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("<property name=\"role\" value=\"client\"/>"), suites);
  EXPECT_EQ(count("<property name=\"profile\" value=\"1.0\"/>"), suites);
  EXPECT_EQ(count("<property name=\"target\" value=\"./client &quot;&lt;x&gt;&quot;\"/>"), suites) << xml;
}

TEST(Junit, AnInterruptedRunHasOneErroredTestCaseAndSaysWhy) {
  RunResult r = fixtures::sample_run();
  std::string before = junit_of(r);
  r.interrupted = RunResult::Interruption{"SIGINT", 2, 4};
  std::string xml = junit_of(r);
  EXPECT_EQ(xml_problem(xml), "");
  auto c = r.counts();
  EXPECT_NE(xml.find("<testsuites name=\"a2a-conform\" tests=\"" + std::to_string(c.total + 1) + "\""),
            std::string::npos) << xml.substr(0, 300);
  EXPECT_NE(xml.find("errors=\"" + std::to_string(c.error + 1) + "\""), std::string::npos);
  EXPECT_NE(xml.find("<testsuite name=\"interrupted\" tests=\"1\" failures=\"0\" errors=\"1\""), std::string::npos);
  EXPECT_NE(xml.find("<error type=\"interrupted\" message=\"stopped by SIGINT: "), std::string::npos) << xml;
  EXPECT_NE(xml.find("<property name=\"interrupted\" value=\"stopped by SIGINT"), std::string::npos);
  EXPECT_EQ(before.find("interrupted"), std::string::npos);
}
