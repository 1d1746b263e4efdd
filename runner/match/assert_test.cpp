#include <gtest/gtest.h>

#include "runner/match/test_json.hpp"

#include "runner/match/assert.hpp"

using namespace a2a::match;

namespace {

using a2a::match::testing::J;

// One row: actual, assertion, verdict. Both sides are JSON text.
struct Case {
  const char* name;
  const char* actual;
  const char* assertion;
  bool ok;
};

class Assertion : public ::testing::TestWithParam<Case> {};

TEST_P(Assertion, GivesTheExpectedVerdict) {
  const auto& c = GetParam();
  MatchResult r = match(J(c.actual), J(c.assertion));
  EXPECT_FALSE(r.malformed()) << r.error;
  EXPECT_EQ(r.ok, c.ok) << r.summary();
  EXPECT_EQ(r.ok, r.mismatches.empty());
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(
    ExactMatch, Assertion,
    ::testing::Values(Case{"EqualStrings", R"("TASK_STATE_COMPLETED")", R"("TASK_STATE_COMPLETED")", true},
                      Case{"StringsAreCaseSensitive", R"("completed")", R"("COMPLETED")", false},
                      Case{"IntegerEqualsFloatByValue", "1", "1.0", true},
                      Case{"FloatEqualsIntegerByValue", "200.0", "200", true},
                      Case{"DifferentNumbers", "2", "1", false},
                      Case{"NumberIsNotString", R"("1")", "1", false},
                      Case{"BoolIsNotNumber", "true", "1", false},
                      Case{"NullEqualsNull", "null", "null", true},
                      Case{"NullIsNotEmptyString", "null", R"("")", false},
                      Case{"FalseEqualsFalse", "false", "false", true}),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    Operators, Assertion,
    ::testing::Values(
        Case{"TypeString", R"("x")", R"({"type": "string"})", true},
        Case{"AnyItemFindsAMatchingObject", R"([{"reason": "A"}, {"reason": "B", "domain": "d"}])",
             R"({"x-any-item": {"reason": "B", "domain": "d"}})", true},
        Case{"AnyItemFailsWhenNoneMatches", R"([{"reason": "A"}])", R"({"x-any-item": {"reason": "B"}})", false},
        Case{"AnyItemOnEmptyArrayFails", "[]", R"({"x-any-item": {"reason": "B"}})", false},
        Case{"AnyItemRejectsNonArray", R"({"reason": "B"})", R"({"x-any-item": {"reason": "B"}})", false},
        Case{"TypeStringRejectsNumber", "1", R"({"type": "string"})", false},
        Case{"TypeNumberTakesFloat", "1.5", R"({"type": "number"})", true},
        Case{"TypeBoolean", "false", R"({"type": "boolean"})", true},
        Case{"TypeArray", "[]", R"({"type": "array"})", true},
        Case{"TypeObject", "{}", R"({"type": "object"})", true},
        Case{"TypeNull", "null", R"({"type": "null"})", true},
        Case{"TypeNullRejectsObject", "{}", R"({"type": "null"})", false},
        Case{"XTypeIntegerTakesInteger", "7", R"({"x-type": "integer"})", true},
        Case{"XTypeIntegerRejectsFloat", "7.0", R"({"x-type": "integer"})", false},
        Case{"XTypeIntegerRejectsString", R"("7")", R"({"x-type": "integer"})", false},
        Case{"ExistsOnPresentNull", "null", R"({"exists": true})", true},
        Case{"AbsentOnPresentValue", "1", R"({"absent": true})", false},
        Case{"Contains", R"("Task not found")", R"({"contains": "not found"})", true},
        Case{"ContainsIsCaseSensitive", R"("Task NOT FOUND")", R"({"contains": "not found"})", false},
        Case{"ContainsOnArrayElement", R"(["a", "b"])", R"({"contains": "b"})", true},
        Case{"ContainsOnNumberFails", "12", R"({"contains": "1"})", false},
        Case{"MatchesSearchesLikeEcma", R"("id-123-x")", R"({"matches": "[0-9]{3}"})", true},
        Case{"MatchesAnchored", R"("id-123")", R"({"matches": "^[0-9]+$"})", false},
        Case{"MatchesLengthPattern", R"("Task abc not found")", R"({"matches": ".{12,}"})", true},
        Case{"StartsWith", R"("1.0.1")", R"({"starts_with": "1."})", true},
        Case{"StartsWithFails", R"("0.3")", R"({"starts_with": "1."})", false},
        Case{"EndsWith", R"("file.png")", R"({"ends_with": ".png"})", true},
        Case{"EndsWithOnNumberFails", "5", R"({"ends_with": "5"})", false},
        Case{"GteEqual", "3", R"({"gte": 3})", true},
        Case{"GteFloatOperand", "3", R"({"gte": 2.5})", true},
        Case{"GtEqualFails", "3", R"({"gt": 3})", false},
        Case{"LteBelow", "-1", R"({"lte": 0})", true},
        Case{"LtFloat", "0.5", R"({"lt": 1})", true},
        Case{"LtOnStringFails", R"("0")", R"({"lt": 1})", false},
        Case{"GtLargeUnsigned", "18446744073709551615", R"({"gt": -1})", true},
        Case{"CountExact", "[1, 2]", R"({"count": 2})", true},
        Case{"CountExactFails", "[1, 2, 3]", R"({"count": 2})", false},
        Case{"CountGte", "[1]", R"({"count_gte": 1})", true},
        Case{"CountGteFailsOnEmpty", "[]", R"({"count_gte": 1})", false},
        Case{"CountLte", "[]", R"({"count_lte": 0})", true},
        Case{"CountOnObjectFails", "{}", R"({"count": 0})", false},
        Case{"OneOfScalar", R"("TASK_STATE_FAILED")", R"({"one_of": ["TASK_STATE_COMPLETED", "TASK_STATE_FAILED"]})", true},
        Case{"OneOfScalarFails", R"("TASK_STATE_WORKING")", R"({"one_of": ["TASK_STATE_COMPLETED", "TASK_STATE_FAILED"]})", false},
        Case{"OneOfNumbersByValue", "-32600", R"({"one_of": [-32600.0, -32602]})", true},
        Case{"OneOfNestedMaps", R"({"statusUpdate": {"final": true}})",
             R"({"one_of": [{"task": {"id": {"type": "string"}}}, {"statusUpdate": {"final": true}}]})", true},
        Case{"OneOfNestedMapsFails", R"({"message": {}})",
             R"({"one_of": [{"task": {"exists": true}}, {"statusUpdate": {"exists": true}}]})", false},
        Case{"AllOf", R"("Task abc not found")",
             R"({"all_of": [{"type": "string"}, {"matches": ".{12,}"}, {"any_of": [{"contains": "task"}, {"contains": "Task"}]}]})", true},
        Case{"AllOfOneFails", R"("short")", R"({"all_of": [{"type": "string"}, {"matches": ".{12,}"}]})", false},
        Case{"AnyOf", "null", R"({"any_of": [{"absent": true}, {"type": "null"}]})", true},
        Case{"AnyOfFails", "[]", R"({"any_of": [{"absent": true}, {"type": "null"}]})", false},
        Case{"NotPasses", R"("x")", R"({"not": {"type": "number"}})", true},
        Case{"NotFails", R"("x")", R"({"not": "x"})", false},
        Case{"OperatorsCombineWithAnd", "[1, 2]", R"({"type": "array", "count_gte": 1, "count_lte": 1})", false},
        Case{"XEqualsSameType", "1", R"({"x-equals": 1})", true},
        Case{"XEqualsIntegerIsNotFloat", "1", R"({"x-equals": 1.0})", false},
        Case{"XEqualsNumberIsNotString", "1", R"({"x-equals": "1"})", false},
        Case{"XEqualsDeepObject", R"({"a": [1, {"b": null}]})", R"({"x-equals": {"a": [1, {"b": null}]}})", true},
        Case{"XEqualsDeepObjectExtraKey", R"({"a": 1, "b": 2})", R"({"x-equals": {"a": 1}})", false}),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    Structure, Assertion,
    ::testing::Values(
        Case{"NestedOnlyListedKeys", R"({"task": {"id": "t", "status": {"state": "S"}, "extra": 1}})",
             R"({"task": {"status": {"state": "S"}}})", true},
        Case{"NestedMissingKeyFails", R"({"task": {}})", R"({"task": {"id": {"type": "string"}}})", false},
        Case{"AbsentKeyPassesWhenMissing", R"({"task": {}})", R"({"task": {"artifacts": {"absent": true}}})", true},
        Case{"AbsentKeyFailsWhenNull", R"({"task": {"artifacts": null}})", R"({"task": {"artifacts": {"absent": true}}})", false},
        Case{"ExistsFalseOnMissing", R"({})", R"({"x": {"exists": false}})", true},
        Case{"AnyOfAbsentOnMissingKey", R"({})", R"({"artifacts": {"any_of": [{"absent": true}, {"type": "null"}]}})", true},
        Case{"NotExistsOnMissingKey", R"({})", R"({"x": {"not": {"exists": true}}})", true},
        Case{"NestedOnNonObjectFails", R"({"task": "t"})", R"({"task": {"id": "t"}})", false},
        Case{"ListPrefix", R"([{"t": 1}, {"t": 2}, {"t": 3}])", R"([{"t": 1}, {"t": 2}])", true},
        Case{"ListShorterFails", R"([{"t": 1}])", R"([{"t": 1}, {"t": 2}])", false},
        Case{"ListElementMismatch", R"([1, 2])", R"([1, 3])", false},
        Case{"ListOnObjectFails", R"({})", R"([1])", false},
        Case{"EmptyMapNeedsObject", R"([])", R"({})", false},
        Case{"MixedMapChecksOperatorsAndFields", R"({"id": "t", "n": 1})", R"({"type": "object", "id": {"type": "string"}})", true},
        Case{"MixedMapFieldFails", R"({"id": 5})", R"({"type": "object", "id": {"type": "string"}})", false},
        Case{"TypeKeyWithMapValueIsAField", R"({"type": "about:blank", "title": "Not Found", "status": 404})",
             R"({"type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "number"}})", true},
        Case{"TypeKeyWithNonTypeStringBesideFieldsIsAField", R"({"type": "about:blank", "title": "x"})",
             R"({"type": "about:blank", "title": "x"})", true},
        Case{"ItemsMapAppliesToEveryElement", R"([{"id": "a", "name": "A"}, {"id": "b", "name": "B"}])",
             R"({"type": "array", "items": {"id": {"exists": true}, "name": {"exists": true}}})", true},
        Case{"ItemsMapFailsOnOneElement", R"([{"id": "a", "name": "A"}, {"id": "b"}])",
             R"({"type": "array", "items": {"id": {"exists": true}, "name": {"exists": true}}})", false},
        Case{"ItemsListIsPositional", R"([{"protocolVersion": "1.0"}, {"protocolVersion": "0.3"}])",
             R"({"type": "array", "count_gte": 1, "items": [{"protocolVersion": {"starts_with": "1."}}]})", true},
        Case{"ItemsAloneIsAField", R"({"items": [1]})", R"({"items": [1]})", true},
        Case{"ItemsAloneOnAnArrayIsTheOperator", R"([{"id": "a"}, {"id": "b"}])",
             R"({"items": {"id": {"exists": true}}})", true},
        Case{"ItemsAloneOnAnArrayFailsOnOneElement", R"([{"id": "a"}, {"x": "b"}])",
             R"({"items": {"id": {"exists": true}}})", false}),
    case_name);

