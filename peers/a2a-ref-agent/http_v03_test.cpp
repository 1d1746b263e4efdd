// A2A 0.3 JSON-RPC served beside 1.0 (--serve-0.3) on a real agent on
// 127.0.0.1:0: every 0.3 method answers in the 0.3 shape, streams end with
// final:true, errors keep the 0.3 codes, the version rule picks the dialect,
// 1.0 is unchanged, the card declares both, and the v03-* faults show.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "peers/a2a-ref-agent/http_test_support.hpp"
#include "runner/a2a/v03.hpp"

namespace a2a::agent {
namespace {

using namespace testing;

const HeaderList kNoVersion = {{"Content-Type", "application/json"}};
const HeaderList kV03 = {{"Content-Type", "application/json"}, {"A2A-Version", "0.3"}};

std::unique_ptr<HttpAgent> start_v03(Faults faults = {}) {
  HttpAgentOptions o;
  o.serve_v03 = true;
  return start_agent(faults, o);
}

Json v03_message(const std::string& text, const Json& extra = Json::object()) {
  static std::atomic<int> n{0};
  Json m = {{"kind", "message"},
            {"messageId", "m-v03-" + std::to_string(++n)},
            {"role", "user"},
            {"parts", Json::array({{{"kind", "text"}, {"text", text}}})}};
  m.update(extra);
  return m;
}

Json v03_send(const std::string& text, const Json& extra = Json::object()) {
  return {{"message", v03_message(text, extra)}, {"configuration", {{"blocking", true}}}};
}

class HttpV03 : public ::testing::Test {
 protected:
  void SetUp() override {
    agent = start_v03();
    ASSERT_TRUE(agent);
  }
  Json call(const std::string& method, const Json& params, const HeaderList& headers = kNoVersion) {
    RawResponse r = rpc(*agent, method, params, 1, headers);
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.header("A2A-Version"), "0.3");
    Json j = body_json(r);
    EXPECT_TRUE(j.contains("result")) << method << ": " << r.body;
    return j.value("result", Json());
  }
  Json error_of(const std::string& method, const Json& params, const HeaderList& headers = kNoVersion) {
    Json j = body_json(rpc(*agent, method, params, 1, headers));
    EXPECT_TRUE(j.contains("error")) << method << ": " << j.dump();
    return j.value("error", Json());
  }
  std::unique_ptr<HttpAgent> agent;
};

TEST_F(HttpV03, MessageSendAnswersABareTaskInThe03Shape) {
  Json task = call("message/send", v03_send("hello"));
  EXPECT_FALSE(task.contains("task")) << "no 1.0 wrapper";
  EXPECT_EQ(task["kind"], "task");
  EXPECT_EQ(task["status"]["state"], "completed");
  ASSERT_TRUE(task["history"].is_array() && !task["history"].empty());
  EXPECT_EQ(task["history"][0]["kind"], "message");
  EXPECT_EQ(task["history"][0]["role"], "user");
  EXPECT_EQ(task["history"].back()["role"], "agent");
  EXPECT_EQ(task["artifacts"][0]["parts"][0]["kind"], "text");
  EXPECT_EQ(task["artifacts"][0]["parts"][0]["text"], "Echo: hello");
}

TEST_F(HttpV03, MessageReplyIsABareMessageWithKind) {
  Json m = call("message/send", v03_send("tck-message-response hi"));
  EXPECT_EQ(m["kind"], "message");
  EXPECT_EQ(m["role"], "agent");
  EXPECT_EQ(m["parts"][0]["kind"], "text");
}

TEST_F(HttpV03, FilePartsTravelInThe03FileObject) {
  Json task = call("message/send", v03_send("tck-artifact-file"));
  Json part = task["artifacts"][0]["parts"][0];
  EXPECT_EQ(part["kind"], "file");
  EXPECT_EQ(part["file"]["name"], "hello.txt");
  EXPECT_EQ(part["file"]["mimeType"], "text/plain");
  EXPECT_TRUE(part["file"].contains("bytes")) << part.dump();
}

TEST_F(HttpV03, GetCancelAndInterruptedStatesAnswerIn03) {
  std::string id = call("message/send", v03_send("hello"))["id"];
  Json got = call("tasks/get", {{"id", id}, {"historyLength", 0}});
  EXPECT_EQ(got["kind"], "task");
  EXPECT_EQ(got["id"], id);
  EXPECT_FALSE(got.contains("history"));
  Json working = call("message/send", {{"message", v03_message("tck-cancel")}, {"configuration", {{"blocking", false}}}});
  EXPECT_EQ(working["status"]["state"], "working");
  EXPECT_EQ(call("tasks/cancel", {{"id", working["id"]}})["status"]["state"], "canceled");
  EXPECT_EQ(call("message/send", v03_send("tck-input-required"))["status"]["state"], "input-required");
}

TEST_F(HttpV03, PushConfigMethodsUseThe03ObjectsAndParams) {
  std::string id = call("message/send", v03_send("hello"))["id"];
  Json set = call("tasks/pushNotificationConfig/set",
                  {{"taskId", id}, {"pushNotificationConfig", {{"url", "http://127.0.0.1:9/hook"}, {"token", "t"}}}});
  EXPECT_EQ(set["taskId"], id);
  ASSERT_TRUE(set["pushNotificationConfig"].contains("id")) << set.dump();
  EXPECT_FALSE(set.contains("url")) << "the config is nested in 0.3";
  Json cid = set["pushNotificationConfig"]["id"];
  Json got = call("tasks/pushNotificationConfig/get", {{"id", id}, {"pushNotificationConfigId", cid}});
  EXPECT_EQ(got["pushNotificationConfig"]["url"], "http://127.0.0.1:9/hook");
  Json list = call("tasks/pushNotificationConfig/list", {{"id", id}});
  ASSERT_TRUE(list.is_array()) << "a bare array in 0.3: " << list.dump();
  EXPECT_EQ(list.size(), 1u);
  EXPECT_TRUE(call("tasks/pushNotificationConfig/delete", {{"id", id}, {"pushNotificationConfigId", cid}}).is_null());
  EXPECT_TRUE(call("tasks/pushNotificationConfig/list", {{"id", id}}).empty());
}

TEST_F(HttpV03, ExtendedCardIsA03CardAndNeedsCredentials) {
  HeaderList bearer = {{"Content-Type", "application/json"}, {"Authorization", "Bearer a2a-conform"}};
  Json card = call("agent/getAuthenticatedExtendedCard", nullptr, bearer);
  EXPECT_EQ(card["name"], "a2a-ref-agent");
  EXPECT_EQ(card["url"], agent->url());
  EXPECT_EQ(card["preferredTransport"], "JSONRPC");
  EXPECT_FALSE(card.contains("supportedInterfaces"));
  RawResponse r = rpc(*agent, "agent/getAuthenticatedExtendedCard", nullptr, 1,
                      {{"Content-Type", "application/json"}, {"Authorization", "none"}});
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(body_json(r)["error"]["code"], kUnauthenticatedCode);
}

// The SSE events of a 0.3 stream, each a JSON-RPC response with id `id`; the results.
std::vector<Json> stream_results(const RawResponse& r, const Json& id) {
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("Content-Type"), "text/event-stream");
  EXPECT_TRUE(r.complete) << "the body ends after the final event";
  std::vector<Json> out;
  for (const auto& e : sse_data(r.body)) {
    EXPECT_EQ(e["id"], id);
    out.push_back(e.value("result", Json()));
  }
  return out;
}

