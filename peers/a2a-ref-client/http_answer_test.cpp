// HTTP answers to results and errors on literal bodies: REST google.rpc.Status
// mapping (a2a-protocol.md §6.1, §6.4), JSON-RPC over HTTP (§4.2, §10 C13),
// and SSE data items of both bindings.
#include "peers/a2a-ref-client/http_answer.hpp"

#include <gtest/gtest.h>

namespace a2a::client {
namespace {

struct RestErrorCase {
  std::string name;
  int http_status;
  std::string body;
  Json expected;  // the printed error object (minus "kind")
};

std::ostream& operator<<(std::ostream& os, const RestErrorCase& c) { return os << c.name; }

const std::vector<RestErrorCase> kRestErrors = {
    {"TaskNotFoundReasonGivesItsCode", 404,
     R"({"error":{"code":404,"status":"NOT_FOUND","message":"Task not found","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org","metadata":{"taskId":"t-9"}}]}})",
     R"({"code":-32001,"message":"Task not found","httpStatus":404,"status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org","metadata":{"taskId":"t-9"}}]})"_json},
    {"ReasonDecidesAmongSharedStatuses", 400,
     R"({"error":{"code":400,"status":"FAILED_PRECONDITION","message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_CANCELABLE","domain":"a2a-protocol.org"}]}})",
     R"({"code":-32002,"message":"m","httpStatus":400,"status":"FAILED_PRECONDITION","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_CANCELABLE","domain":"a2a-protocol.org"}]})"_json},
    {"V100TableStatusStillMapsByReason", 409,
     R"({"error":{"code":409,"status":"FAILED_PRECONDITION","message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_CANCELABLE"}]}})",
     R"({"code":-32002,"message":"m","httpStatus":409,"status":"FAILED_PRECONDITION","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_CANCELABLE"}]})"_json},
    {"ForeignDomainReasonIsNotOurs", 404,
     R"({"error":{"code":404,"status":"NOT_FOUND","message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"example.com"}]}})",
     R"({"message":"m","httpStatus":404,"status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"example.com"}]})"_json},
    {"InvalidArgumentWithoutReasonIsInvalidParams", 400,
     R"({"error":{"code":400,"status":"INVALID_ARGUMENT","message":"bad"}})",
     R"({"code":-32602,"message":"bad","httpStatus":400,"status":"INVALID_ARGUMENT"})"_json},
    {"InternalWithoutReasonIsInternalError", 500, R"({"error":{"code":500,"status":"INTERNAL","message":"x"}})",
     R"({"code":-32603,"message":"x","httpStatus":500,"status":"INTERNAL"})"_json},
    {"UnknownStatusLeavesCodeOut", 401, R"({"error":{"code":401,"status":"UNAUTHENTICATED","message":"who"}})",
     R"({"message":"who","httpStatus":401,"status":"UNAUTHENTICATED"})"_json},
    {"WrongTypedMembersDoNotThrow", 400, R"({"error":{"status":7,"message":"m","details":[{"@type":1,"reason":2}]}})",
     R"({"message":"m","httpStatus":400,"details":[{"@type":1,"reason":2}]})"_json},
    {"NonJsonBodyKeepsStatusAndExcerpt", 404, "404 page not found",
     R"({"httpStatus":404,"message":"HTTP 404 Not Found","body":"404 page not found"})"_json},
    {"JsonThatIsNotAStatusIsKeptAsBody", 422, R"({"detail":"nope"})",
     R"({"httpStatus":422,"message":"HTTP 422 Not Found","body":"{\"detail\":\"nope\"}"})"_json},
};

class RestError : public ::testing::TestWithParam<RestErrorCase> {};

TEST_P(RestError, MapsToThePrintedAgentError) {
  const RestErrorCase& c = GetParam();
  CallResult r = rest_answer(c.http_status, "Not Found", c.body);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kAgent);
  Json printed = r.error.to_json();
  EXPECT_EQ(printed["kind"], "agent");
  printed.erase("kind");
  EXPECT_EQ(printed, c.expected);
}

INSTANTIATE_TEST_SUITE_P(Bodies, RestError, ::testing::ValuesIn(kRestErrors),
                         [](const auto& info) { return info.param.name; });

TEST(RestAnswer, LongNonJsonErrorBodyIsCutAt200Bytes) {
  Json e = rest_error_object(502, "Bad Gateway", std::string(1000, 'x'));
  EXPECT_EQ(e["body"].get<std::string>().size(), 200u);
  EXPECT_EQ(e["message"], "HTTP 502 Bad Gateway");
}

