#include "peers/a2a-ref-agent/behaviour.hpp"

#include <gtest/gtest.h>

#include "peers/a2a-ref-agent/test_support.hpp"

namespace a2a::agent {
namespace {

using model::TaskState;
using testing::user_message;

struct PrefixCase {
  const char* name;
  const char* text;
  Behaviour expected;
};

class BehaviourPrefix : public ::testing::TestWithParam<PrefixCase> {};

TEST_P(BehaviourPrefix, FirstTextPartPicksTheBehaviour) {
  Selection s = select_behaviour(user_message(GetParam().text));
  EXPECT_EQ(s.behaviour, GetParam().expected) << GetParam().text;
  EXPECT_EQ(s.text, GetParam().text);
}

INSTANTIATE_TEST_SUITE_P(
    Unit, BehaviourPrefix,
    ::testing::Values(PrefixCase{"complete", "tck-complete-task hello", Behaviour::kCompleteTask},
                      PrefixCase{"alone", "tck-cancel", Behaviour::kCancel},
                      PrefixCase{"stream_many", "tck-stream-many count=3", Behaviour::kStreamMany},
                      PrefixCase{"leading_blank", "  tck-reject-task x", Behaviour::kRejectTask},
                      PrefixCase{"file_not_file_url", "tck-artifact-file doc", Behaviour::kArtifactFile},
                      PrefixCase{"file_url", "tck-artifact-file-url doc", Behaviour::kArtifactFileUrl},
                      PrefixCase{"longer_name_is_not_a_prefix", "tck-cancellation", Behaviour::kEcho},
                      PrefixCase{"unknown_tck", "tck-unknown thing", Behaviour::kEcho},
                      PrefixCase{"plain", "hello", Behaviour::kEcho},
                      PrefixCase{"prefix_not_at_start", "please tck-cancel", Behaviour::kEcho},
                      PrefixCase{"auth", "tck-auth-required trigger auth", Behaviour::kAuthRequired},
                      PrefixCase{"stream_error", "tck-stream-error x", Behaviour::kStreamError}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Unit, MessageIdPrefixIsUsedWhenTheTextHasNone) {
  Json m = user_message("no prefix here", {{"messageId", "tck-message-response-42"}});
  EXPECT_EQ(select_behaviour(m).behaviour, Behaviour::kMessageResponse);
  m["messageId"] = "tck-artifact-file-url-7";
  EXPECT_EQ(select_behaviour(m).behaviour, Behaviour::kArtifactFileUrl);
  m["messageId"] = "0190-tck-cancel";
  EXPECT_EQ(select_behaviour(m).behaviour, Behaviour::kEcho);
}

TEST(Unit, TextPrefixWinsOverMessageIdPrefix) {
  Json m = user_message("tck-cancel now", {{"messageId", "tck-complete-task 1"}});
  EXPECT_EQ(select_behaviour(m).behaviour, Behaviour::kCancel);
}

TEST(Unit, FirstTextPartIsTheOneAfterNonTextParts) {
  Json m = user_message("x");
  m["parts"] = Json::array({{{"data", {{"a", 1}}}}, {{"text", "tck-task-failure"}}});
  EXPECT_EQ(select_behaviour(m).behaviour, Behaviour::kTaskFailure);
}

TEST(Unit, EveryAdvertisedBehaviourHasAPlan) {
  PlanSettings s;
  for (const auto& b : all_behaviours()) {
    TurnPlan p = plan_turn(b.behaviour, 0, "x", s);
    if (b.behaviour == Behaviour::kCancel) {
      EXPECT_EQ(p.final_state, TaskState::kWorking);
      EXPECT_TRUE(p.chunks.empty());
    } else {
      EXPECT_NE(p.final_state, TaskState::kWorking) << b.prefix;
    }
  }
}

TEST(Unit, ChunkedPlanAppendsAndMarksOnlyTheLastChunk) {
  TurnPlan p = plan_turn(Behaviour::kStreamChunked, 0, "x", {});
  ASSERT_EQ(p.chunks.size(), 3u);
  EXPECT_FALSE(p.chunks[0].append);
  EXPECT_TRUE(p.chunks[1].append);
  EXPECT_TRUE(p.chunks[2].append);
  EXPECT_FALSE(p.chunks[0].last_chunk);
  EXPECT_FALSE(p.chunks[1].last_chunk);
  EXPECT_TRUE(p.chunks[2].last_chunk);
  EXPECT_EQ(p.chunks[0].artifact["artifactId"], p.chunks[2].artifact["artifactId"]);
}

TEST(Unit, LongRunningDelayComesFromSettingsOrTheTextAndIsBounded) {
  PlanSettings s;
  s.long_running = core::Millis(1234);
  EXPECT_EQ(plan_turn(Behaviour::kLongRunning, 0, "tck-long-running", s).delay, core::Millis(1234));
  EXPECT_EQ(plan_turn(Behaviour::kLongRunning, 0, "tck-long-running delay=250", s).delay, core::Millis(250));
  EXPECT_EQ(plan_turn(Behaviour::kLongRunning, 0, "tck-long-running delay=999999", s).delay, core::Millis(60000));
}

TEST(Unit, StreamManyNumbersItsChunksOfOneArtifactAndBoundsTheCount) {
  TurnPlan p = plan_turn(Behaviour::kStreamMany, 0, "tck-stream-many count=5", {});
  ASSERT_EQ(p.chunks.size(), 5u);
  for (size_t i = 0; i < p.chunks.size(); ++i) {
    EXPECT_EQ(p.chunks[i].artifact["parts"][0]["text"], "chunk " + std::to_string(i));
    EXPECT_EQ(p.chunks[i].append, i > 0);
    EXPECT_EQ(p.chunks[i].last_chunk, i == 4);
    EXPECT_EQ(p.chunks[i].artifact["artifactId"], p.chunks[0].artifact["artifactId"]);
  }
  EXPECT_EQ(p.final_state, TaskState::kCompleted);
  EXPECT_EQ(plan_turn(Behaviour::kStreamMany, 0, "tck-stream-many", {}).chunks.size(), size_t(kStreamManyDefault));
  EXPECT_EQ(plan_turn(Behaviour::kStreamMany, 0, "tck-stream-many count=0", {}).chunks.size(), 1u);
  EXPECT_EQ(plan_turn(Behaviour::kStreamMany, 0, "tck-stream-many count=99999999", {}).chunks.size(),
            size_t(kStreamManyMax));
}

TEST(Unit, MultiTurnCompletesOnlyOnAFollowUpStartingWithDone) {
  EXPECT_EQ(plan_turn(Behaviour::kMultiTurn, 0, "done", {}).final_state, TaskState::kInputRequired);
  EXPECT_EQ(plan_turn(Behaviour::kMultiTurn, 1, "here is more input", {}).final_state, TaskState::kInputRequired);
  EXPECT_EQ(plan_turn(Behaviour::kMultiTurn, 1, "Done.", {}).final_state, TaskState::kCompleted);
  EXPECT_EQ(plan_turn(Behaviour::kMultiTurn, 2, "done", {}).final_state, TaskState::kCompleted);
}

TEST(Unit, FileArtifactsCarryFilenameAndMediaType) {
  Json raw = plan_turn(Behaviour::kArtifactFile, 0, "x", {}).chunks.at(0).artifact["parts"][0];
  EXPECT_TRUE(raw["raw"].is_string());
  EXPECT_EQ(raw["filename"], "hello.txt");
  EXPECT_EQ(raw["mediaType"], "text/plain");
  Json url = plan_turn(Behaviour::kArtifactFileUrl, 0, "x", {}).chunks.at(0).artifact["parts"][0];
  EXPECT_TRUE(url["url"].get<std::string>().starts_with("https://"));
  EXPECT_EQ(url["mediaType"], "application/pdf");
  Json data = plan_turn(Behaviour::kArtifactData, 0, "x", {}).chunks.at(0).artifact["parts"][0];
  EXPECT_TRUE(data["data"].is_object());
}

}  // namespace
}  // namespace a2a::agent
