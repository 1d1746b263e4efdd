// The REST binding (spec §11): every operation, streams, the error table,
// protections (400/413/414), media types, 405, tenant paths.
#include <gtest/gtest.h>

#include "peers/a2a-ref-agent/http_test_support.hpp"

namespace a2a::agent {
namespace {

using namespace testing;

class HttpRest : public ::testing::Test {
 protected:
  void SetUp() override {
    HttpAgentOptions o;
    o.tenant = "acme";
    agent = start_agent({}, o);
    ASSERT_TRUE(agent);
  }
  Json ok(const RawResponse& r, int status = 200) {
    EXPECT_EQ(r.status, status) << r.body;
    EXPECT_EQ(r.header("Content-Type"), "application/json");
    return body_json(r);
  }
  // The google.rpc.Status of an error response.
  Json status_of(const RawResponse& r, int http) {
    EXPECT_EQ(r.status, http) << r.body;
    Json j = body_json(r);
    EXPECT_TRUE(j.contains("error")) << r.body;
    Json e = j.value("error", Json::object());
    EXPECT_EQ(e.value("code", 0), http);
    EXPECT_TRUE(e.contains("message"));
    return e;
  }
  std::unique_ptr<HttpAgent> agent;
};

TEST_F(HttpRest, EveryUnaryOperationAnswers) {
  Json sent = ok(rest(*agent, "POST", "/message:send", msg_params("hello")));
  std::string id = sent["task"]["id"];
  Json got = ok(rest(*agent, "GET", "/tasks/" + id + "?historyLength=1"));
  EXPECT_EQ(got["id"], id);
  EXPECT_EQ(got["history"].size(), 1u);
  Json list = ok(rest(*agent, "GET", "/tasks?pageSize=1&includeArtifacts=true"));
  EXPECT_EQ(list["tasks"].size(), 1u);
  EXPECT_TRUE(list["tasks"][0].contains("artifacts"));
  std::string working = new_task(*agent, "tck-cancel", true);
  EXPECT_EQ(state_of(ok(rest(*agent, "POST", "/tasks/" + working + ":cancel"))), "TASK_STATE_CANCELED");
  Json cfg = ok(rest(*agent, "POST", "/tasks/" + id + "/pushNotificationConfigs",
                     {{"url", "http://127.0.0.1:9/hook"}, {"id", "c1"}, {"taskId", "ignored"}}));
  EXPECT_EQ(cfg["taskId"], id) << "the path overrides the body's taskId";
  EXPECT_EQ(ok(rest(*agent, "GET", "/tasks/" + id + "/pushNotificationConfigs/c1"))["id"], "c1");
  EXPECT_EQ(ok(rest(*agent, "GET", "/tasks/" + id + "/pushNotificationConfigs?pageSize=5"))["configs"].size(), 1u);
  RawResponse del = rest(*agent, "DELETE", "/tasks/" + id + "/pushNotificationConfigs/c1");
  EXPECT_EQ(del.status, 204);
  EXPECT_TRUE(del.body.empty());
  EXPECT_EQ(ok(rest(*agent, "GET", "/tasks/" + id + "/pushNotificationConfigs"))["configs"].size(), 0u);
  EXPECT_EQ(ok(rest(*agent, "GET", "/extendedAgentCard"))["name"], "a2a-ref-agent");
}

TEST_F(HttpRest, StreamIsSseOfBareStreamResponses) {
  RawResponse r = rest(*agent, "POST", "/message:stream", msg_params("tck-stream-chunked"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("Content-Type"), "text/event-stream");
  EXPECT_TRUE(r.complete);
  auto events = sse_data(r.body);
  ASSERT_EQ(events.size(), 6u) << r.body;
  EXPECT_EQ(kind_of(events[0]), "task");
  EXPECT_FALSE(events[0].contains("jsonrpc"));
  for (int i = 2; i < 5; ++i) EXPECT_EQ(kind_of(events[i]), "artifactUpdate");
  EXPECT_EQ(events[5]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
}

TEST_F(HttpRest, SubscribeAcceptsGetAndPost) {
  for (const std::string verb : {"GET", "POST"}) {
    std::string id = new_task(*agent, "tck-long-running delay=300", true);
    RawResponse r = rest(*agent, verb, "/tasks/" + id + ":subscribe");
    auto events = sse_data(r.body);
    ASSERT_GE(events.size(), 2u) << verb << ": " << r.body;
    EXPECT_EQ(kind_of(events[0]), "task");
    EXPECT_EQ(events.back()["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED") << verb;
  }
}

TEST_F(HttpRest, MidStreamErrorIsAnErrorObjectEvent) {
  RawResponse r = rest(*agent, "POST", "/message:stream", msg_params("tck-stream-error"));
  auto events = sse_data(r.body);
  auto err = std::find_if(events.begin(), events.end(), [](const Json& e) { return e.contains("error"); });
  ASSERT_NE(err, events.end()) << r.body;
  EXPECT_EQ((*err)["error"]["code"], 500);
  EXPECT_EQ((*err)["error"]["status"], "INTERNAL");
  EXPECT_EQ(&*err, &events.back()) << "the error ends the stream: " << r.body;
  EXPECT_NE(r.body.find("event: error\n"), std::string::npos) << r.body;
}

TEST_F(HttpRest, A2AErrorsFollowTheV101TableWithErrorInfo) {
  Json nf = status_of(rest(*agent, "GET", "/tasks/nope"), 404);
  EXPECT_EQ(nf["status"], "NOT_FOUND");
  EXPECT_EQ(error_reason(nf["details"]), "TASK_NOT_FOUND");
  EXPECT_EQ(nf["details"][0]["domain"], "a2a-protocol.org");
  std::string done = new_task(*agent, "hello");
  Json nc = status_of(rest(*agent, "POST", "/tasks/" + done + ":cancel", Json::object()), 400);
  EXPECT_EQ(nc["status"], "FAILED_PRECONDITION");
  EXPECT_EQ(error_reason(nc["details"]), "TASK_NOT_CANCELABLE");
  Json uo = status_of(rest(*agent, "POST", "/tasks/" + done + ":subscribe"), 400);
  EXPECT_EQ(error_reason(uo["details"]), "UNSUPPORTED_OPERATION");
  Json ct = status_of(rest(*agent, "POST", "/message:send",
                           {{"message", user_message("x", {{"parts", {{{"text", "x"}, {"mediaType", "video/mp4"}}}}})}}),
                      400);
  EXPECT_EQ(ct["status"], "INVALID_ARGUMENT");
  EXPECT_EQ(error_reason(ct["details"]), "CONTENT_TYPE_NOT_SUPPORTED");
  Json ip = status_of(rest(*agent, "POST", "/message:send", Json{{"message", {{"role", "ROLE_USER"}}}}), 400);
  EXPECT_EQ(ip["status"], "INVALID_ARGUMENT");
  EXPECT_EQ(ip["details"][0]["@type"], "type.googleapis.com/google.rpc.BadRequest");
}

TEST_F(HttpRest, BindingErrors) {
  EXPECT_EQ(status_of(rest(*agent, "GET", "/nowhere"), 404)["status"], "NOT_FOUND");
  RawResponse wrong = rest(*agent, "DELETE", "/tasks");
  EXPECT_EQ(status_of(wrong, 405)["status"], "UNIMPLEMENTED");
  EXPECT_EQ(wrong.header("Allow"), "GET");
  EXPECT_EQ(status_of(rest(*agent, "GET", "/tasks?pageSize=many"), 400)["status"], "INVALID_ARGUMENT");
  EXPECT_EQ(status_of(http(*agent, "POST", "/message:send", kJson, std::string("{bad")), 400)["status"],
            "INVALID_ARGUMENT");
  EXPECT_EQ(status_of(http(*agent, "POST", "/message:send", kJson, std::string("[]")), 400)["status"],
            "INVALID_ARGUMENT");
  RawResponse text = http(*agent, "POST", "/message:send", {{"Content-Type", "text/plain"}, {"A2A-Version", "1.0"}},
                          msg_params("x").dump());
  status_of(text, 415);
  RawResponse none = http(*agent, "POST", "/message:send", kV1, msg_params("x").dump());
  status_of(none, 415);
}

TEST_F(HttpRest, VersionErrorIs400FailedPrecondition) {
  Json e = status_of(rest(*agent, "GET", "/extendedAgentCard", nullptr, {}), 400);
  EXPECT_EQ(e["status"], "FAILED_PRECONDITION");
  EXPECT_EQ(error_reason(e["details"]), "VERSION_NOT_SUPPORTED");
  EXPECT_EQ(rest(*agent, "GET", "/extendedAgentCard?A2A-Version=1.0", nullptr, {}).status, 200);
  EXPECT_EQ(rest(*agent, "GET", "/extendedAgentCard", nullptr, {{"A2A-Version", "1.1"}}).status, 400);
}

TEST_F(HttpRest, ContentTypeFollowsTheRequest) {
  HeaderList a2a = {{"Content-Type", "application/a2a+json"}, {"A2A-Version", "1.0"}};
  RawResponse sent = rest(*agent, "POST", "/message:send", msg_params("hello"), a2a);
  EXPECT_EQ(sent.status, 200);
  EXPECT_EQ(sent.header("Content-Type"), "application/a2a+json");
  RawResponse accept = rest(*agent, "GET", "/tasks/nope", nullptr, {{"Accept", "application/a2a+json"}, {"A2A-Version", "1.0"}});
  EXPECT_EQ(accept.header("Content-Type"), "application/a2a+json");
  EXPECT_EQ(rest(*agent, "GET", "/tasks/nope").header("Content-Type"), "application/json");
}

TEST_F(HttpRest, DotSegmentsAre400EvenEncoded) {
  for (std::string path : {"/tasks/..", "/tasks/.", "/tasks/%2e%2e", "/tasks/%2E.", "/x/../tasks", "/%2e%2e/tasks"}) {
    Json e = status_of(rest(*agent, "GET", path), 400);
    EXPECT_EQ(e["status"], "INVALID_ARGUMENT") << path;
  }
  EXPECT_EQ(rest(*agent, "GET", "/tasks/...").status, 404) << "three dots are an ordinary id";
}

TEST_F(HttpRest, LimitsAre413And414) {
  Json big = msg_params(std::string(5u << 20, 'x'));
  Json e413 = status_of(rest(*agent, "POST", "/message:send", big), 413);
  EXPECT_NE(e413["message"].get<std::string>().find("4194304"), std::string::npos);
  status_of(rest(*agent, "GET", "/tasks?contextId=" + std::string(5000, 'c')), 414);
  EXPECT_EQ(rest(*agent, "GET", "/tasks?contextId=" + std::string(4000, 'c')).status, 200);
}

TEST_F(HttpRest, TenantPathsAndUntenantedPathsBothWork) {
  std::string id = new_task(*agent, "hello");
  EXPECT_EQ(ok(rest(*agent, "GET", "/acme/tasks/" + id))["id"], id);
  EXPECT_EQ(ok(rest(*agent, "POST", "/acme/message:send", msg_params("hello")))["task"]["status"]["state"],
            "TASK_STATE_COMPLETED");
  EXPECT_EQ(status_of(rest(*agent, "GET", "/other/tasks/" + id), 404)["status"], "NOT_FOUND");
  Json card = ok(rest(*agent, "GET", "/acme/extendedAgentCard"));
  for (const auto& i : card["supportedInterfaces"]) EXPECT_EQ(i["tenant"], "acme");
}

TEST_F(HttpRest, PercentEncodedIdsReachTheCore) {
  std::string id = new_task(*agent, "hello");
  Json cfg = ok(rest(*agent, "POST", "/tasks/" + id + "/pushNotificationConfigs",
                     {{"url", "http://127.0.0.1:9/h"}, {"id", "a:b/c d"}}));
  EXPECT_EQ(cfg["id"], "a:b/c d");
  EXPECT_EQ(ok(rest(*agent, "GET", "/tasks/" + id + "/pushNotificationConfigs/a%3Ab%2Fc%20d"))["id"], "a:b/c d");
  Json nf = status_of(rest(*agent, "GET", "/tasks/x%3Ay"), 404);
  EXPECT_NE(nf["message"].get<std::string>().find("x:y"), std::string::npos);
}

}  // namespace
}  // namespace a2a::agent
