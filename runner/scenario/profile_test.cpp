// Profiles: required fields, typed values, file:line errors, lookup, search.
#include <gtest/gtest.h>

#include "runner/scenario/profile.hpp"
#include "runner/scenario/test_support.hpp"

namespace a2a::scenario {
namespace {

using core::ErrorKind;
using testing::TempDir;

// Line numbers matter: the error cases below edit single lines of this text.
const std::string kProfile = R"Y(profile: p46
description: "a2a-rs PR #46 stdio binding"
framing: {kind: content-length, content_type: "application/json", max_body: 67108864}
handshake:
  from: agent
  type: handshake
  ack_type: handshakeAck
  variant: "a2a/v1"
  variant_field: selectedVariant
  fields: [type, sessionId, supportedVariants]
methods:
  send_message: "message/send"
  send_streaming_message: "message/stream"
  get_task: "tasks/get"
  list_tasks: "tasks/list"
  cancel_task: "tasks/cancel"
  subscribe_to_task: "tasks/subscribe"
  create_push_config: "tasks/pushNotificationConfig/create"
  get_push_config: "tasks/pushNotificationConfig/get"
  list_push_configs: "tasks/pushNotificationConfig/list"
  delete_push_config: "tasks/pushNotificationConfig/delete"
  get_extended_agent_card: "agent/extendedCard"
stream: {event_method: "event/streamResponse", error_method: "event/streamError", final: result-null}
errors: {parse: -32700, invalid_request: -32600, method_not_found: -32601, invalid_params: -32602}
timeouts: {handshake_ms: 10000, step_ms: 5000, exit_ms: 5000}
)Y";

std::string replace_line(const std::string& text, const std::string& from, const std::string& to) {
  std::string out = text;
  auto at = out.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) out.replace(at, from.size(), to);
  return out;
}

TEST(Profile, ValidProfileLoadsIntoTheStruct) {
  auto p = parse_profile_text(kProfile, "p46.yaml");
  ASSERT_TRUE(p.ok()) << p.error().str();
  EXPECT_EQ(p->name, "p46");
  EXPECT_EQ(p->framing.kind, "content-length");
  EXPECT_EQ(p->framing.max_body, 67108864);
  EXPECT_EQ(p->handshake.variant_field, "selectedVariant");
  EXPECT_EQ(p->handshake.fields.size(), 3u);
  EXPECT_EQ(p->methods.size(), 11u);
  EXPECT_EQ(p->method("get_task"), "tasks/get");
  EXPECT_EQ(p->method("nope"), "");
  EXPECT_EQ(p->stream.final, "result-null");
  EXPECT_EQ(p->errors.at("parse"), -32700);
  EXPECT_EQ(p->timeouts.step_ms, 5000);
}

TEST(Profile, LookupFollowsDotPathsIntoTheWholeDocument) {
  auto p = parse_profile_text(kProfile, "p46.yaml");
  ASSERT_TRUE(p.ok()) << p.error().str();
  EXPECT_EQ(p->lookup("methods.get_task"), nlohmann::json("tasks/get"));
  EXPECT_EQ(p->lookup("errors.parse"), nlohmann::json(-32700));
  EXPECT_EQ(p->lookup("handshake.fields.1"), nlohmann::json("sessionId"));
  EXPECT_FALSE(p->lookup("methods.nope").has_value());
  EXPECT_FALSE(p->lookup("handshake.fields.9").has_value());
}

struct BadProfile {
  std::string name;
  std::string from;
  std::string to;
  ErrorKind kind;
  std::string expected;
};

class ProfileRejects : public ::testing::TestWithParam<BadProfile> {};

TEST_P(ProfileRejects, WithLineAndColumn) {
  auto p = parse_profile_text(replace_line(kProfile, GetParam().from, GetParam().to), "p.yaml");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().kind, GetParam().kind);
  EXPECT_NE(p.error().message.find(GetParam().expected), std::string::npos)
      << "expected: " << GetParam().expected << "\nactual:   " << p.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Profile, ProfileRejects,
    ::testing::ValuesIn(std::vector<BadProfile>{
        {"MissingMethod", "  get_task: \"tasks/get\"\n", "", ErrorKind::kSchema,
         "p.yaml:12:3: missing required key 'get_task' in 'methods' of profile"},
        {"UnknownMethodKeySuggests", "  get_task: \"tasks/get\"", "  get_taks: \"tasks/get\"",
         ErrorKind::kSchema, "p.yaml:14:3: unknown key 'get_taks' in 'methods' of profile (did you mean 'get_task'?)"},
        {"WrongFramingKind", "kind: content-length", "kind: lsp", ErrorKind::kSchema,
         "p.yaml:3:17: 'kind' must be one of content-length, newline, http, websocket (got 'lsp')"},
        {"TopLevelTypo", "timeouts:", "timeuots:", ErrorKind::kSchema,
         "p.yaml:25:1: unknown key 'timeuots' in profile (did you mean 'timeouts'?)"},
        {"MissingSection", "stream: {", "x-stream: {", ErrorKind::kSchema,
         "missing required key 'stream' in profile"},
        {"ErrorCodeMustBeAnInteger", "parse: -32700", "parse: \"-32700\"", ErrorKind::kSchema,
         "p.yaml:24:17: 'parse' must be an integer (got a string) in 'errors' of profile"},
        {"HandshakeNeedsItsAckType", "  ack_type: handshakeAck\n", "", ErrorKind::kSchema,
         "p.yaml:5:3: missing required key 'ack_type' in 'handshake' of profile"},
        {"StreamFinalIsAnEnum", "final: result-null", "final: null-result", ErrorKind::kSchema,
         "(got 'null-result')"},
        {"YamlSyntax", "methods:\n", "methods: [\n", ErrorKind::kParse, "p.yaml:"},
    }),
    [](const auto& info) { return info.param.name; });

