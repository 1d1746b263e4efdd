#include <gtest/gtest.h>

#include "runner/match/path.hpp"

using namespace a2a::match;
using a2a::core::ErrorKind;

namespace {

const Json kResponse = Json::parse(R"({
  "task": {"id": "t-1", "status": {"state": "TASK_STATE_COMPLETED"},
           "artifacts": [{"parts": [{"text": "a"}, {"data": {"k": 1}}, {"text": "b"}]},
                         {"parts": []},
                         {"parts": [{"text": "c"}]}]},
  "error": {"data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo"}]},
  "get-missing": {"x.y": 7}
})");

struct ResolveCase {
  const char* name;
  const char* path;
  Json expected;
};

class PathResolve : public ::testing::TestWithParam<ResolveCase> {};

TEST_P(PathResolve, ReachesTheValue) {
  auto got = resolve(kResponse, GetParam().path);
  ASSERT_TRUE(got.ok()) << got.error().str();
  EXPECT_EQ(**got, GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PathResolve,
    ::testing::Values(ResolveCase{"NestedKey", "task.status.state", "TASK_STATE_COMPLETED"},
                      ResolveCase{"Indexes", "task.artifacts[0].parts[2].text", "b"},
                      ResolveCase{"NegativeIndexFromEnd", "task.artifacts[-1].parts[0].text", "c"},
                      ResolveCase{"AtSignKey", "error.data[0].@type", "type.googleapis.com/google.rpc.ErrorInfo"},
                      ResolveCase{"DashKeyAndQuotedDotKey", "get-missing[\"x.y\"]", 7},
                      ResolveCase{"EmptyArray", "task.artifacts[1].parts", Json::array()}),
    [](const auto& info) { return std::string(info.param.name); });

struct FailCase {
  const char* name;
  const char* path;
  const char* message;
};

class PathResolveFailure : public ::testing::TestWithParam<FailCase> {};

TEST_P(PathResolveFailure, SaysHowFarItGot) {
  auto got = resolve(kResponse, GetParam().path);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(got.error().message, GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PathResolveFailure,
    ::testing::Values(
        FailCase{"IndexOutOfRange", "task.artifacts[3]", "task.artifacts[3]: index out of range (size 3)"},
        FailCase{"MissingKey", "task.status.message",
                 "task.status.message: not found (task.status has keys state)"},
        FailCase{"KeyOfString", "task.id.x", "task.id.x: not found (task.id is string, not an object)"},
        FailCase{"IndexOfObject", "task.status[0]", "task.status[0]: not an array (object)"},
        FailCase{"MissingAtRoot", "message", "message: not found (root has keys error, get-missing, task)"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(PathParse, RoundTripsCanonicalText) {
  for (const char* text : {"task.artifacts[0].parts[*].text", "a[\"x.y\"].b", "[*].id", "", "a[-1]"}) {
    auto p = parse_path(text);
    ASSERT_TRUE(p.ok()) << text;
    EXPECT_EQ(p->str(), text);
  }
}

TEST(PathParse, RejectsMalformedPathsWithParseError) {
  for (const char* text : {"a..b", "a.", ".a", "a[", "a[x]", "a[1", "a]b", "a[1]b"}) {
    auto p = parse_path(text);
    ASSERT_FALSE(p.ok()) << text;
    EXPECT_EQ(p.error().kind, ErrorKind::kParse) << text;
  }
}

TEST(PathResolveOne, WildcardIsAnErrorForSingleResolution) {
  auto got = resolve(kResponse, "task.artifacts[*]");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, ErrorKind::kInvalidArgument);
}

TEST(PathResolveAll, WildcardsReturnEveryMatchWithConcretePaths) {
  auto hits = resolve_all(kResponse, *parse_path("task.artifacts[*].parts[*].text"));
  ASSERT_TRUE(hits.unresolved.empty());
  ASSERT_EQ(hits.hits.size(), 3u);
  EXPECT_EQ(*hits.hits[0].value, "a");
  EXPECT_EQ(hits.hits[0].path, "task.artifacts[0].parts[0].text");
  EXPECT_EQ(hits.hits[1].path, "task.artifacts[0].parts[2].text");
  EXPECT_EQ(hits.hits[2].path, "task.artifacts[2].parts[0].text");
}

TEST(PathResolveAll, DistinguishesEmptyArrayFromMissingPrefix) {
  auto empty = resolve_all(kResponse, *parse_path("task.artifacts[1].parts[*]"));
  EXPECT_TRUE(empty.hits.empty());
  EXPECT_TRUE(empty.unresolved.empty());
  auto missing = resolve_all(kResponse, *parse_path("task.history[*]"), "body");
  EXPECT_TRUE(missing.hits.empty());
  EXPECT_EQ(missing.unresolved,
            "body.task.history: not found (body.task has keys artifacts, id, status)");
}

TEST(PathText, QuotesKeysThatWouldNotParseBack) {
  EXPECT_EQ(append_key("", "task"), "task");
  EXPECT_EQ(append_key("task", "x.y"), "task[\"x.y\"]");
  EXPECT_EQ(append_index("parts", 2), "parts[2]");
  EXPECT_EQ(join_path("body", "[0].id"), "body[0].id");
  EXPECT_EQ(join_path("body", "id"), "body.id");
  EXPECT_EQ(join_path("", "id"), "id");
}

}  // namespace