TEST(AssertionMessages, NamePathExpectedAndActual) {
  auto r = match(J(R"({"status": {"state": "TASK_STATE_WORKING"}})"),
                 J(R"({"status": {"state": "TASK_STATE_COMPLETED"}})"));
  ASSERT_EQ(r.mismatches.size(), 1u);
  const auto& m = r.mismatches[0];
  EXPECT_EQ(m.path, "status.state");
  EXPECT_EQ(m.expected, "TASK_STATE_COMPLETED");
  EXPECT_EQ(m.actual, R"("TASK_STATE_WORKING")");
  EXPECT_EQ(m.message, "status.state: expected TASK_STATE_COMPLETED, got TASK_STATE_WORKING");
}

TEST(AssertionMessages, CollectEveryMismatchWithItsPath) {
  auto r = match(J(R"({"task": {"id": 5, "artifacts": [{"parts": []}]}})"),
                 J(R"({"task": {"id": {"type": "string"}, "contextId": {"type": "string"},
                                "artifacts": [{"parts": {"count_gte": 1}}, {"parts": {"count_gte": 1}}]}})"),
                 "body");
  ASSERT_FALSE(r.ok);
  std::vector<std::string> messages;
  for (const auto& m : r.mismatches) messages.push_back(m.message);
  EXPECT_EQ(messages, (std::vector<std::string>{
                          "body.task.artifacts[0].parts: expected at least 1 element, got 0",
                          "body.task.artifacts: expected at least 2 elements, got 1",
                          "body.task.contextId: missing, expected {\"type\":\"string\"}",
                          "body.task.id: expected type string, got number 5",
                      }));
}

