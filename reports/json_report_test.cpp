#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "reports/json_report.hpp"
#include "runner/result/sample_run.hpp"

using namespace a2a::reports;
using namespace a2a::result;

namespace {

ActsOptions options() {
  ActsOptions o;
  o.sdk_name = "a2a-rs";
  o.sdk_version = "0.4.0";
  o.sdk_language = "rust";
  o.generated_at = "2025-05-25T21:00:00Z";
  return o;
}

const nlohmann::ordered_json* find_test(const nlohmann::ordered_json& report, std::string_view id) {
  for (const auto& suite : report["suites"])
    for (const auto& t : suite["tests"])
      if (t["id"] == id) return &t;
  return nullptr;
}

}  // namespace

TEST(JsonReport, IsTheVersionedResultModelPrettyPrinted) {
  std::ostringstream out;
  write_json_report(out, fixtures::sample_run());
  auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["schema"], "a2a-conform-result");
  EXPECT_EQ(j["schema_version"], 2);
  EXPECT_NE(out.str().find("\n  \"schema\""), std::string::npos);
  EXPECT_EQ(run_result_from_json(j), fixtures::sample_run());
}

TEST(JsonReport, StatesTheRoleProfileAndTargetTested) {
  RunResult r = fixtures::sample_run();
  r.role = "client";
  r.profile = "1.0";
  r.protocol_versions = {"1.0"};
  r.target = "./my-client --url {target}";
  std::ostringstream out;
  write_json_report(out, r);
  auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["role"], "client");
  EXPECT_EQ(j["profile"], "1.0");
  EXPECT_EQ(j["protocol_versions"][0], "1.0");
  EXPECT_EQ(j["target"], "./my-client --url {target}");
  auto acts = acts_report(r, "stdio", ActsOptions{});
  EXPECT_EQ(acts["x-role"], "client");
  EXPECT_EQ(acts["x-profile"], "1.0");
  EXPECT_EQ(acts["x-target"], "./my-client --url {target}");
}

struct MappingCase {
  Outcome outcome;
  std::string_view acts;
};

class ActsMapping : public ::testing::TestWithParam<MappingCase> {};

TEST_P(ActsMapping, MapsEachOutcomeToAnActsResult) {
  EXPECT_EQ(acts_result(GetParam().outcome), GetParam().acts);
}

INSTANTIATE_TEST_SUITE_P(
    Outcomes, ActsMapping,
    ::testing::Values(MappingCase{Outcome::kPass, "pass"}, MappingCase{Outcome::kNonStrict, "pass"},
                      MappingCase{Outcome::kInformational, "pass"}, MappingCase{Outcome::kXFail, "pass"},
                      MappingCase{Outcome::kFail, "fail"}, MappingCase{Outcome::kXPass, "fail"},
                      MappingCase{Outcome::kTimeout, "fail"}, MappingCase{Outcome::kSkip, "skip"},
                      MappingCase{Outcome::kError, "error"}),
    [](const auto& info) { return std::string(to_string(info.param.outcome)); });

TEST(ActsReport, HasTheSection13DocumentFields) {
  auto rep = acts_report(fixtures::sample_run(), "stdio", options());
  EXPECT_EQ(rep["acts_version"], "1.0");
  EXPECT_EQ(rep["spec_version"], "1.0");
  EXPECT_EQ(rep["generated_at"], "2025-05-25T21:00:00Z");
  EXPECT_EQ(rep["sdk"], (nlohmann::ordered_json{{"name", "a2a-rs"}, {"version", "0.4.0"}, {"language", "rust"}}));
  EXPECT_EQ(rep["transport"], "stdio");
  EXPECT_FALSE(rep.contains("environment"));
  std::vector<std::string> keys;
  for (auto it = rep.begin(); it != rep.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys[0], "acts_version");
  EXPECT_EQ(keys[5], "summary");
  EXPECT_EQ(keys[6], "suites");
}

TEST(ActsReport, SummaryCountsByLevelAddUp) {
  auto rep = acts_report(fixtures::sample_run(), "stdio", options());
  const auto& sum = rep["summary"];
  // stdio: PASS, FAIL, NON_STRICT, INFORMATIONAL, TIMEOUT.
  EXPECT_EQ(sum["total"], 5);
  EXPECT_EQ(sum["passed"], 3);
  EXPECT_EQ(sum["failed"], 2);
  EXPECT_EQ(sum["skipped"], 0);
  EXPECT_EQ(sum["errors"], 0);
  EXPECT_EQ(sum["duration_ms"], 1234);
  EXPECT_EQ(sum["by_level"]["must"], (nlohmann::ordered_json{
      {"total", 3}, {"passed", 1}, {"failed", 2}, {"skipped", 0}, {"errors", 0}}));
  EXPECT_EQ(sum["by_level"]["should"]["passed"], 1);
  EXPECT_EQ(sum["by_level"]["may"]["passed"], 1);
}

