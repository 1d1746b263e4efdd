// Each http-* and card-* fault breaks its one requirement, and only with the
// fault on (the same request is checked on a clean agent first).
#include <gtest/gtest.h>

#include "peers/a2a-ref-agent/http_test_support.hpp"

namespace a2a::agent {
namespace {

using namespace testing;

RawResponse not_found(const HttpAgent& a) { return rest(a, "GET", "/tasks/no-such-task"); }

TEST(HttpFaults, RestErrorStatus200) {
  EXPECT_EQ(not_found(*start_agent()).status, 404);
  RawResponse r = not_found(*start_agent(Fault::kHttpRestErrorStatus200));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(body_json(r)["error"]["code"], 404) << "only the status line changes";
}

TEST(HttpFaults, RestNoErrorInfo) {
  EXPECT_EQ(error_reason(body_json(not_found(*start_agent()))["error"]["details"]), "TASK_NOT_FOUND");
  Json e = body_json(not_found(*start_agent(Fault::kHttpRestNoErrorInfo)))["error"];
  EXPECT_EQ(e["status"], "NOT_FOUND");
  EXPECT_EQ(error_reason(e["details"]), "");
}

TEST(HttpFaults, RestProblemJson) {
  RawResponse r = not_found(*start_agent(Fault::kHttpRestProblemJson));
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.header("Content-Type"), "application/problem+json");
  Json j = body_json(r);
  EXPECT_FALSE(j.contains("error"));
  EXPECT_EQ(j["status"], 404);
}

TEST(HttpFaults, JsonrpcContentType) {
  EXPECT_EQ(rpc(*start_agent(), "GetExtendedAgentCard", nullptr).header("Content-Type"), "application/json");
  RawResponse r = rpc(*start_agent(Fault::kHttpJsonrpcContentType), "GetExtendedAgentCard", nullptr);
  EXPECT_EQ(r.header("Content-Type"), "text/plain");
  EXPECT_TRUE(body_json(r).contains("result"));
}

TEST(HttpFaults, SseContentType) {
  RawResponse r = rest(*start_agent(Fault::kHttpSseContentType), "POST", "/message:stream", msg_params("tck-stream-basic"));
  EXPECT_EQ(r.header("Content-Type"), "application/json");
  EXPECT_EQ(sse_data(r.body).size(), 4u) << "the body is still SSE";
}

TEST(HttpFaults, SseNoBlankLine) {
  RawResponse clean = rest(*start_agent(), "POST", "/message:stream", msg_params("tck-stream-basic"));
  EXPECT_EQ(sse_data(clean.body).size(), 4u);
  RawResponse r = rest(*start_agent(Fault::kHttpSseNoBlankLine), "POST", "/message:stream", msg_params("tck-stream-basic"));
  EXPECT_EQ(r.body.find("\n\n"), std::string::npos);
  auto merged = sse_data(r.body + "\n");  // even once terminated, one event holds every data line
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_TRUE(merged[0].is_discarded()) << "four JSON documents joined by LF do not parse as one";
}

TEST(HttpFaults, SseCloseEarly) {
  auto agent = start_agent(Fault::kHttpSseCloseEarly);
  RawResponse r = rest(*agent, "POST", "/message:stream", msg_params("tck-stream-basic"));
  EXPECT_TRUE(r.complete);
  auto events = sse_data(r.body);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(kind_of(events[0]), "task");
  RawResponse j = rpc(*agent, "SendStreamingMessage", msg_params("tck-stream-basic"));
  EXPECT_EQ(sse_data(j.body).size(), 1u) << "JSON-RPC streams too";
}

TEST(HttpFaults, VersionIgnored) {
  auto agent = start_agent(Fault::kHttpVersionIgnored);
  EXPECT_TRUE(body_json(rpc(*agent, "GetExtendedAgentCard", nullptr, 1, {{"Content-Type", "application/json"}}))
                  .contains("result"));
  EXPECT_EQ(rest(*agent, "GET", "/extendedAgentCard", nullptr, {{"A2A-Version", "9.9"}}).status, 200);
}

TEST(HttpFaults, NoPathProtection) {
  EXPECT_EQ(rest(*start_agent(), "GET", "/tasks/..").status, 400);
  RawResponse r = rest(*start_agent(Fault::kHttpNoPathProtection), "GET", "/tasks/..");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(error_reason(body_json(r)["error"]["details"]), "TASK_NOT_FOUND") << "'..' was routed as a task id";
}

TEST(HttpFaults, NoBodyLimit) {
  Json big = msg_params("tck-message-response " + std::string(5u << 20, 'x'));
  EXPECT_EQ(rest(*start_agent(), "POST", "/message:send", big).status, 413);
  RawResponse r = rest(*start_agent(Fault::kHttpNoBodyLimit), "POST", "/message:send", big);
  EXPECT_EQ(r.status, 200);
  EXPECT_TRUE(body_json(r).contains("message"));
}

TEST(HttpFaults, RestWrongVerbOk) {
  EXPECT_EQ(rest(*start_agent(), "GET", "/message:send").status, 405);
  auto agent = start_agent(Fault::kHttpRestWrongVerbOk);
  EXPECT_EQ(rest(*agent, "POST", "/extendedAgentCard").status, 200);
  EXPECT_EQ(rest(*agent, "DELETE", "/tasks/nope").status, 404) << "served as GetTask";
}

Json public_card(const HttpAgent& a) { return body_json(http(a, "GET", "/.well-known/agent-card.json", {})); }

TEST(HttpFaults, CardMissingInterfaces) {
  Json card = public_card(*start_agent(Fault::kCardMissingInterfaces));
  EXPECT_FALSE(card.contains("supportedInterfaces"));
  EXPECT_TRUE(card.contains("capabilities"));
}

TEST(HttpFaults, CardWrongBindingName) {
  Json card = public_card(*start_agent(Fault::kCardWrongBindingName));
  EXPECT_EQ(card["supportedInterfaces"][0]["protocolBinding"], "JSONRPC");
  EXPECT_EQ(card["supportedInterfaces"][1]["protocolBinding"], "REST");
}

TEST(HttpFaults, CardRelativeInterfaceUrl) {
  auto agent = start_agent(Fault::kCardRelativeInterfaceUrl);
  auto card = public_card(*agent);
  ASSERT_TRUE(card.contains("supportedInterfaces"));
  ASSERT_FALSE(card["supportedInterfaces"].empty());
  for (const auto& i : card["supportedInterfaces"]) {
    std::string url = i.value("url", "");
    EXPECT_TRUE(url.starts_with("/")) << url;  // the path only: no scheme, no host
  }
  // Without the fault the URLs are absolute. (The card is kept in a local: a
  // range-for over a member of a temporary would read freed memory.)
  auto clean_agent = start_agent();
  const auto clean = public_card(*clean_agent);
  for (const auto& i : clean["supportedInterfaces"])
    EXPECT_TRUE(i.value("url", "").starts_with("http://")) << i.dump();
}

TEST(HttpFaults, CardNoCapabilities) {
  auto agent = start_agent(Fault::kCardNoCapabilities);
  EXPECT_FALSE(public_card(*agent).contains("capabilities"));
  EXPECT_FALSE(body_json(rest(*agent, "GET", "/extendedAgentCard")).contains("capabilities"));
}

}  // namespace
}  // namespace a2a::agent

