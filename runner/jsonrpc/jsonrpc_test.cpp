#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "runner/jsonrpc/errors.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/jsonrpc/dump.hpp"

using namespace a2a::jsonrpc;

namespace {

// ---------------------------------------------------------------------------
// classify_incoming: J1-J16 (stdio-binding.md §8.3, §3.7) for both profiles.

enum class Expect {
  kRequest,       // dispatched as a request
  kNotification,  // dispatched as a notification, no reply
  kReply,         // answered at once with an error response
  kDropped,       // neither dispatched nor answered
};

struct JCase {
  std::string name;
  Strictness strictness;
  std::string body;
  Expect expect;
  int code = 0;                 // kReply: error.code
  Json id = nullptr;            // kReply: reply id; kRequest: dispatched id
  std::string message_prefix = {};  // kReply: error.message starts with this
};

constexpr auto kS = Strictness::kStrict;
constexpr auto kP = Strictness::kP46;
const std::string kGet = R"("method":"tasks/get","params":{"id":"t-1"})";

std::vector<JCase> j_cases() {
  using E = Expect;
  return {
      // J1: not JSON.
      {"J01_NotJsonGetsParseErrorStrict", kS, "{not json", E::kReply, kParseError, nullptr, "Parse error: "},
      {"J01_EmptyBodyGetsParseErrorStrict", kS, "", E::kReply, kParseError, nullptr, "Parse error: "},
      {"J01_TrailingGarbageGetsParseErrorStrict", kS, "{} x", E::kReply, kParseError, nullptr, "Parse error: "},
      {"J01_NotJsonGetsParseErrorP46", kP, "{not json", E::kReply, kParseError, nullptr, "invalid json: "},
      {"J01_EmptyBodyGetsParseErrorP46", kP, "", E::kReply, kParseError, nullptr, "invalid json: "},
      // J2: invalid UTF-8, inside a string and as a bare byte.
      {"J02_InvalidUtf8InStringGetsParseErrorStrict", kS, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\xff\"}",
       E::kReply, kParseError, nullptr, "Parse error: "},
      {"J02_InvalidUtf8ByteGetsParseErrorStrict", kS, "\xff", E::kReply, kParseError, nullptr, "Parse error: "},
      {"J02_TruncatedUtf8SequenceGetsParseErrorStrict", kS, "\"\xc3\"", E::kReply, kParseError, nullptr,
       "Parse error: "},
      {"J02_InvalidUtf8InStringGetsParseErrorP46", kP, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\xff\"}",
       E::kReply, kParseError, nullptr, "invalid json: "},
      // J3: JSON that is not an object.
      {"J03_NumberGetsInvalidRequestStrict", kS, "42", E::kReply, kInvalidRequest, nullptr, "Invalid Request: "},
      {"J03_StringGetsInvalidRequestStrict", kS, "\"x\"", E::kReply, kInvalidRequest, nullptr, "Invalid Request: "},
      {"J03_NullGetsInvalidRequestStrict", kS, "null", E::kReply, kInvalidRequest, nullptr, "Invalid Request: "},
      {"J03_BooleanGetsInvalidRequestStrict", kS, "true", E::kReply, kInvalidRequest, nullptr, "Invalid Request: "},
      {"J03_NumberGetsParseErrorP46", kP, "42", E::kReply, kParseError, nullptr, "invalid request: "},
      {"J03_StringGetsParseErrorP46", kP, "\"x\"", E::kReply, kParseError, nullptr, "invalid request: "},
      // J4: object without jsonrpc or method.
      {"J04_MissingJsonrpcEchoesIdStrict", kS, "{\"id\":7," + kGet + "}", E::kReply, kInvalidRequest, 7,
       "Invalid Request: "},
      {"J04_MissingMethodEchoesIdStrict", kS, R"({"jsonrpc":"2.0","id":"a"})", E::kReply, kInvalidRequest, "a",
       "Invalid Request: "},
      {"J04_NonStringMethodEchoesIdStrict", kS, R"({"jsonrpc":"2.0","id":3,"method":5})", E::kReply,
       kInvalidRequest, 3, "Invalid Request: "},
      {"J04_MissingMethodWithInvalidIdUsesNullIdStrict", kS, R"({"jsonrpc":"2.0","id":1.5})", E::kReply,
       kInvalidRequest, nullptr, "Invalid Request: "},
      {"J04_MissingMethodWithoutIdStillGetsReplyStrict", kS, R"({"jsonrpc":"2.0"})", E::kReply, kInvalidRequest,
       nullptr, "Invalid Request: "},
      {"J04_MissingJsonrpcGetsParseErrorWithNullIdP46", kP, "{\"id\":7," + kGet + "}", E::kReply, kParseError,
       nullptr, "invalid request: "},
      {"J04_MissingMethodGetsParseErrorWithNullIdP46", kP, R"({"jsonrpc":"2.0","id":"a"})", E::kReply,
       kParseError, nullptr, "invalid request: "},
      {"J04_NonStringMethodGetsParseErrorP46", kP, R"({"jsonrpc":"2.0","id":3,"method":5})", E::kReply,
       kParseError, nullptr, "invalid request: "},
      // J5: wrong protocol version.
      {"J05_Jsonrpc10GetsInvalidRequestStrict", kS, "{\"jsonrpc\":\"1.0\",\"id\":1," + kGet + "}", E::kReply,
       kInvalidRequest, 1, "Invalid Request: "},
      {"J05_NumericJsonrpcGetsInvalidRequestStrict", kS, "{\"jsonrpc\":2.0,\"id\":1," + kGet + "}", E::kReply,
       kInvalidRequest, 1, "Invalid Request: "},
      {"J05_Jsonrpc10IsProcessedP46", kP, "{\"jsonrpc\":\"1.0\",\"id\":1," + kGet + "}", E::kRequest, 0, 1},
      // J6, J7: batches.
      {"J06_BatchGetsSingleInvalidRequestStrict", kS,
       "[{\"jsonrpc\":\"2.0\",\"id\":1," + kGet + "},{\"jsonrpc\":\"2.0\",\"id\":2," + kGet + "}]", E::kReply,
       kInvalidRequest, nullptr, "Invalid Request: "},
      {"J06_BatchGetsSingleParseErrorP46", kP,
       "[{\"jsonrpc\":\"2.0\",\"id\":1," + kGet + "},{\"jsonrpc\":\"2.0\",\"id\":2," + kGet + "}]", E::kReply,
       kParseError, nullptr, "invalid request: "},
      {"J07_EmptyBatchGetsInvalidRequestStrict", kS, "[]", E::kReply, kInvalidRequest, nullptr,
       "Invalid Request: "},
      {"J07_EmptyBatchGetsParseErrorP46", kP, "[]", E::kReply, kParseError, nullptr, "invalid request: "},
      // J8: notifications.
      {"J08_NotificationGetsNoReplyStrict", kS, R"({"jsonrpc":"2.0","method":"x/unknown","params":{}})",
       E::kNotification},
      {"J08_NotificationWithoutParamsGetsNoReplyStrict", kS, R"({"jsonrpc":"2.0","method":"x"})",
       E::kNotification},
      {"J08_NotificationWithScalarParamsIsDroppedStrict", kS, R"({"jsonrpc":"2.0","method":"x","params":3})",
       E::kDropped},
      {"J08_NotificationGetsParseErrorReplyP46", kP, "{\"jsonrpc\":\"2.0\"," + kGet + "}", E::kReply,
       kParseError, nullptr, "invalid request: "},
      // J9: explicit null id.
      {"J09_NullIdIsProcessedStrict", kS, "{\"jsonrpc\":\"2.0\",\"id\":null," + kGet + "}", E::kRequest, 0,
       nullptr},
      {"J09_NullIdIsProcessedP46", kP, "{\"jsonrpc\":\"2.0\",\"id\":null," + kGet + "}", E::kRequest, 0, nullptr},
      // J10: id types kept (the id table below covers more values).
      {"J10_IntegerIdIsDispatchedStrict", kS, "{\"jsonrpc\":\"2.0\",\"id\":1," + kGet + "}", E::kRequest, 0, 1},
      {"J10_StringIdIsDispatchedStrict", kS, "{\"jsonrpc\":\"2.0\",\"id\":\"1\"," + kGet + "}", E::kRequest, 0,
       "1"},
      {"J10_StringIdIsDispatchedP46", kP, "{\"jsonrpc\":\"2.0\",\"id\":\"1\"," + kGet + "}", E::kRequest, 0, "1"},
      // J11: invalid id types.
      {"J11_FractionalIdGetsInvalidRequestStrict", kS, "{\"jsonrpc\":\"2.0\",\"id\":1.5," + kGet + "}",
       E::kReply, kInvalidRequest, nullptr, "Invalid Request: "},
      {"J11_IntegralFloatIdGetsInvalidRequestStrict", kS, "{\"jsonrpc\":\"2.0\",\"id\":1.0," + kGet + "}",
       E::kReply, kInvalidRequest, nullptr, "Invalid Request: "},
      {"J11_ExponentIdGetsInvalidRequestStrict", kS, "{\"jsonrpc\":\"2.0\",\"id\":1e2," + kGet + "}", E::kReply,
       kInvalidRequest, nullptr, "Invalid Request: "},
      {"J11_ObjectIdGetsInvalidRequestStrict", kS, "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1}," + kGet + "}",
       E::kReply, kInvalidRequest, nullptr, "Invalid Request: "},
      {"J11_ArrayIdGetsInvalidRequestStrict", kS, "{\"jsonrpc\":\"2.0\",\"id\":[1]," + kGet + "}", E::kReply,
       kInvalidRequest, nullptr, "Invalid Request: "},
      {"J11_BooleanIdGetsInvalidRequestStrict", kS, "{\"jsonrpc\":\"2.0\",\"id\":true," + kGet + "}", E::kReply,
       kInvalidRequest, nullptr, "Invalid Request: "},
      {"J11_IntegerBeyondUint64IdGetsInvalidRequestStrict", kS,
       "{\"jsonrpc\":\"2.0\",\"id\":18446744073709551616," + kGet + "}", E::kReply, kInvalidRequest, nullptr,
       "Invalid Request: "},
      {"J11_FractionalIdGetsParseErrorP46", kP, "{\"jsonrpc\":\"2.0\",\"id\":1.5," + kGet + "}", E::kReply,
       kParseError, nullptr, "invalid request: "},
      {"J11_BooleanIdGetsParseErrorP46", kP, "{\"jsonrpc\":\"2.0\",\"id\":false," + kGet + "}", E::kReply,
       kParseError, nullptr, "invalid request: "},
      {"J11_ObjectIdGetsParseErrorP46", kP, "{\"jsonrpc\":\"2.0\",\"id\":{}," + kGet + "}", E::kReply, kParseError,
       nullptr, "invalid request: "},
      // J12, J15: method names are the dispatcher's business (-32601 there).
      {"J12_UnknownMethodIsLeftToDispatcherStrict", kS, R"({"jsonrpc":"2.0","id":4,"method":"no/such"})",
       E::kRequest, 0, 4},
      {"J15_PascalCaseMethodIsLeftToDispatcherP46", kP,
       R"({"jsonrpc":"2.0","id":4,"method":"SendMessage","params":{}})", E::kRequest, 0, 4},
      // J13: params shape.
      {"J13_MissingParamsIsLeftToDispatcherStrict", kS, R"({"jsonrpc":"2.0","id":5,"method":"tasks/get"})",
       E::kRequest, 0, 5},
      {"J13_StringParamsGetInvalidParamsStrict", kS, R"({"jsonrpc":"2.0","id":5,"method":"tasks/get","params":"x"})",
       E::kReply, kInvalidParams, 5, "Invalid params: "},
      {"J13_NullParamsGetInvalidParamsStrict", kS, R"({"jsonrpc":"2.0","id":"p","method":"tasks/get","params":null})",
       E::kReply, kInvalidParams, "p", "Invalid params: "},
      {"J13_ArrayParamsAreDispatchedStrict", kS, R"({"jsonrpc":"2.0","id":5,"method":"tasks/get","params":[1]})",
       E::kRequest, 0, 5},
      {"J13_StringParamsAreLeftToDispatcherP46", kP, R"({"jsonrpc":"2.0","id":5,"method":"tasks/get","params":"x"})",
       E::kRequest, 0, 5},
      // J16: unknown members.
      {"J16_UnknownMembersIgnoredStrict", kS, "{\"jsonrpc\":\"2.0\",\"id\":6,\"extra\":[1,{}],\"x-y\":null," + kGet + "}",
       E::kRequest, 0, 6},
      {"J16_UnknownMembersIgnoredP46", kP, "{\"jsonrpc\":\"2.0\",\"id\":6,\"extra\":true," + kGet + "}", E::kRequest,
       0, 6},
      // Depth guard: no stack overflow on hostile nesting.
      {"DeepNestingGetsParseErrorStrict", kS, std::string(100000, '['), E::kReply, kParseError, nullptr,
       "Parse error: "},
      {"DeepNestingGetsParseErrorP46", kP, std::string(100000, '{'), E::kReply, kParseError, nullptr,
       "invalid json: "},
  };
}

class ClassifyIncoming : public ::testing::TestWithParam<JCase> {};

TEST_P(ClassifyIncoming, FollowsTheProfileTable) {
  const JCase& c = GetParam();
  Incoming in = classify_incoming(c.body, c.strictness);
  switch (c.expect) {
    case Expect::kRequest:
      ASSERT_TRUE(in.message.has_value()) << in.reason;
      EXPECT_FALSE(in.reply.has_value());
      EXPECT_EQ(in.message->kind, Kind::kRequest);
      EXPECT_TRUE(in.message->has_id);
      EXPECT_EQ(dump(in.message->id), dump(c.id));
      EXPECT_FALSE(in.message->method.empty());
      break;
    case Expect::kNotification:
      ASSERT_TRUE(in.message.has_value()) << in.reason;
      EXPECT_FALSE(in.reply.has_value());
      EXPECT_EQ(in.message->kind, Kind::kNotification);
      EXPECT_FALSE(in.message->has_id);
      break;
    case Expect::kDropped:
      EXPECT_FALSE(in.message.has_value());
      EXPECT_FALSE(in.reply.has_value());
      EXPECT_FALSE(in.reason.empty());
      break;
    case Expect::kReply: {
      EXPECT_FALSE(in.message.has_value());
      ASSERT_TRUE(in.reply.has_value());
      const Json& r = *in.reply;
      ASSERT_TRUE(r.is_object()) << "never a batch response: " << dump(r);
      EXPECT_EQ(r.at("jsonrpc"), "2.0");
      EXPECT_EQ(dump(r.at("id")), dump(c.id)) << code_name(c.code);
      EXPECT_EQ(r.at("error").at("code"), c.code) << "expected " << code_name(c.code);
      std::string message = r.at("error").at("message").get<std::string>();
      EXPECT_EQ(message.rfind(c.message_prefix, 0), 0u) << message;
      EXPECT_FALSE(in.reason.empty());
      EXPECT_TRUE(Json::accept(dump(r))) << "reply must serialise to valid JSON";
      break;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(J, ClassifyIncoming, ::testing::ValuesIn(j_cases()),
                         [](const auto& info) { return info.param.name; });

TEST(ClassifyIncoming, StrictParseErrorReplyIsExactCompactText) {
  Incoming in = classify_incoming("42");
  ASSERT_TRUE(in.reply.has_value());
  EXPECT_EQ(dump(*in.reply),
            R"({"error":{"code":-32600,"message":"Invalid Request: body is a JSON integer, not an object"},)"
            R"("id":null,"jsonrpc":"2.0"})");
}

TEST(ClassifyIncoming, ParseErrorReasonStaysShortForHugeBodies) {
  std::string body = "{\"a\":\"" + std::string(100000, 'x') + "\xff\"}";
  Incoming in = classify_incoming(body);
  ASSERT_TRUE(in.reply.has_value());
  EXPECT_EQ(in.reply->at("error").at("code"), kParseError);
  EXPECT_LT(in.reason.size(), 300u);
  EXPECT_LT(dump(*in.reply).size(), 400u);
}

// Found by fuzz_jsonrpc in CI (stop 25): a long "jsonrpc" value was quoted
// whole in the reason and the reply.
TEST(ClassifyIncoming, WrongVersionReasonQuotesALongValueCut) {
  const std::string body = R"({"id":1,"method":"m","jsonrpc":")" + std::string(4000, 'v') + "\"}";
  Incoming in = classify_incoming(body);
  ASSERT_TRUE(in.reply.has_value());
  EXPECT_EQ(in.reply->at("error").at("code"), kInvalidRequest);
  EXPECT_EQ(in.reply->at("id"), 1);
  EXPECT_NE(in.reason.find("\"jsonrpc\" must be \"2.0\", got \"vvv"), std::string::npos) << in.reason;
  EXPECT_LT(in.reason.size(), 300u);
  EXPECT_LT(dump(*in.reply).size(), 400u);
}

TEST(ClassifyIncoming, DispatchedRequestCarriesMethodParamsAndRaw) {
  Incoming in = classify_incoming(R"({"jsonrpc":"2.0","id":"r","method":"message/send","params":{"a":1},"z":0})");
  ASSERT_TRUE(in.message.has_value());
  const Message& m = *in.message;
  EXPECT_EQ(m.method, "message/send");
  EXPECT_TRUE(m.has_params);
  EXPECT_EQ(m.params, Json({{"a", 1}}));
  EXPECT_EQ(m.raw.at("z"), 0);
  EXPECT_FALSE(m.raw.contains("params"));  // moved to m.params, not copied
  EXPECT_TRUE(in.reason.empty());
}

TEST(ClassifyIncoming, AbsentParamsLeaveHasParamsFalse) {
  Incoming in = classify_incoming(R"({"jsonrpc":"2.0","id":1,"method":"agent/extendedCard"})");
  ASSERT_TRUE(in.message.has_value());
  EXPECT_FALSE(in.message->has_params);
  EXPECT_TRUE(in.message->params.is_null());
}

// ---------------------------------------------------------------------------
// Id preservation (J10): the id is echoed with its exact type and value.

struct IdCase {
  std::string name;
  std::string text;  // the id as written on the wire, and as it must be echoed
};

class IdPreservation : public ::testing::TestWithParam<IdCase> {};

TEST_P(IdPreservation, EchoesTheIdWithItsExactType) {
  const std::string& text = GetParam().text;
  for (Strictness s : {Strictness::kStrict, Strictness::kP46}) {
    Incoming in = classify_incoming(R"({"jsonrpc":"2.0","method":"tasks/get","params":{},"id":)" + text + "}", s);
    ASSERT_TRUE(in.message.has_value()) << in.reason;
    EXPECT_TRUE(is_valid_id(in.message->id));
    EXPECT_EQ(dump(in.message->id), text);
    EXPECT_EQ(dump(make_result(in.message->id, nullptr)), R"({"id":)" + text + R"(,"jsonrpc":"2.0","result":null})");
  }
}

INSTANTIATE_TEST_SUITE_P(Ids, IdPreservation,
                         ::testing::Values(IdCase{"Zero", "0"}, IdCase{"MinusOne", "-1"},
                                           IdCase{"TwoToThe63", "9223372036854775808"},
                                           IdCase{"Uint64Max", "18446744073709551615"},
                                           IdCase{"Int64Min", "-9223372036854775808"},
                                           IdCase{"StringOne", "\"1\""}, IdCase{"EmptyString", "\"\""},
                                           IdCase{"Null", "null"}),
                         [](const auto& info) { return info.param.name; });

TEST(IsValidId, AcceptsStringIntegerNullAndRejectsTheRest) {
  EXPECT_TRUE(is_valid_id(Json(1)));
  EXPECT_TRUE(is_valid_id(Json(18446744073709551615ull)));
  EXPECT_TRUE(is_valid_id(Json("x")));
  EXPECT_TRUE(is_valid_id(Json(nullptr)));
  EXPECT_FALSE(is_valid_id(Json(1.0)));
  EXPECT_FALSE(is_valid_id(Json(true)));
  EXPECT_FALSE(is_valid_id(Json::object()));
  EXPECT_FALSE(is_valid_id(Json::array()));
}

TEST(IdPreservation, IntegerAndStringIdsDiffer) {
  Incoming a = classify_incoming(R"({"jsonrpc":"2.0","id":1,"method":"m"})");
  Incoming b = classify_incoming(R"({"jsonrpc":"2.0","id":"1","method":"m"})");
  ASSERT_TRUE(a.message && b.message);
  EXPECT_NE(a.message->id, b.message->id);
  EXPECT_TRUE(a.message->id.is_number_integer());
  EXPECT_TRUE(b.message->id.is_string());
}

// ---------------------------------------------------------------------------
// parse_message: the client side.

struct ParseCase {
  std::string name;
  std::string body;
  std::optional<Kind> kind;  // nullopt: rejected
  std::string why_contains;  // rejected: the reason names the problem
};

class ParseMessage : public ::testing::TestWithParam<ParseCase> {};

TEST_P(ParseMessage, ClassifiesOrRejectsWithAReason) {
  const ParseCase& c = GetParam();
  std::string why;
  auto m = parse_message(c.body, &why);
  if (c.kind) {
    ASSERT_TRUE(m.has_value()) << why;
    EXPECT_EQ(m->kind, *c.kind);
  } else {
    EXPECT_FALSE(m.has_value());
    EXPECT_NE(why.find(c.why_contains), std::string::npos) << why;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Bodies, ParseMessage,
    ::testing::Values(
        ParseCase{"Response", R"({"jsonrpc":"2.0","id":1,"result":{"id":"t"}})", Kind::kResponse, ""},
        ParseCase{"NullResultResponse", R"({"jsonrpc":"2.0","id":"s-1","result":null})", Kind::kResponse, ""},
        ParseCase{"ErrorResponse", R"({"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"nf"}})",
                  Kind::kError, ""},
        ParseCase{"ErrorWithNullId", R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}})",
                  Kind::kError, ""},
        ParseCase{"Notification", R"({"jsonrpc":"2.0","method":"event/streamResponse","params":{}})",
                  Kind::kNotification, ""},
        ParseCase{"Request", R"({"jsonrpc":"2.0","id":"q","method":"handshake/x"})", Kind::kRequest, ""},
        ParseCase{"NotJson", "{", std::nullopt, "not JSON"},
        ParseCase{"InvalidUtf8", "{\"id\":1,\"result\":\"\xfe\"}", std::nullopt, "not JSON"},
        ParseCase{"Array", "[]", std::nullopt, "array"},
        ParseCase{"NeitherMethodNorResult", R"({"jsonrpc":"2.0","id":1})", std::nullopt, "neither"},
        ParseCase{"MethodNotString", R"({"jsonrpc":"2.0","id":1,"method":2})", std::nullopt, "\"method\""},
        ParseCase{"RequestWithFractionalId", R"({"jsonrpc":"2.0","id":1.5,"method":"m"})", std::nullopt, "\"id\""},
        ParseCase{"ResponseWithoutId", R"({"jsonrpc":"2.0","result":{}})", std::nullopt, "without \"id\""},
        ParseCase{"ResponseWithBooleanId", R"({"jsonrpc":"2.0","id":true,"result":{}})", std::nullopt, "\"id\""},
        ParseCase{"ResultAndError", R"({"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}})",
                  std::nullopt, "both"},
        ParseCase{"ErrorNotObject", R"({"jsonrpc":"2.0","id":1,"error":"boom"})", std::nullopt,
                  "\"error\" must be an object"},
        ParseCase{"ErrorCodeFloat", R"({"jsonrpc":"2.0","id":1,"error":{"code":-32001.5,"message":"m"}})",
                  std::nullopt, "error.code"},
        ParseCase{"ErrorCodeString", R"({"jsonrpc":"2.0","id":1,"error":{"code":"-32001","message":"m"}})",
                  std::nullopt, "error.code"},
        ParseCase{"ErrorWithoutMessage", R"({"jsonrpc":"2.0","id":1,"error":{"code":-32001}})", std::nullopt,
                  "error.message"}),
    [](const auto& info) { return info.param.name; });