TEST(AssertionMessages, ShowTypesWhenTheyDiffer) {
  auto r = match(J(R"({"id": "1"})"), J(R"({"id": 1})"));
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_EQ(r.mismatches[0].message, "id: expected 1 (number), got 1 (string)");
  auto x = match(J("1.0"), J(R"({"x-equals": 1})"));
  ASSERT_EQ(x.mismatches.size(), 1u);
  EXPECT_EQ(x.mismatches[0].message, "expected exactly 1 (integer), got 1.0 (float)");
}

TEST(AssertionMessages, OneOfListsTheAlternatives) {
  auto r = match(J(R"("TASK_STATE_WORKING")"), J(R"({"one_of": ["TASK_STATE_COMPLETED", "TASK_STATE_FAILED"]})"), "state");
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_EQ(r.mismatches[0].message,
            "state: expected one of [TASK_STATE_COMPLETED, TASK_STATE_FAILED], got TASK_STATE_WORKING");
  auto n = match(J(R"({"message": {}})"), J(R"({"one_of": [{"task": {"exists": true}}, {"statusUpdate": {"exists": true}}]})"));
  ASSERT_EQ(n.mismatches.size(), 1u);
  EXPECT_EQ(n.mismatches[0].message,
            "matched none of the 2 alternatives of one_of: [1] task: missing, expected it to exist; "
            "[2] statusUpdate: missing, expected it to exist");
}

