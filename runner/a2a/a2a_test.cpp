#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <regex>
#include <set>
#include <string>

#include "runner/a2a/methods.hpp"
#include "runner/a2a/model.hpp"
#include "runner/jsonrpc/message.hpp"

using namespace a2a::model;
using a2a::jsonrpc::dump;

namespace {

// ---------------------------------------------------------------------------
// Method names per binding (stdio-binding.md §3.5, a2a-protocol.md §4.1, ACTS §4.1).

struct OpCase {
  Operation op;
  std::string p46;
  std::string v1;
  std::string acts;
  bool streaming;
};

class MethodNames : public ::testing::TestWithParam<OpCase> {};

TEST_P(MethodNames, MapBothWaysInEveryNaming) {
  const OpCase& c = GetParam();
  EXPECT_EQ(method_name(c.op, MethodNaming::kP46), c.p46);
  EXPECT_EQ(method_name(c.op, MethodNaming::kV1), c.v1);
  EXPECT_EQ(operation_from_method(c.p46, MethodNaming::kP46), c.op);
  EXPECT_EQ(operation_from_method(c.v1, MethodNaming::kV1), c.op);
  EXPECT_EQ(operation_from_method(c.p46, MethodNaming::kV1), std::nullopt) << "namings do not mix";
  EXPECT_EQ(operation_from_method(c.v1, MethodNaming::kP46), std::nullopt) << "J15: PascalCase is -32601 on P46";
  EXPECT_EQ(acts_name(c.op), c.acts);
  EXPECT_EQ(operation_from_acts(c.acts), c.op);
  EXPECT_EQ(canonical_name(c.op), c.v1);
  EXPECT_EQ(is_streaming(c.op), c.streaming);
}

INSTANTIATE_TEST_SUITE_P(
    Operations, MethodNames,
    ::testing::Values(
        OpCase{Operation::kSendMessage, "message/send", "SendMessage", "send_message", false},
        OpCase{Operation::kSendStreamingMessage, "message/stream", "SendStreamingMessage", "send_streaming_message",
               true},
        OpCase{Operation::kGetTask, "tasks/get", "GetTask", "get_task", false},
        OpCase{Operation::kListTasks, "tasks/list", "ListTasks", "list_tasks", false},
        OpCase{Operation::kCancelTask, "tasks/cancel", "CancelTask", "cancel_task", false},
        OpCase{Operation::kSubscribeToTask, "tasks/subscribe", "SubscribeToTask", "subscribe_to_task", true},
        OpCase{Operation::kCreatePushConfig, "tasks/pushNotificationConfig/create",
               "CreateTaskPushNotificationConfig", "create_push_config", false},
        OpCase{Operation::kGetPushConfig, "tasks/pushNotificationConfig/get", "GetTaskPushNotificationConfig",
               "get_push_config", false},
        OpCase{Operation::kListPushConfigs, "tasks/pushNotificationConfig/list", "ListTaskPushNotificationConfigs",
               "list_push_configs", false},
        OpCase{Operation::kDeletePushConfig, "tasks/pushNotificationConfig/delete",
               "DeleteTaskPushNotificationConfig", "delete_push_config", false},
        OpCase{Operation::kGetExtendedAgentCard, "agent/extendedCard", "GetExtendedAgentCard",
               "get_extended_agent_card", false}),
    [](const auto& info) { return info.param.v1; });

struct UnknownName {
  std::string name;
  std::string method;
  std::optional<MethodNaming> naming;  // nullopt: an ACTS operation name
};

class UnknownMethodNames : public ::testing::TestWithParam<UnknownName> {};

TEST_P(UnknownMethodNames, AreNotFound) {
  const UnknownName& c = GetParam();
  if (c.naming) {
    EXPECT_EQ(operation_from_method(c.method, *c.naming), std::nullopt);
  } else {
    EXPECT_EQ(operation_from_acts(c.method), std::nullopt);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Lookups, UnknownMethodNames,
    ::testing::Values(
        UnknownName{"J15_PascalCaseOnP46", "SendMessage", MethodNaming::kP46},
        UnknownName{"SlashNameOnV1", "message/send", MethodNaming::kV1},
        UnknownName{"P46IsCaseSensitive", "Message/Send", MethodNaming::kP46},
        UnknownName{"V1IsCaseSensitive", "sendMessage", MethodNaming::kV1},
        UnknownName{"TrailingSpace", "tasks/get ", MethodNaming::kP46},
        UnknownName{"Empty", "", MethodNaming::kV1},
        UnknownName{"V03Resubscribe", "tasks/resubscribe", MethodNaming::kP46},
        UnknownName{"V03PushConfigSet", "tasks/pushNotificationConfig/set", MethodNaming::kP46},
        UnknownName{"V03ExtendedCard", "agent/getAuthenticatedExtendedCard", MethodNaming::kP46},
        UnknownName{"ActsTablePushConfigName", "CreatePushNotificationConfig", MethodNaming::kV1},
        UnknownName{"StreamEventIsNotAnOperation", "event/streamResponse", MethodNaming::kP46},
        UnknownName{"ActsGetAgentCardIsNotAnOperation", "get_agent_card", std::nullopt},
        UnknownName{"ActsIsCaseSensitive", "Send_Message", std::nullopt},
        UnknownName{"ActsDoesNotTakeV1Names", "SendMessage", std::nullopt}),
    [](const auto& info) { return info.param.name; });

TEST(MethodNames, AreDistinctWithinEachNaming) {
  std::set<std::string_view> p46, v1, acts;
  for (Operation op : kAllOperations) {
    p46.insert(method_name(op, MethodNaming::kP46));
    v1.insert(method_name(op, MethodNaming::kV1));
    acts.insert(acts_name(op));
  }
  EXPECT_EQ(p46.size(), 11u);
  EXPECT_EQ(v1.size(), 11u);
  EXPECT_EQ(acts.size(), 11u);
}

// ---------------------------------------------------------------------------
// Enums (a2a-protocol.md §3.1, §3.2).

struct StateCase {
  TaskState state;
  std::string name;
  int number;
  bool terminal;
  bool interrupted;
};

class TaskStates : public ::testing::TestWithParam<StateCase> {};

TEST_P(TaskStates, SpellNumberAndCategoryMatchTheProto) {
  const StateCase& c = GetParam();
  EXPECT_EQ(to_string(c.state), c.name);
  EXPECT_EQ(task_state_from(c.name), c.state);
  EXPECT_EQ(task_state_from_json(Json(c.name)), c.state);
  EXPECT_EQ(task_state_from_json(Json(c.number)), c.state);
  EXPECT_EQ(task_state_from_json(Json(static_cast<unsigned>(c.number))), c.state);
  EXPECT_EQ(is_terminal(c.state), c.terminal);
  EXPECT_EQ(is_interrupted(c.state), c.interrupted);
}

INSTANTIATE_TEST_SUITE_P(
    Proto, TaskStates,
    ::testing::Values(StateCase{TaskState::kUnspecified, "TASK_STATE_UNSPECIFIED", 0, false, false},
                      StateCase{TaskState::kSubmitted, "TASK_STATE_SUBMITTED", 1, false, false},
                      StateCase{TaskState::kWorking, "TASK_STATE_WORKING", 2, false, false},
                      StateCase{TaskState::kCompleted, "TASK_STATE_COMPLETED", 3, true, false},
                      StateCase{TaskState::kFailed, "TASK_STATE_FAILED", 4, true, false},
                      StateCase{TaskState::kCanceled, "TASK_STATE_CANCELED", 5, true, false},
                      StateCase{TaskState::kInputRequired, "TASK_STATE_INPUT_REQUIRED", 6, false, true},
                      StateCase{TaskState::kRejected, "TASK_STATE_REJECTED", 7, true, false},
                      StateCase{TaskState::kAuthRequired, "TASK_STATE_AUTH_REQUIRED", 8, false, true}),
    [](const auto& info) { return info.param.name; });

struct BadState {
  std::string name;
  Json value;
};

class BadTaskStates : public ::testing::TestWithParam<BadState> {};

TEST_P(BadTaskStates, AreRejected) {
  const Json& v = GetParam().value;
  EXPECT_EQ(task_state_from_json(v), std::nullopt);
  if (v.is_string()) {
    EXPECT_EQ(task_state_from(v.get<std::string>()), std::nullopt);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Values, BadTaskStates,
    ::testing::Values(BadState{"V03Spelling", "TASK_STATE_CANCELLED"}, BadState{"Lowercase", "completed"},
                      BadState{"V03Kebab", "input-required"}, BadState{"MixedCase", "Task_State_Completed"},
                      BadState{"NumberAsText", "3"}, BadState{"Empty", ""}, BadState{"Nine", 9},
                      BadState{"MinusOne", -1}, BadState{"Float", 3.0}, BadState{"Boolean", true},
                      BadState{"Null", nullptr}, BadState{"Object", Json::object()}),
    [](const auto& info) { return info.param.name; });

TEST(Roles, SpellAndParseExactly) {
  EXPECT_EQ(to_string(Role::kUnspecified), "ROLE_UNSPECIFIED");
  EXPECT_EQ(to_string(Role::kUser), "ROLE_USER");
  EXPECT_EQ(to_string(Role::kAgent), "ROLE_AGENT");
  EXPECT_EQ(role_from("ROLE_USER"), Role::kUser);
  EXPECT_EQ(role_from("ROLE_AGENT"), Role::kAgent);
  EXPECT_EQ(role_from("ROLE_UNSPECIFIED"), Role::kUnspecified);
  EXPECT_EQ(role_from("user"), std::nullopt);
  EXPECT_EQ(role_from("role_user"), std::nullopt);
  EXPECT_EQ(role_from(""), std::nullopt);
}

// ---------------------------------------------------------------------------
// Timestamps (a2a-protocol.md §2).

TEST(Timestamps, NowIsUtcWithMillisecondsAndParsesBackToTheClock) {
  const std::string ts = now_timestamp();
  EXPECT_TRUE(std::regex_match(ts, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)"))) << ts;
  auto parsed = parse_timestamp_ms(ts);
  ASSERT_TRUE(parsed.has_value()) << ts;
  const long long clock = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
  EXPECT_LE(*parsed, clock);
  EXPECT_GT(*parsed, clock - 5000);
}

struct TimeCase {
  std::string name;
  std::string text;
  std::optional<long long> ms;  // nullopt: rejected
};

class ParseTimestamp : public ::testing::TestWithParam<TimeCase> {};

TEST_P(ParseTimestamp, GivesEpochMillisecondsOrRejects) {
  EXPECT_EQ(parse_timestamp_ms(GetParam().text), GetParam().ms) << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(
    Rfc3339, ParseTimestamp,
    ::testing::Values(
        TimeCase{"Epoch", "1970-01-01T00:00:00Z", 0LL},
        TimeCase{"SpecExample", "2026-01-02T03:04:05.678Z", 1767323045678LL},
        TimeCase{"OneFractionDigit", "1970-01-01T00:00:00.5Z", 500LL},
        TimeCase{"TwoFractionDigits", "1970-01-01T00:00:00.05Z", 50LL},
        TimeCase{"SixFractionDigitsTruncate", "1970-01-01T00:00:00.123999Z", 123LL},
        TimeCase{"NineFractionDigits", "2026-03-01T10:00:02.120000000Z", 1772359202120LL},
        TimeCase{"PositiveOffset", "1970-01-01T01:00:00+01:00", 0LL},
        TimeCase{"NegativeOffset", "1969-12-31T23:30:00-00:30", 0LL},
        TimeCase{"LowercaseTAndZ", "1970-01-01t00:00:01z", 1000LL},
        TimeCase{"LeapDay", "2024-02-29T12:00:00Z", 1709208000000LL},
        TimeCase{"BeforeEpoch", "1969-12-31T23:59:59.999Z", -1LL},
        TimeCase{"YearOne", "0001-01-01T00:00:00Z", -62135596800000LL},
        TimeCase{"YearMax", "9999-12-31T23:59:59.999Z", 253402300799999LL},
        TimeCase{"Empty", "", std::nullopt},
        TimeCase{"Garbage", "yesterday", std::nullopt},
        TimeCase{"DateOnly", "2026-01-02", std::nullopt},
        TimeCase{"NoZone", "2026-01-02T03:04:05", std::nullopt},
        TimeCase{"DotWithoutDigits", "2026-01-02T03:04:05.Z", std::nullopt},
        TimeCase{"TenFractionDigits", "2026-01-02T03:04:05.1234567890Z", std::nullopt},
        TimeCase{"SpaceSeparator", "2026-01-02 03:04:05Z", std::nullopt},
        TimeCase{"ShortMonth", "2026-1-02T03:04:05Z", std::nullopt},
        TimeCase{"MonthThirteen", "2026-13-01T00:00:00Z", std::nullopt},
        TimeCase{"MonthZero", "2026-00-01T00:00:00Z", std::nullopt},
        TimeCase{"NoLeapDay", "2026-02-29T00:00:00Z", std::nullopt},
        TimeCase{"CenturyNoLeapDay", "1900-02-29T00:00:00Z", std::nullopt},
        TimeCase{"DayThirtyTwo", "2026-01-32T00:00:00Z", std::nullopt},
        TimeCase{"DayZero", "2026-01-00T00:00:00Z", std::nullopt},
        TimeCase{"Hour24", "2026-01-02T24:00:00Z", std::nullopt},
        TimeCase{"Minute60", "2026-01-02T23:60:00Z", std::nullopt},
        TimeCase{"LeapSecond", "2016-12-31T23:59:60Z", std::nullopt},
        TimeCase{"OffsetHour24", "2026-01-02T03:04:05+24:00", std::nullopt},
        TimeCase{"OffsetMinute60", "2026-01-02T03:04:05+01:60", std::nullopt},
        TimeCase{"OffsetWithoutMinutes", "2026-01-02T03:04:05+01", std::nullopt},
        TimeCase{"OffsetWithoutColon", "2026-01-02T03:04:05+0100", std::nullopt},
        TimeCase{"TrailingSpace", "2026-01-02T03:04:05Z ", std::nullopt},
        TimeCase{"DoubleZ", "2026-01-02T03:04:05ZZ", std::nullopt},
        TimeCase{"LeadingSpace", " 2026-01-02T03:04:05Z", std::nullopt},
        TimeCase{"SignedYear", "+2026-01-02T03:04:05Z", std::nullopt}),
    [](const auto& info) { return info.param.name; });

// ---------------------------------------------------------------------------
// Builders: only non-default fields, exact compact text.

struct BuildCase {
  std::string name;
  Json built;
  std::string text;
};

class Builders : public ::testing::TestWithParam<BuildCase> {};

TEST_P(Builders, WriteOnlyNonDefaultFields) { EXPECT_EQ(dump(GetParam().built), GetParam().text); }

const Json kStatus = {{"state", "TASK_STATE_WORKING"}};
const Json kArtifact = {{"artifactId", "a-1"}, {"parts", Json::array({{{"text", "x"}}})}};

INSTANTIATE_TEST_SUITE_P(
    Text, Builders,
    ::testing::Values(
        BuildCase{"TextPart", text_part("hi"), R"({"text":"hi"})"},
        BuildCase{"EmptyTextPartKeepsText", text_part(""), R"({"text":""})"},
        BuildCase{"Message", make_message("ROLE_USER", "m-1", Json::array({text_part("hi")})),
                  R"({"messageId":"m-1","parts":[{"text":"hi"}],"role":"ROLE_USER"})"},
        BuildCase{"MessageWithIds", make_message("ROLE_AGENT", "m-2", Json::array({text_part("ok")}), "c-1", "t-1"),
                  R"({"contextId":"c-1","messageId":"m-2","parts":[{"text":"ok"}],"role":"ROLE_AGENT","taskId":"t-1"})"},
        BuildCase{"MessageEmptyFieldsOmitted", make_message("", "", Json::array()), R"({})"},
        BuildCase{"Task", make_task("t-1", "c-1", kStatus),
                  R"({"contextId":"c-1","id":"t-1","status":{"state":"TASK_STATE_WORKING"}})"},
        BuildCase{"TaskWithoutContext", make_task("t-1", "", kStatus),
                  R"({"id":"t-1","status":{"state":"TASK_STATE_WORKING"}})"},
        BuildCase{"StatusUpdate", status_update("t-1", "c-1", kStatus),
                  R"({"contextId":"c-1","status":{"state":"TASK_STATE_WORKING"},"taskId":"t-1"})"},
        BuildCase{"ArtifactUpdateOmitsFalseFlags", artifact_update("t-1", "c-1", kArtifact, false, false),
                  R"({"artifact":{"artifactId":"a-1","parts":[{"text":"x"}]},"contextId":"c-1","taskId":"t-1"})"},
        BuildCase{"ArtifactUpdateAppendOnly", artifact_update("t-1", "c-1", kArtifact, true, false),
                  R"({"append":true,"artifact":{"artifactId":"a-1","parts":[{"text":"x"}]},"contextId":"c-1","taskId":"t-1"})"},
        BuildCase{"ArtifactUpdateLastChunkOnly", artifact_update("t-1", "c-1", kArtifact, false, true),
                  R"({"artifact":{"artifactId":"a-1","parts":[{"text":"x"}]},"contextId":"c-1","lastChunk":true,"taskId":"t-1"})"},
        BuildCase{"WrapTask", wrap_task({{"id", "t"}}), R"({"task":{"id":"t"}})"},
        BuildCase{"WrapMessage", wrap_message({{"messageId", "m"}}), R"({"message":{"messageId":"m"}})"},
        BuildCase{"WrapStatusUpdate", wrap_status_update({{"taskId", "t"}}), R"({"statusUpdate":{"taskId":"t"}})"},
        BuildCase{"WrapArtifactUpdate", wrap_artifact_update({{"taskId", "t"}}),
                  R"({"artifactUpdate":{"taskId":"t"}})"}),
    [](const auto& info) { return info.param.name; });

TEST(Builders, StatusCarriesStateMessageAndAParsableTimestamp) {
  Json msg = make_message("ROLE_AGENT", "m-9", Json::array({text_part("need input")}));
  Json st = make_status(TaskState::kInputRequired, msg);
  EXPECT_EQ(st.at("state"), "TASK_STATE_INPUT_REQUIRED");
  EXPECT_EQ(st.at("message"), msg);
  EXPECT_TRUE(parse_timestamp_ms(st.at("timestamp").get<std::string>()).has_value());
  EXPECT_EQ(st.size(), 3u);
}

TEST(Builders, StatusOmitsUnspecifiedStateAndNullMessage) {
  Json st = make_status(TaskState::kUnspecified);
  EXPECT_FALSE(st.contains("state"));
  EXPECT_FALSE(st.contains("message"));
  EXPECT_TRUE(st.contains("timestamp"));
}

// ---------------------------------------------------------------------------
// StreamResponse / SendMessageResponse discriminators.

struct KindCase {
  std::string name;
  Json value;
  std::string stream_kind;
  std::string send_kind;
};

class ResponseKinds : public ::testing::TestWithParam<KindCase> {};

TEST_P(ResponseKinds, NameTheSingleAllowedMember) {
  EXPECT_EQ(stream_response_kind(GetParam().value), GetParam().stream_kind);
  EXPECT_EQ(send_message_response_kind(GetParam().value), GetParam().send_kind);
}

INSTANTIATE_TEST_SUITE_P(
    Wrappers, ResponseKinds,
    ::testing::Values(
        KindCase{"Task", wrap_task(Json::object()), "task", "task"},
        KindCase{"Message", wrap_message(Json::object()), "message", "message"},
        KindCase{"StatusUpdate", wrap_status_update(Json::object()), "statusUpdate", ""},
        KindCase{"ArtifactUpdate", wrap_artifact_update(Json::object()), "artifactUpdate", ""},
        KindCase{"Empty", Json::object(), "", ""},
        KindCase{"TwoAllowedMembers", {{"task", Json::object()}, {"message", Json::object()}}, "", ""},
        KindCase{"ExtraMember", {{"task", Json::object()}, {"kind", "task"}}, "", ""},
        KindCase{"V03KindDiscriminator", {{"kind", "task"}, {"id", "t"}}, "", ""},
        KindCase{"UnknownMember", {{"foo", Json::object()}}, "", ""},
        KindCase{"NullPayload", {{"task", nullptr}}, "", ""},
        KindCase{"ScalarPayload", {{"message", "hi"}}, "", ""},
        KindCase{"WrongCase", {{"StatusUpdate", Json::object()}}, "", ""},
        KindCase{"Array", Json::array({wrap_task(Json::object())}), "", ""},
        KindCase{"Null", nullptr, "", ""}),
    [](const auto& info) { return info.param.name; });

// ---------------------------------------------------------------------------
// Validation of client input: "" when valid, else the JSON path and the rule.

Json msg_with(const Json& patch) {
  Json m = {{"messageId", "m-1"}, {"role", "ROLE_USER"}, {"parts", Json::array({{{"text", "hi"}}})}};
  m.merge_patch(patch);  // a null value in the patch removes the member
  return m;
}

Json msg_with_part(const Json& part) { return msg_with({{"parts", Json::array({part})}}); }

struct ValidateCase {
  std::string name;
  Json message;
  std::string error;  // "" = valid
};

class ValidateMessage : public ::testing::TestWithParam<ValidateCase> {};

TEST_P(ValidateMessage, ReportsTheFirstProblemWithItsPath) {
  EXPECT_EQ(validate_message(GetParam().message), GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    Messages, ValidateMessage,
    ::testing::Values(
        ValidateCase{"Minimal", msg_with(Json::object()), ""},
        ValidateCase{"AgentRoleAndAllOptionalFields",
                     msg_with({{"role", "ROLE_AGENT"}, {"contextId", "c"}, {"taskId", "t"},
                               {"metadata", {{"k", 1}}}, {"extensions", {"urn:x"}},
                               {"referenceTaskIds", {"t-0"}}, {"unknownMember", 1}}),
                     ""},
        ValidateCase{"NotAnObject", Json::array(), "message: must be an object"},
        ValidateCase{"MissingMessageId", msg_with({{"messageId", nullptr}}),
                     "message.messageId: required, must be a non-empty string"},
        ValidateCase{"EmptyMessageId", msg_with({{"messageId", ""}}),
                     "message.messageId: required, must be a non-empty string"},
        ValidateCase{"NumericMessageId", msg_with({{"messageId", 7}}),
                     "message.messageId: required, must be a non-empty string"},
        ValidateCase{"MissingRole", msg_with({{"role", nullptr}}),
                     "message.role: required, must be ROLE_USER or ROLE_AGENT"},
        ValidateCase{"UnspecifiedRole", msg_with({{"role", "ROLE_UNSPECIFIED"}}),
                     "message.role: required, must be ROLE_USER or ROLE_AGENT"},
        ValidateCase{"V03Role", msg_with({{"role", "user"}}),
                     "message.role: required, must be ROLE_USER or ROLE_AGENT"},
        ValidateCase{"MissingParts", msg_with({{"parts", nullptr}}),
                     "message.parts: required, must be a non-empty array"},
        ValidateCase{"EmptyParts", msg_with({{"parts", Json::array()}}),
                     "message.parts: required, must be a non-empty array"},
        ValidateCase{"PartsObject", msg_with({{"parts", {{"text", "hi"}}}}),
                     "message.parts: required, must be a non-empty array"},
        ValidateCase{"BadSecondPart", msg_with({{"parts", Json::array({{{"text", "a"}}, Json::object()})}}),
                     "message.parts[1]: exactly one of text, raw, url, data"},
        ValidateCase{"ContextIdNotString", msg_with({{"contextId", 1}}), "message.contextId: must be a string"},
        ValidateCase{"TaskIdNotString", msg_with({{"taskId", false}}), "message.taskId: must be a string"},
        ValidateCase{"MetadataNotObject", msg_with({{"metadata", "x"}}), "message.metadata: must be an object"},
        ValidateCase{"ExtensionsNotArray", msg_with({{"extensions", "urn:x"}}),
                     "message.extensions: must be an array of strings"},
        ValidateCase{"ReferenceTaskIdNotString", msg_with({{"referenceTaskIds", {"t-0", 3}}}),
                     "message.referenceTaskIds[1]: must be a string"}),
    [](const auto& info) { return info.param.name; });

TEST(ValidateMessage, UsesTheGivenPath) {
  EXPECT_EQ(validate_message(msg_with({{"messageId", nullptr}}), "params.message"),
            "params.message.messageId: required, must be a non-empty string");
  EXPECT_EQ(validate_message(msg_with_part({{"text", 1}}), "status.message"),
            "status.message.parts[0].text: must be a string");
}

class ValidatePart : public ::testing::TestWithParam<ValidateCase> {};

TEST_P(ValidatePart, ChecksTheOneofAndTheCommonFields) {
  EXPECT_EQ(validate_part(GetParam().message, "p"), GetParam().error);
  // The same verdict through validate_message, with the longer path.
  std::string via_message = validate_message(msg_with_part(GetParam().message));
  if (GetParam().error.empty()) {
    EXPECT_EQ(via_message, "");
  } else {
    EXPECT_EQ(via_message, "message.parts[0]" + GetParam().error.substr(1));
  }
}

const std::string kExactlyOne = "p: exactly one of text, raw, url, data";
const std::string kBadRaw = "p.raw: must be a base64 string (standard or URL-safe alphabet)";

INSTANTIATE_TEST_SUITE_P(
    Parts, ValidatePart,
    ::testing::Values(
        ValidateCase{"Text", {{"text", "hi"}, {"mediaType", "text/plain"}}, ""},
        ValidateCase{"RawPadded", {{"raw", "aGVsbG8="}, {"filename", "hello.txt"}}, ""},
        ValidateCase{"RawUnpadded", {{"raw", "aGVsbG8"}}, ""},
        ValidateCase{"RawStandardAlphabet", {{"raw", "+/8="}}, ""},
        ValidateCase{"RawUrlSafeUnpadded", {{"raw", "-_8"}}, ""},
        ValidateCase{"RawEmpty", {{"raw", ""}}, ""},
        ValidateCase{"Url", {{"url", "https://files.example/r/42.pdf"}, {"mediaType", "application/pdf"}}, ""},
        ValidateCase{"DataObject", {{"data", {{"city", "Oslo"}}}, {"metadata", {{"k", "v"}}}}, ""},
        ValidateCase{"DataNull", {{"data", nullptr}}, ""},
        ValidateCase{"DataScalar", {{"data", 3}}, ""},
        ValidateCase{"UnknownMemberIgnored", {{"text", "hi"}, {"x", 1}}, ""},
        ValidateCase{"NotAnObject", "hi", "p: must be an object"},
        ValidateCase{"NoContent", {{"mediaType", "text/plain"}}, kExactlyOne},
        ValidateCase{"TextAndData", {{"text", "hi"}, {"data", 1}}, kExactlyOne},
        ValidateCase{"RawAndUrl", {{"raw", "aGk="}, {"url", "u"}}, kExactlyOne},
        ValidateCase{"V03KindPart", {{"kind", "text"}}, kExactlyOne},
        ValidateCase{"TextNotString", {{"text", 1}}, "p.text: must be a string"},
        ValidateCase{"UrlNotString", {{"url", Json::object()}}, "p.url: must be a string"},
        ValidateCase{"MediaTypeNotString", {{"text", "a"}, {"mediaType", 1}}, "p.mediaType: must be a string"},
        ValidateCase{"FilenameNotString", {{"raw", "aGk="}, {"filename", true}}, "p.filename: must be a string"},
        ValidateCase{"MetadataNotObject", {{"text", "a"}, {"metadata", Json::array()}},
                     "p.metadata: must be an object"},
        ValidateCase{"RawNotString", {{"raw", Json::array({104, 105})}}, kBadRaw},
        ValidateCase{"RawMixedAlphabets", {{"raw", "+_8="}}, kBadRaw},
        ValidateCase{"RawLengthOneModFour", {{"raw", "aGVsb"}}, kBadRaw},
        ValidateCase{"RawPaddingIncomplete", {{"raw", "aGVsbG8=="}}, kBadRaw},
        ValidateCase{"RawThreePads", {{"raw", "a==="}}, kBadRaw},
        ValidateCase{"RawOnlyPadding", {{"raw", "===="}}, kBadRaw},
        ValidateCase{"RawPaddingInside", {{"raw", "aG=VsbG8"}}, kBadRaw},
        ValidateCase{"RawWhitespace", {{"raw", "aGVs bG8="}}, kBadRaw},
        ValidateCase{"RawNonAscii", {{"raw", "aGVs\xc3\xa9"}}, kBadRaw}),
    [](const auto& info) { return info.param.name; });

}  // namespace
