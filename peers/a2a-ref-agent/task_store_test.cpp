#include "peers/a2a-ref-agent/task_store.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <regex>
#include <thread>

#include "peers/a2a-ref-agent/test_support.hpp"
#include "runner/jsonrpc/dump.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::agent {
namespace {

using model::TaskState;

// A task that goes WORKING then `end`: weight 1 + 2 log entries + 1 history message = 4.
std::shared_ptr<TaskRecord> finished_task(TaskStore& store, const std::string& ctx, TaskState end) {
  auto r = store.create(ctx, Behaviour::kEcho, testing::user_message("x"));
  store.set_status(*r, TaskState::kWorking, "", false);
  store.set_status(*r, end, "", false);
  return r;
}

constexpr size_t kWeight = 4;

// The unsharded store (one shard): the bound and the oldest-first order are
// global. The agent's store applies the same policy in each shard
// (ShardedStore* below).
TEST(Unit, FinishedTasksAboveTheWeightBoundAreForgottenOldestFirst) {
  TaskStore store(1);
  auto lk = store.lock_all();
  size_t n = kMaxFinishedWeight / kWeight;  // exactly at the bound
  std::vector<std::string> ids;
  for (size_t i = 0; i < n; ++i) {
    ids.push_back(finished_task(store, "c" + std::to_string(i), TaskState::kCompleted)->id);
  }
  EXPECT_EQ(store.size(), n);
  EXPECT_TRUE(store.find(ids.front()));
  auto newest = finished_task(store, "c-new", TaskState::kFailed);
  EXPECT_EQ(store.size(), n);
  EXPECT_FALSE(store.find(ids[0])) << "the oldest finished task stays past the bound";
  EXPECT_FALSE(store.knows_context("c0")) << "a forgotten task's context stays";
  EXPECT_TRUE(store.find(ids[1]));
  EXPECT_TRUE(store.find(newest->id));
  EXPECT_TRUE(store.knows_context("c-new"));
}

TEST(Unit, UnfinishedTasksAreNeverForgotten) {
  TaskStore store(1);
  auto lk = store.lock_all();
  auto waiting = store.create("shared", Behaviour::kInputRequired, testing::user_message("x"));
  store.set_status(*waiting, TaskState::kInputRequired, "more?", false);
  for (size_t i = 0; i < 2 * kMaxFinishedWeight / kWeight; ++i) finished_task(store, "shared", TaskState::kCompleted);
  EXPECT_TRUE(store.find(waiting->id));
  EXPECT_TRUE(store.knows_context("shared")) << "the context of a kept task is forgotten";
  EXPECT_LE(store.size(), kMaxFinishedWeight / kWeight + 1);
}

TEST(Unit, OneTaskHeavierThanTheBoundIsStillKeptWhenNewest) {
  TaskStore store(1);
  auto lk = store.lock_all();
  auto old = finished_task(store, "a", TaskState::kCompleted);
  auto heavy = store.create("b", Behaviour::kStreamMany, testing::user_message("x"));
  store.set_status(*heavy, TaskState::kWorking, "", false);
  Json artifact = {{"artifactId", "a1"}, {"parts", Json::array({model::text_part("p")})}};
  for (size_t i = 0; i < kMaxFinishedWeight; ++i) store.add_chunk(*heavy, artifact, i > 0, false);
  store.set_status(*heavy, TaskState::kCompleted, "", false);
  EXPECT_FALSE(store.find(old->id));
  EXPECT_TRUE(store.find(heavy->id));
}

// The agent's store (kStoreShards shards): the order of forgetting is the
// store's, not a shard's. With every shard held (lock_all) evictions happen
// at once, so exactly the newest bound's worth of finished tasks stay.
TEST(Unit, ShardedStoreForgetsTheOldestFinishedTasksOfTheWholeStore) {
  TaskStore store;
  auto lk = store.lock_all();
  auto waiting = store.create("kept", Behaviour::kInputRequired, testing::user_message("x"));
  store.set_status(*waiting, TaskState::kInputRequired, "more?", false);
  std::vector<std::shared_ptr<TaskRecord>> done;
  std::vector<bool> used(kStoreShards, false);
  for (size_t i = 0; i < 3 * kMaxFinishedWeight / kWeight; ++i) {
    done.push_back(finished_task(store, "c" + std::to_string(i), TaskState::kCompleted));
    ASSERT_LT(done.back()->shard, kStoreShards);
    used[done.back()->shard] = true;
  }
  const size_t keep = kMaxFinishedWeight / kWeight;
  for (size_t i = 0; i < done.size(); ++i) {
    ASSERT_EQ(static_cast<bool>(store.find(done[i]->id)), i + keep >= done.size()) << "task " << i;
  }
  EXPECT_EQ(store.size(), keep + 1);
  EXPECT_TRUE(store.find(waiting->id));
  EXPECT_TRUE(store.knows_context("kept"));
  EXPECT_FALSE(store.knows_context("c0"));
  EXPECT_EQ(std::count(used.begin(), used.end(), true), static_cast<long>(kStoreShards)) << "ids spread over the shards";
}

// A task to forget in a shard another thread holds is not waited for (no
// thread ever waits for a second shard): it is forgotten at the next lock().
TEST(Unit, EvictionFromABusyShardIsDoneAtTheNextLock) {
  TaskStore store;
  // The oldest finished task, then enough finished tasks in other shards to push it out.
  std::shared_ptr<TaskRecord> oldest;
  {
    auto lk = store.lock_all();
    oldest = finished_task(store, "old", TaskState::kCompleted);
  }
  std::mutex mu;
  std::condition_variable cv;
  bool held = false, release = false;
  std::thread holder([&] {
    auto lk = store.lock(*oldest);
    std::unique_lock<std::mutex> g(mu);
    held = true;
    cv.notify_all();
    cv.wait_for(g, std::chrono::seconds(60), [&] { return release; });
  });
  {
    std::unique_lock<std::mutex> g(mu);
    ASSERT_TRUE(cv.wait_for(g, std::chrono::seconds(60), [&] { return held; }));
  }
  size_t made = 0;
  for (size_t i = 0; made < kMaxFinishedWeight / kWeight && i < 10 * kMaxFinishedWeight; ++i) {
    std::string id = store.new_task_id();
    if (store.shard_of(id) == oldest->shard) continue;
    auto lk = store.lock(id);
    auto r = store.create(id, "c" + std::to_string(i), Behaviour::kEcho, testing::user_message("x"));
    store.set_status(*r, TaskState::kWorking, "", false);
    store.set_status(*r, TaskState::kCompleted, "", false);
    ++made;
  }
  EXPECT_TRUE(store.evictions_pending()) << "the busy shard was waited for";
  {
    std::lock_guard<std::mutex> g(mu);
    release = true;
  }
  cv.notify_all();
  holder.join();
  ASSERT_EQ(made, kMaxFinishedWeight / kWeight);
  auto lk = store.lock(*oldest);  // forgets what was pending
  EXPECT_FALSE(store.evictions_pending());
  EXPECT_FALSE(store.find(oldest->id)) << "the pending eviction was not done";
  EXPECT_FALSE(store.knows_context("old"));
}

// append_task_text is what the HTTP bindings send for a SendMessage: it must
// be the dump of task_json byte for byte, for every view.
TEST(TaskStore, TaskTextIsTheDumpOfTaskJsonInEveryView) {
  TaskStore store;
  auto lk = store.lock_all();
  auto r = store.create("ctx-text", Behaviour::kEcho, testing::user_message("caf\u00e9 \"quoted\" \\ tab\t"));
  store.set_status(*r, TaskState::kWorking, "", false);
  Json artifact = {{"artifactId", "a-1"}, {"name", "echo"}, {"parts", Json::array({{{"text", "chunk 0"}}})}};
  store.add_chunk(*r, artifact, false, false);
  store.set_status(*r, TaskState::kCompleted, "done \xff invalid UTF-8", true);
  std::vector<TaskView> views = {TaskView{}, TaskView{0, true}, TaskView{1, true}, TaskView{5, false},
                                 TaskView{std::nullopt, false}};
  for (const auto& view : views) {
    std::string text = "prefix:";
    append_task_text(text, *r, view);
    EXPECT_EQ(text, "prefix:" + jsonrpc::dump(task_json(*r, view)))
        << "historyLength " << view.history_length.value_or(-1) << ", artifacts " << view.artifacts;
  }
  // Ids that need escaping go through the serializer, like everything else.
  r->id = "t\"1\x01";
  r->context_id.clear();
  std::string text;
  append_task_text(text, *r, TaskView{});
  EXPECT_EQ(text, jsonrpc::dump(task_json(*r, TaskView{})));
  EXPECT_NE(text.find("\"id\":\"t\\\"1\\u0001\""), std::string::npos) << text;
}

// Logged events are kept as text: each must be the dump of the
// StreamResponse the model builders make, byte for byte.
TEST(TaskStore, LoggedEventsAreTheDumpOfTheirStreamResponses) {
  TaskStore store;
  auto lk = store.lock_all();
  auto r = store.create("ctx-log", Behaviour::kEcho, testing::user_message("hi"));
  store.set_status(*r, TaskState::kWorking, "", false);
  EXPECT_EQ(r->log.back().event, jsonrpc::dump(Json{{"statusUpdate", model::status_update(r->id, r->context_id,
                                                                                           r->status)}}));
  Json first = {{"artifactId", "a-1"}, {"name", "n"}, {"parts", Json::array({{{"text", "chunk 0 \xff"}}})}};
  store.add_chunk(*r, first, false, false);
  EXPECT_EQ(r->log.back().event,
            jsonrpc::dump(Json{{"artifactUpdate", model::artifact_update(r->id, r->context_id, first, false, false)}}));
  Json next = {{"artifactId", "a-1"}, {"parts", Json::array({{{"text", "chunk 1"}}})}};
  store.add_chunk(*r, next, true, true);
  EXPECT_EQ(r->log.back().event,
            jsonrpc::dump(Json{{"artifactUpdate", model::artifact_update(r->id, r->context_id, next, true, true)}}));
  ASSERT_EQ(r->artifacts.size(), 1u);
  EXPECT_EQ(r->artifacts[0]["parts"].size(), 2u) << "the appended chunk's part is merged";
  store.set_status(*r, TaskState::kCompleted, "done", true);
  ASSERT_TRUE(r->text.packed()) << "a finished task keeps text";
  EXPECT_EQ(r->log.back().event, jsonrpc::dump(Json{{"statusUpdate", model::status_update(r->id, r->context_id,
                                                                                           task_json(*r)["status"])}}));
  EXPECT_EQ(r->log.back().state, TaskState::kCompleted);
}

// The store stamps statuses itself (one clock read, no parse back): the
// text is model::now_timestamp's format and status_ms is its value.
TEST(TaskStore, StatusTimestampsAreRfc3339MillisecondsMatchingStatusMs) {
  TaskStore store;
  auto lk = store.lock_all();
  auto r = store.create("ctx-time", Behaviour::kEcho, testing::user_message("t"));
  for (TaskState s : {TaskState::kSubmitted, TaskState::kWorking, TaskState::kCompleted}) {
    if (s != TaskState::kSubmitted) store.set_status(*r, s, s == TaskState::kCompleted ? "done" : "", true);
    const std::string ts = task_json(*r)["status"]["timestamp"].get<std::string>();
    EXPECT_TRUE(std::regex_match(ts, std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)"))) << ts;
    EXPECT_EQ(model::parse_timestamp_ms(ts).value_or(-1), r->status_ms) << ts;
    EXPECT_EQ(ts.substr(0, 4), model::now_timestamp().substr(0, 4));
  }
  Json task = task_json(*r);
  EXPECT_EQ(task["status"]["message"]["parts"][0]["text"], "done");
  EXPECT_EQ(task["history"].back(), task["status"]["message"]) << "the reply in history is the status message";
}

// A finished task's trees become text (TaskText) when it ends: every
// reader gives what the trees gave, for shapes a client can send (escapes,
// invalid UTF-8 replaced, numbers of each kind, merged chunks), for every view.
TEST(TaskStore, APackedTaskReadsAsItsTreesInEveryView) {
  TaskStore store;
  auto lk = store.lock_all();
  Json msg = testing::user_message("caf\u00e9 \"q\" \\ tab\t \xff bad");
  msg["metadata"] = {{"int", 5}, {"neg", -7}, {"half", 1.5}, {"tenth", 0.1}, {"big", 1e300},
                     {"u64", 18446744073709551615ULL}, {"negzero", -0.0}, {"null", nullptr},
                     {"nest", {{"a", Json::array({1, "two", Json::array(), Json::object()})}}}};
  auto r = store.create("ctx-pack", Behaviour::kEcho, msg);
  store.set_status(*r, TaskState::kInputRequired, "more?", true);
  store.append_user_message(*r, testing::user_message("second"));
  store.set_status(*r, TaskState::kWorking, "", false);
  Json a1 = {{"artifactId", "a-1"}, {"name", "n\u2028"}, {"parts", Json::array({{{"text", "chunk 0"}}})}};
  Json a1_more = {{"artifactId", "a-1"}, {"parts", Json::array({{{"data", {{"k", 1}}}}})}};
  Json a2 = {{"artifactId", "a-2"}, {"parts", Json::array({{{"text", ""}}})}};
  store.add_chunk(*r, a1, false, false);
  store.add_chunk(*r, a1_more, true, false);
  store.add_chunk(*r, a2, false, true);
  std::vector<TaskView> views;
  for (std::optional<long long> hl : {std::optional<long long>(), std::optional<long long>(0),
                                      std::optional<long long>(1), std::optional<long long>(2),
                                      std::optional<long long>(3), std::optional<long long>(4),
                                      std::optional<long long>(1000)}) {
    views.push_back(TaskView{hl, true});
    views.push_back(TaskView{hl, false});
  }
  auto render_all = [&] {
    std::vector<std::string> out;
    for (const TaskView& v : views) {
      std::string text = "pre:";
      append_task_text(text, *r, v);
      out.push_back(text);
      out.push_back(jsonrpc::dump(task_json(*r, v)));
    }
    return out;
  };
  auto expect_same = [](const std::vector<std::string>& got, const std::vector<std::string>& want, const char* what) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i], want[i]) << what << ", view " << i / 2 << (i % 2 ? " (task_json)" : " (append_task_text)");
    }
  };
  // The trees as the client's messages and the chunks made them, then the
  // same task packed, then unpacked (parsed back).
  std::vector<std::string> trees = render_all();
  for (size_t i = 0; i < trees.size(); i += 2) EXPECT_EQ(trees[i], "pre:" + trees[i + 1]);
  pack_task(*r);
  ASSERT_TRUE(r->text.packed());
  EXPECT_TRUE(r->history.empty() && r->artifacts.empty() && r->status.is_null()) << "the trees were kept";
  EXPECT_EQ(r->history_size(), 3u);
  EXPECT_EQ(r->text.artifacts(), 2u);
  expect_same(render_all(), trees, "packed");
  unpack_task(*r);
  ASSERT_FALSE(r->text.packed());
  EXPECT_EQ(r->history.size(), 3u);
  expect_same(render_all(), trees, "unpacked");
  // Finishing packs it; the reply joins the history.
  store.set_status(*r, TaskState::kCompleted, "done \xfe", true);
  ASSERT_TRUE(r->text.packed());
  EXPECT_EQ(r->history_size(), 4u);
  std::vector<std::string> finished = render_all();
  unpack_task(*r);
  expect_same(render_all(), finished, "finished");
}

