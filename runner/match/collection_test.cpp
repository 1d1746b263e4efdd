#include <gtest/gtest.h>

#include "runner/match/test_json.hpp"

#include "runner/match/collection.hpp"

using namespace a2a::match;

namespace {

using a2a::match::testing::J;

const Json kSend = J(R"({"task": {"id": "t-1", "artifacts": [
    {"parts": [{"text": "hello"}, {"data": {"k": 1}}]},
    {"parts": [{"file": {"name": "a.png", "mediaType": "image/png"}}]}]}})");

const Json kList = J(R"({"tasks": [{"id": "t-0", "contextId": "c"}, {"id": "t-1", "contextId": "c"}]})");

struct CollectionCase {
  const char* name;
  const Json* source;
  const char* assertion;
  bool ok;
};

class Collection : public ::testing::TestWithParam<CollectionCase> {};

TEST_P(Collection, JudgesTheElements) {
  MatchResult r = match_collection(*GetParam().source, J(GetParam().assertion), "send.response");
  EXPECT_FALSE(r.malformed()) << r.error;
  EXPECT_EQ(r.ok, GetParam().ok) << r.summary();
}

INSTANTIATE_TEST_SUITE_P(
    Cases, Collection,
    ::testing::Values(
        CollectionCase{"AnyTextPart", &kSend, R"({"source": "{{send.response}}", "any": {"path": "task.artifacts[*].parts[*]", "match": {"text": {"type": "string"}}}})", true},
        CollectionCase{"AnyFilePart", &kSend, R"({"any": {"path": "task.artifacts[*].parts[*]", "match": {"file": {"name": {"type": "string"}, "mediaType": {"type": "string"}}}}})", true},
        CollectionCase{"AnyFileUrlPartMissing", &kSend, R"({"any": {"path": "task.artifacts[*].parts[*]", "match": {"fileUrl": {"exists": true}}}})", false},
        CollectionCase{"AllPartsHaveText", &kSend, R"({"all": {"path": "task.artifacts[*].parts[*]", "match": {"text": {"type": "string"}}}})", false},
        CollectionCase{"AllArtifactsHaveParts", &kSend, R"({"all": {"path": "task.artifacts[*]", "match": {"parts": {"count_gte": 1}}}})", true},
        CollectionCase{"NoneIsRaw", &kSend, R"({"none": {"path": "task.artifacts[*].parts[*]", "match": {"raw": {"exists": true}}}})", true},
        CollectionCase{"NoneFailsWhenOneMatches", &kSend, R"({"none": {"path": "task.artifacts[*].parts[*]", "match": {"data": {"type": "object"}}}})", false},
        CollectionCase{"AnyTaskWithIdAndContext", &kList, R"({"any": {"path": "tasks[*]", "match": {"id": "t-1", "contextId": "c"}}})", true},
        CollectionCase{"AnyTaskNoMatch", &kList, R"({"any": {"path": "tasks[*]", "match": {"id": "t-9"}}})", false},
        CollectionCase{"PathSelectsTheCollection", &kList, R"({"path": "tasks", "all": {"match": {"contextId": "c"}}})", true},
        CollectionCase{"DirectMatchAtPath", &kSend, R"({"path": "task.artifacts", "match": {"count": 2}})", true},
        CollectionCase{"DirectMatchAtWildcardPathGetsTheList", &kSend, R"({"path": "task.artifacts[*].parts[*].text", "match": ["hello"]})", true},
        CollectionCase{"DirectMatchAbsentPath", &kSend, R"({"path": "task.history", "match": {"absent": true}})", true},
        CollectionCase{"DirectMatchMissingPathFails", &kSend, R"({"path": "task.history", "match": {"type": "array"}})", false},
        CollectionCase{"OmittedArrayIsEmptyForAll", &kList, R"({"all": {"path": "tasks[*].artifacts[*]", "match": {"parts": {"count_gte": 1}}}})", true},
        CollectionCase{"OmittedArrayIsEmptyForNone", &kSend, R"({"none": {"path": "task.history[*]", "match": {"role": "ROLE_AGENT"}}})", true},
        CollectionCase{"OmittedArrayFailsAny", &kSend, R"({"any": {"path": "task.history[*]", "match": {"role": "ROLE_AGENT"}}})", false},
        CollectionCase{"MissingParentFailsAll", &kList, R"({"all": {"path": "task.artifacts[*]", "match": {}}})", false},
        CollectionCase{"IdAndDescriptionIgnored", &kList, R"({"id": "a1", "description": "d", "any": {"path": "tasks[*]", "match": {"id": "t-0"}}})", true}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(CollectionMessages, PointAtTheElements) {
  MatchResult all = match_collection(kSend, J(R"({"all": {"path": "task.artifacts[*].parts[*]", "match": {"text": {"type": "string"}}}})"),
                                     "send.response");
  ASSERT_EQ(all.mismatches.size(), 2u) << all.summary();
  EXPECT_EQ(all.mismatches[0].message,
            "send.response.task.artifacts[0].parts[1].text: missing, expected {\"type\":\"string\"}");
  EXPECT_EQ(all.mismatches[1].path, "send.response.task.artifacts[1].parts[0].text");

  MatchResult none = match_collection(kSend, J(R"({"none": {"path": "task.artifacts[*].parts[*]", "match": {"data": {"type": "object"}}}})"));
  ASSERT_EQ(none.mismatches.size(), 1u);
  EXPECT_EQ(none.mismatches[0].message,
            "task.artifacts[0].parts[1]: matched {\"data\":{\"type\":\"object\"}}, but no element may");

  MatchResult any = match_collection(kList, J(R"({"any": {"path": "tasks[*]", "match": {"id": "t-9"}}})"));
  ASSERT_EQ(any.mismatches.size(), 1u);
  EXPECT_EQ(any.mismatches[0].message,
            "tasks[*]: none of the 2 elements matched {\"id\":\"t-9\"}; first: tasks[0].id: expected t-9, got t-0");

  MatchResult unreachable = match_collection(kList, J(R"({"any": {"path": "task.artifacts[*]", "match": {}}})"));
  ASSERT_EQ(unreachable.mismatches.size(), 1u);
  EXPECT_EQ(unreachable.mismatches[0].message,
            "task.artifacts[*]: cannot reach the elements: task: not found (root has keys tasks)");
}

TEST(CollectionMalformed, IsAnError) {
  for (const char* a : {R"({"any": {"path": "tasks[*]"}})", R"({"anny": {"path": "tasks[*]", "match": {}}})",
                        R"({"source": "x"})", R"({"any": {"path": "tasks[", "match": {}}})",
                        R"({"all": {"path": "tasks[*]", "match": {"id": {"count": "two"}}}})", R"(["any"])",
                        R"({"any": {"path": 3, "match": {}}})"}) {
    MatchResult r = match_collection(kList, J(a));
    EXPECT_TRUE(r.malformed()) << a << " -> " << r.summary();
  }
}

}  // namespace
