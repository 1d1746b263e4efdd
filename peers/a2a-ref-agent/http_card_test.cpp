// The card endpoint (a2a-protocol.md §7.1): interfaces, caching headers,
// ETag revalidation; and the executable's HTTP mode end to end.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <regex>

#include "peers/a2a-ref-agent/http_test_support.hpp"

namespace a2a::agent {
namespace {

using namespace testing;

TEST(HttpCard, DeclaresBothInterfacesAtTheRootUrl) {
  auto agent = start_agent();
  ASSERT_TRUE(agent);
  RawResponse r = http(*agent, "GET", "/.well-known/agent-card.json", {});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("Content-Type"), "application/json");
  EXPECT_EQ(r.header("Cache-Control"), "max-age=300");
  Json card = body_json(r);
  std::string url = "http://127.0.0.1:" + std::to_string(agent->port());
  EXPECT_EQ(agent->url(), url);
  EXPECT_EQ(card["supportedInterfaces"],
            (Json::array({{{"url", url}, {"protocolBinding", "JSONRPC"}, {"protocolVersion", "1.0"}},
                          {{"url", url}, {"protocolBinding", "HTTP+JSON"}, {"protocolVersion", "1.0"}}})));
  EXPECT_EQ(card["capabilities"]["streaming"], true);
  EXPECT_EQ(card["capabilities"]["pushNotifications"], true);
}

TEST(HttpCard, InterfacesFollowTheChosenOrderAndTenant) {
  HttpAgentOptions o;
  o.interfaces = {HttpBinding::kRest, HttpBinding::kJsonRpc};
  o.tenant = "t1";
  auto agent = start_agent({}, o);
  Json card = body_json(http(*agent, "GET", "/.well-known/agent-card.json", {}));
  ASSERT_EQ(card["supportedInterfaces"].size(), 2u);
  EXPECT_EQ(card["supportedInterfaces"][0]["protocolBinding"], "HTTP+JSON");
  EXPECT_EQ(card["supportedInterfaces"][1]["protocolBinding"], "JSONRPC");
  EXPECT_EQ(card["supportedInterfaces"][0]["tenant"], "t1");
}

TEST(HttpCard, EtagRevalidationGives304) {
  auto agent = start_agent();
  RawResponse first = http(*agent, "GET", "/.well-known/agent-card.json", {});
  auto etag = first.header("ETag");
  ASSERT_TRUE(etag);
  EXPECT_EQ(etag->front(), '"');
  EXPECT_EQ(*etag, card_etag(first.body)) << "the tag hashes the body";
  RawResponse again = http(*agent, "GET", "/.well-known/agent-card.json", {{"If-None-Match", *etag}});
  EXPECT_EQ(again.status, 304);
  EXPECT_TRUE(again.body.empty());
  EXPECT_EQ(again.header("ETag"), etag);
  EXPECT_EQ(http(*agent, "GET", "/.well-known/agent-card.json", {{"If-None-Match", "\"x\", W/" + *etag}}).status, 304);
  EXPECT_EQ(http(*agent, "GET", "/.well-known/agent-card.json", {{"If-None-Match", "\"other\""}}).status, 200);
  RawResponse head = http(*agent, "HEAD", "/.well-known/agent-card.json", {});
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.header("Content-Length"), std::to_string(first.body.size()));
  RawResponse post = http(*agent, "POST", "/.well-known/agent-card.json", {}, std::string("{}"));
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(post.header("Allow"), "GET, HEAD");
}

TEST(HttpCard, StopClosesConnectionsAndIsIdempotent) {
  auto agent = start_agent();
  RawConn c(agent->port());
  ASSERT_TRUE(c.send(raw_request("POST", "/tasks/x:subscribe", kV1)));
  agent->stop();
  agent->stop();  // idempotent
  EXPECT_TRUE(c.wait_eof(soon()));
}

TEST(HttpCard, StopEndsOpenStreamsPromptly) {
  auto agent = start_agent();
  std::string id = new_task(*agent, "tck-cancel", true);
  RawConn c(agent->port());
  ASSERT_TRUE(c.send(raw_request("POST", "/tasks/" + id + ":subscribe", kV1)));
  ASSERT_TRUE(c.read_head(soon()));
  auto t0 = core::Clock::now();
  agent->stop();
  EXPECT_LT(core::Clock::now() - t0, std::chrono::seconds(4));
  EXPECT_TRUE(c.wait_eof(soon()));
}