TEST(ParseMessage, KeepsErrorObjectAndResultWhole) {
  auto e = parse_message(R"({"jsonrpc":"2.0","id":"x","error":{"code":-32001,"message":"nf","data":[1]}})");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->error.at("data"), Json::array({1}));
  EXPECT_EQ(e->id, "x");
  auto r = parse_message(R"({"jsonrpc":"2.0","id":2,"result":{"task":{}}})");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->result, Json({{"task", Json::object()}}));
}

TEST(ParseMessage, WorksWithoutAReasonPointer) {
  EXPECT_FALSE(parse_message("nope").has_value());
  EXPECT_FALSE(parse_message(std::string(100000, '[')).has_value());
}

// ---------------------------------------------------------------------------
// Builders and dump(): exact compact text.

struct BuildCase {
  std::string name;
  Json built;
  std::string text;
};

class Builders : public ::testing::TestWithParam<BuildCase> {};

TEST_P(Builders, ProduceExactCompactJson) { EXPECT_EQ(dump(GetParam().built), GetParam().text); }

INSTANTIATE_TEST_SUITE_P(
    Text, Builders,
    ::testing::Values(
        BuildCase{"RequestWithParams", make_request(1, "tasks/get", {{"id", "t-1"}}),
                  R"({"id":1,"jsonrpc":"2.0","method":"tasks/get","params":{"id":"t-1"}})"},
        BuildCase{"RequestWithoutParamsOmitsThem", make_request("r", "agent/extendedCard", nullptr),
                  R"({"id":"r","jsonrpc":"2.0","method":"agent/extendedCard"})"},
        BuildCase{"RequestWithEmptyParamsKeepsThem", make_request(2, "GetExtendedAgentCard", Json::object()),
                  R"({"id":2,"jsonrpc":"2.0","method":"GetExtendedAgentCard","params":{}})"},
        BuildCase{"Notification", make_notification("event/streamResponse", {{"task", {{"id", "t"}}}}),
                  R"({"jsonrpc":"2.0","method":"event/streamResponse","params":{"task":{"id":"t"}}})"},
        BuildCase{"NullResult", make_result("s-1", nullptr), R"({"id":"s-1","jsonrpc":"2.0","result":null})"},
        BuildCase{"Error", make_error(nullptr, kParseError, "Parse error"),
                  R"({"error":{"code":-32700,"message":"Parse error"},"id":null,"jsonrpc":"2.0"})"},
        BuildCase{"ErrorWithData", make_error(3, kInvalidParams, "bad", Json::array({1})),
                  R"({"error":{"code":-32602,"data":[1],"message":"bad"},"id":3,"jsonrpc":"2.0"})"},
        BuildCase{"J14_A2AErrorObjectCarriesErrorInfo",
                  make_a2a_error_object(A2AError::kTaskNotFound, {}, {{"taskId", "t-404"}}),
                  R"({"code":-32001,"data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo",)"
                  R"("domain":"a2a-protocol.org","metadata":{"taskId":"t-404"},"reason":"TASK_NOT_FOUND"}],)"
                  R"("message":"Task not found"})"},
        BuildCase{"A2AErrorObjectWithCustomMessageAndNoMetadata",
                  make_a2a_error_object(A2AError::kTaskNotCancelable, "task t-1 is completed"),
                  R"({"code":-32002,"data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo",)"
                  R"("domain":"a2a-protocol.org","reason":"TASK_NOT_CANCELABLE"}],"message":"task t-1 is completed"})"},
        BuildCase{"A2AErrorObjectEmptyMetadataOmitted",
                  make_a2a_error_object(A2AError::kVersionNotSupported, {}, Json::object()),
                  R"({"code":-32009,"data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo",)"
                  R"("domain":"a2a-protocol.org","reason":"VERSION_NOT_SUPPORTED"}],"message":"Version not supported"})"},
        BuildCase{"A2AErrorMetadataValuesBecomeStrings",
                  make_a2a_error_object(A2AError::kTaskNotFound, "nf", {{"n", 3}, {"s", "x"}}),
                  R"({"code":-32001,"data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo",)"
                  R"("domain":"a2a-protocol.org","metadata":{"n":"3","s":"x"},"reason":"TASK_NOT_FOUND"}],"message":"nf"})"},
        BuildCase{"DumpReplacesInvalidUtf8", Json(std::string("a\xff")), "\"a\xEF\xBF\xBD\""}),
    [](const auto& info) { return info.param.name; });

