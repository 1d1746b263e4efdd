// The scripted HTTP agent of client scenarios over a real loopback socket:
// it serves its own card, queues every other request for the steps, and a
// step that waits for a request gets nothing at its deadline.
#include "runner/engine/client_http.hpp"

#include <gtest/gtest.h>

#include <thread>

#include <nlohmann/json.hpp>

#include "runner/transport/http_client.hpp"
#include "runner/transport/url.hpp"

namespace a2a::engine {
namespace {

using core::Deadline;
using core::Millis;

std::unique_ptr<ScriptedServer> start(const std::string& binding, transport::Transcript* tr) {
  auto s = ScriptedServer::start(binding, tr);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return s.ok() ? std::move(s.value()) : nullptr;
}

transport::HttpClient client_for(const ScriptedServer& s) {
  auto u = transport::Url::parse(s.base_url());
  EXPECT_TRUE(u.ok());
  return transport::HttpClient(*u);
}

TEST(ScriptedServer, ServesACardThatNamesItselfOnTheRunsBinding) {
  transport::Transcript tr;
  auto s = start("rest", &tr);
  ASSERT_TRUE(s);
  auto c = client_for(*s);
  transport::HttpRequest req;
  req.target = "/.well-known/agent-card.json";
  auto r = c.request(req, Deadline::after(Millis(10000)));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 200);
  auto card = nlohmann::json::parse(r->body, nullptr, false);
  ASSERT_TRUE(card.is_object()) << r->body;
  const auto& iface = card["supportedInterfaces"][0];
  EXPECT_EQ(iface["protocolBinding"], "HTTP+JSON");
  EXPECT_EQ(iface["protocolVersion"], "1.0");
  EXPECT_EQ(iface["url"], s->base_url());
  EXPECT_EQ(s->pending(), 0u) << "card fetches are not requests for the steps";
}

TEST(ScriptedServer, QueuesARequestUntilAStepAnswersIt) {
  transport::Transcript tr;
  auto s = start("jsonrpc", &tr);
  ASSERT_TRUE(s);
  std::optional<core::Expected<transport::HttpResponse>> got;
  std::thread caller([&] {
    auto c = client_for(*s);
    transport::HttpRequest req;
    req.method = "POST";
    req.target = "/";
    req.headers = {{"Content-Type", "application/json"}, {"A2A-Version", "1.0"}};
    req.body = R"({"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t-1"}})";
    got = c.request(req, Deadline::after(Millis(20000)));
  });
  auto ex = s->take(Deadline::after(Millis(20000)));
  ASSERT_TRUE(ex);
  EXPECT_EQ(ex->request().method, "POST");
  EXPECT_NE(ex->request().body.find("GetTask"), std::string::npos);
  ex->reply({200, {{"Content-Type", "application/json"}}, R"({"jsonrpc":"2.0","id":1,"result":{}})", false});
  caller.join();
  ASSERT_TRUE(got.has_value());
  ASSERT_TRUE(got->ok()) << got->error().message;
  EXPECT_EQ((*got)->status, 200);
  EXPECT_EQ((*got)->body, R"({"jsonrpc":"2.0","id":1,"result":{}})");
  bool recorded = false;
  for (const auto& e : tr.entries())
    recorded = recorded || (e.dir == transport::Direction::kFromPeer && e.bytes.find("GetTask") != std::string::npos);
  EXPECT_TRUE(recorded) << "the client's request is in the transcript";
}

TEST(ScriptedServer, TakeGivesNothingAtTheDeadlineWhenNoRequestCame) {
  auto s = start("jsonrpc", nullptr);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->take(Deadline::after(Millis(100))), nullptr);
}

TEST(ScriptedServer, InterruptWakesAStepWaitingForARequest) {
  auto s = start("jsonrpc", nullptr);
  ASSERT_TRUE(s);
  s->interrupt();
  EXPECT_EQ(s->take(Deadline::after(Millis(60000))), nullptr);
}

}  // namespace
}  // namespace a2a::engine