TEST_F(HttpV03, StreamItemsAreBareEventsAndTheLastStatusUpdateIsFinal) {
  auto events = stream_results(rpc(*agent, "message/stream", v03_send("tck-stream-basic"), "s-1", kNoVersion), "s-1");
  ASSERT_EQ(events.size(), 4u);
  std::vector<std::string> kinds;
  for (const auto& e : events) kinds.push_back(e.value("kind", ""));
  EXPECT_EQ(kinds, (std::vector<std::string>{"task", "status-update", "artifact-update", "status-update"}));
  EXPECT_EQ(events[0]["status"]["state"], "submitted");
  EXPECT_EQ(events[1]["final"], false);
  EXPECT_EQ(events[3]["status"]["state"], "completed");
  EXPECT_EQ(events[3]["final"], true);
}

TEST_F(HttpV03, ResubscribeFollowsTheTaskToAFinalCanceledUpdate) {
  std::string id =
      call("message/send", {{"message", v03_message("tck-cancel")}, {"configuration", {{"blocking", false}}}})["id"];
  std::thread canceler([&] {
    std::this_thread::sleep_for(core::Millis(300));
    rpc(*agent, "tasks/cancel", {{"id", id}}, 2, kNoVersion);
  });
  auto events = stream_results(rpc(*agent, "tasks/resubscribe", {{"id", id}}, 7, kNoVersion), 7);
  canceler.join();
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events.front()["kind"], "task");
  EXPECT_EQ(events.back()["kind"], "status-update");
  EXPECT_EQ(events.back()["status"]["state"], "canceled");
  EXPECT_EQ(events.back()["final"], true);
}

