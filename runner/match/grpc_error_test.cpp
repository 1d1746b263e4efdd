#include <gtest/gtest.h>

#include "runner/match/grpc_error.hpp"

namespace a2a::match {
namespace {

Json J(const char* s) { return Json::parse(s); }

// What the runner's gRPC binding makes of a status: {code, status, message, details}.
Json grpc_error(int code, const char* reason, const char* domain = "a2a-protocol.org") {
  Json e = {{"code", code}, {"message", "m"}};
  if (*reason)
    e["details"] = Json::array({{{"@type", "type.googleapis.com/google.rpc.ErrorInfo"},
                                 {"reason", reason},
                                 {"domain", domain}}});
  return e;
}

struct GrpcCase {
  const char* name;
  int code;
  const char* reason;
  const char* domain;
  const char* expect;
  bool ok;
  const char* says = "";
};

class GrpcErrorExpect : public ::testing::TestWithParam<GrpcCase> {};

TEST_P(GrpcErrorExpect, JudgesReasonDomainThenStatus) {
  const auto& c = GetParam();
  MatchResult r = match_grpc_error(grpc_error(c.code, c.reason, c.domain), c.code, J(c.expect));
  EXPECT_FALSE(r.malformed()) << r.error;
  EXPECT_EQ(r.ok, c.ok) << r.summary();
  if (*c.says) {
    ASSERT_FALSE(r.mismatches.empty());
    EXPECT_NE(r.mismatches.front().message.find(c.says), std::string::npos) << r.mismatches.front().message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, GrpcErrorExpect,
    ::testing::Values(
        GrpcCase{"TaskNotFound", 5, "TASK_NOT_FOUND", "a2a-protocol.org", R"({"error_type": "TaskNotFoundError"})", true},
        GrpcCase{"ByJsonRpcCode", 5, "TASK_NOT_FOUND", "a2a-protocol.org", R"({"code": -32001})", true},
        GrpcCase{"ByStatusName", 9, "TASK_NOT_CANCELABLE", "a2a-protocol.org", R"({"code": "FAILED_PRECONDITION"})", true},
        GrpcCase{"StatusNameWrong", 3, "TASK_NOT_CANCELABLE", "a2a-protocol.org", R"({"code": "FAILED_PRECONDITION"})", false,
                 "expected status FAILED_PRECONDITION, got INVALID_ARGUMENT"},
        GrpcCase{"NotCancelable", 9, "TASK_NOT_CANCELABLE", "a2a-protocol.org", R"({"error_type": "TaskNotCancelableError"})", true},
        GrpcCase{"WrongStatusRightReason", 3, "TASK_NOT_FOUND", "a2a-protocol.org", R"({"error_type": "TaskNotFoundError"})", false,
                 "spec §5.4 maps TaskNotFoundError to NOT_FOUND"},
        GrpcCase{"MissingErrorInfo", 5, "", "", R"({"error_type": "TaskNotFoundError"})", false,
                 "MUST include a google.rpc.ErrorInfo"},
        GrpcCase{"WrongReason", 9, "UNSUPPORTED_OPERATION", "a2a-protocol.org", R"({"error_type": "TaskNotCancelableError"})", false,
                 "reason UNSUPPORTED_OPERATION"},
        GrpcCase{"WrongDomain", 5, "TASK_NOT_FOUND", "example.com", R"({"error_type": "TaskNotFoundError"})", false,
                 "domain MUST be \"a2a-protocol.org\""},
        GrpcCase{"StreamingNotSupportedIsUnsupportedOperation", 9, "UNSUPPORTED_OPERATION", "a2a-protocol.org",
                 R"({"code": "StreamingNotSupportedError"})", true},
        GrpcCase{"InvalidParams", 3, "", "", R"({"error_type": "InvalidParamsError"})", true},
        GrpcCase{"InvalidParamsAsInternal", 13, "", "", R"({"error_type": "InvalidParamsError"})", false, "INVALID_ARGUMENT"},
        GrpcCase{"MethodNotFoundIsUnimplemented", 12, "", "", R"({"code": "MethodNotFoundError"})", true},
        GrpcCase{"StandardNameButA2aReason", 3, "CONTENT_TYPE_NOT_SUPPORTED", "a2a-protocol.org",
                 R"({"code": "InvalidParamsError"})", false, "ContentTypeNotSupportedError"},
        GrpcCase{"VersionNotSupported", 9, "VERSION_NOT_SUPPORTED", "a2a-protocol.org",
                 R"({"code": "VersionNotSupportedError"})", true},
        GrpcCase{"OneOf", 9, "TASK_NOT_CANCELABLE", "a2a-protocol.org",
                 R"({"code": {"one_of": ["TaskNotFoundError", "TaskNotCancelableError"]}})", true},
        GrpcCase{"DataLooksAtDetails", 5, "TASK_NOT_FOUND", "a2a-protocol.org", R"({"data": {"type": "array", "count": 1}})", true}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(GrpcError, AnHttpStatusOrUnknownNameIsAMalformedExpectation) {
  MatchResult r = match_grpc_error(grpc_error(5, "TASK_NOT_FOUND"), 5, J(R"({"code": 404})"));
  EXPECT_TRUE(r.malformed());
  MatchResult n = match_grpc_error(grpc_error(5, "TASK_NOT_FOUND"), 5, J(R"({"code": "Nope"})"));
  EXPECT_TRUE(n.malformed());
  EXPECT_NE(n.error.find("unknown error name 'Nope'"), std::string::npos) << n.error;
}

TEST(GrpcError, StatusesOfNames) {
  EXPECT_EQ(grpc_statuses_of("TaskNotFoundError"), std::vector<std::string>{"NOT_FOUND"});
  EXPECT_EQ(grpc_statuses_of("ContentTypeNotSupportedError"), std::vector<std::string>{"INVALID_ARGUMENT"});
  EXPECT_TRUE(grpc_statuses_of("NoSuchError").empty());
}

}  // namespace
}  // namespace a2a::match
