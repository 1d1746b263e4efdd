// `a2a-conform client` against the reference client: every client scenario
// passes on stdio, JSON-RPC and REST, and the official ACTS client-parsing tests
// (read from ../shared/acts, never copied) run through client_response.
#include <gtest/gtest.h>

#include "tests/e2e/client_run.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_client_conformance {

namespace {

using a2a::testing::run_client_suite;
const std::string kSuites = std::string(A2A_SOURCE_DIR) + "/suites/client";

void expect_all_pass(const nlohmann::json& report, size_t at_least) {
  ASSERT_TRUE(report.is_object()) << "no JSON report";
  size_t passed = 0;
  for (const auto& s : report["scenarios"]) {
    if (s["outcome"] == "SKIP") continue;
    EXPECT_EQ(s["outcome"], "PASS") << s["id"] << ": " << s.value("reason", "");
    passed += s["outcome"] == "PASS";
  }
  EXPECT_GE(passed, at_least);
}

size_t count_skips(const nlohmann::json& report, const std::string& reason) {
  size_t n = 0;
  for (const auto& s : report["scenarios"])
    n += s["outcome"] == "SKIP" && s.value("reason", "").find(reason) != std::string::npos;
  return n;
}

// Scenarios listed as not applicable to the run (another profile or role),
// which are not results (docs/reports.md "Not applicable").
size_t count_not_applicable(const nlohmann::json& report, const std::string& reason) {
  size_t n = 0;
  for (const auto& na : report.value("not_applicable", nlohmann::json::array()))
    if (na.value("reason", "").find(reason) != std::string::npos) n += na["ids"].size();
  return n;
}

TEST(ClientConformance, RefClientPassesEveryStdioClientScenario) {
  auto r = run_client_suite("stdio", kSuites, "self");
  EXPECT_EQ(r.cmd.exit_code, 0) << r.cmd.out << r.cmd.err;
  expect_all_pass(r.report, 18);
  // The stdio-json-only scenarios do not apply under p46, and only those.
  EXPECT_EQ(count_not_applicable(r.report, "not applicable to profile p46"), 7u);
  EXPECT_EQ(count_skips(r.report, ""), 0u);
}

TEST(ClientConformance, RefClientPassesEveryStdioClientScenarioUnderStdioJson) {
  auto r = run_client_suite("stdio", kSuites, "self", "", "stdio-json");
  EXPECT_EQ(r.cmd.exit_code, 0) << r.cmd.out << r.cmd.err;
  expect_all_pass(r.report, 23);
  // HS-001 (ack member names) and STREAM-001 (non-final stream errors) are P46 only.
  EXPECT_EQ(count_not_applicable(r.report, "not applicable to profile stdio-json"), 2u);
  EXPECT_EQ(count_skips(r.report, ""), 0u);
}

TEST(ClientConformance, RefClientPassesEveryJsonRpcClientScenario) {
  auto r = run_client_suite("jsonrpc", kSuites, "self");
  EXPECT_EQ(r.cmd.exit_code, 0) << r.cmd.out << r.cmd.err;
  expect_all_pass(r.report, 8);
}

TEST(ClientConformance, RefClientPassesEveryRestClientScenario) {
  auto r = run_client_suite("rest", kSuites, "self");
  EXPECT_EQ(r.cmd.exit_code, 0) << r.cmd.out << r.cmd.err;
  expect_all_pass(r.report, 3);
}

#ifdef A2A_WITH_GRPC
// The runner plays a scripted gRPC agent (its card over HTTP names it).
TEST(ClientConformance, RefClientPassesEveryGrpcClientScenario) {
  auto r = run_client_suite("grpc", kSuites, "self");
  EXPECT_EQ(r.cmd.exit_code, 0) << r.cmd.out << r.cmd.err;
  expect_all_pass(r.report, 7);
}
#endif

// a2a-rust's WebSocket binding: the scripted WebSocket agent (no gRPC needed).
TEST(ClientConformance, RefClientPassesEveryWebSocketClientScenario) {
  auto r = run_client_suite("websocket", kSuites + "/websocket.acts.yaml", "self");
  EXPECT_EQ(r.cmd.exit_code, 0) << r.cmd.out << r.cmd.err;
  expect_all_pass(r.report, 5);
  EXPECT_EQ(count_skips(r.report, ""), 0u);
}

TEST(ClientConformance, OfficialClientParsingTestsPassOrSkipWithAReason) {
  auto r = run_client_suite("stdio", std::string(A2A_SHARED_DIR) + "/acts/client-parsing.acts.yaml", "acts");
  ASSERT_TRUE(r.report.is_object()) << r.cmd.out << r.cmd.err;
  int pass = 0;
  for (const auto& s : r.report["scenarios"]) {
    std::string id = s["id"], outcome = s["outcome"];
    if (id.rfind("CLIENT-PARSE-", 0) == 0) {
      EXPECT_EQ(outcome, "PASS") << id << ": " << s.value("reason", "");
      pass += outcome == "PASS";
    } else {
      ADD_FAILURE() << id << " is a result: " << outcome;
    }
  }
  EXPECT_EQ(pass, 6);
  // CLIENT-AUTH-001, CLIENT-CAP-001 parse cards (card discovery is HTTP), so
  // they do not apply to a stdio client run.
  EXPECT_EQ(count_not_applicable(r.report, "agent card discovery"), 2u);
}

#ifdef A2A_WITH_GRPC
// On gRPC the payloads travel as protobuf: CLIENT-PARSE-006's `fileUrl` part
// is not an A2A 1.0 Part member and has no binary form, so it is SKIP (not
// expressible), never the client's failure. PARSE-004's error object gets
// the ErrorInfo of its code (§10.6) from the scripted agent.
TEST(ClientConformance, OfficialClientParsingTestsOnGrpcPassOrSkipWithAReason) {
  auto r = run_client_suite("grpc", std::string(A2A_SHARED_DIR) + "/acts/client-parsing.acts.yaml", "acts");
  ASSERT_TRUE(r.report.is_object()) << r.cmd.out << r.cmd.err;
  int pass = 0, skip = 0;
  for (const auto& s : r.report["scenarios"]) {
    std::string id = s["id"], outcome = s["outcome"];
    if (id == "CLIENT-PARSE-006") {
      EXPECT_EQ(outcome, "SKIP") << id;
      EXPECT_NE(s.value("reason", "").find("not expressible on the grpc binding"), std::string::npos) << id;
    } else if (id.rfind("CLIENT-PARSE-", 0) == 0) {
      EXPECT_EQ(outcome, "PASS") << id << ": " << s.value("reason", "");
      pass += outcome == "PASS";
    } else {
      ADD_FAILURE() << id << " is a result: " << outcome;
    }
    skip += outcome == "SKIP";
  }
  EXPECT_EQ(pass, 5);
  EXPECT_EQ(skip, 1);
  EXPECT_EQ(count_not_applicable(r.report, "no operation that prints the public agent card"), 2u);
}
#endif

}  // namespace

}  // namespace e2e_client_conformance