TEST_F(HttpV03, A2AErrorsKeepThe03Codes) {
  EXPECT_EQ(error_of("tasks/get", {{"id", "no-such-task"}})["code"], -32001);
  std::string done = call("message/send", v03_send("hello"))["id"];
  EXPECT_EQ(error_of("tasks/cancel", {{"id", done}})["code"], -32002);
  EXPECT_EQ(error_of("message/send", v03_send("again", {{"taskId", done}}))["code"], -32004);
  RawResponse r = rpc(*agent, "message/stream", v03_send("again", {{"taskId", done}}), 3, kNoVersion);
  EXPECT_EQ(r.header("Content-Type"), "application/json") << "refused before the first event: no SSE";
  EXPECT_EQ(body_json(r)["error"]["code"], -32004);
}

TEST_F(HttpV03, BadParamsAreInvalidParams) {
  EXPECT_EQ(error_of("message/send", {{"configuration", {{"blocking", true}}}})["code"], -32602);
  Json e = error_of("message/send", {{"message", v03_message("hi", {{"parts", "not a list"}})}});
  EXPECT_EQ(e["code"], -32602);
  EXPECT_NE(e.value("message", "").find("parts"), std::string::npos) << e.dump();
}

TEST_F(HttpV03, VersionRulePicksTheDialect) {
  // An explicit 0.3 (patch ignored) is 0.3 too.
  EXPECT_EQ(call("message/send", v03_send("hello"), kV03)["kind"], "task");
  HeaderList patch = {{"Content-Type", "application/json"}, {"A2A-Version", "0.3.2"}};
  EXPECT_EQ(call("message/send", v03_send("hello"), patch)["kind"], "task");
  // 0.3 names no method ListTasks / GetTask: a 1.0 name without the header is -32009, other names -32601.
  EXPECT_EQ(error_of("GetTask", {{"id", "x"}})["code"], -32009);
  EXPECT_EQ(error_of("tasks/frobnicate", {{"id", "x"}})["code"], -32601);
  // Any other version is refused, whatever the method.
  HeaderList v99 = {{"Content-Type", "application/json"}, {"A2A-Version", "9.9"}};
  Json e = error_of("message/send", v03_send("hello"), v99);
  EXPECT_EQ(e["code"], -32009);
  EXPECT_NE(e.value("message", "").find("0.3"), std::string::npos) << "names what is served: " << e.dump();
  // 1.0 asks for 1.0: the 0.3 names are unknown there.
  EXPECT_EQ(error_of("message/send", v03_send("hello"), kJson)["code"], -32601);
}