// ---------------------------------------------------------------------------
// The A2A 1.0.1 error table (a2a-protocol.md §6.1), written out again by hand.

class ErrorTable : public ::testing::TestWithParam<ErrorRow> {};

TEST_P(ErrorTable, RowMatchesTheSpecAndEveryLookupFindsIt) {
  const ErrorRow& want = GetParam();
  const ErrorRow& got = row(want.error);
  EXPECT_EQ(got.name, want.name);
  EXPECT_EQ(got.jsonrpc_code, want.jsonrpc_code);
  EXPECT_EQ(got.grpc_status, want.grpc_status);
  EXPECT_EQ(got.http_status, want.http_status);
  EXPECT_EQ(got.reason, want.reason);
  EXPECT_EQ(got.default_message, want.default_message);
  auto by_code = row_by_code(want.jsonrpc_code);
  ASSERT_TRUE(by_code.has_value());
  EXPECT_EQ(by_code->error, want.error);
  auto by_reason = row_by_reason(want.reason);
  ASSERT_TRUE(by_reason.has_value());
  EXPECT_EQ(by_reason->error, want.error);
  EXPECT_EQ(code_name(want.jsonrpc_code), want.name);
  Json obj = make_a2a_error_object(want.error);
  EXPECT_EQ(obj.at("code"), want.jsonrpc_code);
  EXPECT_EQ(obj.at("message"), want.default_message);
  EXPECT_EQ(obj.at("data").at(0).at("reason"), want.reason);
}