// The executable: `--http 0` prints the listening line, serves, and exits 0 on SIGTERM.
TEST(HttpMain, PrintsTheListeningLineAndExitsCleanlyOnSigterm) {
  std::string bin = std::string(A2A_BINARY_DIR) + "/bin/a2a-ref-agent";
  if (::access(bin.c_str(), X_OK) != 0) GTEST_SKIP() << "build the a2a-ref-agent target first: " << bin;
  int out[2];
  ASSERT_EQ(::pipe(out), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::dup2(out[1], 1);
    ::close(out[0]);
    ::close(out[1]);
    ::execl(bin.c_str(), bin.c_str(), "--http", "0", "--quiet", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(out[1]);
  std::string line;
  auto deadline = soon();
  while (line.find('\n') == std::string::npos && !deadline.expired()) {
    pollfd p{out[0], POLLIN, 0};
    if (::poll(&p, 1, deadline.poll_timeout_ms()) <= 0) break;
    char buf[256];
    ssize_t n = ::read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    line.append(buf, static_cast<size_t>(n));
  }
  ::close(out[0]);
  std::smatch m;
  bool matched = std::regex_match(line, m, std::regex("a2a-ref-agent listening on http://127\\.0\\.0\\.1:([0-9]+)\n"));
  EXPECT_TRUE(matched) << line;
  if (matched) {
    RawConn c(static_cast<uint16_t>(std::stoi(m[1].str())));
    ASSERT_TRUE(c.send(raw_request("GET", "/.well-known/agent-card.json")));
    auto r = c.read_response(soon());
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
  }
  ::kill(pid, SIGTERM);
  int status = -1;
  auto end = soon();
  while (::waitpid(pid, &status, WNOHANG) == 0 && !end.expired()) std::this_thread::sleep_for(core::Millis(10));
  if (end.expired()) ::kill(pid, SIGKILL), ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
}

TEST(HttpExtendedCard, RequiresABearerTokenOnBothBindings) {
  auto agent = start_agent();
  ASSERT_TRUE(agent);
  HeaderList none = {{"Content-Type", "application/json"}, {"A2A-Version", "1.0"}, {"Authorization", "none"}};
  RawResponse rpc_none = rpc(*agent, "GetExtendedAgentCard", nullptr, 5, none);
  EXPECT_EQ(rpc_none.status, 401);
  EXPECT_TRUE(rpc_none.header("WWW-Authenticate").value_or("").starts_with("Bearer"));
  EXPECT_EQ(body_json(rpc_none)["id"], 5);
  EXPECT_EQ(body_json(rpc_none)["error"]["code"], -31401);
  HeaderList wrong = {{"A2A-Version", "1.0"}, {"Authorization", "Bearer wrong"}};
  RawResponse rest_wrong = rest(*agent, "GET", "/extendedAgentCard", nullptr, wrong);
  EXPECT_EQ(rest_wrong.status, 401);
  EXPECT_EQ(body_json(rest_wrong)["error"]["status"], "UNAUTHENTICATED");
  RawResponse ok = rest(*agent, "GET", "/extendedAgentCard");
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(body_json(ok)["name"], "a2a-ref-agent");
}

TEST(HttpExtendedCard, ThePublicCardDeclaresTheBearerScheme) {
  auto agent = start_agent();
  ASSERT_TRUE(agent);
  Json card = body_json(http(*agent, "GET", "/.well-known/agent-card.json"));
  EXPECT_EQ(card["securitySchemes"]["bearer"]["httpAuthSecurityScheme"]["scheme"], "Bearer");
}

TEST(HttpExtendedCard, FaultServesItWithoutCredentials) {
  auto agent = start_agent(Fault::kHttpExtendedCardNoAuth);
  ASSERT_TRUE(agent);
  HeaderList none = {{"A2A-Version", "1.0"}, {"Authorization", "none"}};
  EXPECT_EQ(rest(*agent, "GET", "/extendedAgentCard", nullptr, none).status, 200);
}

}  // namespace
}  // namespace a2a::agent