TEST(Profile, HandshakeNoneAndExtensionKeysAreAccepted) {
  std::string text = replace_line(kProfile, kProfile.substr(kProfile.find("handshake:"),
                                                            kProfile.find("methods:") - kProfile.find("handshake:")),
                                   "handshake: none\nx-notes: {why: http}\n");
  text = replace_line(text, "kind: content-length", "kind: http, x-tls: false");
  auto p = parse_profile_text(text, "http.yaml");
  ASSERT_TRUE(p.ok()) << p.error().str();
  EXPECT_FALSE(p->handshake.enabled);
  EXPECT_EQ(p->lookup("x-notes.why"), nlohmann::json("http"));
}

TEST(Profile, CollectsAllProblemsAtOnce) {
  std::string text = replace_line(kProfile, "kind: content-length", "kind: lsp");
  text = replace_line(text, "  get_task: \"tasks/get\"\n", "");
  auto p = parse_profile_text(text, "p.yaml");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("p.yaml:3:"), std::string::npos);
  EXPECT_NE(p.error().message.find("\np.yaml:12:"), std::string::npos) << p.error().message;
}

TEST(Profile, ProfilesShippedWithTheSuitesLoad) {
  const auto dir = std::filesystem::path(A2A_SOURCE_DIR) / "suites" / "profiles";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no suites/profiles yet";
  int loaded = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml") continue;
    auto p = load_profile(entry.path());
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().str());
    ++loaded;
  }
  EXPECT_GT(loaded, 0);
}

TEST(Profile, StdioJsonProfileCarriesItsHandshakeStreamAndFreeSections) {
  auto p = load_profile(std::filesystem::path(A2A_SOURCE_DIR) / "suites" / "profiles" / "stdio-json.yaml");
  ASSERT_TRUE(p.ok()) << p.error().str();
  EXPECT_EQ(p->handshake.variant_field, "selectVariant");
  EXPECT_EQ(p->handshake.protocol, "a2a-stdio");
  EXPECT_EQ(p->handshake.protocol_version, "1.0");
  EXPECT_TRUE(p->handshake.ack_session);
  EXPECT_EQ(p->stream.final, "stream-end");
  EXPECT_EQ(p->stream.end_member, "streamEnd");
  EXPECT_EQ(p->stream.cancel_member, "cancelStream");
  EXPECT_TRUE(p->stream.event_method.empty());
  EXPECT_EQ(p->framing.max_body, 1 << 20);
  EXPECT_EQ(p->method("get_task"), "GetTask");
  EXPECT_EQ(p->lookup("control.shutdown_method"), nlohmann::json("system/shutdown"));
  EXPECT_EQ(p->lookup("exit_codes.startup_denied"), nlohmann::json(4));
}

// The WebSocket binding's profile: a2a-rust's limits, as the reference agent
// applies them (peers/a2a-ref-agent/websocket/websocket_faults.hpp: 4 MiB, 64).
TEST(Profile, WebsocketProfileCarriesARustsLimitsAndCompletion) {
  auto p = load_profile(std::filesystem::path(A2A_SOURCE_DIR) / "suites" / "profiles" / "websocket.yaml");
  ASSERT_TRUE(p.ok()) << p.error().str();
  EXPECT_EQ(p->framing.kind, "websocket");
  EXPECT_EQ(p->framing.max_body, 4 << 20);
  EXPECT_EQ(p->stream.final, "completion");
  EXPECT_EQ(p->lookup("stream.x-completion.status"), nlohmann::json("stream_complete"));
  EXPECT_EQ(p->lookup("x-limits.max_in_flight"), nlohmann::json(64));
  EXPECT_EQ(p->lookup("errors.busy"), nlohmann::json(-32000));
  EXPECT_EQ(p->method("get_task"), "GetTask");
}

TEST(Profile, FreeSectionsMustBeMaps) {
  auto p = parse_profile_text(kProfile + "control: system/shutdown\n", "p.yaml");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("'control'"), std::string::npos) << p.error().message;
}

TEST(Profile, FindProfileSearchesDirectoriesInOrder) {
  TempDir a, b;
  b.write("p46.yaml", kProfile);
  b.write("other.yml", kProfile);
  auto found = find_profile("p46", {a.path(), b.path()});
  ASSERT_TRUE(found.ok()) << found.error().str();
  EXPECT_EQ(*found, b.path() / "p46.yaml");
  auto yml = find_profile("other", {a.path(), b.path()});
  ASSERT_TRUE(yml.ok());
  EXPECT_EQ(*yml, b.path() / "other.yml");
  auto direct = find_profile((b.path() / "p46.yaml").string(), {});
  ASSERT_TRUE(direct.ok());
  auto missing = find_profile("stdio-json", {a.path()});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(missing.error().message.find("stdio-json.yaml"), std::string::npos);
}

TEST(Profile, LoadProfileOfAMissingFileIsNotFound) {
  TempDir dir;
  auto p = load_profile(dir.path() / "none.yaml");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().kind, ErrorKind::kNotFound);
}

}  // namespace
}  // namespace a2a::scenario
