#include "peers/a2a-ref-client/ops.hpp"
#include "peers/a2a-ref-client/script.hpp"

#include <gtest/gtest.h>

namespace a2a::client {
namespace {

TEST(Ops, CliNamesMapToAllElevenOperations) {
  for (model::Operation op : model::kAllOperations) {
    auto back = operation_from_cli_name(cli_name(op));
    ASSERT_TRUE(back.has_value()) << cli_name(op);
    EXPECT_EQ(*back, op);
  }
  EXPECT_FALSE(operation_from_cli_name("sned").has_value());
}

TEST(Ops, SendParamsWriteOnlyWhatWasGiven) {
  SendArgs a;
  a.text = "tck-complete-task hi";
  a.message_id = "m-1";
  Json p = send_params(a);
  EXPECT_EQ(p, Json::parse(R"({"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"tck-complete-task hi"}]}})"));
  a.task_id = "t";
  a.context_id = "c";
  a.return_immediately = true;
  a.history_length = 0;
  p = send_params(a);
  EXPECT_EQ(p["message"]["taskId"], "t");
  EXPECT_EQ(p["message"]["contextId"], "c");
  EXPECT_EQ(p["configuration"], Json::parse(R"({"returnImmediately":true,"historyLength":0})"));
}

TEST(Ops, SendParamsGenerateAMessageIdWhenNoneIsGiven) {
  SendArgs a;
  a.text = "x";
  EXPECT_EQ(send_params(a)["message"]["messageId"].get<std::string>().size(), 36u);
}

TEST(Ops, ListParamsAcceptShortStatusNames) {
  ListArgs a;
  a.status = "input-required";
  a.page_size = 2;
  a.include_artifacts = true;
  auto p = list_params(a);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p, Json::parse(R"({"status":"TASK_STATE_INPUT_REQUIRED","pageSize":2,"includeArtifacts":true})"));
  a.status = "TASK_STATE_WORKING";
  EXPECT_EQ((*list_params(a))["status"], "TASK_STATE_WORKING");
}

TEST(Ops, ListParamsRejectAnUnknownStatus) {
  ListArgs a;
  a.status = "sleeping";
  auto p = list_params(a);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().kind, core::ErrorKind::kInvalidArgument);
}

TEST(Ops, PushParamsUseTheFlattenedConfigShape) {
  EXPECT_EQ(push_create_params({"t", "http://h/x", "tok", "c1"}),
            Json::parse(R"({"taskId":"t","url":"http://h/x","token":"tok","id":"c1"})"));
  EXPECT_EQ(push_ref_params("t", "c1"), Json::parse(R"({"taskId":"t","id":"c1"})"));
  EXPECT_EQ(push_list_params("t"), Json::parse(R"({"taskId":"t"})"));
}

TEST(Ops, RawParamsMustBeJson) {
  EXPECT_TRUE(parse_raw_params(R"({"id":1})").ok());
  auto bad = parse_raw_params("{id:1}");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, core::ErrorKind::kParse);
}

TEST(Script, LineParsesOpParamsAndSaveName) {
  auto s = parse_script_line(R"({"op":"get","params":{"id":"t"},"as":"g"})", 4);
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE(s->has_value());
  EXPECT_EQ((*s)->op, model::Operation::kGetTask);
  EXPECT_EQ((*s)->params["id"], "t");
  EXPECT_EQ((*s)->save_as, "g");
  EXPECT_EQ((*s)->line, 4);
}

TEST(Script, BlankAndCommentLinesAreSkipped) {
  EXPECT_FALSE(parse_script_line("   ", 1)->has_value());
  EXPECT_FALSE(parse_script_line("# a comment", 2)->has_value());
}

TEST(Script, BadLinesNameTheLineAndTheProblem) {
  auto unknown = parse_script_line(R"({"op":"sned"})", 3, "s.jsonl");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().kind, core::ErrorKind::kSchema);
  EXPECT_EQ(unknown.error().where.str(), "s.jsonl:3");
  EXPECT_FALSE(parse_script_line("{", 1).ok());
  EXPECT_FALSE(parse_script_line(R"({"op":"get","extra":1})", 1).ok());
  EXPECT_FALSE(parse_script_line(R"({"op":"sleep"})", 1).ok());
}

TEST(Script, ParallelLineHoldsItsUnaryOperationsInOrder) {
  auto s = parse_script_line(R"({"op":"parallel","ops":[{"op":"get","params":{"id":"a"}},{"op":"cancel","params":{"id":"b"}}]})", 7);
  ASSERT_TRUE(s.ok()) << s.error().str();
  ASSERT_TRUE(s->has_value());
  ASSERT_EQ((*s)->parallel.size(), 2u);
  EXPECT_EQ((*s)->parallel[0].op, model::Operation::kGetTask);
  EXPECT_EQ((*s)->parallel[0].params["id"], "a");
  EXPECT_EQ((*s)->parallel[1].op, model::Operation::kCancelTask);
  EXPECT_FALSE((*s)->op.has_value());
}

TEST(Script, ParallelRefusesStreamsSavesAndShortLists) {
  EXPECT_FALSE(parse_script_line(R"({"op":"parallel","ops":[{"op":"get"}]})", 1).ok());
  EXPECT_FALSE(parse_script_line(R"({"op":"parallel"})", 1).ok());
  EXPECT_FALSE(parse_script_line(R"({"op":"parallel","ops":[{"op":"get"},{"op":"stream"}]})", 1).ok());
  EXPECT_FALSE(parse_script_line(R"({"op":"parallel","ops":[{"op":"get","as":"x"},{"op":"get"}]})", 1).ok());
  EXPECT_FALSE(parse_script_line(R"({"op":"parallel","ops":[{"op":"sleep","ms":1},{"op":"get"}]})", 1).ok());
}

TEST(Script, SleepLineCarriesItsDuration) {
  auto s = parse_script_line(R"({"op":"sleep","ms":25})", 1);
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE((*s)->op.has_value());
  EXPECT_EQ((*s)->sleep_ms, 25);
}

TEST(Script, SubstitutionKeepsTypesForWholeReferencesAndTextInside) {
  SavedValues saved{{"t", Json::parse(R"({"task":{"id":"abc","n":3,"list":[{"x":"y"}]}})")}};
  Json params = Json::parse(R"({"id":"${t.task.id}","n":"${t.task.n}","s":"pre-${t.task.id}-post","x":"${t.task.list.0.x}"})");
  auto got = substitute(params, saved);
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(*got, Json::parse(R"({"id":"abc","n":3,"s":"pre-abc-post","x":"y"})"));
}

TEST(Script, SubstitutionOfAnUnknownPathIsAnError) {
  SavedValues saved{{"t", Json::object()}};
  auto got = substitute(Json::parse(R"({"id":"${t.task.id}"})"), saved);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().message.find("${t.task.id}"), std::string::npos);
}

}  // namespace
}  // namespace a2a::client
