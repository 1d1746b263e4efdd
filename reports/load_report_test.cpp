#include <gtest/gtest.h>

#include <sstream>

#include "reports/load_report.hpp"

namespace a2a::reports {
namespace {

// A run whose agent sent markup, control bytes and invalid UTF-8.
result::LoadRun hostile_load_run() {
  result::LoadRun run;
  run.target = "./agent";
  run.binding = "jsonrpc";
  run.mode = "closed";
  run.connections = 2;
  run.weights = {{"send", 1}};
  run.total.op = "all";
  run.total.requests = 3;
  run.total.conformant = 2;
  run.total.nonconformant = 1;
  run.total.latency.count = 3;
  run.total.latency.bins = {{100, 200, 2}, {200, 400, 1}};
  run.ops = {run.total};
  run.ops[0].op = "send";
  run.nonconformant_total = 1;
  result::LoadFinding f;
  f.op = "send";
  f.operation = "send_message";
  f.reason = "response: task.id: expected type string, got <script>alert(1)</script>\x1b[31m";
  f.quotes = {{"a2a-spec", "§3.2.2", "The operation MUST wait"}};
  f.transcript = {{0, "from-agent", std::string("{\"id\":\"<img src=x>\xff\"}")}};
  run.findings = {f};
  return run;
}

TEST(LoadReport, HtmlEscapesWhatTheAgentSent) {
  std::string html = load_html(hostile_load_run());
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find('\x1b'), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&lt;img src=x&gt;"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  size_t bars = 0;
  for (auto at = html.find("<rect"); at != std::string::npos; at = html.find("<rect", at + 1)) ++bars;
  EXPECT_EQ(bars, 4u);  // two bars for all operations, two for send
}

TEST(LoadReport, JsonKeepsExactBytesBesideAReadableCopy) {
  auto j = load_to_json(hostile_load_run());
  EXPECT_EQ(j["schema"], "a2a-conform-load");
  EXPECT_EQ(j["exit_code"], 1);
  const auto& e = j["findings"][0]["transcript"][0];
  EXPECT_TRUE(e.contains("bytes_b64"));  // \xff is not UTF-8: the exact bytes are kept too
  EXPECT_NO_THROW(j.dump());
  EXPECT_EQ(j["total"]["requests"], 3);
  EXPECT_EQ(j["operations"][0]["histogram"].size(), 2u);
}

TEST(LoadReport, ConsoleShowsControlBytesAsEscapes) {
  std::ostringstream out;
  write_load_console(out, hostile_load_run());
  EXPECT_EQ(out.str().find('\x1b'), std::string::npos);
  EXPECT_NE(out.str().find("NON-CONFORMANT: 1 answer(s)"), std::string::npos);
}

TEST(LoadReport, ExitCodesFollowTheAnswers) {
  result::LoadRun run;
  EXPECT_EQ(run.exit_code(), 2);  // nothing answered: nothing tested
  run.total.conformant = 5;
  EXPECT_EQ(run.exit_code(), 0);
  run.total.transport_errors = 3;  // beside answers: reported, not a verdict
  EXPECT_EQ(run.exit_code(), 0);
  run.nonconformant_total = 1;  // e.g. during warmup
  EXPECT_EQ(run.exit_code(), 1);
}

}  // namespace
}  // namespace a2a::reports