TEST(ActsReport, TestResultsCarryFailureSkipReasonAndXOutcome) {
  auto http = acts_report(fixtures::sample_run(), "jsonrpc", options());
  ASSERT_EQ(http["suites"].size(), 1u);
  EXPECT_EQ(http["suites"][0]["id"], "core-operations");
  EXPECT_EQ(http["suites"][0]["name"], "Core A2A operations");
  const auto* skip = find_test(http, "CORE-PUSH-001");
  ASSERT_TRUE(skip);
  EXPECT_EQ((*skip)["result"], "skip");
  EXPECT_EQ((*skip)["skip_reason"], "precondition not met: capabilities.pushNotifications is false");
  EXPECT_FALSE(skip->contains("x-outcome"));
  const auto* xfail = find_test(http, "CORE-GET-002");
  EXPECT_EQ((*xfail)["result"], "pass");
  EXPECT_EQ((*xfail)["x-outcome"], "XFAIL");
  const auto* error = find_test(http, "CORE-SEND-009");
  EXPECT_EQ((*error)["result"], "error");
  EXPECT_EQ((*error)["failure"]["message"].get<std::string>().substr(0, 25), "acts/core-operations.acts");

  auto stdio = acts_report(fixtures::sample_run(), "stdio", options());
  const auto* fail = find_test(stdio, "STDIO-FRAME-004");
  ASSERT_TRUE(fail);
  EXPECT_EQ((*fail)["level"], "must");
  EXPECT_EQ((*fail)["result"], "fail");
  EXPECT_EQ((*fail)["duration_ms"], 3);
  EXPECT_EQ((*fail)["failure"]["step_id"], "expect-reply");
  EXPECT_EQ((*fail)["failure"]["expected"], R"({"jsonrpc":"2.0"})");
  EXPECT_EQ((*fail)["failure"]["assertion_path"], "result.status.state");
  EXPECT_EQ((*fail)["steps"][1]["result"], "fail");
  EXPECT_EQ(find_test(stdio, "STDIO-FRAME-010")->value("x-outcome", ""), "NON_STRICT");
  EXPECT_EQ((*find_test(stdio, "STDIO-STREAM-003"))["x-outcome"], "TIMEOUT");
  EXPECT_NO_THROW(stdio.dump());  // agent bytes made valid UTF-8
}

TEST(ActsReport, OneReportPerTransportNamedPerSection13_5) {
  EXPECT_EQ(acts_transports(fixtures::sample_run()), (std::vector<std::string>{"stdio", "jsonrpc"}));
  EXPECT_EQ(acts_report_file_name("a2a-python", "jsonrpc", "2025-05-25T21:00:00Z"),
            "acts-report-a2a-python-jsonrpc-20250525T210000Z.json");
  EXPECT_EQ(acts_report_file_name("my sdk/1", "rest", "2025-05-25T21:00:00.123Z"),
            "acts-report-my-sdk-1-rest-20250525T210000Z.json");
  auto dir = std::filesystem::path(A2A_BINARY_DIR) / "reports-test-acts";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto written = write_acts_reports(dir.string(), fixtures::sample_run(), options());
  ASSERT_TRUE(written.ok()) << written.error().str();
  ASSERT_EQ(written->size(), 2u);
  EXPECT_EQ(std::filesystem::path((*written)[1]).filename(),
            "acts-report-a2a-rs-jsonrpc-20250525T210000Z.json");
  std::ifstream f((*written)[0]);
  auto j = nlohmann::json::parse(f);
  EXPECT_EQ(j["transport"], "stdio");
}

TEST(ActsReport, WritingIntoAMissingDirectoryIsAnIoError) {
  auto r = write_acts_reports("/nonexistent/dir", fixtures::sample_run(), options());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, a2a::core::ErrorKind::kIo);
}

TEST(ActsReport, GeneratedAtDefaultsToNowInUtc) {
  auto rep = acts_report(RunResult{}, "rest", ActsOptions{});
  std::string t = rep["generated_at"];
  EXPECT_EQ(t.size(), 20u);
  EXPECT_EQ(t.back(), 'Z');
  EXPECT_EQ(rep["suites"].size(), 0u);
}
