#include "peers/a2a-ref-client/handshake.hpp"

#include <gtest/gtest.h>

namespace a2a::client {
namespace {

constexpr std::string_view kSid = "018f3c2e-7b1a-7c3d-9e4f-0a1b2c3d4e5f";

struct RejectCase {
  std::string name;
  std::string body;
  std::string expect_in_message;
};

void PrintTo(const RejectCase& c, std::ostream* os) { *os << c.name; }

class HandshakeRejects : public ::testing::TestWithParam<RejectCase> {};

TEST_P(HandshakeRejects, WithAProtocolErrorNamingTheProblem) {
  auto got = validate_handshake(GetParam().body, kSid);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, core::ErrorKind::kProtocol);
  EXPECT_NE(got.error().message.find(GetParam().expect_in_message), std::string::npos)
      << got.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Handshake, HandshakeRejects,
    ::testing::Values(
        RejectCase{"NotJson", "{nope", "not JSON"},
        RejectCase{"NotAnObject", "[1]", "not an object"},
        RejectCase{"WrongType", R"({"type":"hello","sessionId":"x","supportedVariants":["a2a/v1"]})",
                   "expected type"},
        RejectCase{"NoType", R"({"sessionId":"x","supportedVariants":["a2a/v1"]})", "no type member"},
        RejectCase{"MissingSessionId", R"({"type":"handshake","supportedVariants":["a2a/v1"]})",
                   "sessionId"},
        RejectCase{"NumericSessionId", R"({"type":"handshake","sessionId":7,"supportedVariants":["a2a/v1"]})",
                   "sessionId"},
        RejectCase{"EmptyVariants", std::string(R"({"type":"handshake","sessionId":")") + std::string(kSid) +
                                        R"(","supportedVariants":[]})",
                   "empty"},
        RejectCase{"VariantsNotArray", R"({"type":"handshake","sessionId":"x","supportedVariants":"a2a/v1"})",
                   "not an array"},
        RejectCase{"VariantNotString", R"({"type":"handshake","sessionId":"x","supportedVariants":[1]})",
                   "supportedVariants[0]"},
        RejectCase{"NoA2aV1", std::string(R"({"type":"handshake","sessionId":")") + std::string(kSid) +
                                  R"(","supportedVariants":["a2a/v2"]})",
                   "lacks \"a2a/v1\""},
        RejectCase{"SessionIdMismatch",
                   R"({"type":"handshake","sessionId":"someone-else","supportedVariants":["a2a/v1"]})",
                   "differs from A2A_SESSION_ID"}),
    [](const ::testing::TestParamInfo<RejectCase>& info) { return info.param.name; });

TEST(Handshake, AcceptsUnknownMembersAndKeepsThem) {
  std::string body = std::string(R"({"type":"handshake","sessionId":")") + std::string(kSid) +
                     R"(","supportedVariants":["x/y","a2a/v1"],"pid":42,"features":{"foo":1},"protocolVersion":"9"})";
  auto got = validate_handshake(body, kSid);
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(got->session_id, kSid);
  EXPECT_EQ(got->supported_variants.size(), 2u);
  EXPECT_EQ(got->raw["pid"], 42);
}

TEST(Handshake, AckIsTheExactP46Bytes) {
  EXPECT_EQ(make_handshake_ack(), R"({"type":"handshakeAck","selectedVariant":"a2a/v1","accept":true})");
}

}  // namespace
}  // namespace a2a::client

namespace a2a::client {
namespace {

TEST(HandshakeStdioJson, ProtocolAndMajorVersionAreChecked) {
  auto ok = nlohmann::json::parse(R"({"type":"handshake","protocol":"a2a-stdio","protocolVersion":"1.3"})");
  EXPECT_TRUE(validate_json_handshake(ok).ok()) << "a newer minor is accepted";
  for (const char* bad : {R"({"protocolVersion":"1.0"})", R"({"protocol":"a2a","protocolVersion":"1.0"})",
                          R"({"protocol":"a2a-stdio"})", R"({"protocol":"a2a-stdio","protocolVersion":"2.0"})"}) {
    auto got = validate_json_handshake(nlohmann::json::parse(bad));
    ASSERT_FALSE(got.ok()) << bad;
    EXPECT_EQ(got.error().kind, core::ErrorKind::kProtocol);
    EXPECT_NE(got.error().message.find("protocol"), std::string::npos) << got.error().message;
  }
}

TEST(HandshakeStdioJson, AckEchoesTheSessionAndUsesSelectVariant) {
  auto ack = nlohmann::json::parse(make_json_handshake_ack("sid-1", "stdio-json", true));
  EXPECT_EQ(ack, (nlohmann::json{{"type", "handshakeAck"}, {"sessionId", "sid-1"}, {"selectVariant", "stdio-json"},
                                 {"accept", true}}));
  EXPECT_EQ(nlohmann::json::parse(make_json_handshake_ack("sid-1", "", false))["accept"], false);
}

}  // namespace
}  // namespace a2a::client
