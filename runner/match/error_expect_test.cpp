#include <gtest/gtest.h>

#include "runner/match/test_json.hpp"

#include "runner/match/error_expect.hpp"

using namespace a2a::match;

namespace {

using a2a::match::testing::J;

Json error_of(int code, const char* reason = "TASK_NOT_FOUND") {
  return {{"code", code},
          {"message", "Task 0000 not found"},
          {"data", {{{"@type", "type.googleapis.com/google.rpc.ErrorInfo"},
                     {"reason", reason},
                     {"domain", "a2a-protocol.org"}}}}};
}

struct ErrorCase {
  const char* name;
  Json error;
  const char* expect;
  bool ok;
};

class ErrorExpect : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ErrorExpect, JudgesTheErrorObject) {
  MatchResult r = match_error(GetParam().error, J(GetParam().expect));
  EXPECT_FALSE(r.malformed()) << r.error;
  EXPECT_EQ(r.ok, GetParam().ok) << r.summary();
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ErrorExpect,
    ::testing::Values(
        ErrorCase{"ErrorTypeByName", error_of(-32001), R"({"error_type": "TaskNotFoundError", "message": {"type": "string"}})", true},
        ErrorCase{"ErrorTypeWrongCode", error_of(-32004), R"({"error_type": "TaskNotFoundError"})", false},
        ErrorCase{"CodeByName", error_of(-32002), R"({"code": "TaskNotCancelableError"})", true},
        ErrorCase{"CodeByNumber", error_of(-32601), R"({"code": -32601})", true},
        ErrorCase{"CodeOneOfNames", error_of(-32002), R"({"code": {"one_of": ["TaskNotFoundError", "TaskNotCancelableError"]}})", true},
        ErrorCase{"CodeOneOfNamesFails", error_of(-32004), R"({"code": {"one_of": ["TaskNotFoundError", "TaskNotCancelableError"]}})", false},
        ErrorCase{"CodeOneOfNumbers", error_of(-32602), R"({"code": {"one_of": [-32600, -32602]}})", true},
        ErrorCase{"VersionNotSupportedIsSpecCode", error_of(-32009), R"({"error_type": "VersionNotSupportedError"})", true},
        ErrorCase{"VersionNotSupportedActsCodeFails", error_of(-32006), R"({"error_type": "VersionNotSupportedError"})", false},
        ErrorCase{"StreamingNotSupportedIsUnsupportedOperation", error_of(-32004), R"({"code": "StreamingNotSupportedError"})", true},
        ErrorCase{"ExtendedCardNotSupportedIsUnsupportedOperation", error_of(-32004), R"({"code": "ExtendedCardNotSupportedError"})", true},
        ErrorCase{"StandardJsonRpcNames", error_of(-32700), R"({"code": {"one_of": ["JSONParseError", "InvalidRequestError"]}})", true},
        ErrorCase{"MessageAssertion", error_of(-32001),
                  R"({"code": "TaskNotFoundError", "message": {"all_of": [{"matches": ".{12,}"}, {"any_of": [{"contains": "task"}, {"contains": "not found"}]}]}})", true},
        ErrorCase{"MessageAssertionFails", error_of(-32001), R"({"message": {"contains": "nope"}})", false},
        ErrorCase{"DetailsAnyEntry", error_of(-32001), R"({"details": {"reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org"}})", true},
        ErrorCase{"DetailsNoEntry", error_of(-32001), R"({"details": {"reason": "TASK_NOT_CANCELABLE"}})", false},
        ErrorCase{"DetailsInRestStatusShape", J(R"({"code": 404, "status": "NOT_FOUND", "message": "x",
                                                   "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND"}]})"),
                  R"({"details": {"reason": "TASK_NOT_FOUND"}})", true},
        ErrorCase{"DetailsWithoutData", J(R"({"code": -32001, "message": "x"})"), R"({"details": {"reason": {"exists": true}}})", false},
        ErrorCase{"DataAssertion", error_of(-32001), R"({"data": {"type": "array", "count_gte": 1}})", true},
        ErrorCase{"NotAnErrorObject", J("null"), R"({"code": "TaskNotFoundError"})", false}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(ErrorMessages, NameBothCodes) {
  MatchResult r = match_error(error_of(-32004), J(R"({"error_type": "TaskNotFoundError"})"));
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_EQ(r.mismatches[0].path, "error.code");
  EXPECT_EQ(r.mismatches[0].message,
            "error.code: expected -32001 (TaskNotFoundError), got -32004 (UnsupportedOperationError)");
}

