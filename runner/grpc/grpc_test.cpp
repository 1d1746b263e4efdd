#include <gtest/gtest.h>

#include <google/protobuf/descriptor.h>

#include "google/rpc/a2a_conform_rpc.pb.h"
#include "lf/a2a/v1/a2a.pb.h"
#include "runner/grpc/generic_call.hpp"
#include "runner/grpc/proto_json.hpp"
#include "runner/grpc/status.hpp"
#include "runner/jsonrpc/errors.hpp"

namespace a2a::grpcwire {
namespace {

TEST(GrpcMethods, EveryOperationIsAMethodOfTheOfficialService) {
  for (auto op : model::kAllOperations) {
    const auto& m = method_of(op);
    EXPECT_EQ(m.service()->full_name(), "lf.a2a.v1.A2AService");
    EXPECT_EQ(m.server_streaming(), model::is_streaming(op)) << m.name();
    EXPECT_FALSE(m.client_streaming()) << m.name();
    EXPECT_EQ(operation_of(m.name()), op);
    EXPECT_EQ(operation_of(method_path(op)), op);
  }
  EXPECT_EQ(method_path(model::Operation::kSendMessage), "/lf.a2a.v1.A2AService/SendMessage");
  EXPECT_FALSE(operation_of("NoSuchMethod").has_value());
  EXPECT_FALSE(operation_of("/other.Service/SendMessage").has_value());
}

TEST(GrpcProtoJson, RoundTripsASendMessageRequest) {
  Json req = Json::parse(R"({"message": {"messageId": "m-1", "role": "ROLE_USER",
      "parts": [{"text": "hello"}], "metadata": {"k": [1, "x"]}},
      "configuration": {"acceptedOutputModes": ["text/plain"], "historyLength": 2}})");
  const auto& type = *method_of(model::Operation::kSendMessage).input_type();
  auto bytes = json_to_binary(type, req);
  ASSERT_TRUE(bytes) << bytes.error().message;
  auto back = binary_to_json(type, *bytes);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, req);
}

TEST(GrpcProtoJson, UnknownMembersAndBadEnumsAreErrorsThatNameThem) {
  const auto& type = *lf::a2a::v1::Task::descriptor();
  auto r = json_to_binary(type, Json::parse(R"({"id": "t", "bogus": 1})"));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("bogus"), std::string::npos) << r.error().message;
  auto e = json_to_binary(type, Json::parse(R"({"id": "t", "status": {"state": "done"}})"));
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("lf.a2a.v1.Task"), std::string::npos) << e.error().message;
}

TEST(GrpcProtoJson, BytesThatAreNotTheTypeAreAnError) {
  auto r = binary_to_json(*lf::a2a::v1::Task::descriptor(), std::string("\xff\xff\xff", 3));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("not a valid lf.a2a.v1.Task"), std::string::npos);
}

TEST(GrpcStatus, TheV101TableAndJsonRpcCodes) {
  EXPECT_EQ(status_code_for(-32001), kNotFound);
  EXPECT_EQ(status_code_for(-32002), kFailedPrecondition);
  EXPECT_EQ(status_code_for(-32005), kInvalidArgument);
  EXPECT_EQ(status_code_for(-32006), kInternal);
  EXPECT_EQ(status_code_for(-32009), kFailedPrecondition);
  EXPECT_EQ(status_code_for(-32602), kInvalidArgument);
  EXPECT_EQ(status_code_for(-32601), kUnimplemented);
  EXPECT_EQ(status_code_for(-32603), kInternal);
  EXPECT_EQ(status_code_for(-31401), kUnauthenticated);
  EXPECT_EQ(status_code_for(-1), kUnknown);
  EXPECT_EQ(code_name(9), "FAILED_PRECONDITION");
  EXPECT_EQ(code_name(99), "CODE_99");
  EXPECT_EQ(code_by_name("UNAUTHENTICATED"), 16);
  for (const auto& row : jsonrpc::error_table()) EXPECT_TRUE(code_by_name(row.grpc_status)) << row.name;
}