TEST(RestAnswer, Any2xxIsSuccessAndEmptyBodyIsNull) {
  EXPECT_EQ(rest_answer(200, "OK", R"({"id":"t"})").result, Json::parse(R"({"id":"t"})"));
  CallResult created = rest_answer(201, "Created", R"({"id":"c"})");
  ASSERT_TRUE(created.ok());
  CallResult deleted = rest_answer(204, "No Content", "");
  ASSERT_TRUE(deleted.ok());
  EXPECT_TRUE(deleted.result.is_null());
  EXPECT_EQ(rest_answer(200, "OK", "{}").result, Json::object());
}

TEST(RestAnswer, NonJson2xxBodyIsATransportError) {
  CallResult r = rest_answer(200, "OK", "<html>");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kTransport);
  EXPECT_NE(r.error.message.find("not JSON"), std::string::npos);
}

TEST(JsonRpcAnswer, ErrorObjectIsKeptVerbatimWhateverTheStatus) {
  for (int status : {200, 400, 500}) {
    CallResult r = jsonrpc_answer(status, "", R"({"jsonrpc":"2.0","id":3,"error":{"code":-32001,"message":"nf","data":[]}})", 3);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error.kind, ClientErrorKind::kAgent);
    EXPECT_EQ(r.error.rpc_error, Json::parse(R"({"code":-32001,"message":"nf","data":[]})"));
  }
}

TEST(JsonRpcAnswer, ResultWithOurIdIsSuccess) {
  CallResult r = jsonrpc_answer(200, "OK", R"({"jsonrpc":"2.0","id":1,"result":{"task":{}}})", 1);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.result, Json::parse(R"({"task":{}})"));
}

TEST(JsonRpcAnswer, NullIdIsAcceptedOnErrorsOnly) {
  EXPECT_EQ(jsonrpc_answer(200, "", R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"p"}})", 1).error.kind,
            ClientErrorKind::kAgent);
  CallResult r = jsonrpc_answer(200, "", R"({"jsonrpc":"2.0","id":null,"result":1})", 1);
  EXPECT_EQ(r.error.kind, ClientErrorKind::kTransport);
}

TEST(JsonRpcAnswer, OtherIdIsATransportError) {
  CallResult r = jsonrpc_answer(200, "", R"({"jsonrpc":"2.0","id":"1","result":1})", 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, ClientErrorKind::kTransport);
  EXPECT_NE(r.error.message.find("does not match"), std::string::npos);
}

TEST(JsonRpcAnswer, NonJsonRpcBodyIsAnHttpErrorOrATransportError) {
  CallResult page = jsonrpc_answer(404, "Not Found", "not here", 1);
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.error.kind, ClientErrorKind::kAgent);
  EXPECT_EQ(page.error.rpc_error["httpStatus"], 404);
  EXPECT_EQ(page.error.rpc_error["body"], "not here");
  CallResult ok_garbage = jsonrpc_answer(200, "OK", "{}", 1);
  EXPECT_EQ(ok_garbage.error.kind, ClientErrorKind::kTransport);
}

TEST(StreamItems, JsonRpcResultIsAnEventAndErrorAStreamError) {
  std::string why;
  auto ev = jsonrpc_stream_item(R"({"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{}}})", 7, &why);
  ASSERT_TRUE(ev.has_value()) << why;
  EXPECT_EQ(ev->type, StreamItem::Type::kEvent);
  EXPECT_EQ(ev->value, Json::parse(R"({"statusUpdate":{}})"));
  auto err = jsonrpc_stream_item(R"({"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"x"}})", 7, &why);
  ASSERT_TRUE(err.has_value()) << why;
  EXPECT_EQ(err->type, StreamItem::Type::kStreamError);
  EXPECT_EQ(err->value["code"], -32603);
  EXPECT_FALSE(jsonrpc_stream_item(R"({"statusUpdate":{}})", 7, &why).has_value());
  EXPECT_NE(why.find("not a JSON-RPC response"), std::string::npos);
  EXPECT_FALSE(jsonrpc_stream_item(R"({"jsonrpc":"2.0","id":8,"result":{}})", 7, &why).has_value());
}

TEST(StreamItems, RestBareResponseIsAnEventAndErrorObjectAStreamError) {
  std::string why;
  auto ev = rest_stream_item(R"({"task":{"id":"t"}})", &why);
  ASSERT_TRUE(ev.has_value());
  EXPECT_EQ(ev->type, StreamItem::Type::kEvent);
  auto err = rest_stream_item(
      R"({"error":{"code":400,"status":"FAILED_PRECONDITION","message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"UNSUPPORTED_OPERATION","domain":"a2a-protocol.org"}]}})",
      &why);
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->type, StreamItem::Type::kStreamError);
  EXPECT_EQ(err->value["code"], -32004);
  EXPECT_EQ(err->value["httpStatus"], 400);
  EXPECT_FALSE(rest_stream_item("[1]", &why).has_value());
}

}  // namespace
}  // namespace a2a::client
