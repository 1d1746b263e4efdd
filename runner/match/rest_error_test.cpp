#include <gtest/gtest.h>

#include "runner/match/test_json.hpp"

#include "runner/match/error_expect.hpp"

using namespace a2a::match;

namespace {

using a2a::match::testing::J;

// A google.rpc.Status `error` member; reason "" = no ErrorInfo detail.
Json rest_error(int code, const char* status, const char* reason) {
  Json e = {{"code", code}, {"status", status}, {"message", "Task not found: t-1"}, {"details", Json::array()}};
  if (*reason)
    e["details"].push_back({{"@type", "type.googleapis.com/google.rpc.ErrorInfo"},
                            {"reason", reason},
                            {"domain", "a2a-protocol.org"}});
  return e;
}

struct RestCase {
  const char* name;
  int http_status;
  const char* reason;
  const char* expect;
  bool ok;
  const char* says = "";  // substring of the first mismatch message
};

class RestErrorExpect : public ::testing::TestWithParam<RestCase> {};

TEST_P(RestErrorExpect, JudgesReasonThenStatus) {
  const auto& c = GetParam();
  MatchResult r = match_rest_error(rest_error(c.http_status, "X", c.reason), c.http_status, J(c.expect));
  EXPECT_FALSE(r.malformed()) << r.error;
  EXPECT_EQ(r.ok, c.ok) << r.summary();
  if (*c.says) {
    ASSERT_FALSE(r.mismatches.empty());
    EXPECT_NE(r.mismatches.front().message.find(c.says), std::string::npos) << r.mismatches.front().message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, RestErrorExpect,
    ::testing::Values(
        RestCase{"TaskNotFoundByReasonAndStatus", 404, "TASK_NOT_FOUND", R"({"error_type": "TaskNotFoundError"})", true},
        RestCase{"CodeByNameToo", 404, "TASK_NOT_FOUND", R"({"code": "TaskNotFoundError"})", true},
        RestCase{"WrongReason", 400, "TASK_NOT_CANCELABLE", R"({"error_type": "UnsupportedOperationError"})", false,
                 "expected UnsupportedOperationError (HTTP 400, reason UNSUPPORTED_OPERATION), got HTTP 400, reason "
                 "TASK_NOT_CANCELABLE (TaskNotCancelableError)"},
        RestCase{"MissingErrorInfoIsAMustOnRest", 404, "", R"({"error_type": "TaskNotFoundError"})", false,
                 "MUST carry a google.rpc.ErrorInfo detail (a2a-protocol.md §6.4)"},
        RestCase{"ActsStatusForNotCancelable", 409, "TASK_NOT_CANCELABLE", R"({"error_type": "TaskNotCancelableError"})", false,
                 "409 is the status ACTS §6.2 gives TaskNotCancelableError, but the A2A spec §5.4 assigns 400"},
        RestCase{"V100StatusNamed", 415, "CONTENT_TYPE_NOT_SUPPORTED", R"({"code": "ContentTypeNotSupportedError"})", false,
                 "v1.0.0 table's status for ContentTypeNotSupportedError; v1.0.1 changed it to 400"},
        RestCase{"InvalidAgentResponseV100", 502, "INVALID_AGENT_RESPONSE", R"({"code": "InvalidAgentResponseError"})", false,
                 "v1.0.0 table"},
        RestCase{"ActsStatusForUnsupportedOperation", 405, "UNSUPPORTED_OPERATION", R"({"code": "UnsupportedOperationError"})", false,
                 "405 is the status ACTS §6.2 gives UnsupportedOperationError"},
        RestCase{"ActsStatusForVersion", 406, "VERSION_NOT_SUPPORTED", R"({"code": "VersionNotSupportedError"})", false,
                 "ACTS §6.2"},
        RestCase{"StreamingNotSupportedIsUnsupportedOperation", 400, "UNSUPPORTED_OPERATION", R"({"code": "StreamingNotSupportedError"})", true},
        RestCase{"StreamingNotSupportedActs501", 501, "UNSUPPORTED_OPERATION", R"({"code": "StreamingNotSupportedError"})", false,
                 "501 is the status ACTS §6.2 gives StreamingNotSupportedError"},
        RestCase{"InvalidParamsByStatusOnly", 400, "", R"({"error_type": "InvalidParamsError"})", true},
        RestCase{"JsonParseByStatusOnly", 400, "", R"({"code": "JSONParseError"})", true},
        RestCase{"InvalidParamsWrongStatus", 422, "", R"({"code": "InvalidParamsError"})", false, "expected InvalidParamsError (HTTP 400)"},
        RestCase{"StandardNameButA2aReason", 400, "TASK_NOT_CANCELABLE", R"({"code": "InvalidParamsError"})", false},
        RestCase{"MethodNotFound404", 404, "", R"({"code": "MethodNotFoundError"})", true},
        RestCase{"MethodNotFound501", 501, "", R"({"code": "MethodNotFoundError"})", true},
        RestCase{"Internal500", 500, "", R"({"code": "InternalError"})", true},
        RestCase{"OneOfNames", 400, "TASK_NOT_CANCELABLE", R"({"code": {"one_of": ["TaskNotFoundError", "TaskNotCancelableError"]}})", true},
        RestCase{"OneOfNamesFails", 400, "UNSUPPORTED_OPERATION", R"({"code": {"one_of": ["TaskNotFoundError", "TaskNotCancelableError"]}})", false,
                 "none of"},
        RestCase{"JsonRpcCodeMapsToName", 404, "TASK_NOT_FOUND", R"({"code": -32001})", true},
        RestCase{"HttpStatusNumber", 404, "TASK_NOT_FOUND", R"({"code": 404})", true},
        RestCase{"HttpStatusNumberFails", 400, "TASK_NOT_FOUND", R"({"code": 404})", false, "expected HTTP 404, got HTTP 400"},
        RestCase{"MessageAndDetails", 404, "TASK_NOT_FOUND",
                 R"({"code": "TaskNotFoundError", "message": {"contains": "not found"}, "details": {"reason": "TASK_NOT_FOUND"}})", true},
        RestCase{"DataLooksAtDetails", 404, "TASK_NOT_FOUND", R"({"data": {"type": "array", "count": 1}})", true}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(RestError, ReasonIsUpperSnakeWithoutErrorSuffix) {
  EXPECT_EQ(error_reason("TaskNotFoundError"), "TASK_NOT_FOUND");
  EXPECT_EQ(error_reason("ExtendedAgentCardNotConfiguredError"), "EXTENDED_AGENT_CARD_NOT_CONFIGURED");
  EXPECT_EQ(error_reason("PushNotificationNotSupportedError"), "PUSH_NOTIFICATION_NOT_SUPPORTED");
}

TEST(RestError, SpecNamesCanonicalNameReasonAndStatuses) {
  auto s = rest_error_spec("ExtendedCardNotSupportedError");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->name, "UnsupportedOperationError");
  EXPECT_EQ(s->reason, "UNSUPPORTED_OPERATION");
  EXPECT_EQ(s->statuses, (std::vector<int>{400}));
  auto m = rest_error_spec("MethodNotFoundError");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->reason, "");
  EXPECT_EQ(m->statuses, (std::vector<int>{404, 501}));
  EXPECT_FALSE(rest_error_spec("NoSuchError").has_value());
}

TEST(RestError, UnknownNameIsAMalformedExpectation) {
  MatchResult r = match_rest_error(rest_error(404, "NOT_FOUND", "TASK_NOT_FOUND"), 404, J(R"({"code": "Nope"})"));
  EXPECT_TRUE(r.malformed());
  EXPECT_NE(r.error.find("unknown error name 'Nope'"), std::string::npos) << r.error;
}

TEST(RestError, NonObjectErrorIsAMismatch) {
  MatchResult r = match_rest_error(J("null"), 500, J(R"({"code": "InternalError"})"));
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.malformed());
}

TEST(RestError, JsonRpcMatchingIsUnchangedForRestShapedDetails) {
  // The JSON-RPC matcher still reads error.code as a JSON-RPC code.
  MatchResult r = match_error(rest_error(404, "NOT_FOUND", "TASK_NOT_FOUND"), J(R"({"code": "TaskNotFoundError"})"));
  EXPECT_FALSE(r.ok);
}

}  // namespace
