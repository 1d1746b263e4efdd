#include <gtest/gtest.h>

#include "runner/engine/op_result.hpp"

namespace a2a::engine {
namespace {

using Json = nlohmann::json;

Json status_update(const char* state) { return Json{{"statusUpdate", {{"taskId", "t"}, {"status", {{"state", state}}}}}}; }

TEST(StreamClosesAtTerminal, AnEventAfterTheTerminalOneIsOneViolationNamingBoth) {
  OpResult r;
  r.events = {Json{{"task", {{"id", "t"}, {"status", {{"state", "TASK_STATE_WORKING"}}}}}},
              status_update("TASK_STATE_COMPLETED"), status_update("TASK_STATE_WORKING"),
              status_update("TASK_STATE_FAILED")};
  check_stream_closes_at_terminal(r);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_NE(r.violations[0].find("stream event 2 follows the terminal event 1"), std::string::npos) << r.violations[0];
}

TEST(StreamClosesAtTerminal, EndingAtTheTerminalEventOrWithoutOneIsFine) {
  OpResult r;
  r.events = {status_update("TASK_STATE_WORKING"), status_update("TASK_STATE_INPUT_REQUIRED"),
              Json{{"task", {{"id", "t"}, {"status", {{"state", 4}}}}}}};  // ProtoJSON integer: TASK_STATE_FAILED
  check_stream_closes_at_terminal(r);
  EXPECT_TRUE(r.violations.empty());
  r.events.push_back(status_update("TASK_STATE_WORKING"));
  check_stream_closes_at_terminal(r);
  EXPECT_EQ(r.violations.size(), 1u) << "an integer terminal state counts too";
}

TEST(StreamClosesAtTerminal, AMessageOrAnArtifactUpdateIsNotTerminal) {
  OpResult r;
  r.events = {Json{{"message", {{"messageId", "m"}}}}, Json{{"artifactUpdate", {{"taskId", "t"}}}},
              Json{{"statusUpdate", "not an object"}}, status_update("TASK_STATE_WORKING")};
  check_stream_closes_at_terminal(r);
  EXPECT_TRUE(r.violations.empty());
}

}  // namespace
}  // namespace a2a::engine
