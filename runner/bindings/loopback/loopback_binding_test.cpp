// The loopback binding on its own: faults it takes and refuses, the card,
// errors, streams and the deadline of a blocking call.
#include "runner/bindings/loopback/loopback_binding.hpp"

#include <chrono>

#include <gtest/gtest.h>

#include "runner/engine/op_expect.hpp"
#include "runner/engine/session.hpp"
#include "runner/match/match_result.hpp"

namespace a2a::bindings {
namespace {

using engine::OpResult;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

long long ms_since(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

// One run's agent and a scenario session on it.
struct Loopback {
  explicit Loopback(std::vector<std::string> faults = {}) {
    auto a = start_loopback_agent(faults);
    EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().message);
    card = a->card;
    target = engine::BindingTarget{"loopback", a->url, "", "1.0"};
    cfg.in_process_agent = a->agent;
    s.config = &cfg;
    s.target = &target;
    s.deadline = core::Deadline::after(core::Millis(30000));
  }
  OpResult call(const std::string& op, const Json& params, int within_ms = 5000) {
    return binding.call(s, op, params, core::Deadline::after(core::Millis(within_ms)));
  }
  engine::OperationBinding binding = loopback_operation_binding();
  engine::RunConfig cfg;
  engine::BindingTarget target;
  engine::Session s;
  Json card;
};

Json message(const std::string& text) {
  return Json{{"message",
               {{"role", "ROLE_USER"}, {"messageId", "m-" + text}, {"parts", Json::array({{{"text", text}}})}}}};
}

TEST(LoopbackFaults, CoreFaultsAreTakenAndWireFaultsRefusedNamingTheirWire) {
  EXPECT_EQ(loopback_fault_refusal("sem-cancel-noop"), "");
  EXPECT_EQ(loopback_fault_refusal("err-not-found-code"), "");
  EXPECT_NE(loopback_fault_refusal("frame-bare-lf").find("stdio"), std::string::npos);
  EXPECT_NE(loopback_fault_refusal("http-sse-close-early").find("HTTP wire"), std::string::npos);
  EXPECT_NE(loopback_fault_refusal("grpc-wrong-status").find("gRPC wire"), std::string::npos);
  EXPECT_NE(loopback_fault_refusal("push-no-delivery").find("push notifications"), std::string::npos);
  EXPECT_NE(loopback_fault_refusal("no-such-fault").find("unknown fault"), std::string::npos);
  auto refused = start_loopback_agent({"sem-cancel-noop", "json-no-stream-end"});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("--loopback-fault json-no-stream-end"), std::string::npos);
}

TEST(LoopbackBinding, CardListsOneLoopbackInterfaceAndDeclaresNoPushNotifications) {
  Loopback lb;
  ASSERT_EQ(lb.card["supportedInterfaces"].size(), 1u);
  EXPECT_EQ(lb.card["supportedInterfaces"][0]["protocolBinding"], "LOOPBACK");
  EXPECT_EQ(lb.card["capabilities"]["pushNotifications"], false);
  EXPECT_EQ(lb.card["capabilities"]["streaming"], true);
  // The core agrees with its card: push configs are refused, as the spec
  // prescribes for an agent without the capability.
  OpResult r = lb.call("create_push_config", Json{{"taskId", "t"}, {"url", "http://127.0.0.1:9/hook"}});
  ASSERT_EQ(r.status, OpResult::Status::kError) << r.problem;
  EXPECT_EQ(r.error["code"], -32003);
}

TEST(LoopbackBinding, UnknownTaskIsAJsonRpcErrorTheJsonRpcMatcherReads) {
  Loopback lb;
  OpResult r = lb.call("get_task", Json{{"id", "no-such-task"}});
  ASSERT_EQ(r.status, OpResult::Status::kError) << r.problem;
  EXPECT_EQ(r.binding, "loopback");
  EXPECT_EQ(r.error["code"], -32001);
  EXPECT_TRUE(engine::match_expected_error(r, Json{{"error_type", "TaskNotFoundError"}}).ok);
  EXPECT_FALSE(engine::match_expected_error(r, Json{{"error_type", "TaskNotCancelableError"}}).ok);
}

TEST(LoopbackBinding, ErrorFaultsApplyToTheCoreErrors) {
  Loopback lb({"err-not-found-code"});
  OpResult r = lb.call("get_task", Json{{"id", "no-such-task"}});
  ASSERT_EQ(r.status, OpResult::Status::kError) << r.problem;
  EXPECT_EQ(r.error["code"], -32603);
}

TEST(LoopbackBinding, StreamEndsWithItsTerminalEventAndNoViolation) {
  Loopback lb;
  OpResult r = lb.call("send_streaming_message", message("hello"));
  ASSERT_EQ(r.status, OpResult::Status::kResult) << r.problem;
  ASSERT_FALSE(r.events.empty());
  EXPECT_TRUE(r.violations.empty()) << r.violations.front();
  const Json& last = r.events.back();
  bool terminal = (last.contains("task") && last["task"]["status"]["state"] == "TASK_STATE_COMPLETED") ||
                  (last.contains("statusUpdate") && last["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED") ||
                  last.contains("message");
  EXPECT_TRUE(terminal) << last.dump();
}

TEST(LoopbackBinding, BlockingSendPastTheDeadlineIsABoundedNoResponse) {
  auto t0 = Clock::now();
  {
    Loopback lb;
    // tck-cancel stays WORKING until canceled: a blocking send waits for it.
    OpResult r = lb.call("send_message", message("tck-cancel wait"), 300);
    long long waited = ms_since(t0);
    EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
    EXPECT_NE(r.problem.find("deadline"), std::string::npos) << r.problem;
    EXPECT_FALSE(r.deadline_hit);  // the step's deadline, not the scenario's
    EXPECT_GE(waited, 250);
    EXPECT_LT(waited, 2000);
    // The agent keeps serving while the blocked call waits on the pool.
    EXPECT_EQ(lb.call("list_tasks", Json::object()).status, OpResult::Status::kResult);
  }
  // Releasing the agent woke the blocked call (AgentCore::shutdown) and
  // joined the pool, long before the core's 60 s max_block.
  EXPECT_LT(ms_since(t0), 5000);
}

TEST(LoopbackBinding, BlockingCallsBeyondThePoolAreRefusedAsBusyNotQueuedWithoutBound) {
  auto t0 = Clock::now();
  {
    Loopback lb;
    // Each blocking send stays on the pool (tck-cancel never ends by itself);
    // the step gives up after 1 ms. 64 run, 64 wait, the rest are refused.
    int busy = 0, first_busy = -1;
    for (int i = 0; i < 140; ++i) {
      OpResult r = lb.call("send_message", message("tck-cancel wait " + std::to_string(i)), 1);
      EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
      if (r.problem.find("busy") != std::string::npos) {
        ++busy;
        if (first_busy < 0) first_busy = i;
      }
    }
    // At most 128 are taken (64 + 64 waiting: a worker that has not yet picked
    // its call up leaves it counted as waiting), and once full, every later
    // call is refused: none of the blocked ones ends.
    EXPECT_GE(first_busy, 64);
    EXPECT_LE(first_busy, 128);
    EXPECT_EQ(busy, 140 - first_busy);
    // Quick calls do not need the pool.
    EXPECT_EQ(lb.call("list_tasks", Json::object()).status, OpResult::Status::kResult);
  }
  // Releasing the agent ends every blocked call and joins the pool.
  EXPECT_LT(ms_since(t0), 10000);
}

TEST(LoopbackBinding, StreamThatDoesNotEndIsCutAtTheDeadlineWithItsEventsCounted) {
  Loopback lb;
  auto t0 = Clock::now();
  // tck-cancel: the task stays WORKING, so its stream never ends by itself.
  OpResult r = lb.call("send_streaming_message", message("tck-cancel stream"), 300);
  EXPECT_LT(ms_since(t0), 2000);
  EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
  EXPECT_NE(r.problem.find("did not end within the step's deadline, after"), std::string::npos) << r.problem;
  EXPECT_FALSE(r.events.empty()) << "the task came first";
}

TEST(LoopbackBinding, ScenarioDeadlineIsReportedAsDeadlineHit) {
  Loopback lb;
  lb.s.deadline = core::Deadline::after(core::Millis(200));
  OpResult r = lb.call("send_message", message("tck-cancel wait"), 200);
  EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
  EXPECT_TRUE(r.deadline_hit);
}

}  // namespace
}  // namespace a2a::bindings
