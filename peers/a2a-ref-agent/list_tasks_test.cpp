#include <gtest/gtest.h>

#include <set>

#include "peers/a2a-ref-agent/test_support.hpp"

namespace a2a::agent {
namespace {

using namespace testing;

struct ListTasksFixture {
  CallResult list(const Json& params) { return core.call(Operation::kListTasks, params); }
  AgentCore core{fast_config()};
};

TEST(Unit, EmptyStoreGivesEmptyPageWithAllRequiredMembers) {
  ListTasksFixture fx;
  CallResult r = fx.list(Json::object());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value()["tasks"], Json::array());
  EXPECT_EQ(r.value()["nextPageToken"], "");
  EXPECT_EQ(r.value()["pageSize"], 50);
  EXPECT_EQ(r.value()["totalSize"], 0);
  EXPECT_TRUE(fx.list(nullptr).ok());
}

TEST(Unit, NewestStatusFirstAndArtifactsOnlyOnRequest) {
  ListTasksFixture fx;
  AgentCore& core = fx.core;
  Json a = send_task(core, "tck-complete-task a");
  Json b = send_task(core, "tck-complete-task b");
  Json r = fx.list(Json::object()).value();
  ASSERT_EQ(r["tasks"].size(), 2u);
  EXPECT_EQ(r["tasks"][0]["id"], b["id"]);
  EXPECT_EQ(r["tasks"][1]["id"], a["id"]);
  for (const auto& t : r["tasks"]) EXPECT_FALSE(t.contains("artifacts"));
  Json with = fx.list({{"includeArtifacts", true}}).value();
  for (const auto& t : with["tasks"]) EXPECT_TRUE(t.contains("artifacts"));
  EXPECT_FALSE(fx.list({{"includeArtifacts", false}}).value()["tasks"][0].contains("artifacts"));
}

TEST(Unit, FiltersByContextStatusAndTimestamp) {
  ListTasksFixture fx;
  AgentCore& core = fx.core;
  Json a = send_task(core, "tck-complete-task");
  Json b = send_task(core, "tck-input-required");
  Json c = send_task(core, "tck-complete-task", nullptr, {{"contextId", a["contextId"]}});
  Json by_ctx = fx.list({{"contextId", a["contextId"]}}).value();
  EXPECT_EQ(by_ctx["totalSize"], 2);
  Json by_state = fx.list({{"status", "TASK_STATE_INPUT_REQUIRED"}}).value();
  ASSERT_EQ(by_state["tasks"].size(), 1u);
  EXPECT_EQ(by_state["tasks"][0]["id"], b["id"]);
  EXPECT_EQ(fx.list({{"status", 6}}).value()["totalSize"], 1);  // ProtoJSON integer enum
  std::string ts = c["status"]["timestamp"];
  Json since = fx.list({{"statusTimestampAfter", ts}}).value();
  for (const auto& t : since["tasks"]) {
    EXPECT_GE(*model::parse_timestamp_ms(t["status"]["timestamp"].get<std::string>()), *model::parse_timestamp_ms(ts));
  }
  EXPECT_GE(since["totalSize"].get<int>(), 1);
  EXPECT_EQ(fx.list({{"statusTimestampAfter", "2999-01-01T00:00:00Z"}}).value()["totalSize"], 0);
}

TEST(Unit, PaginationWalkHasNoDuplicatesAndNoGaps) {
  ListTasksFixture fx;
  AgentCore& core = fx.core;
  std::set<std::string> created;
  for (int i = 0; i < 23; ++i) created.insert(send_task(core, "tck-complete-task")["id"].get<std::string>());
  std::set<std::string> seen;
  std::vector<long long> order;
  std::string token;
  int pages = 0;
  do {
    Json p = {{"pageSize", 5}};
    if (!token.empty()) p["pageToken"] = token;
    Json r = fx.list(p).value();
    EXPECT_EQ(r["pageSize"], 5);
    EXPECT_EQ(r["totalSize"], 23);
    EXPECT_LE(r["tasks"].size(), 5u);
    for (const auto& t : r["tasks"]) {
      EXPECT_TRUE(seen.insert(t["id"].get<std::string>()).second) << "duplicate " << t["id"];
      order.push_back(*model::parse_timestamp_ms(t["status"]["timestamp"].get<std::string>()));
    }
    token = r["nextPageToken"].get<std::string>();
    ++pages;
  } while (!token.empty() && pages < 10);
  EXPECT_EQ(pages, 5);
  EXPECT_EQ(seen, created);
  EXPECT_TRUE(std::is_sorted(order.rbegin(), order.rend()));
}

TEST(Unit, HistoryLengthAppliesToEveryTask) {
  ListTasksFixture fx;
  AgentCore& core = fx.core;
  send_task(core, "tck-complete-task");
  Json r = fx.list({{"historyLength", 1}}).value();
  EXPECT_EQ(r["tasks"][0]["history"].size(), 1u);
  EXPECT_FALSE(fx.list({{"historyLength", 0}}).value()["tasks"][0].contains("history"));
}

TEST(Unit, InvalidParamsAreRejected) {
  ListTasksFixture fx;
  for (const Json& p : {Json{{"pageSize", 0}}, Json{{"pageSize", 101}}, Json{{"pageSize", "x"}},
                        Json{{"pageToken", "not-a-token"}}, Json{{"historyLength", -2}},
                        Json{{"status", "TASK_STATE_BOGUS"}}, Json{{"statusTimestampAfter", "yesterday"}},
                        Json{{"includeArtifacts", "yes"}}, Json{{"contextId", 7}}}) {
    CallResult r = fx.list(p);
    ASSERT_FALSE(r.ok()) << p.dump();
    EXPECT_EQ(r.error().code, -32602) << p.dump();
  }
  EXPECT_TRUE(fx.list({{"pageSize", 1}}).ok());
  EXPECT_TRUE(fx.list({{"pageSize", 100}}).ok());
}

TEST(Unit, PagingFaultsAreObservable) {
  ListTasksFixture fx;
  AgentConfig c = fast_config();
  c.faults = faults_of({Fault::kSemListIgnoresPageSize, Fault::kSemListNoNextToken, Fault::kSemListIncludesArtifacts});
  AgentCore f(c);
  for (int i = 0; i < 3; ++i) send_task(f, "tck-complete-task");
  Json r = f.call(Operation::kListTasks, {{"pageSize", 1}}).value();
  EXPECT_EQ(r["tasks"].size(), 3u);
  EXPECT_FALSE(r.contains("nextPageToken"));
  EXPECT_TRUE(r["tasks"][0].contains("artifacts"));
}

}  // namespace
}  // namespace a2a::agent
