#include <gtest/gtest.h>

#include "runner/match/test_json.hpp"

#include "runner/match/event_view.hpp"
#include "runner/match/stream.hpp"

using namespace a2a::match;

namespace {

using a2a::match::testing::J;

Json status(const char* state, bool final = false) {
  Json e = {{"statusUpdate", {{"taskId", "t"}, {"status", {{"state", state}}}}}};
  if (final) e["statusUpdate"]["final"] = true;
  return e;
}
Json task(const char* state) { return {{"task", {{"id", "t"}, {"status", {{"state", state}}}}}}; }
Json artifact(const char* text) {
  return {{"artifactUpdate", {{"taskId", "t"}, {"artifact", {{"parts", {{{"text", text}}}}}}}}};
}
Json message() { return {{"message", {{"role", "ROLE_AGENT"}, {"parts", {{{"text", "hi"}}}}}}}; }

// A typical stream: submitted task, working, two chunks, final completed.
std::vector<Json> lifecycle() {
  return {task("TASK_STATE_SUBMITTED"), status("TASK_STATE_WORKING"), artifact("a"), artifact("b"),
          status("TASK_STATE_COMPLETED", true)};
}

std::string messages(const MatchResult& r) { return r.summary(); }

struct StreamCase {
  const char* name;
  const char* expect_stream;
  bool ok;
};

class StreamExpect : public ::testing::TestWithParam<StreamCase> {};

TEST_P(StreamExpect, JudgesTheLifecycleStream) {
  MatchResult r = match_stream(lifecycle(), J(GetParam().expect_stream));
  EXPECT_FALSE(r.malformed()) << r.error;
  EXPECT_EQ(r.ok, GetParam().ok) << messages(r);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, StreamExpect,
    ::testing::Values(
        StreamCase{"MinCountMet", R"({"min_count": 5})", true},
        StreamCase{"MinCountNotMet", R"({"min_count": 6})", false},
        StreamCase{"MaxCountExceeded", R"({"max_count": 4})", false},
        StreamCase{"TimeoutIgnored", R"({"timeout_ms": 1, "min_count": 1})", true},
        StreamCase{"ExactPositionByListPosition",
                   R"({"events": [{"task": {"status": {"state": "TASK_STATE_SUBMITTED"}}},
                                  {"status_update": {"status": {"state": "TASK_STATE_WORKING"}}}]})", true},
        StreamCase{"ExactPositionWrongKind", R"({"events": [{"status_update": {"status": {"exists": true}}}]})", false},
        StreamCase{"ExplicitIndex", R"({"events": [{"index": 2, "artifact_update": {"artifact": {"parts": [{"text": "a"}]}}}]})", true},
        StreamCase{"ExplicitIndexPastTheEnd", R"({"events": [{"index": 9, "task": {}}]})", false},
        StreamCase{"AnyPosition",
                   R"({"events": [{"match": "any_position", "artifact_update": {"artifact": {"parts": [{"text": "b"}]}}}]})", true},
        StreamCase{"AnyPositionNoneMatch",
                   R"({"events": [{"match": "any_position", "artifact_update": {"artifact": {"parts": [{"text": "z"}]}}}]})", false},
        StreamCase{"GenericKeyOnPayload", R"({"events": [{"match": "any_position", "artifact": {"exists": true}}]})", true},
        StreamCase{"FinalEventGenericStatus",
                   R"({"final_event": {"status": {"state": {"one_of": ["TASK_STATE_COMPLETED", "TASK_STATE_FAILED"]}}}})", true},
        StreamCase{"FinalEventOneOfPayloadKinds",
                   R"({"final_event": {"one_of": [{"task": {"status": {"state": "TASK_STATE_COMPLETED"}}},
                                                 {"status_update": {"final": true, "status": {"state": "TASK_STATE_COMPLETED"}}}]}})", true},
        StreamCase{"FinalEventOneOfNoneMatch",
                   R"({"final_event": {"one_of": [{"task": {"status": {"state": "TASK_STATE_COMPLETED"}}},
                                                 {"message": {"exists": true}}]}})", false},
        StreamCase{"IndexedOneOf",
                   R"({"events": [{"description": "first is the task state", "index": 0,
                                   "one_of": [{"task": {"status": {"exists": true}}}, {"status_update": {"status": {"exists": true}}}]}]})", true},
        StreamCase{"EachEvent", R"({"each_event": {"any_of": [{"task": {"id": "t"}}, {"taskId": "t"}]}})", true},
        StreamCase{"EachEventFailsOnOne", R"({"each_event": {"taskId": "t"}})", false},
        StreamCase{"NotCombinator", R"({"final_event": {"not": {"message": {"exists": true}}}})", true},
        StreamCase{"MonotonicLegal", R"({"ordering": "monotonic_state", "min_count": 2})", true}),
    [](const auto& info) { return std::string(info.param.name); });

