// The legal variation on the HTTP wire (http_variation.hpp): what changes on
// the wire, and that a conforming reader still reads it.
#include <gtest/gtest.h>

#include "peers/a2a-ref-agent/http_test_support.hpp"
#include "peers/a2a-ref-agent/http_variation.hpp"

namespace a2a::agent {
namespace {

using namespace testing;

std::unique_ptr<HttpAgent> start_varied() {
  HttpAgentOptions o;
  o.agent.choices = legal_variation_choices();
  o.decorate_exchange = legal_variation_exchange;  // NOLINT
  return start_agent({}, std::move(o));
}

TEST(LegalVariationHttp, JsonRpcAnswersChunkedPrettyJsonWithCharset) {
  auto a = start_varied();
  ASSERT_TRUE(a);
  auto r = rpc(*a, "SendMessage", msg_params("tck-complete-task"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("Content-Type").value_or(""), "application/json; charset=utf-8");
  EXPECT_EQ(r.header("Transfer-Encoding").value_or(""), "chunked");
  EXPECT_FALSE(r.header("Content-Length").has_value());
  EXPECT_NE(r.body.find("\n  "), std::string::npos) << "pretty-printed";
  Json j = body_json(r);
  EXPECT_TRUE(j["result"]["task"]["id"].get<std::string>().starts_with("task-"));
}

TEST(LegalVariationHttp, RestAnswersA2aJsonEvenForErrors) {
  auto a = start_varied();
  ASSERT_TRUE(a);
  auto ok = rest(*a, "POST", "/message:send", msg_params("tck-complete-task"));
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(ok.header("Content-Type").value_or(""), "application/a2a+json");
  auto missing = http(*a, "GET", "/tasks/no-such-task");
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.header("Content-Type").value_or(""), "application/a2a+json");
  EXPECT_EQ(error_reason(body_json(missing)["error"]["details"]), "TASK_NOT_FOUND");
}

TEST(LegalVariationHttp, CardIsServedChunkedAndAConditionalGetStill304s) {
  auto a = start_varied();
  ASSERT_TRUE(a);
  auto r = http(*a, "GET", std::string(kCardPath));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("Transfer-Encoding").value_or(""), "chunked");
  Json card = body_json(r);
  EXPECT_EQ(card["capabilities"]["pushNotifications"], false);
  auto etag = r.header("ETag");
  ASSERT_TRUE(etag);
  auto again = http(*a, "GET", std::string(kCardPath), {{"If-None-Match", *etag}});
  EXPECT_EQ(again.status, 304);
  EXPECT_TRUE(again.body.empty());
}

TEST(LegalVariationHttp, SseHasCommentsIdsRetryMixedLineEndsAndSplitData) {
  auto a = start_varied();
  ASSERT_TRUE(a);
  auto r = rest(*a, "POST", "/message:stream", msg_params("tck-stream-chunked"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("Content-Type").value_or(""), "text/event-stream; charset=utf-8");
  EXPECT_NE(r.body.find(": keep-alive"), std::string::npos);
  EXPECT_NE(r.body.find("retry: 3000\r\n"), std::string::npos);
  EXPECT_NE(r.body.find("id: 2\n"), std::string::npos);
  EXPECT_NE(r.body.find("data: {\r\ndata: \""), std::string::npos) << r.body.substr(0, 300);
  std::vector<Json> events = sse_data(r.body);
  ASSERT_GE(events.size(), 5u);  // task, 3 chunks, completed (+ the final task)
  for (const auto& e : events) ASSERT_FALSE(e.is_discarded());
  EXPECT_EQ(events.front()["task"]["status"]["state"], "TASK_STATE_WORKING");
  // REST (§11.7): the final Task once more before the stream closes.
  EXPECT_EQ(events.back()["task"]["status"]["state"], "TASK_STATE_COMPLETED");
  EXPECT_EQ(events[events.size() - 2]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
}

TEST(LegalVariationHttp, JsonRpcStreamsAreRewrittenToo) {
  auto a = start_varied();
  ASSERT_TRUE(a);
  auto r = rpc(*a, "SendStreamingMessage", msg_params("tck-stream-basic"));
  EXPECT_EQ(r.status, 200);
  std::vector<Json> events = sse_data(r.body);
  ASSERT_EQ(events.size(), 4u);  // task, working, artifact, completed; no final snapshot: §11.7 allows it on REST only
  for (const auto& e : events) {
    ASSERT_FALSE(e.is_discarded());
    EXPECT_EQ(e["jsonrpc"], "2.0");
    EXPECT_TRUE(e.contains("result"));
  }
  EXPECT_TRUE(events.back()["result"].contains("statusUpdate"));
}

}  // namespace
}  // namespace a2a::agent