// A finished task that changes again (sem-terminal-mutable: cancel after
// completion) is unpacked, changed and packed again, nothing lost.
TEST(TaskStore, APackedTaskThatChangesAgainKeepsEverything) {
  TaskStore store;
  auto lk = store.lock_all();
  auto r = store.create("ctx-again", Behaviour::kEcho, testing::user_message("x"));
  store.set_status(*r, TaskState::kWorking, "", false);
  store.add_chunk(*r, Json{{"artifactId", "a"}, {"parts", Json::array({{{"text", "t"}}})}}, false, true);
  store.set_status(*r, TaskState::kCompleted, "done", true);
  ASSERT_TRUE(r->text.packed());
  store.set_status(*r, TaskState::kCanceled, "Task canceled", false);
  ASSERT_TRUE(r->text.packed());
  Json task = task_json(*r);
  EXPECT_EQ(task["status"]["state"], "TASK_STATE_CANCELED") << task.dump();
  EXPECT_EQ(task["status"]["message"]["parts"][0]["text"], "Task canceled");
  ASSERT_EQ(task["history"].size(), 2u) << task.dump();
  EXPECT_EQ(task["history"][1]["parts"][0]["text"], "done");
  ASSERT_EQ(task["artifacts"].size(), 1u);
  EXPECT_EQ(task["artifacts"][0]["artifactId"], "a");
  std::string text;
  append_task_text(text, *r);
  EXPECT_EQ(text, jsonrpc::dump(task));
}

}  // namespace
}  // namespace a2a::agent