namespace a2a::agent {
namespace {

using namespace testing;

TEST(HttpFaultsMore, AnyVersionMemberServesAJsonRpc10Request) {
  std::string body = R"({"jsonrpc":"1.0","id":1,"method":"GetTask","params":{"id":"nope"}})";
  EXPECT_EQ(body_json(http(*start_agent(), "POST", "/", kJson, body))["error"]["code"], -32600);
  EXPECT_EQ(body_json(http(*start_agent(Fault::kHttpJsonrpcAnyVersionMember), "POST", "/", kJson, body))["error"]["code"],
            -32001);
}

TEST(HttpFaultsMore, BatchPartialMisreadsABatchOverHttp) {
  std::string batch = R"([{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"a"}}])";
  EXPECT_EQ(body_json(http(*start_agent(), "POST", "/", kJson, batch))["error"]["code"], -32600);
  EXPECT_EQ(body_json(http(*start_agent(Fault::kErrBatchPartial), "POST", "/", kJson, batch))["error"]["code"], -32602);
}

TEST(HttpFaultsMore, UnwrappedSendAnswersTheBareTaskOnRest) {
  Json params = {{"message", {{"messageId", "m-1"}, {"role", "ROLE_USER"}, {"parts", {{{"text", "hello"}}}}}}};
  EXPECT_TRUE(body_json(rest(*start_agent(), "POST", "/message:send", params)).contains("task"));
  Json bare = body_json(rest(*start_agent(Fault::kHttpRestUnwrappedSend), "POST", "/message:send", params));
  EXPECT_FALSE(bare.contains("task"));
  EXPECT_TRUE(bare.contains("status")) << bare;
}

TEST(HttpFaultsMore, NoQueryLimitProcessesLongQueries) {
  std::string target = "/tasks?x=" + std::string(5000, 'q');
  EXPECT_EQ(rest(*start_agent(), "GET", target).status, 414);
  EXPECT_EQ(rest(*start_agent(Fault::kHttpNoQueryLimit), "GET", target).status, 200);
}

TEST(HttpFaultsMore, NoCacheHeadersDropsCacheControlAndEtag) {
  RawResponse ok = http(*start_agent(), "GET", "/.well-known/agent-card.json");
  EXPECT_TRUE(ok.header("ETag").has_value());
  RawResponse bad = http(*start_agent(Fault::kCardNoCacheHeaders), "GET", "/.well-known/agent-card.json");
  EXPECT_EQ(bad.status, 200);
  EXPECT_FALSE(bad.header("ETag").has_value());
  EXPECT_FALSE(bad.header("Cache-Control").has_value());
}

}  // namespace
}  // namespace a2a::agent
