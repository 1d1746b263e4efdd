#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "reports/html.hpp"
#include "runner/result/sample_run.hpp"
#include "runner/result/utf8.hpp"

using namespace a2a::reports;
using namespace a2a::result;

namespace {

std::string html_of(const RunResult& r, HtmlOptions o = {}) {
  std::ostringstream out;
  write_html(out, r, o);
  return out.str();
}

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

// The sample with agent bytes also in every field a scenario file or agent could fill.
RunResult hostile_run() {
  RunResult r = fixtures::sample_run();
  for (auto& s : r.scenarios) {
    s.id += "\" onmouseover=\"alert(2)";
    s.name += fixtures::hostile_bytes();
    s.requirement += "<img src=x onerror=alert(3)>";
    s.reason += fixtures::hostile_bytes();
    s.replay_command += " '</code><script>alert(4)</script>'";
    s.exit_status += "</pre><script>alert(5)</script>";
  }
  r.target = "<script>alert(6)</script>";
  r.command_line = fixtures::hostile_bytes();
  return r;
}

}  // namespace

TEST(Html, IsSelfContained) {
  std::string html = html_of(hostile_run());
  std::regex external(R"((src|href|action|srcset|poster|data)\s*=\s*["']?\s*(https?:|//|file:|ftp:))",
                      std::regex::icase);
  EXPECT_FALSE(std::regex_search(html, external));
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(html.find("@font-face"), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_NE(html.find("Content-Security-Policy\" content=\"default-src 'none';"), std::string::npos);
  EXPECT_EQ(count(html, "<style"), 1u);
  EXPECT_EQ(count(html, "<script"), 1u);
}

TEST(Html, EscapesEverythingThatCameFromTheAgent) {
  std::string html = html_of(hostile_run());
  EXPECT_TRUE(valid_utf8(html));
  for (unsigned char c : html) {
    bool allowed = c >= 0x20 || c == '\n' || c == '\t';
    ASSERT_TRUE(allowed) << "raw byte " << int(c);
    ASSERT_NE(c, 0x7f);
  }
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_EQ(html.find("</textarea>"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("\" onmouseover=\""), std::string::npos);
  EXPECT_EQ(html.find("\xe2\x80\xae"), std::string::npos);  // RLO shown, not applied
  EXPECT_EQ(count(html, "</pre>"), count(html, "<pre>"));
  EXPECT_EQ(count(html, "</code>"), count(html, "<code"));
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;&lt;/textarea&gt;&quot;quoted&quot; "
                      "&#39;single&#39; &amp; ]]&gt; \\x00\\x01\\x02"),
            std::string::npos);
  EXPECT_NE(html.find("\\x1b[31mred\\x1b[0m \\xe2\\x80\\xaeevil \\xef\\xbf\\xbe end"), std::string::npos);
  EXPECT_NE(html.find("\\x7f\\xff\\xc0\\xaf"), std::string::npos);
}

TEST(Html, ShowsVerdictExitCodeAndHeader) {
  RunResult r = fixtures::sample_run();
  std::string html = html_of(r);
  EXPECT_NE(html.find("<span class=\"verdict bad\">NOT CONFORMANT</span>"), std::string::npos);
  EXPECT_NE(html.find("exit code 2: harness or scenario error"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"#s-1\">STDIO-FRAME-004</a>"), std::string::npos);
  EXPECT_NE(html.find("<dd>2025-05-25T21:00:00Z</dd>"), std::string::npos);
  EXPECT_NE(html.find("<dd>1.23 s</dd>"), std::string::npos);
  EXPECT_NE(html.find("a2a-conform 0.1.0"), std::string::npos);
  EXPECT_NE(html.find("4 passed, 4 failed, 1 skipped"), std::string::npos);
  r.scenarios = {fixtures::sample_scenario("A-1", "fine", Outcome::kPass, Level::kMust)};
  html = html_of(r);
  EXPECT_NE(html.find(">CONFORMANT</span>"), std::string::npos);
  EXPECT_NE(html.find("exit code 0"), std::string::npos);
}

TEST(Html, SummarisesByLevelAndByBindingProfile) {
  std::string html = html_of(fixtures::sample_run());
  EXPECT_NE(html.find("<tr><th>MUST</th><td>2/5 passed, 3 failed</td>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>SHOULD</th><td>1/2 passed, 1 skipped</td>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>stdio / p46</th>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>jsonrpc</th>"), std::string::npos);
  EXPECT_NE(html.find("data-filter=\"failing\" aria-pressed=\"false\">Failing (4)"), std::string::npos);
  EXPECT_NE(html.find("data-filter=\"XPASS\""), std::string::npos);
}

TEST(Html, OpensFailingBlocksAndCollapsesPassingOnes) {
  std::string html = html_of(fixtures::sample_run());
  EXPECT_NE(html.find("id=\"s-0\" data-outcome=\"PASS\">"), std::string::npos);
  EXPECT_NE(html.find("id=\"s-1\" data-outcome=\"FAIL\" data-failing open>"), std::string::npos);
  EXPECT_NE(html.find("id=\"s-2\" data-outcome=\"NON_STRICT\" open>"), std::string::npos);
  EXPECT_NE(html.find("id=\"s-8\" data-outcome=\"ERROR\" data-failing open>"), std::string::npos);
}