TEST_F(HttpV03, OneDotZeroRequestsAreUnchanged) {
  RawResponse r = rpc(*agent, "SendMessage", msg_params("hello"), 1, kJson);
  EXPECT_EQ(r.header("A2A-Version"), "1.0");
  Json sent = body_json(r)["result"];
  ASSERT_TRUE(sent.contains("task")) << sent.dump();
  EXPECT_FALSE(sent["task"].contains("kind"));
  EXPECT_EQ(state_of(sent["task"]), "TASK_STATE_COMPLETED");
  RawResponse s = rpc(*agent, "SendStreamingMessage", msg_params("tck-stream-basic"), 2, kJson);
  auto events = sse_data(s.body);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(kind_of(events[3]["result"]), "statusUpdate");
  EXPECT_FALSE(events[3]["result"]["statusUpdate"].contains("final"));
}

TEST(HttpV03Off, WithoutTheFlagAMissingVersionIsRefused) {
  auto agent = start_agent();
  ASSERT_TRUE(agent);
  Json j = body_json(rpc(*agent, "message/send", v03_send("hello"), 1, kNoVersion));
  EXPECT_EQ(j["error"]["code"], -32009);
  Json card = body_json(http(*agent, "GET", std::string(kCardPath)));
  EXPECT_FALSE(card.contains("url"));
  EXPECT_FALSE(card.contains("protocolVersion"));
  EXPECT_EQ(card["supportedInterfaces"].size(), 2u);
}

TEST_F(HttpV03, CardDeclaresThe03InterfaceAndCarriesThe03Members) {
  Json card = body_json(http(*agent, "GET", std::string(kCardPath)));
  ASSERT_EQ(card["supportedInterfaces"].size(), 3u);
  EXPECT_EQ(card["supportedInterfaces"][0]["protocolVersion"], "1.0") << "1.0 stays preferred";
  Json last = card["supportedInterfaces"][2];
  EXPECT_EQ(last["protocolBinding"], "JSONRPC");
  EXPECT_EQ(last["protocolVersion"], "0.3");
  EXPECT_EQ(card["url"], agent->url());
  EXPECT_EQ(card["preferredTransport"], "JSONRPC");
  EXPECT_EQ(card["protocolVersion"], "0.3.0");
  EXPECT_EQ(card["additionalInterfaces"][0]["transport"], "JSONRPC");
  EXPECT_EQ(card["supportsAuthenticatedExtendedCard"], true);
  EXPECT_TRUE(card["securitySchemes"]["bearer"].contains("httpAuthSecurityScheme")) << "1.0 shape kept";
  // A 1.0 reader of the merged card sees the 1.0 interfaces (the list wins over the 0.3 keys).
  Json v1 = model::v03::card_to_v1(card).json;
  EXPECT_EQ(v1["supportedInterfaces"], card["supportedInterfaces"]);
  EXPECT_FALSE(v1.contains("url"));
}

// --- faults ------------------------------------------------------------------

TEST(HttpV03Faults, NoFinalLeavesTheLastStatusUpdateOpen) {
  auto agent = start_v03(faults_of({Fault::kV03NoFinal}));
  ASSERT_TRUE(agent);
  auto events = sse_data(rpc(*agent, "message/stream", v03_send("tck-stream-basic"), 1, kNoVersion).body);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[3]["result"]["status"]["state"], "completed");
  EXPECT_EQ(events[3]["result"]["final"], false);
}