INSTANTIATE_TEST_SUITE_P(
    V101, ErrorTable,
    ::testing::Values(
        ErrorRow{A2AError::kTaskNotFound, "TaskNotFoundError", -32001, "NOT_FOUND", 404, "TASK_NOT_FOUND",
                 "Task not found"},
        ErrorRow{A2AError::kTaskNotCancelable, "TaskNotCancelableError", -32002, "FAILED_PRECONDITION", 400,
                 "TASK_NOT_CANCELABLE", "Task cannot be canceled"},
        ErrorRow{A2AError::kPushNotificationNotSupported, "PushNotificationNotSupportedError", -32003,
                 "FAILED_PRECONDITION", 400, "PUSH_NOTIFICATION_NOT_SUPPORTED",
                 "Push Notification is not supported"},
        ErrorRow{A2AError::kUnsupportedOperation, "UnsupportedOperationError", -32004, "FAILED_PRECONDITION", 400,
                 "UNSUPPORTED_OPERATION", "This operation is not supported"},
        ErrorRow{A2AError::kContentTypeNotSupported, "ContentTypeNotSupportedError", -32005, "INVALID_ARGUMENT",
                 400, "CONTENT_TYPE_NOT_SUPPORTED", "Incompatible content types"},
        ErrorRow{A2AError::kInvalidAgentResponse, "InvalidAgentResponseError", -32006, "INTERNAL", 500,
                 "INVALID_AGENT_RESPONSE", "Invalid agent response"},
        ErrorRow{A2AError::kExtendedAgentCardNotConfigured, "ExtendedAgentCardNotConfiguredError", -32007,
                 "FAILED_PRECONDITION", 400, "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
                 "Authenticated Extended Card is not configured"},
        ErrorRow{A2AError::kExtensionSupportRequired, "ExtensionSupportRequiredError", -32008,
                 "FAILED_PRECONDITION", 400, "EXTENSION_SUPPORT_REQUIRED", "Extension support required"},
        ErrorRow{A2AError::kVersionNotSupported, "VersionNotSupportedError", -32009, "FAILED_PRECONDITION", 400,
                 "VERSION_NOT_SUPPORTED", "Version not supported"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(ParseJson, RefusesNestingDeeperThan512LevelsBeforeParsing) {
  std::string why;
  std::string ok = std::string(512, '[') + std::string(512, ']');
  EXPECT_TRUE(parse_json(ok, &why).has_value()) << why;
  std::string bomb = "{\"result\":" + std::string(5u << 20, '[') + std::string(5u << 20, ']') + "}";
  EXPECT_FALSE(parse_json(bomb, &why).has_value());
  EXPECT_EQ(why, "nesting deeper than 512 levels");
  EXPECT_TRUE(parse_json_or_discarded(bomb).is_discarded());
  EXPECT_EQ(parse_json_or_discarded(R"({"a":"[[[["})"), (Json{{"a", "[[[["}})) << "brackets in strings do not count";
}

TEST(ParseJson, RefusesMoreThanAMillionValuesBeforeParsing) {
  std::string why;
  auto wide = [](std::size_t n, const char* item) {
    std::string s = "[";
    for (std::size_t i = 0; i < n; ++i) s += (i ? "," : "") + std::string(item);
    return s + "]";
  };
  EXPECT_TRUE(parse_json(wide(999'999, "0"), &why).has_value()) << why;
  EXPECT_FALSE(parse_json(wide(1'000'000, "0"), &why).has_value());
  EXPECT_EQ(why, "more than 1000000 values");
  std::string members = "{\"a\":0";
  for (int i = 0; i < 1'000'000; ++i) members += ",\"a\":0";
  EXPECT_FALSE(parse_json(members + "}", &why).has_value()) << "object members count like array items";
  EXPECT_TRUE(parse_json("\"" + std::string(2'000'000, ',') + "\"", &why).has_value()) << "commas in strings do not count";
}

TEST(ParseJson, SaysWhyOrdinaryGarbageIsNotJson) {
  std::string why;
  EXPECT_FALSE(parse_json("data: {}", &why).has_value());
  EXPECT_NE(why.find("parse error at line 1, column 1"), std::string::npos) << why;
  EXPECT_FALSE(parse_json("{\"a\":1} x").has_value()) << "trailing bytes are not JSON";
  EXPECT_TRUE(parse_json_or_discarded("").is_discarded());
}

TEST(ErrorTable, HasNineRowsWithDistinctCodesAndReasons) {
  auto rows = error_table();
  EXPECT_EQ(rows.size(), 9u);
  std::set<int> codes;
  std::set<std::string_view> reasons;
  for (const auto& r : rows) {
    codes.insert(r.jsonrpc_code);
    reasons.insert(r.reason);
  }
  EXPECT_EQ(codes.size(), 9u);
  EXPECT_EQ(reasons.size(), 9u);
}

TEST(ErrorTable, LookupsMissForUnknownCodesAndReasons) {
  EXPECT_FALSE(row_by_code(-32000).has_value());
  EXPECT_FALSE(row_by_code(-32010).has_value());
  EXPECT_FALSE(row_by_code(kInvalidParams).has_value());
  EXPECT_FALSE(row_by_reason("task_not_found").has_value()) << "reasons are case-sensitive";
  EXPECT_FALSE(row_by_reason("TaskNotFoundError").has_value());
  EXPECT_FALSE(row_by_reason("").has_value());
}

TEST(CodeName, NamesStandardReservedAndUnknownCodes) {
  EXPECT_EQ(code_name(-32700), "ParseError");
  EXPECT_EQ(code_name(-32600), "InvalidRequest");
  EXPECT_EQ(code_name(-32601), "MethodNotFound");
  EXPECT_EQ(code_name(-32602), "InvalidParams");
  EXPECT_EQ(code_name(-32603), "InternalError");
  EXPECT_EQ(code_name(-32050), "ServerError");
  EXPECT_EQ(code_name(-32000), "ServerError");
  EXPECT_EQ(code_name(-31401), "");
  EXPECT_EQ(code_name(0), "");
}

}  // namespace

// ---------------------------------------------------------------------------
// dump: its own writer for plain strings, keys and integers must give the
// bytes of nlohmann's dump(-1, ' ', false, replace) for every kind of value.

static std::string dump_by_nlohmann(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

TEST(Dump, SameBytesAsNlohmannForEveryKindOfValue) {
  std::vector<Json> docs = {
      nullptr, true, false, 0, -1, 42, INT64_MIN, INT64_MAX, UINT64_MAX, 0.5, -1e300, 3.0, 1e-7,
      "", "plain", "quote \" and \\ backslash", "tab\tnew\nline\r\x01\x1f", "del\x7f", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
      std::string("bad \xff\xc3( utf8", 13), Json::array(), Json::object(),
      Json::parse(R"({"b":1,"a":[1,"x",{"z":null,"y":[true,false]}],"c":{"":""},"\u00e9":"k","q\"k":2.25})"),
      Json::binary({1, 2, 3}), Json::binary({4, 5}, 7), Json(Json::value_t::discarded)};
  Json nested = Json::array();
  for (int i = 0; i < 40; ++i) nested = Json::array({nested, {{"k" + std::to_string(i), i}}});
  docs.push_back(nested);
  Json obj = Json::object();
  obj[std::string("key \xff bad", 9)] = "v";
  obj["line\nkey"] = std::string("\xe2\x82", 2);
  docs.push_back(obj);
  for (const Json& j : docs) {
    EXPECT_EQ(dump(j), dump_by_nlohmann(j)) << dump_by_nlohmann(j);
    std::string appended = "prefix:";
    dump_to(appended, j);
    EXPECT_EQ(appended, "prefix:" + dump_by_nlohmann(j));
  }
}

// Pseudo-random documents (fixed seed): strings drawn from bytes that need
// every path of the writer.
TEST(Dump, SameBytesAsNlohmannOnGeneratedDocuments) {
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  auto next = [&seed] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  const std::string alphabet = std::string("ab \"\\\n\x01\x7f", 8) + "\xc3\xa9\xff\xe2\x82\xac";
  auto text = [&] {
    std::string s;
    for (uint64_t n = next() % 8; n > 0; --n) s += alphabet[next() % alphabet.size()];
    return s;
  };
  std::function<Json(int)> gen = [&](int depth) -> Json {
    switch (next() % (depth > 3 ? 5 : 7)) {
      case 0: return nullptr;
      case 1: return static_cast<int64_t>(next());
      case 2: return next();
      case 3: return text();
      case 4: return static_cast<double>(next() % 1000) / 8.0;
      case 5: {
        Json a = Json::array();
        for (uint64_t n = next() % 4; n > 0; --n) a.push_back(gen(depth + 1));
        return a;
      }
      default: {
        Json o = Json::object();
        for (uint64_t n = next() % 4; n > 0; --n) o[text()] = gen(depth + 1);
        return o;
      }
    }
  };
  for (int i = 0; i < 500; ++i) {
    Json j = gen(0);
    ASSERT_EQ(dump(j), dump_by_nlohmann(j)) << "document " << i;
  }
}