TEST(AssertionMessages, TruncateLongActualValues) {
  std::string big(1000, 'x');
  auto r = match(Json(big), Json("y"));
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_LT(r.mismatches[0].actual.size(), 200u);
  EXPECT_TRUE(r.mismatches[0].actual.ends_with("..."));
}

struct MalformedCase {
  const char* name;
  const char* assertion;
  const char* error_part;
};

class MalformedAssertion : public ::testing::TestWithParam<MalformedCase> {};

TEST_P(MalformedAssertion, IsAnErrorNotAMismatch) {
  const auto& c = GetParam();
  auto r = match(J(R"({"a": [1, 2], "s": "text"})"), J(c.assertion));
  EXPECT_FALSE(r.ok);
  ASSERT_TRUE(r.malformed()) << r.summary();
  EXPECT_NE(r.error.find(c.error_part), std::string::npos) << r.error;
  EXPECT_EQ(check_assertion(J(c.assertion)).empty(), false) << "check_assertion misses it";
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MalformedAssertion,
    ::testing::Values(
        MalformedCase{"UnknownSnakeCaseOperator", R"({"a": {"type": "array", "count_gt": 1}})", "unknown operator 'count_gt' (did you mean 'count_gte'?)"},
        MalformedCase{"CamelCaseOperator", R"({"a": {"type": "array", "oneOf": [1]}})", "did you mean 'one_of'"},
        MalformedCase{"NearMissOfLongOperator", R"({"s": {"type": "string", "exist": true}})", "did you mean 'exists'"},
        MalformedCase{"UnknownXOperator", R"({"s": {"type": "string", "x-regex": "a"}})", "unknown operator 'x-regex'"},
        MalformedCase{"CountNotInteger", R"({"a": {"count": 1.5}})", "count: operand must be a non-negative integer"},
        MalformedCase{"CountNegative", R"({"a": {"count_gte": -1}})", "count_gte: operand must be a non-negative integer"},
        MalformedCase{"BadRegex", R"({"s": {"matches": "([a-z"}})", "bad regular expression"},
        MalformedCase{"UnknownTypeName", R"({"s": {"type": "strnig"}})", "unknown type \"strnig\""},
        MalformedCase{"GteNotNumber", R"({"a": {"gte": "1"}})", "gte: operand must be a number"},
        MalformedCase{"OneOfNotList", R"({"s": {"one_of": "text"}})", "one_of: operand must be a non-empty list"},
        MalformedCase{"ExistsNotBool", R"({"s": {"exists": "yes"}})", "exists: operand must be true or false"},
        MalformedCase{"MalformedInsideNot", R"({"s": {"not": {"contains": 3}}})", "contains: operand must be a string"},
        MalformedCase{"MalformedInsidePassingAnyOf", R"({"s": {"any_of": [{"type": "string"}, {"count": "x"}]}})", "count: operand"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(MalformedAssertionCheck, ErrorNamesThePath) {
  auto r = match(J(R"({"a": {"b": 1}})"), J(R"({"a": {"b": {"gte": "x"}}})"), "body");
  EXPECT_EQ(r.error, "malformed assertion at body.a.b: gte: operand must be a number, got \"x\"");
}

TEST(MalformedAssertionCheck, CheckFindsErrorsUnderAbsentValues) {
  EXPECT_NE(check_assertion(J(R"({"task": {"status": {"state": {"one_of": []}}}})")), "");
  EXPECT_EQ(check_assertion(J(R"({"task": {"id": {"type": "string"}, "artifacts": [{"parts": {"count_gte": 1}}]}})")), "");
}

TEST(RegexOperator, DeclinesHugeSubjectsInsteadOfOverflowingTheStack) {
  auto r = match(Json(std::string(100000, 'a')), J(R"({"matches": "^a+$"})"));
  EXPECT_TRUE(r.malformed());
  EXPECT_NE(r.error.find("limited to"), std::string::npos);
}

TEST(Equality, NumbersByValueButStrictlyTypedForXEquals) {
  EXPECT_TRUE(values_equal(J("1"), J("1.0")));
  EXPECT_TRUE(values_equal(J("18446744073709551615"), J("18446744073709551615")));
  EXPECT_FALSE(values_equal(J("1"), J("true")));
  EXPECT_FALSE(strictly_equal(J("1"), J("1.0")));
  EXPECT_TRUE(strictly_equal(J("[1, {\"a\": \"b\"}]"), J("[1, {\"a\": \"b\"}]")));
  EXPECT_TRUE(is_operator("x-equals"));
  EXPECT_FALSE(is_operator("items"));
  EXPECT_FALSE(is_operator("status"));
}

}  // namespace