TEST(GrpcStatus, AnA2AErrorCarriesErrorInfoThatDecodesBack) {
  Json err = jsonrpc::make_a2a_error_object(jsonrpc::A2AError::kTaskNotFound, "no task t-1",
                                            Json{{"taskId", "t-1"}, {"attempt", 2}});
  WireStatus w = status_from_error(err);
  EXPECT_EQ(w.code, kNotFound);
  EXPECT_EQ(w.message, "no task t-1");
  ASSERT_FALSE(w.details.empty());
  auto st = decode_status(w.details);
  ASSERT_TRUE(st) << st.error().message;
  EXPECT_EQ((*st)["code"], kNotFound);
  ASSERT_EQ((*st)["details"].size(), 1u) << st->dump();
  const Json& info = (*st)["details"][0];
  EXPECT_EQ(info["@type"], "type.googleapis.com/google.rpc.ErrorInfo");
  EXPECT_EQ(info["reason"], "TASK_NOT_FOUND");
  EXPECT_EQ(info["domain"], "a2a-protocol.org");
  EXPECT_EQ(info["metadata"]["taskId"], "t-1");
  EXPECT_EQ(info["metadata"]["attempt"], "2");  // map<string,string>: JSON text
}

TEST(GrpcStatus, BadRequestDetailsSurviveAndJunkDetailsAreDropped) {
  Json err = {{"code", -32602},
              {"message", "bad"},
              {"data", Json::array({{{"@type", "type.googleapis.com/google.rpc.BadRequest"},
                                     {"fieldViolations", Json::array({{{"field", "message"}, {"description", "missing"}}})}},
                                    {{"no-type", 1}},
                                    {{"@type", "type.googleapis.com/google.rpc.ErrorInfo"}, {"reason", 5}}})}};
  WireStatus w = status_from_error(err);
  EXPECT_EQ(w.code, kInvalidArgument);
  auto st = decode_status(w.details);
  ASSERT_TRUE(st);
  ASSERT_EQ((*st)["details"].size(), 1u) << st->dump();
  EXPECT_EQ((*st)["details"][0]["fieldViolations"][0]["field"], "message");
}

TEST(GrpcStatus, AnUnknownDetailTypeIsKeptAsBase64AndGarbageIsAnError) {
  google::rpc::Status st;
  st.set_code(5);
  auto* any = st.add_details();
  any->set_type_url("type.googleapis.com/example.Unknown");
  any->set_value("abc");
  auto j = decode_status(st.SerializeAsString());
  ASSERT_TRUE(j) << j.error().message;
  EXPECT_EQ((*j)["details"][0]["@type"], "type.googleapis.com/example.Unknown");
  EXPECT_EQ((*j)["details"][0]["value"], "YWJj");
  EXPECT_FALSE(decode_status(std::string("\x0a\xff", 2)));
}

}  // namespace
}  // namespace a2a::grpcwire

// gRPC 1.51 words its own receive limit as "Received message larger than max
// (N vs. LIMIT)": ours names 16 MiB; an agent refusing our big request names
// its own limit (the reference agent's is 4 MiB), and is the agent's answer.
TEST(GrpcGenericCall, OurReceiveLimitIsToldApartFromTheAgentsLimit) {
  using grpc::Status;
  using grpc::StatusCode;
  EXPECT_TRUE(a2a::grpcwire::is_our_receive_limit(
      Status(StatusCode::RESOURCE_EXHAUSTED, "Received message larger than max (17825792 vs. 16777216)")));
  EXPECT_FALSE(a2a::grpcwire::is_our_receive_limit(
      Status(StatusCode::RESOURCE_EXHAUSTED, "Received message larger than max (5242880 vs. 4194304)")));
  EXPECT_FALSE(a2a::grpcwire::is_our_receive_limit(Status(StatusCode::INTERNAL, "16777216")));
  EXPECT_FALSE(a2a::grpcwire::is_our_receive_limit(Status::OK));
}
