#include <gtest/gtest.h>

#include "runner/match/until.hpp"

using namespace a2a::match;
using a2a::core::ErrorKind;

namespace {

const Json kTask = Json::parse(R"({"id": "t", "status": {"state": "TASK_STATE_WORKING"}, "n": 3,
                                   "done": false, "note": null, "label": "a b, c"})");

struct EvalCase {
  const char* name;
  const char* expr;
  bool satisfied;
};

class UntilEval : public ::testing::TestWithParam<EvalCase> {};

TEST_P(UntilEval, DecidesOnTheResponse) {
  auto e = parse_until(GetParam().expr);
  ASSERT_TRUE(e.ok()) << e.error().str();
  auto r = eval_until(*e, kTask);
  EXPECT_EQ(r.satisfied, GetParam().satisfied) << r.detail;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, UntilEval,
    ::testing::Values(EvalCase{"EqualBareWord", "status.state == TASK_STATE_WORKING", true},
                      EvalCase{"EqualBareWordFalse", "status.state == TASK_STATE_COMPLETED", false},
                      EvalCase{"NotEqual", "status.state != TASK_STATE_COMPLETED", true},
                      EvalCase{"InList", "status.state in [TASK_STATE_COMPLETED, TASK_STATE_WORKING]", true},
                      EvalCase{"NotInList", "status.state in [TASK_STATE_COMPLETED, TASK_STATE_FAILED]", false},
                      EvalCase{"NumberByValue", "n == 3.0", true},
                      EvalCase{"NumberIsNotString", "n == \"3\"", false},
                      EvalCase{"Boolean", "done == false", true},
                      EvalCase{"Null", "note == null", true},
                      EvalCase{"QuotedStringWithCommaInList", "label in [\"x\", 'a b, c']", true},
                      EvalCase{"NoSpacesAroundOperator", "id==t", true},
                      EvalCase{"MissingPathIsFalseForEquality", "status.message == x", false},
                      EvalCase{"MissingPathIsFalseForInequality", "status.message != x", false}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(UntilEval, DetailSaysWhatWasSeen) {
  auto e = parse_until("status.state in [TASK_STATE_COMPLETED, TASK_STATE_FAILED]");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(eval_until(*e, kTask).detail,
            "status.state is TASK_STATE_WORKING, want one of [TASK_STATE_COMPLETED, TASK_STATE_FAILED]");
  auto m = parse_until("status.message == x");
  EXPECT_EQ(eval_until(*m, kTask).detail, "status.message: not found (status has keys state)");
}

TEST(UntilParse, ReadsTheThreeForms) {
  auto in = parse_until("  status.state in [A, \"B\", 3, true]  ");
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(in->op, UntilExpr::Op::kIn);
  EXPECT_EQ(in->path.str(), "status.state");
  EXPECT_EQ(Json(in->values), Json::parse(R"(["A", "B", 3, true])"));
  auto ne = parse_until("domain != info");  // "in" inside words is not the operator
  ASSERT_TRUE(ne.ok());
  EXPECT_EQ(ne->op, UntilExpr::Op::kNe);
  EXPECT_EQ(ne->values[0], "info");
  auto inside = parse_until("info.x in [a]");
  ASSERT_TRUE(inside.ok());
  EXPECT_EQ(inside->path.str(), "info.x");
}

TEST(UntilParse, RejectsMalformedExpressionsWithParseError) {
  for (const char* text : {"", "status.state", "== X", "status.state == ", "status.state in A",
                           "status.state in []", "s in [a, ]", "a[*] == 1", "s == two words", "s == 'open"}) {
    auto e = parse_until(text);
    ASSERT_FALSE(e.ok()) << text;
    EXPECT_EQ(e.error().kind, ErrorKind::kParse) << text;
  }
}

}  // namespace