struct OrderingCase {
  const char* name;
  std::vector<Json> events;
  bool ok;
};

class MonotonicState : public ::testing::TestWithParam<OrderingCase> {};

TEST_P(MonotonicState, FollowsTheTaskStateMachine) {
  MatchResult r = check_monotonic_state(GetParam().events);
  EXPECT_EQ(r.ok, GetParam().ok) << messages(r);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MonotonicState,
    ::testing::Values(
        OrderingCase{"Lifecycle", lifecycle(), true},
        OrderingCase{"RepeatedWorking", {status("TASK_STATE_WORKING"), status("TASK_STATE_WORKING")}, true},
        OrderingCase{"InputRequiredBackToWorking",
                     {status("TASK_STATE_WORKING"), status("TASK_STATE_INPUT_REQUIRED"), status("TASK_STATE_WORKING"),
                      status("TASK_STATE_COMPLETED")}, true},
        OrderingCase{"AuthRequiredBackToWorking",
                     {status("TASK_STATE_AUTH_REQUIRED"), status("TASK_STATE_WORKING")}, true},
        OrderingCase{"SubmittedStraightToRejected", {task("TASK_STATE_SUBMITTED"), status("TASK_STATE_REJECTED")}, true},
        OrderingCase{"TerminalSnapshotRepeatsFinalState",
                     {status("TASK_STATE_COMPLETED", true), task("TASK_STATE_COMPLETED")}, true},
        OrderingCase{"MessagesAndArtifactsCarryNoState", {message(), artifact("x")}, true},
        OrderingCase{"ZeroThreeLowercaseStates",
                     {J(R"({"kind": "status-update", "status": {"state": "working"}})"),
                      J(R"({"kind": "status-update", "status": {"state": "input-required"}})"),
                      J(R"({"kind": "task", "status": {"state": "completed"}})")}, true},
        OrderingCase{"BackToSubmitted", {task("TASK_STATE_SUBMITTED"), status("TASK_STATE_WORKING"),
                                         status("TASK_STATE_SUBMITTED")}, false},
        OrderingCase{"AfterCompleted", {status("TASK_STATE_COMPLETED"), status("TASK_STATE_WORKING")}, false},
        OrderingCase{"AfterCanceled", {status("TASK_STATE_CANCELED"), status("TASK_STATE_COMPLETED")}, false},
        OrderingCase{"AfterFailedViaTask", {status("TASK_STATE_FAILED"), task("TASK_STATE_WORKING")}, false},
        OrderingCase{"UnknownState", {status("TASK_STATE_DONE")}, false}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(MonotonicState, NamesTheIllegalTransitionAndWhere) {
  MatchResult r = check_monotonic_state({task("TASK_STATE_SUBMITTED"), status("TASK_STATE_COMPLETED"), artifact("x"),
                                         status("TASK_STATE_WORKING")});
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_EQ(r.mismatches[0].path, "events[3].statusUpdate.status.state");
  EXPECT_EQ(r.mismatches[0].message,
            "events[3].statusUpdate.status.state: illegal state transition TASK_STATE_COMPLETED (events[1]) -> "
            "TASK_STATE_WORKING: a terminal state is final");
}

TEST(StreamMessages, SayWhichEntryFailedAndWhere) {
  MatchResult r = match_stream(lifecycle(), J(R"({"min_count": 9, "events": [
      {"description": "the first event is a WORKING update", "status_update": {"status": {"state": "TASK_STATE_WORKING"}}},
      {"description": "some chunk says z", "match": "any_position", "artifact_update": {"artifact": {"parts": [{"text": "z"}]}}}],
      "final_event": {"status": {"state": "TASK_STATE_FAILED"}}})"));
  std::vector<std::string> got;
  for (const auto& m : r.mismatches) got.push_back(m.message);
  ASSERT_EQ(got.size(), 4u) << r.summary();
  EXPECT_EQ(got[0], "events: expected at least 9 events, got 5");
  EXPECT_EQ(got[1], "events[0]: expected a status_update event, got task (the first event is a WORKING update)");
  EXPECT_EQ(got[2].rfind("events[*]: no event matched", 0), 0u) << got[2];
  EXPECT_NE(got[2].find("closest was events[2]: events[2].artifactUpdate.artifact.parts[0].text: expected z, got a"),
            std::string::npos) << got[2];
  EXPECT_EQ(got[3], "events[4].statusUpdate.status.state: expected TASK_STATE_FAILED, got TASK_STATE_COMPLETED");
}

TEST(StreamMessages, EmptyStreamHasNoFinalEvent) {
  MatchResult r = match_stream({}, J(R"({"final_event": {"message": {"exists": true}}})"));
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_EQ(r.mismatches[0].message, "events: expected a final event, got no events");
}

TEST(StreamEnvelope, GenericKeysReachTheJsonRpcEnvelope) {
  std::vector<Json> events = {
      {{"jsonrpc", "2.0"}, {"id", 1}, {"result", status("TASK_STATE_WORKING")}},
      {{"jsonrpc", "2.0"}, {"id", 1}, {"result", status("TASK_STATE_COMPLETED", true)}}};
  MatchResult r = match_stream(events, J(R"({"min_count": 2, "each_event": {"jsonrpc": "2.0"}, "ordering": "monotonic_state",
                                            "final_event": {"status_update": {"final": true}, "status": {"state": "TASK_STATE_COMPLETED"}}})"));
  EXPECT_TRUE(r.ok) << r.summary();
  MatchResult bad = match_stream(events, J(R"({"final_event": {"status": {"state": "TASK_STATE_FAILED"}}})"));
  ASSERT_EQ(bad.mismatches.size(), 1u);
  EXPECT_EQ(bad.mismatches[0].path, "events[1].result.statusUpdate.status.state");
}

TEST(StreamMalformed, UnknownKeysAndBadOperandsAreErrors) {
  for (const char* spec : {R"({"min_cout": 1})", R"({"min_count": -1})", R"({"ordering": "strict"})",
                           R"({"events": [{"match": "somewhere", "task": {}}]})", R"({"events": [{"index": "0"}]})", R"({"events": [{"match": 1}]})",
                           R"({"events": {"task": {}}})", R"({"final_event": {"one_of": {"task": {}}}})",
                           R"({"final_event": {"status": {"state": {"one_of": "x"}}}})"}) {
    MatchResult r = match_stream(lifecycle(), J(spec));
    EXPECT_TRUE(r.malformed()) << spec << " -> " << r.summary();
  }
  MatchResult ours = match_stream(lifecycle(), J(R"({"x-note": "ours", "min_count": 1})"));
  EXPECT_TRUE(ours.ok) << ours.summary();
}

TEST(EventView, RecognisesEveryShape) {
  EXPECT_EQ(view_event(task("TASK_STATE_WORKING")).kind, EventKind::kTask);
  EXPECT_EQ(view_event(message()).kind, EventKind::kMessage);
  EXPECT_EQ(view_event(artifact("x")).payload_path, "artifactUpdate");
  auto wrapped = view_event({{"jsonrpc", "2.0"}, {"id", 3}, {"result", status("TASK_STATE_WORKING")}});
  EXPECT_EQ(wrapped.kind, EventKind::kStatusUpdate);
  EXPECT_EQ(wrapped.payload_path, "result.statusUpdate");
  auto old = view_event(J(R"({"kind": "artifact-update", "artifact": {}})"));
  EXPECT_EQ(old.kind, EventKind::kArtifactUpdate);
  EXPECT_EQ(old.payload_path, "");
  EXPECT_EQ(view_event(J(R"({"jsonrpc": "2.0", "id": 1, "error": {}})")).kind, EventKind::kUnknown);
  EXPECT_EQ(normalize_task_state("input-required"), "TASK_STATE_INPUT_REQUIRED");
  EXPECT_EQ(normalize_task_state("TASK_STATE_WORKING"), "TASK_STATE_WORKING");
}

}  // namespace