TEST(ErrorMessages, NoteWhenTheAgentFollowsTheActsTableInsteadOfTheSpec) {
  MatchResult r = match_error(error_of(-32006), J(R"({"error_type": "VersionNotSupportedError"})"));
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_EQ(r.mismatches[0].message,
            "error.code: expected -32009 (VersionNotSupportedError), got -32006 (InvalidAgentResponseError); note: "
            "-32006 is the code ACTS §6.2 gives VersionNotSupportedError, but the A2A spec assigns -32009 and the "
            "spec wins");
  MatchResult s = match_error(error_of(-32007), J(R"({"code": "StreamingNotSupportedError"})"));
  ASSERT_EQ(s.mismatches.size(), 1u);
  EXPECT_NE(s.mismatches[0].message.find("ACTS §6.2 gives StreamingNotSupportedError"), std::string::npos);
}

TEST(ErrorMessages, DataAsObjectExplainsTheSpecShape) {
  MatchResult r = match_error(error_of(-32001), J(R"({"code": "TaskNotFoundError", "data": {"type": "object"}})"));
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_NE(r.mismatches[0].message.find("array of @type objects"), std::string::npos) << r.summary();
}

TEST(ErrorNamesTable, FollowsTheSpecAndAcceptsProfileOverrides) {
  const auto& n = ErrorNames::a2a();
  EXPECT_EQ(n.code_of("TaskNotFoundError"), -32001);
  EXPECT_EQ(n.code_of("PushNotificationNotSupportedError"), -32003);
  EXPECT_EQ(n.code_of("InvalidAgentResponseError"), -32006);
  EXPECT_EQ(n.code_of("ExtendedAgentCardNotConfiguredError"), -32007);
  EXPECT_EQ(n.code_of("ExtensionSupportRequiredError"), -32008);
  EXPECT_EQ(n.code_of("VersionNotSupportedError"), -32009);
  EXPECT_EQ(n.code_of("InvalidParamsError"), -32602);
  EXPECT_EQ(n.code_of("InternalError"), -32603);
  EXPECT_EQ(n.name_of(-32004), "UnsupportedOperationError");  // not the ACTS-only aliases
  EXPECT_EQ(n.name_of(-32700), "JSONParseError");
  EXPECT_EQ(n.acts_code_of("VersionNotSupportedError"), -32006);
  EXPECT_FALSE(n.code_of("NoSuchError").has_value());

  ErrorNames custom = n;
  custom.set("InvalidParamsError", -32099);
  EXPECT_TRUE(match_error(error_of(-32099), J(R"({"code": "InvalidParamsError"})"), custom).ok);
}

TEST(ErrorMalformed, UnknownNamesAndKeysAreErrors) {
  for (const char* e : {R"({"code": "TaskNotFound"})", R"({"error_type": "Nope"})", R"({"codee": -32001})",
                        R"({"code": {"one_of": ["TaskNotFoundError", "Bogus"]}})", R"({"error_type": [1]})",
                        R"({"message": {"type": "text"}})", R"("TaskNotFoundError")"}) {
    MatchResult r = match_error(error_of(-32001), J(e));
    EXPECT_TRUE(r.malformed()) << e << " -> " << r.summary();
  }
}

}  // namespace
