#include <gtest/gtest.h>

#include "runner/bindings/replay/replay_binding.hpp"

namespace a2a::bindings {
namespace {

using engine::Json;

const std::string kOld = "0190a3b4-1111-7abc-8def-000000000001";
const std::string kNew = "0190a3b4-2222-7abc-8def-000000000002";
const std::string kOther = "0190a3b4-3333-7abc-8def-000000000003";

Json msg(const std::string& id) {
  return Json{{"message", {{"messageId", id}, {"role", "ROLE_USER"}, {"parts", {{{"text", "tck-complete-task hi"}}}}}}};
}

TEST(ReplayMatch, ARunnerMadeUuidPairsWithTheRecordedOne) {
  std::map<std::string, std::string> pairs;
  EXPECT_TRUE(same_request(msg(kOld), msg(kNew), pairs));
  EXPECT_EQ(pairs.at(kNew), kOld);
}

TEST(ReplayMatch, AUuidInsideAStringPairsToo) {
  std::map<std::string, std::string> pairs;
  EXPECT_TRUE(same_request(Json{{"id", "no-such-task-" + kOld}}, Json{{"id", "no-such-task-" + kNew}}, pairs));
  EXPECT_FALSE(same_request(Json{{"id", "no-such-task-" + kOld}}, Json{{"id", "other-task-" + kNew}}, pairs));
}

TEST(ReplayMatch, ThePairingStaysOneToOne) {
  std::map<std::string, std::string> pairs{{kNew, kOld}};
  // The same fresh UUID cannot stand for another recorded one...
  EXPECT_FALSE(same_request(msg(kOther), msg(kNew), pairs));
  // ...nor another fresh one for the recorded one already paired.
  EXPECT_FALSE(same_request(msg(kOld), msg(kOther), pairs));
  EXPECT_EQ(pairs.size(), 1u);  // a failed match leaves the pairing alone
}

TEST(ReplayMatch, AnyOtherDifferenceIsAMismatch) {
  std::map<std::string, std::string> pairs;
  Json a = msg(kOld), b = msg(kNew);
  b["message"]["parts"][0]["text"] = "tck-complete-task bye";
  EXPECT_FALSE(same_request(a, b, pairs));
  Json c = msg(kNew);
  c["historyLength"] = 1;
  EXPECT_FALSE(same_request(a, c, pairs));
  EXPECT_FALSE(same_request(Json{{"n", 1}}, Json{{"n", 1.5}}, pairs));
}

TEST(ReplayMatch, NumbersCompareByValueWhateverTheirJsonType) {
  std::map<std::string, std::string> pairs;
  // A recorded 0 reads back unsigned; the scenario's 0 is a signed integer.
  EXPECT_TRUE(same_request(Json::parse(R"({"historyLength": 0})"), Json{{"historyLength", 0LL}}, pairs));
  EXPECT_TRUE(same_request(Json{{"n", 2u}}, Json{{"n", 2.0}}, pairs));
}

TEST(ReplayMatch, AnswersGetTheFreshUuidsBack) {
  Json answer = {{"task", {{"id", "t-1"}, {"history", {msg(kOld)["message"]}}}}};
  Json out = with_uuids_replaced(answer, {{kOld, kNew}});
  EXPECT_EQ(out["task"]["history"][0]["messageId"], kNew);
  EXPECT_EQ(out["task"]["id"], "t-1");
}

engine::RecordedCall call(const std::string& op, Json params, const std::string& status, Json body) {
  engine::OpResult r;
  r.binding = "jsonrpc";
  r.status = status == "result" ? engine::OpResult::Status::kResult : engine::OpResult::Status::kError;
  (status == "result" ? r.result : r.error) = std::move(body);
  r.http_headers = {{"Content-Type", "application/json"}};
  return {op, std::move(params), engine::op_result_to_json(r)};
}

TEST(ReplayBook, AnswersEachRecordedCallOnceInOrderAndNamesWhatWasNotRecorded) {
  ReplayBook book;
  book.add("S-1", "jsonrpc",
           {call("get_task", {{"id", "t"}}, "result", {{"id", "t"}, {"n", 1}}),
            call("get_task", {{"id", "t"}}, "result", {{"id", "t"}, {"n", 2}}),
            call("cancel_task", {{"id", "t"}}, "error", {{"code", -32002}})});
  auto first = book.answer("S-1", "jsonrpc", "get_task", {{"id", "t"}});
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->result["n"], 1);
  EXPECT_EQ(first->http_headers.size(), 1u);
  auto second = book.answer("S-1", "jsonrpc", "get_task", {{"id", "t"}});
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->result["n"], 2);
  auto third = book.answer("S-1", "jsonrpc", "get_task", {{"id", "t"}});
  ASSERT_FALSE(third.ok());
  EXPECT_NE(third.error().message.find("replay mismatch: get_task"), std::string::npos);
  auto m = book.mismatches("S-1", "jsonrpc");
  ASSERT_EQ(m.size(), 2u);  // the extra get_task, and the cancel never asked for
  EXPECT_NE(m[1].find("recorded call #3 (cancel_task) was never asked for"), std::string::npos) << m[1];
  EXPECT_FALSE(book.answer("S-2", "jsonrpc", "get_task", {{"id", "t"}}).ok());
}

TEST(ReplayBook, AMalformedRecordedAnswerIsAMismatchNotACrash) {
  ReplayBook book;
  book.add("S-1", "stdio", {{"get_task", Json{{"id", "t"}}, Json{{"status", "maybe"}}}});
  auto r = book.answer("S-1", "stdio", "get_task", {{"id", "t"}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("member 'status'"), std::string::npos) << r.error().message;
}

TEST(ReplayOpResult, RoundTripsEveryMember) {
  engine::OpResult r;
  r.status = engine::OpResult::Status::kNoResponse;
  r.request_id = 7;
  r.events = {Json{{"task", {{"id", "x"}}}}};
  r.stream_errors = {Json{{"code", 1}}};
  r.violations = {"v"};
  r.problem = "p";
  r.deadline_hit = true;
  r.binding = "rest";
  r.http_status = 404;
  r.http_headers = {{"A", "b"}};
  r.error_status = 404;
  r.not_expressible = "n";
  auto back = engine::op_result_from_json(engine::op_result_to_json(r));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(engine::op_result_to_json(*back), engine::op_result_to_json(r));
}

}  // namespace
}  // namespace a2a::bindings
