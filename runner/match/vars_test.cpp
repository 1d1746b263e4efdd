#include <gtest/gtest.h>

#include "runner/match/test_json.hpp"

#include <regex>
#include <set>

#include "runner/match/vars.hpp"

using namespace a2a::match;
using a2a::core::ErrorKind;

namespace {

using a2a::match::testing::J;

Vars sample_vars() {
  Vars v;
  v.set_variables(J(R"({"webhookUrl": "https://example.com/hook", "baseUrl": "{{SUT_BASE_URL}}",
                        "SUT_BASE_URL": "http://localhost:9999", "loopA": "{{loopB}}", "loopB": "{{loopA}}"})"));
  v.set_capture("send", "taskId", "t-1");
  v.set_capture("send", "response", J(R"({"task": {"id": "t-1", "artifacts": [{"parts": [{"text": "hi"}]}]}})"));
  v.set_capture("req", "id", 7);
  v.set_capture("evil", "value", "{{env.HOME}}");
  v.set_root("profile", J(R"({"methods": {"get_task": "tasks/get"}, "errors": {"parse": -32700}})"));
  v.set_root("agent", J(R"({"session_id": "s-42"})"));
  v.set_env_lookup([](std::string_view name) -> std::optional<std::string> {
    if (name == "TOKEN") return "secret-token";
    return std::nullopt;
  });
  return v;
}

struct InterpolateCase {
  const char* name;
  const char* tmpl;
  const char* expected;
};

class Interpolate : public ::testing::TestWithParam<InterpolateCase> {};

TEST_P(Interpolate, ProducesTheValue) {
  auto got = interpolate(J(GetParam().tmpl), sample_vars());
  ASSERT_TRUE(got.ok()) << got.error().str();
  EXPECT_EQ(*got, J(GetParam().expected));
  EXPECT_EQ(got->dump(), J(GetParam().expected).dump());  // types, not just values
}

INSTANTIATE_TEST_SUITE_P(
    Cases, Interpolate,
    ::testing::Values(
        InterpolateCase{"WholeStringKeepsIntegerType", R"({"id": "{{req.id}}"})", R"({"id": 7})"},
        InterpolateCase{"WholeStringKeepsObjectType", R"("{{send.response}}")",
                        R"({"task": {"id": "t-1", "artifacts": [{"parts": [{"text": "hi"}]}]}})"},
        InterpolateCase{"CaptureSubPath", R"("{{send.response.task.artifacts[0].parts[0].text}}")", R"("hi")"},
        InterpolateCase{"SpliceString", R"("task {{send.taskId}} done")", R"("task t-1 done")"},
        InterpolateCase{"SpliceNumberAsText", R"("id={{req.id}}")", R"("id=7")"},
        InterpolateCase{"SpliceObjectAsCompactJson", R"("p={{profile.errors}}")", R"("p={\"parse\":-32700}")"},
        InterpolateCase{"DocumentVariable", R"({"url": "{{webhookUrl}}"})", R"({"url": "https://example.com/hook"})"},
        InterpolateCase{"DocumentVariableReferringToAnother", R"("{{baseUrl}}/x")", R"("http://localhost:9999/x")"},
        InterpolateCase{"ProfileRoot", R"({"method": "{{profile.methods.get_task}}"})", R"({"method": "tasks/get"})"},
        InterpolateCase{"ProfileRootKeepsNumber", R"("{{profile.errors.parse}}")", "-32700"},
        InterpolateCase{"AgentRoot", R"({"sessionId": "{{agent.session_id}}"})", R"({"sessionId": "s-42"})"},
        InterpolateCase{"Environment", R"("Bearer {{env.TOKEN}}")", R"("Bearer secret-token")"},
        InterpolateCase{"WhitespaceInsideBraces", R"("{{ send.taskId }}")", R"("t-1")"},
        InterpolateCase{"CapturedValuesAreNotReexpanded", R"("{{evil.value}}")", R"("{{env.HOME}}")"},
        InterpolateCase{"UnclosedBracesAreText", R"("a {{ b")", R"("a {{ b")"},
        InterpolateCase{"KeysAreLeftAlone", R"({"{{send.taskId}}": [1, "{{req.id}}", true]})",
                        R"({"{{send.taskId}}": [1, 7, true]})"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Interpolate, UuidIsFreshAtEachOccurrence) {
  Vars v;
  auto got = interpolate(J(R"(["{{$uuid}}", "{{$uuid}}", "m-{{$uuid}}"])"), v);
  ASSERT_TRUE(got.ok());
  std::regex uuid("^(m-)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
  std::set<std::string> seen;
  for (const auto& s : *got) {
    EXPECT_TRUE(std::regex_match(s.get<std::string>(), uuid)) << s;
    seen.insert(s.get<std::string>().substr(s.get<std::string>().size() - 36));
  }
  EXPECT_EQ(seen.size(), 3u);
}

TEST(Interpolate, UnknownVariableNamesItAndListsKnownOnes) {
  auto got = interpolate(J(R"({"a": ["{{sned.taskId}}"]})"), sample_vars());
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, ErrorKind::kNotFound);
  const auto& m = got.error().message;
  EXPECT_NE(m.find("unresolved variable {{sned.taskId}}"), std::string::npos) << m;
  EXPECT_NE(m.find("known: "), std::string::npos) << m;
  EXPECT_NE(m.find("send.taskId"), std::string::npos) << m;
  EXPECT_NE(m.find("profile.*"), std::string::npos) << m;
  EXPECT_EQ(m.find("secret-token"), std::string::npos) << m;
}

TEST(Interpolate, ExplainsWhyAReferenceDoesNotResolve) {
  Vars v = sample_vars();
  auto capture_name = v.resolve("send.contextId");
  ASSERT_FALSE(capture_name.ok());
  EXPECT_NE(capture_name.error().message.find("step 'send' captured no 'contextId' (it has response, taskId)"),
            std::string::npos);
  auto env = v.resolve("env.NOPE");
  ASSERT_FALSE(env.ok());
  EXPECT_NE(env.error().message.find("environment variable NOPE is not set"), std::string::npos);
  auto deep = v.resolve("send.response.task.artifacts[3]");
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.error().message.find("task.artifacts[3]: index out of range (size 1)"), std::string::npos)
      << deep.error().message;
  auto cycle = v.resolve("loopA");
  ASSERT_FALSE(cycle.ok());
  EXPECT_NE(cycle.error().message.find("cycle"), std::string::npos);
}

TEST(VarsPrecedence, CapturesBeatVariablesBeatRootsBeatEnvironment) {
  Vars v;
  v.set_env_lookup([](std::string_view) -> std::optional<std::string> { return "from-env"; });
  v.set_root("env", J(R"({"X": "from-root"})"));
  EXPECT_EQ(*v.resolve("env.X"), "from-root");
  v.set_variable("env", J(R"({"X": "from-variables"})"));
  EXPECT_EQ(*v.resolve("env.X"), "from-variables");
  v.set_capture("env", "X", "from-capture");
  EXPECT_EQ(*v.resolve("env.X"), "from-capture");
  Vars plain;
  plain.set_env_lookup([](std::string_view) -> std::optional<std::string> { return "from-env"; });
  EXPECT_EQ(*plain.resolve("env.X"), "from-env");
}

TEST(VarsPrecedence, VariableNamedUuidShadowsTheGenerator) {
  Vars v;
  v.set_variable("$uuid", "fixed");
  EXPECT_EQ(*v.resolve("$uuid"), "fixed");
}

TEST(Capture, TakesTheValueAtAPathWithItsType) {
  Json response = J(R"({"task": {"id": "t-9", "contextId": "c-1", "history": [{"n": 1}, {"n": 2}]}})");
  EXPECT_EQ(*capture(response, "task.id"), "t-9");
  EXPECT_EQ(*capture(response, "task.history[1].n"), 2);
  EXPECT_EQ(*capture(response, "task.history[*].n"), J("[1, 2]"));
  auto missing = capture(response, "task.status.state");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(capture(response, "task..id").error().kind, ErrorKind::kParse);
}

TEST(Capture, ApplyingABlockStoresStepCaptures) {
  Vars v;
  Json response = J(R"({"task": {"id": "t-9", "contextId": "c-1"}})");
  ASSERT_TRUE(apply_captures("create", J(R"({"taskId": "task.id", "contextId": "task.contextId"})"), response, v).ok());
  EXPECT_EQ(*v.resolve("create.taskId"), "t-9");
  EXPECT_EQ(*v.resolve("create.contextId"), "c-1");
  auto bad = apply_captures("create", J(R"({"x": "task.nope"})"), response, v);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(bad.error().message.find("capture x: task.nope: not found"), std::string::npos) << bad.error().message;
}

}  // namespace
