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

// Conformant answers beside shed ones; a shed sample with agent bytes.
result::LoadRun shed_load_run() {
  result::LoadRun run;
  run.target = "http://127.0.0.1:1";
  run.binding = "rest";
  run.mode = "closed";
  run.weights = {{"send", 1}};
  run.total.op = "all";
  run.total.requests = 5;
  run.total.conformant = 3;
  run.total.shed = 2;
  run.total.latency.count = 3;
  run.total.latency.bins = {{100, 200, 3}};
  run.ops = {run.total};
  run.ops[0].op = "send";
  run.shed_total = 2;
  run.shed_kinds = {{"HTTP 503", 2}};
  result::LoadShed x;
  x.op = "send";
  x.seq = 1;
  x.signal = "HTTP 503";
  x.detail = "{\"code\":503,\"message\":\"<b>busy</b>\"}";
  x.transcript = {{0, "from-agent", "HTTP/1.1 503 Service Unavailable\r\n\r\n<b>busy</b>"}};
  run.shed_samples = {x};
  return run;
}

TEST(LoadReport, ShedAnswersAreCountedApartInEveryReport) {
  auto run = shed_load_run();
  EXPECT_EQ(run.exit_code(), 0);  // shed beside conformant answers: no verdict
  auto j = load_to_json(run);
  EXPECT_EQ(j["schema_version"], 2);
  EXPECT_EQ(j["total"]["shed"], 2);
  EXPECT_EQ(j["operations"][0]["shed"], 2);
  EXPECT_EQ(j["shed"]["total"], 2);
  EXPECT_EQ(j["shed"]["kinds"][0]["signal"], "HTTP 503");
  EXPECT_EQ(j["shed"]["kinds"][0]["count"], 2);
  EXPECT_EQ(j["shed"]["samples"][0]["transcript"].size(), 1u);
  EXPECT_EQ(j["exit_code"], 0);
  std::ostringstream out;
  write_load_console(out, run);
  EXPECT_NE(out.str().find("2 x HTTP 503"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("CONFORMANT: every answer"), std::string::npos) << out.str();
  std::string html = load_html(run);
  EXPECT_NE(html.find("Shed answers"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;busy&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<b>busy"), std::string::npos);
}

TEST(LoadReport, EveryRequestShedMeansNothingWasTested) {
  result::LoadRun run;
  run.total.requests = 4;
  run.total.shed = 4;
  run.shed_total = 4;
  run.shed_kinds = {{"gRPC RESOURCE_EXHAUSTED", 4}};
  EXPECT_EQ(run.exit_code(), 2);
  std::ostringstream out;
  write_load_console(out, run);
  EXPECT_NE(out.str().find("NOTHING TESTED: every answer was shed"), std::string::npos) << out.str();
  EXPECT_NE(load_html(run).find("NOTHING TESTED"), std::string::npos);
}

}  // namespace
}  // namespace a2a::reports
