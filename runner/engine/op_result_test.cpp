#include <gtest/gtest.h>

#include "runner/engine/op_result.hpp"

#include "runner/engine/call_interrupt.hpp"

namespace a2a::engine {
namespace {

using Json = nlohmann::json;

Json status_update(const char* state) { return Json{{"statusUpdate", {{"taskId", "t"}, {"status", {{"state", state}}}}}}; }

TEST(StreamClosesAtTerminal, AnEventAfterTheTerminalOneIsOneViolationNamingBoth) {
  OpResult r;
  r.events = {Json{{"task", {{"id", "t"}, {"status", {{"state", "TASK_STATE_WORKING"}}}}}},
              status_update("TASK_STATE_COMPLETED"), status_update("TASK_STATE_WORKING"),
              status_update("TASK_STATE_FAILED")};
  check_stream_closes_at_terminal(r);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_NE(r.violations[0].find("stream event 2 follows the terminal event 1"), std::string::npos) << r.violations[0];
}

TEST(StreamClosesAtTerminal, EndingAtTheTerminalEventOrWithoutOneIsFine) {
  OpResult r;
  r.events = {status_update("TASK_STATE_WORKING"), status_update("TASK_STATE_INPUT_REQUIRED"),
              Json{{"task", {{"id", "t"}, {"status", {{"state", 4}}}}}}};  // ProtoJSON integer: TASK_STATE_FAILED
  check_stream_closes_at_terminal(r);
  EXPECT_TRUE(r.violations.empty());
  r.events.push_back(status_update("TASK_STATE_WORKING"));
  check_stream_closes_at_terminal(r);
  EXPECT_EQ(r.violations.size(), 1u) << "an integer terminal state counts too";
}

TEST(StreamClosesAtTerminal, AMessageOrAnArtifactUpdateIsNotTerminal) {
  OpResult r;
  r.events = {Json{{"message", {{"messageId", "m"}}}}, Json{{"artifactUpdate", {{"taskId", "t"}}}},
              Json{{"statusUpdate", "not an object"}}, status_update("TASK_STATE_WORKING")};
  check_stream_closes_at_terminal(r);
  EXPECT_TRUE(r.violations.empty());
}


OpResult shed_error(const char* binding, int http_status, Json error, int error_status = 0) {
  OpResult r;
  r.status = OpResult::Status::kError;
  r.binding = binding;
  r.http_status = http_status;
  r.error = std::move(error);
  r.error_status = error_status ? error_status : http_status;
  return r;
}

struct ShedRow {
  const char* name;
  OpResult r;
  const char* want;  // "" = not shed
};

void PrintTo(const ShedRow& row, std::ostream* os) { *os << row.name; }

class ShedSignal : public ::testing::TestWithParam<ShedRow> {};

TEST_P(ShedSignal, NamesOnlyTheLegalWaysToDecline) { EXPECT_EQ(shed_signal(GetParam().r), GetParam().want); }

Json shed_rpc_error(int code) { return Json{{"code", code}, {"message", "busy"}}; }
Json shed_status_body(int code, const char* status) { return Json{{"code", code}, {"status", status}, {"message", "busy"}}; }

OpResult shed_with_violation(OpResult r) {
  r.violations.push_back("the response has id \"1\", the request's is 1");
  return r;
}

OpResult shed_ws_closed(int code) {
  OpResult r;
  r.binding = "websocket";
  r.close_code = code;
  return r;
}

OpResult shed_grpc_unavailable_kept() {
  OpResult r;  // kNoResponse: the binding kept the agent's status (the connection stayed up)
  r.binding = "grpc";
  r.error_status = 14;
  r.error = shed_status_body(14, "UNAVAILABLE");
  return r;
}

INSTANTIATE_TEST_SUITE_P(
    Rows, ShedSignal,
    ::testing::Values(
        ShedRow{"jsonrpc_32000", shed_error("jsonrpc", 200, shed_rpc_error(-32000)), "JSON-RPC -32000"},
        ShedRow{"stdio_32000", shed_error("stdio", 0, shed_rpc_error(-32000)), "JSON-RPC -32000"},
        ShedRow{"websocket_32000", shed_error("websocket", 0, shed_rpc_error(-32000)), "JSON-RPC -32000"},
        ShedRow{"jsonrpc_503_internal", shed_error("jsonrpc", 503, shed_rpc_error(-32603)), "HTTP 503"},
        ShedRow{"jsonrpc_429_32000", shed_error("jsonrpc", 429, shed_rpc_error(-32000)), "HTTP 429"},
        ShedRow{"jsonrpc_200_internal", shed_error("jsonrpc", 200, shed_rpc_error(-32603)), ""},
        ShedRow{"jsonrpc_a2a_range", shed_error("jsonrpc", 200, shed_rpc_error(-32050)), ""},
        ShedRow{"jsonrpc_503_task_not_found", shed_error("jsonrpc", 503, shed_rpc_error(-32001)), ""},
        ShedRow{"jsonrpc_503_invalid_params", shed_error("jsonrpc", 503, shed_rpc_error(-32602)), ""},
        ShedRow{"jsonrpc_500", shed_error("jsonrpc", 500, shed_rpc_error(-32603)), ""},
        ShedRow{"jsonrpc_no_message", shed_error("jsonrpc", 200, Json{{"code", -32000}}), ""},
        ShedRow{"jsonrpc_string_code", shed_error("jsonrpc", 503, Json{{"code", "-32000"}, {"message", "x"}}), ""},
        ShedRow{"jsonrpc_wrong_id", shed_with_violation(shed_error("jsonrpc", 200, shed_rpc_error(-32000))), ""},
        ShedRow{"rest_503", shed_error("rest", 503, shed_status_body(503, "UNAVAILABLE")), "HTTP 503"},
        ShedRow{"rest_429", shed_error("rest", 429, shed_status_body(429, "RESOURCE_EXHAUSTED")), "HTTP 429"},
        ShedRow{"rest_500", shed_error("rest", 500, shed_status_body(500, "INTERNAL")), ""},
        ShedRow{"rest_503_a2a_error",
                shed_error("rest", 503,
                           Json{{"code", 503}, {"status", "UNAVAILABLE"}, {"message", "x"},
                                {"details", {{{"@type", "type.googleapis.com/google.rpc.ErrorInfo"},
                                              {"reason", "TASK_NOT_FOUND"}, {"domain", "a2a-protocol.org"}}}}}),
                ""},
        ShedRow{"rest_503_bad_body", shed_with_violation(shed_error("rest", 503, Json::object())), ""},
        ShedRow{"grpc_resource_exhausted", shed_error("grpc", 0, shed_status_body(8, "RESOURCE_EXHAUSTED"), 8),
                "gRPC RESOURCE_EXHAUSTED"},
        ShedRow{"grpc_internal", shed_error("grpc", 0, shed_status_body(13, "INTERNAL"), 13), ""},
        ShedRow{"grpc_unavailable_kept", shed_grpc_unavailable_kept(), "gRPC UNAVAILABLE"},
        ShedRow{"grpc_no_answer", OpResult{}, ""},
        ShedRow{"websocket_close_1013", shed_ws_closed(1013), "WebSocket close 1013"},
        ShedRow{"websocket_close_1011", shed_ws_closed(1011), ""}),
    [](const auto& info) { return std::string(info.param.name); });

// `run` retries only the "try again later" kinds (docs/runner.md "When the
// agent declines a request").
TEST(RunShedSignal, KeepsTheTryAgainLaterKindsOnly) {
  EXPECT_EQ(run_shed_signal(shed_error("jsonrpc", 503, shed_rpc_error(-32603))), "HTTP 503");
  EXPECT_EQ(run_shed_signal(shed_error("rest", 429, shed_status_body(429, "RESOURCE_EXHAUSTED"))), "HTTP 429");
  EXPECT_EQ(run_shed_signal(shed_grpc_unavailable_kept()), "gRPC UNAVAILABLE");
  EXPECT_EQ(run_shed_signal(shed_ws_closed(1013)), "WebSocket close 1013");
  EXPECT_EQ(run_shed_signal(shed_error("jsonrpc", 200, shed_rpc_error(-32000))), "");
  EXPECT_EQ(run_shed_signal(shed_error("grpc", 0, shed_status_body(8, "RESOURCE_EXHAUSTED"), 8)), "");
  EXPECT_EQ(run_shed_signal(shed_error("rest", 500, shed_status_body(500, "INTERNAL"))), "");
}

TEST(ShedRetryWait, DefaultsTo100Then400AndReadsRetryAfterSecondsCappedAt2s) {
  OpResult r = shed_error("rest", 503, shed_status_body(503, "UNAVAILABLE"));
  EXPECT_EQ(shed_retry_wait_ms(1, r), 100);
  EXPECT_EQ(shed_retry_wait_ms(2, r), 400);
  r.http_headers = {{"Retry-After", "1"}};
  EXPECT_EQ(shed_retry_wait_ms(1, r), 1000);
  EXPECT_EQ(shed_retry_wait_ms(2, r), 1000);
  r.http_headers = {{"retry-after", " 0 "}};
  EXPECT_EQ(shed_retry_wait_ms(1, r), 0);
  r.http_headers = {{"Retry-After", "120"}};
  EXPECT_EQ(shed_retry_wait_ms(1, r), 2000);
  r.http_headers = {{"Retry-After", "99999999999999999999"}};  // too long to read: the default
  EXPECT_EQ(shed_retry_wait_ms(2, r), 400);
  r.http_headers = {{"Retry-After", "Fri, 31 Dec 1999 23:59:59 GMT"}};  // an HTTP-date: the default
  EXPECT_EQ(shed_retry_wait_ms(1, r), 100);
  r.http_headers = {{"Retry-After", "-1"}};
  EXPECT_EQ(shed_retry_wait_ms(1, r), 100);
}

TEST(CallInterrupter, EndsTheCallsRegisteredThenAndAfterButNotThoseGone) {
  CallInterrupter ci;
  int ended = 0, gone = 0;
  {
    auto r = ci.on_interrupt([&] { ++gone; });
  }
  auto keep = ci.on_interrupt([&] { ++ended; });
  EXPECT_FALSE(ci.interrupted());
  ci.interrupt();
  EXPECT_TRUE(ci.interrupted());
  EXPECT_EQ(ended, 1);
  EXPECT_EQ(gone, 0);
  auto later = ci.on_interrupt([&] { ++ended; });  // after the interrupt: at once
  EXPECT_EQ(ended, 2);
}

}  // namespace
}  // namespace a2a::engine