TEST(HttpV03Faults, V1StatesWritesTheOneDotZeroNames) {
  auto agent = start_v03(faults_of({Fault::kV03V1States}));
  ASSERT_TRUE(agent);
  Json task = body_json(rpc(*agent, "message/send", v03_send("hello"), 1, kNoVersion))["result"];
  EXPECT_EQ(task["kind"], "task");
  EXPECT_EQ(task["status"]["state"], "TASK_STATE_COMPLETED");
  auto events = sse_data(rpc(*agent, "message/stream", v03_send("tck-stream-basic"), 2, kNoVersion).body);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[3]["result"]["status"]["state"], "TASK_STATE_COMPLETED");
  // 1.0 answers are what they always were.
  Json v1 = body_json(rpc(*agent, "SendMessage", msg_params("hello"), 3, kJson))["result"];
  EXPECT_EQ(state_of(v1["task"]), "TASK_STATE_COMPLETED");
}

TEST(HttpV03Faults, WrappedResultAnswersTheOneDotZeroWrapper) {
  auto agent = start_v03(faults_of({Fault::kV03WrappedResult}));
  ASSERT_TRUE(agent);
  Json r = body_json(rpc(*agent, "message/send", v03_send("hello"), 1, kNoVersion))["result"];
  ASSERT_TRUE(r.contains("task")) << r.dump();
  EXPECT_FALSE(r.contains("kind"));
  EXPECT_EQ(r["task"]["status"]["state"], "completed");
}

TEST(HttpV03Faults, NoKindDropsEveryDiscriminator) {
  auto agent = start_v03(faults_of({Fault::kV03NoKind}));
  ASSERT_TRUE(agent);
  Json task = body_json(rpc(*agent, "message/send", v03_send("hello"), 1, kNoVersion))["result"];
  EXPECT_FALSE(task.contains("kind")) << task.dump();
  EXPECT_EQ(task["status"]["state"], "completed");
  ASSERT_TRUE(task["history"].is_array() && !task["history"].empty()) << task.dump();
  EXPECT_FALSE(task["history"][0].contains("kind"));
  EXPECT_FALSE(task["history"][0]["parts"][0].contains("kind"));
  auto events = sse_data(rpc(*agent, "message/stream", v03_send("tck-stream-basic"), 2, kNoVersion).body);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_FALSE(events[3]["result"].contains("kind"));
  EXPECT_EQ(events[3]["result"]["final"], true);
}

TEST(HttpV03Faults, ErrorCodesAnswersInternalError) {
  auto agent = start_v03(faults_of({Fault::kV03ErrorCodes}));
  ASSERT_TRUE(agent);
  Json e = body_json(rpc(*agent, "tasks/get", {{"id", "no-such-task"}}, 1, kNoVersion))["error"];
  EXPECT_EQ(e["code"], -32603) << e.dump();
  Json v1 = body_json(rpc(*agent, "GetTask", {{"id", "no-such-task"}}, 2, kJson))["error"];
  EXPECT_EQ(v1["code"], -32001) << "1.0 errors are untouched";
}

TEST(HttpV03Faults, NoCardFieldsLeavesTheCardOneDotZeroOnly) {
  auto agent = start_v03(faults_of({Fault::kV03NoCardFields}));
  ASSERT_TRUE(agent);
  Json card = body_json(http(*agent, "GET", std::string(kCardPath)));
  EXPECT_FALSE(card.contains("url"));
  EXPECT_FALSE(card.contains("preferredTransport"));
  EXPECT_FALSE(card.contains("protocolVersion"));
  EXPECT_EQ(card["supportedInterfaces"].back()["protocolVersion"], "0.3") << "the 0.3 interface is still declared";
}

TEST(HttpV03Faults, V03FaultsDoNotTouchOneDotZero) {
  auto agent = start_v03(faults_of({Fault::kV03NoFinal, Fault::kV03WrappedResult}));
  ASSERT_TRUE(agent);
  Json v1 = body_json(rpc(*agent, "SendMessage", msg_params("hello"), 1, kJson))["result"];
  EXPECT_TRUE(v1.contains("task"));
  EXPECT_FALSE(v1["task"].contains("kind"));
}

}  // namespace
}  // namespace a2a::agent
