// Each grpc-* fault, seen by a black-box gRPC client: the defect shows, and
// the same call to a clean agent (grpc_server_test.cpp) does not show it.
#include <gtest/gtest.h>

#include "peers/a2a-ref-agent/grpc/grpc_faults.hpp"
#include "peers/a2a-ref-agent/grpc/grpc_test_support.hpp"

namespace a2a::agent::testing {
namespace {

using grpc::StatusCode;

const Json kUnknownTask = {{"id", "no-such-task"}};

TEST(GrpcFaults, WrongStatus) {
  GrpcFixture f(one_fault(Fault::kGrpcWrongStatus));
  auto r = f.client->call(Operation::kGetTask, kUnknownTask);
  EXPECT_EQ(r.code, StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(reason_of(r), "TASK_NOT_FOUND");
  EXPECT_EQ(r.details["code"], 3);  // the details agree with the (wrong) status
}

TEST(GrpcFaults, NoDetails) {
  GrpcFixture f(one_fault(Fault::kGrpcNoDetails));
  auto r = f.client->call(Operation::kGetTask, kUnknownTask);
  EXPECT_EQ(r.code, StatusCode::NOT_FOUND);
  EXPECT_TRUE(r.details.is_null()) << r.details.dump();
}

TEST(GrpcFaults, WrongReason) {
  GrpcFixture f(one_fault(Fault::kGrpcWrongReason));
  auto r = f.client->call(Operation::kGetTask, kUnknownTask);
  EXPECT_EQ(r.code, StatusCode::NOT_FOUND);
  EXPECT_EQ(reason_of(r), "TaskNotFoundError");
  EXPECT_EQ(domain_of(r), "a2a-protocol.org");
}

TEST(GrpcFaults, WrongDomain) {
  GrpcFixture f(one_fault(Fault::kGrpcWrongDomain));
  auto r = f.client->call(Operation::kGetTask, kUnknownTask);
  EXPECT_EQ(reason_of(r), "TASK_NOT_FOUND");
  EXPECT_EQ(domain_of(r), "a2a.dev");
}

TEST(GrpcFaults, JsonRpcCodeAsStatus) {
  GrpcFixture f(one_fault(Fault::kGrpcJsonRpcCodeAsStatus));
  auto r = f.client->call(Operation::kGetTask, kUnknownTask);
  EXPECT_EQ(r.code, StatusCode::UNKNOWN);
  EXPECT_TRUE(r.message.starts_with("-32001: ")) << r.message;
}

TEST(GrpcFaults, StreamNoTerminal) {
  GrpcFixture f(one_fault(Fault::kGrpcStreamNoTerminal));
  auto s = f.client->stream(Operation::kSendStreamingMessage, send_params("tck-stream-basic go"));
  EXPECT_EQ(s.code, StatusCode::OK);
  ASSERT_EQ(s.events.size(), 3u) << Json(s.events).dump();
  EXPECT_TRUE(s.events.back().contains("artifactUpdate"));
}

TEST(GrpcFaults, EventsAfterTerminal) {
  GrpcFixture f(one_fault(Fault::kGrpcEventsAfterTerminal));
  auto s = f.client->stream(Operation::kSendStreamingMessage, send_params("tck-stream-basic go"));
  EXPECT_EQ(s.code, StatusCode::OK);
  ASSERT_EQ(s.events.size(), 5u) << Json(s.events).dump();
  EXPECT_EQ(s.events[3]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
  EXPECT_EQ(s.events[4]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
}

TEST(GrpcFaults, StreamErrorAsOk) {
  GrpcFixture f(one_fault(Fault::kGrpcStreamErrorAsOk));
  auto s = f.client->stream(Operation::kSubscribeToTask, kUnknownTask);
  EXPECT_EQ(s.code, StatusCode::OK);
  EXPECT_TRUE(s.events.empty());
  // Unary errors are untouched.
  EXPECT_EQ(f.client->call(Operation::kGetTask, kUnknownTask).code, StatusCode::NOT_FOUND);
}

TEST(GrpcFaults, VersionNotChecked) {
  GrpcFixture f(one_fault(Fault::kGrpcVersionNotChecked));
  auto r = f.client->call(Operation::kSendMessage, send_params("hi"), {{"a2a-version", "9.9"}});
  EXPECT_EQ(r.code, StatusCode::OK) << r.message;
}

TEST(GrpcFaults, AbsentVersionAsCurrent) {
  GrpcFixture f(one_fault(Fault::kGrpcAbsentVersionAsCurrent));
  auto r = f.client->call(Operation::kSendMessage, send_params("hi"), {});
  EXPECT_EQ(r.code, StatusCode::OK) << r.message;
  // An explicit unsupported version is still refused.
  EXPECT_EQ(f.client->call(Operation::kSendMessage, send_params("hi"), {{"a2a-version", "9.9"}}).code,
            StatusCode::FAILED_PRECONDITION);
}

TEST(GrpcFaults, UnimplementedAsUnknown) {
  GrpcFixture f(one_fault(Fault::kGrpcUnimplementedAsUnknown));
  EXPECT_EQ(f.client->raw("/lf.a2a.v1.A2AService/NoSuchMethod", "").code, StatusCode::UNKNOWN);
}

TEST(GrpcFaults, NoSizeLimit) {
  GrpcFixture f(one_fault(Fault::kGrpcNoSizeLimit));
  // A 5 MiB contextId filter: processed (an empty page), not refused.
  auto r = f.client->call(Operation::kListTasks, Json{{"contextId", std::string(5u << 20, 'x')}});
  EXPECT_EQ(r.code, StatusCode::OK) << r.message;
}

TEST(GrpcFaults, ExtendedCardNoAuth) {
  GrpcFixture f(one_fault(Fault::kGrpcExtendedCardNoAuth));
  auto r = f.client->call(Operation::kGetExtendedAgentCard, Json::object());
  EXPECT_EQ(r.code, StatusCode::OK) << r.message;
}

TEST(GrpcFaults, MalformedAsInternal) {
  GrpcFixture f(one_fault(Fault::kGrpcMalformedAsInternal));
  auto r = f.client->raw(grpcwire::method_path(Operation::kGetTask), std::string("\xff\xff\xff", 3));
  EXPECT_EQ(r.code, StatusCode::INTERNAL);
}

TEST(GrpcFaults, EveryGrpcFaultIsTestedHere) {
  // A new grpc-* fault needs a test above: this count is the reminder.
  int n = 0;
  for (const auto& fi : all_faults())
    if (fi.name.starts_with("grpc-")) ++n;
  EXPECT_EQ(n, 14);
}

TEST(GrpcFaults, WithoutFaultsTheDecoratorsAreTheIdentity) {
  Faults none;
  GrpcPolicy p = grpc_policy(none);
  EXPECT_TRUE(p.check_version);
  EXPECT_TRUE(p.require_card_auth);
  EXPECT_EQ(p.max_receive, 4 << 20);
  EXPECT_EQ(p.unknown_method, grpcwire::kUnimplemented);
  EXPECT_TRUE(p.version_label.empty());
  Json err = task_not_found("t").to_json();
  auto a = grpc_error_status(none, err), b = grpcwire::status_from_error(err);
  EXPECT_EQ(a.code, b.code);
  EXPECT_EQ(a.details, b.details);
  EXPECT_EQ(grpc_stream_failure(none, a).code, grpcwire::kNotFound);
}

}  // namespace
}  // namespace a2a::agent::testing
