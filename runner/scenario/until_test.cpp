// repeat.until expressions (ACTS §9.1) and dot-paths.
#include <gtest/gtest.h>

#include "runner/scenario/until.hpp"

namespace a2a::scenario {
namespace {

struct UntilCase {
  std::string name;
  std::string text;
  std::string path;
  UntilExpr::Op op;
  Json value;
};

std::vector<UntilCase> good_cases() {
  using Op = UntilExpr::Op;
  return {
      {"EqualsBareWord", "status.state == TASK_STATE_WORKING", "status.state", Op::kEquals,
       "TASK_STATE_WORKING"},
      {"NotEqualsWithoutSpaces", "status.state!=TASK_STATE_WORKING", "status.state", Op::kNotEquals,
       "TASK_STATE_WORKING"},
      {"InList", "status.state in [TASK_STATE_COMPLETED, TASK_STATE_FAILED]", "status.state", Op::kIn,
       Json{"TASK_STATE_COMPLETED", "TASK_STATE_FAILED"}},
      {"InListWithQuotedComma", "a in ['x, y', \"z\"]", "a", Op::kIn, Json{"x, y", "z"}},
      {"IntegerValueIsTyped", "history.count == 3", "history.count", Op::kEquals, 3},
      {"QuotedIntegerStaysString", "id == \"3\"", "id", Op::kEquals, "3"},
      {"BoolValue", "final == true", "final", Op::kEquals, true},
      {"NullValue", "error != null", "error", Op::kNotEquals, nullptr},
      {"IndexedPath", "artifacts[0].parts[1].text == hi", "artifacts[0].parts[1].text", Op::kEquals, "hi"},
      {"SingleQuotedWithEscapedQuote", "x == 'it''s'", "x", Op::kEquals, "it's"},
  };
}

class UntilParses : public ::testing::TestWithParam<UntilCase> {};

TEST_P(UntilParses, IntoPathOperatorAndTypedValue) {
  auto e = parse_until(GetParam().text);
  ASSERT_TRUE(e.ok()) << e.error().str();
  EXPECT_EQ(e->path, GetParam().path);
  EXPECT_EQ(e->op, GetParam().op);
  EXPECT_EQ(e->value, GetParam().value);
  EXPECT_EQ(e->value.type(), GetParam().value.type());
  EXPECT_EQ(e->text, GetParam().text);
}

INSTANTIATE_TEST_SUITE_P(Until, UntilParses, ::testing::ValuesIn(good_cases()),
                         [](const auto& info) { return info.param.name; });

struct BadUntil {
  std::string name;
  std::string text;
  std::string why;
};

class UntilRejects : public ::testing::TestWithParam<BadUntil> {};

TEST_P(UntilRejects, AsSchemaErrorSayingWhy) {
  auto e = parse_until(GetParam().text);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().kind, core::ErrorKind::kSchema);
  EXPECT_NE(e.error().message.find(GetParam().why), std::string::npos) << e.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Until, UntilRejects,
    ::testing::ValuesIn(std::vector<BadUntil>{
        {"SingleEquals", "status.state = DONE", "expected 'path == value'"},
        {"NoOperator", "status.state", "expected 'path == value'"},
        {"MissingValue", "status.state ==", "missing value"},
        {"InWithoutList", "a in b", "'in' must be followed by a list"},
        {"EmptyList", "a in []", "empty"},
        {"ListWithEquals", "a == [x]", "lists need 'in'"},
        {"DoubleDotPath", "a..b == 1", "bad path"},
        {"WildcardPath", "a[*].b == 1", "wildcard"},
        {"UnterminatedQuote", "a == 'x", "unterminated"},
        {"Empty", "", "bad path"},
    }),
    [](const auto& info) { return info.param.name; });

TEST(DotPath, AcceptsIndexesAndWildcardsWhereAllowed) {
  EXPECT_TRUE(is_valid_path("task.id", false));
  EXPECT_TRUE(is_valid_path("[0].id", false));
  EXPECT_TRUE(is_valid_path("task.artifacts[*].parts[*]", true));
  EXPECT_FALSE(is_valid_path("task.artifacts[*]", false));
  EXPECT_FALSE(is_valid_path("task.", false));
  EXPECT_FALSE(is_valid_path("task[x]", true));
  EXPECT_FALSE(is_valid_path("task id", true));
}

}  // namespace
}  // namespace a2a::scenario