TEST(Html, ShowsFailureStepsTranscriptAndReplay) {
  std::string html = html_of(fixtures::sample_run());
  auto block = html.substr(html.find("id=\"s-1\""), html.find("id=\"s-2\"") - html.find("id=\"s-1\""));
  EXPECT_NE(block.find("<p class=\"req\">The agent must do what lower-case header name accepted says.</p>"),
            std::string::npos);
  EXPECT_NE(block.find("<dt>Spec</dt><dd>stdio-binding.md \xc2\xa7" "8.2 F4 (P46 design)</dd>"), std::string::npos);
  EXPECT_NE(block.find("at <code>result.status.state</code>"), std::string::npos);
  EXPECT_NE(block.find("<h4>Expected</h4><pre>{&quot;jsonrpc&quot;:&quot;2.0&quot;}</pre>"), std::string::npos);
  EXPECT_NE(block.find("<h4>Actual</h4>"), std::string::npos);
  EXPECT_NE(block.find("<td><code>expect-reply</code></td><td><span class=\"badge o-FAIL\">FAIL</span>"),
            std::string::npos);
  EXPECT_NE(block.find("<td class=\"t\">0.400</td><td class=\"d\">\xe2\x86\x92 agent</td><td><pre>"
                       "Content-Length: 60\\r\\n\n\\r\\n\n{&quot;jsonrpc&quot;"),
            std::string::npos);
  EXPECT_NE(block.find("<tr class=\"d-in\">"), std::string::npos);
  EXPECT_NE(block.find("<tr class=\"d-err\">"), std::string::npos);
  EXPECT_NE(block.find("1234 bytes were not recorded"), std::string::npos);
  EXPECT_NE(block.find("<h3>stderr (excerpt)</h3>"), std::string::npos);
  EXPECT_NE(block.find("<dt>Agent exit</dt><dd><code>signal 9 (SIGKILL)</code></dd>"), std::string::npos);
  EXPECT_NE(block.find("<code id=\"r-1\">a2a-conform run --agent ./agent --only STDIO-FRAME-004</code>"),
            std::string::npos);
}

TEST(Html, FoldsLongPayloadsAndCapsTheTranscript) {
  RunResult r = fixtures::sample_run();
  r.scenarios[1].transcript.push_back({8.0, "from-agent", std::string(5000, 'x')});
  r.scenarios[1].transcript.push_back({9.0, "from-agent", std::string(300000, 'y')});
  r.scenarios[1].transcript.push_back({10.0, "from-agent", "late"});
  std::string html = html_of(r, {.fold_bytes = 1000, .max_transcript_bytes = 10000});
  EXPECT_NE(html.find("<details class=\"more\"><summary>show all (4000 more bytes)</summary>"),
            std::string::npos);
  EXPECT_NE(html.find("1 further events) not shown here: HTML cap of 10000 bytes"), std::string::npos);
  EXPECT_EQ(html.find(std::string(10001, 'y')), std::string::npos);
  EXPECT_LT(html.size(), 200000u);
}

TEST(Html, UsesTheGivenNonceOrARandomOne) {
  std::string a = html_of(fixtures::sample_run(), {.nonce = "abc123"});
  EXPECT_NE(a.find("<style nonce=\"abc123\">"), std::string::npos);
  EXPECT_NE(a.find("<script nonce=\"abc123\">"), std::string::npos);
  EXPECT_NE(a.find("script-src 'nonce-abc123'"), std::string::npos);
  EXPECT_NE(html_of(RunResult{}), html_of(RunResult{}));
}

TEST(Html, TheSameTestOnTwoBindingsGetsTwoEntriesAndBindingSummaryRows) {
  RunResult r = fixtures::sample_run();
  ScenarioResult a = r.scenarios[0];
  a.binding = "jsonrpc";
  a.profile.clear();
  ScenarioResult b = a;
  b.binding = "rest";
  r.scenarios = {a, b};
  r.bindings = {"jsonrpc", "rest"};
  std::string html = html_of(r);
  EXPECT_EQ(count(html, "id=\"s-0\""), 1u);
  EXPECT_EQ(count(html, "id=\"s-1\""), 1u);
  EXPECT_GE(count(html, ">jsonrpc<"), 1u) << "a summary row per binding";
  EXPECT_GE(count(html, ">rest<"), 1u);
}

TEST(Html, HeaderStatesTheRoleProfileAndTarget) {
  RunResult r = fixtures::sample_run();
  r.role = "client";
  r.profile = "stdio-json";
  r.target = "./client <b>x</b>";
  HtmlOptions o;
  o.nonce = "n";
  std::string html = html_of(r, o);
  auto header = html.substr(0, html.find("</header>"));
  EXPECT_NE(header.find("<dt>Role</dt><dd>client</dd>"), std::string::npos) << header;
  EXPECT_NE(header.find("<dt>Profile</dt><dd>stdio-json</dd>"), std::string::npos) << header;
  EXPECT_NE(header.find("<dt>Target</dt><dd><code>./client &lt;b&gt;x&lt;/b&gt;</code></dd>"), std::string::npos)
      << header;
}

TEST(Html, AnIdPrefixMakesEveryIdOfATargetDistinct) {
  HtmlOptions o;
  o.nonce = "n";
  o.id_prefix = "t2-";
  std::ostringstream out;
  write_html_target(out, fixtures::sample_run(), o);
  std::string html = out.str();
  EXPECT_NE(html.find("id=\"t2-s-1\""), std::string::npos);
  EXPECT_NE(html.find("<a href=\"#t2-s-1\">"), std::string::npos);
  EXPECT_NE(html.find("id=\"t2-expand-all\""), std::string::npos);
  EXPECT_EQ(html.find("id=\"s-"), std::string::npos);
  EXPECT_EQ(html.find("<main"), std::string::npos);
}
