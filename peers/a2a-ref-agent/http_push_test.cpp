// Push notification delivery (a2a-protocol.md §5) end to end: an agent on
// HTTP, a webhook receiver on the transport's HttpServer, every status and
// artifact update POSTed as a StreamResponse with the config's headers.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "peers/a2a-ref-agent/http_push.hpp"
#include "peers/a2a-ref-agent/http_test_support.hpp"

namespace a2a::agent {
namespace {

using namespace testing;
using transport::HttpServer;
using transport::ServerReply;
using transport::ServerRequest;

// Records what webhooks receive; answers 500 to the first `fail_first` POSTs.
class Receiver {
 public:
  explicit Receiver(int fail_first = 0) : fail_left_(fail_first) {
    auto s = HttpServer::start({}, [this](std::shared_ptr<transport::HttpExchange> ex) {
      int status = 200;
      {
        std::lock_guard<std::mutex> lk(mu_);
        if (fail_left_ > 0) {
          --fail_left_;
          status = 500;
        } else {
          got_.push_back(ex->request());
        }
      }
      cv_.notify_all();
      ex->reply(ServerReply{status, {}, "", false});
    });
    EXPECT_TRUE(s.ok());
    if (s.ok()) server_ = std::move(*s);
  }
  std::string url(const std::string& path = "/hook") const {
    return "http://127.0.0.1:" + std::to_string(server_->port()) + path;
  }
  // The requests received once `n` arrived (or what came before the deadline).
  std::vector<ServerRequest> wait_for(size_t n, core::Millis d = core::Millis(8000)) {
    std::unique_lock<std::mutex> lk(mu_);
    cv_.wait_until(lk, core::Deadline::after(d).time(), [&] { return got_.size() >= n; });
    return got_;
  }
  // The state of a statusUpdate body ("" for others).
  static std::string state(const ServerRequest& r) {
    Json b = Json::parse(r.body, nullptr, false);
    if (!b.is_object() || !b.contains("statusUpdate")) return "";
    return b["statusUpdate"]["status"]["state"];
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<ServerRequest> got_;
  int fail_left_;
  std::unique_ptr<HttpServer> server_;
};

Json push_config(const Receiver& rx) {
  return {{"url", rx.url()},
          {"token", "tok-1"},
          {"authentication", {{"scheme", "Bearer"}, {"credentials", "s3cr3t"}}}};
}

// A tck-long-running task with a webhook registered over REST; the updates after registration.
std::vector<ServerRequest> run_with_webhook(Faults faults, Receiver& rx, size_t expect,
                                           core::Millis wait = core::Millis(8000)) {
  auto agent = start_agent(faults);
  std::string id = new_task(*agent, "tck-long-running delay=400", true);
  EXPECT_EQ(rest(*agent, "POST", "/tasks/" + id + "/pushNotificationConfigs", push_config(rx)).status, 200);
  return rx.wait_for(expect, wait);
}

TEST(HttpPush, EveryUpdateIsPostedAsAStreamResponseWithTheConfigHeaders) {
  Receiver rx;
  auto got = run_with_webhook({}, rx, 2);
  ASSERT_EQ(got.size(), 2u) << "the artifact and the terminal status";
  EXPECT_EQ(kind_of(Json::parse(got[0].body)), "artifactUpdate");
  EXPECT_EQ(Receiver::state(got[1]), "TASK_STATE_COMPLETED");
  for (const auto& r : got) {
    EXPECT_EQ(r.method, "POST");
    EXPECT_EQ(r.path(), "/hook");
    EXPECT_EQ(r.header("Content-Type"), "application/a2a+json");
    EXPECT_EQ(r.header("Authorization"), "Bearer s3cr3t");
    EXPECT_EQ(r.header("X-A2A-Notification-Token"), "tok-1");
  }
}

TEST(HttpPush, ConfigGivenWithTheSendGetsEveryEventInOrder) {
  Receiver rx;
  auto agent = start_agent();
  Json cfg = {{"taskPushNotificationConfig", {{"url", rx.url()}}}};
  RawResponse r = rpc(*agent, "SendMessage", msg_params("tck-stream-basic", cfg));
  EXPECT_EQ(r.status, 200);
  auto got = rx.wait_for(3);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(Receiver::state(got[0]), "TASK_STATE_WORKING");
  EXPECT_EQ(kind_of(Json::parse(got[1].body)), "artifactUpdate");
  EXPECT_EQ(Receiver::state(got[2]), "TASK_STATE_COMPLETED");
  EXPECT_FALSE(got[0].header("Authorization")) << "no authentication configured";
  EXPECT_FALSE(got[0].header("X-A2A-Notification-Token"));
}

TEST(HttpPush, AFailedPostIsRetriedOnce) {
  Receiver rx(1);
  PushDelivery push(PushOptions{Faults{}, -1, core::Millis(2000), core::Millis(50)});
  push.enqueue({{"url", rx.url()}, {"id", "c"}, {"taskId", "t"}}, {{"statusUpdate", {{"taskId", "t"}}}});
  auto got = rx.wait_for(1);
  ASSERT_EQ(got.size(), 1u);
  push.stop(core::Millis(1000));
  EXPECT_EQ(push.stats().delivered, 1u);
  EXPECT_EQ(push.stats().failed, 0u);
}

TEST(HttpPush, UnreachableWebhookIsLoggedNotRaisedAndStopIsPrompt) {
  PushDelivery push(PushOptions{Faults{}, -1, core::Millis(500), core::Millis(20)});
  push.enqueue({{"url", "http://127.0.0.1:1/none"}, {"id", "c"}}, Json::object());
  push.enqueue({{"url", "not a url"}, {"id", "c"}}, Json::object());
  auto deadline = soon();
  while (push.stats().failed < 2 && !deadline.expired()) std::this_thread::sleep_for(core::Millis(10));
  EXPECT_EQ(push.stats().failed, 2u);
  auto t0 = core::Clock::now();
  push.stop(core::Millis(200));
  EXPECT_LT(core::Clock::now() - t0, std::chrono::seconds(3));
}

TEST(HttpPush, DeletedConfigGetsNothingMore) {
  Receiver rx;
  auto agent = start_agent();
  std::string id = new_task(*agent, "tck-cancel", true);
  ASSERT_EQ(rest(*agent, "POST", "/tasks/" + id + "/pushNotificationConfigs", {{"url", rx.url()}, {"id", "c1"}}).status,
            200);
  ASSERT_EQ(rest(*agent, "DELETE", "/tasks/" + id + "/pushNotificationConfigs/c1").status, 204);
  rest(*agent, "POST", "/tasks/" + id + ":cancel");
  EXPECT_TRUE(rx.wait_for(1, core::Millis(500)).empty());
}

// The core's hook, whatever the binding (stdio mode uses the same sink).
TEST(HttpPush, CoreCallsTheSinkOnlyForEventsAfterTheConfigExists) {
  std::mutex mu;
  std::vector<std::pair<Json, Json>> calls;
  AgentConfig cfg = fast_config();
  cfg.push_sink = [&](const Json& config, const Json& body) {
    std::lock_guard<std::mutex> lk(mu);
    calls.emplace_back(config, body);
  };
  AgentCore core(cfg);
  Json task = send_task(core, "tck-cancel", {{"returnImmediately", true}});
  ASSERT_TRUE(task.is_object());
  std::string id = task["id"];
  ASSERT_TRUE(core.call(model::Operation::kCreatePushConfig, {{"taskId", id}, {"url", "http://h/x"}, {"id", "c"}}).ok());
  {
    std::lock_guard<std::mutex> lk(mu);
    EXPECT_TRUE(calls.empty()) << "WORKING was logged before the config";
  }
  ASSERT_TRUE(core.call(model::Operation::kCancelTask, {{"id", id}}).ok());
  std::lock_guard<std::mutex> lk(mu);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].first["id"], "c");
  EXPECT_EQ(calls[0].second["statusUpdate"]["status"]["state"], "TASK_STATE_CANCELED");
}

// ---------------------------------------------------------------------------
// push-* faults: each removes exactly one property of the delivery.

TEST(HttpPushFaults, NoDeliverySendsNothing) {
  Receiver rx;
  Faults f;
  f.add(Fault::kPushNoDelivery);
  EXPECT_TRUE(run_with_webhook(f, rx, 1, core::Millis(1500)).empty());
}

TEST(HttpPushFaults, NoAuthHeaderDropsOnlyAuthorization) {
  Receiver rx;
  Faults f;
  f.add(Fault::kPushNoAuthHeader);
  auto got = run_with_webhook(f, rx, 2);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_FALSE(got[0].header("Authorization"));
  EXPECT_EQ(got[0].header("X-A2A-Notification-Token"), "tok-1");
}

TEST(HttpPushFaults, NoTokenHeaderDropsOnlyTheToken) {
  Receiver rx;
  Faults f;
  f.add(Fault::kPushNoTokenHeader);
  auto got = run_with_webhook(f, rx, 2);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_FALSE(got[0].header("X-A2A-Notification-Token"));
  EXPECT_EQ(got[0].header("Authorization"), "Bearer s3cr3t");
}

TEST(HttpPushFaults, BareTaskBodyIsTheTaskObject) {
  Receiver rx;
  Faults f;
  f.add(Fault::kPushBareTaskBody);
  auto got = run_with_webhook(f, rx, 2);
  ASSERT_EQ(got.size(), 2u);
  Json body = Json::parse(got[1].body);
  EXPECT_TRUE(body.contains("id"));
  EXPECT_EQ(body["status"]["state"], "TASK_STATE_COMPLETED");
  EXPECT_TRUE(model::stream_response_kind(body).empty()) << "not a StreamResponse";
}

}  // namespace
}  // namespace a2a::agent
