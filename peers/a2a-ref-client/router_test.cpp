#include "peers/a2a-ref-client/router.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace a2a::client {
namespace {

using core::Deadline;
using core::Millis;

Deadline soon() { return Deadline::after(Millis(2000)); }
Deadline now() { return Deadline::after(Millis(0)); }

struct Collector {
  std::vector<std::string> lines;
  DiagnosticSink sink() {
    return [this](const std::string& d) { lines.push_back(d); };
  }
  bool has(std::string_view needle) const {
    for (const auto& l : lines) {
      if (l.find(needle) != std::string::npos) return true;
    }
    return false;
  }
};

TEST(Router, ResponseGoesToTheCallWithThatId) {
  Router r;
  r.expect(1);
  r.expect(2);
  r.route(R"({"jsonrpc":"2.0","id":2,"result":{"n":2}})");
  r.route(R"({"jsonrpc":"2.0","id":1,"result":{"n":1}})");
  CallResult one = r.wait(1, soon(), "one");
  CallResult two = r.wait(2, soon(), "two");
  ASSERT_TRUE(one.ok());
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(one.result["n"], 1);
  EXPECT_EQ(two.result["n"], 2);
  EXPECT_EQ(r.pending_count(), 0u);
}

TEST(Router, StringIdDoesNotAnswerIntegerId) {
  Collector c;
  Router r(c.sink());
  r.expect(1);
  r.route(R"({"jsonrpc":"2.0","id":"1","result":"wrong"})");
  CallResult timed_out = r.wait(1, now(), "call");
  ASSERT_FALSE(timed_out.ok());
  EXPECT_EQ(timed_out.error.kind, ClientErrorKind::kTimeout);
  EXPECT_TRUE(c.has("id \"1\""));
}

TEST(Router, UnknownIdIsDroppedWithADiagnostic) {
  Collector c;
  Router r(c.sink());
  r.expect(1);
  r.route(R"({"jsonrpc":"2.0","id":99,"result":{}})");
  r.route(R"({"jsonrpc":"2.0","id":1,"result":"ok"})");
  CallResult got = r.wait(1, soon(), "call");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got.result, "ok");
  EXPECT_TRUE(c.has("id 99"));
  EXPECT_TRUE(c.has("C3"));
}

TEST(Router, ErrorResponseBecomesAnAgentErrorWithTheObjectKept) {
  Router r;
  r.expect(5);
  r.route(R"({"jsonrpc":"2.0","id":5,"error":{"code":-32001,"message":"nope","data":[1]}})");
  CallResult got = r.wait(5, soon(), "call");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error.kind, ClientErrorKind::kAgent);
  EXPECT_EQ(got.error.code(), -32001);
  EXPECT_EQ(got.error.to_json()["data"], Json::array({1}));
}

TEST(Router, UnknownNotificationIsIgnored) {
  Collector c;
  Router r(c.sink());
  r.expect(1);
  r.route(R"({"jsonrpc":"2.0","method":"agent/log","params":{"x":1}})");
  r.route(R"({"jsonrpc":"2.0","id":1,"result":null})");
  EXPECT_TRUE(r.wait(1, soon(), "call").ok());
  EXPECT_TRUE(c.has("ignored notification agent/log"));
}

TEST(Router, NonJsonBodyIsDroppedNotFatal) {
  Collector c;
  Router r(c.sink());
  r.expect(1);
  r.route("not json");
  r.route(R"({"jsonrpc":"2.0","id":1,"result":1})");
  EXPECT_TRUE(r.wait(1, soon(), "call").ok());
  EXPECT_FALSE(r.dead().has_value());
  EXPECT_EQ(c.lines.size(), 1u);
}

TEST(Router, StreamDeliversEventsInOrderThenEndsOnItsOwnId) {
  Router r;
  ASSERT_TRUE(r.open_stream(3, soon()));
  r.route(R"({"jsonrpc":"2.0","method":"event/streamResponse","params":{"statusUpdate":{"n":1}}})");
  r.route(R"({"jsonrpc":"2.0","method":"event/streamResponse","params":{"statusUpdate":{"n":2}}})");
  r.route(R"({"jsonrpc":"2.0","id":3,"result":null})");
  StreamStep a = r.next_stream_step(soon(), "s");
  StreamStep b = r.next_stream_step(soon(), "s");
  StreamStep end = r.next_stream_step(soon(), "s");
  ASSERT_FALSE(a.ended);
  ASSERT_FALSE(b.ended);
  EXPECT_EQ(a.item.value["statusUpdate"]["n"], 1);
  EXPECT_EQ(b.item.value["statusUpdate"]["n"], 2);
  ASSERT_TRUE(end.ended);
  EXPECT_TRUE(end.outcome.ok());
}

TEST(Router, FinalResponseWithAnotherIdDoesNotEndTheStream) {
  Router r;
  ASSERT_TRUE(r.open_stream(3, soon()));
  r.route(R"({"jsonrpc":"2.0","id":7,"result":null})");
  r.route(R"({"jsonrpc":"2.0","method":"event/streamResponse","params":{"task":{}}})");
  StreamStep step = r.next_stream_step(soon(), "s");
  EXPECT_FALSE(step.ended);
  StreamStep pending = r.next_stream_step(now(), "s");
  ASSERT_TRUE(pending.ended);
  EXPECT_EQ(pending.outcome.error.kind, ClientErrorKind::kTimeout);
}

TEST(Router, StreamErrorEventKeepsItsCodeAndTheStreamGoesOn) {
  Router r;
  ASSERT_TRUE(r.open_stream(1, soon()));
  r.route(R"({"jsonrpc":"2.0","method":"event/streamError","params":{"code":-32004,"message":"x"}})");
  r.route(R"({"jsonrpc":"2.0","method":"event/streamResponse","params":{"task":{}}})");
  r.route(R"({"jsonrpc":"2.0","id":1,"result":null})");
  StreamStep err = r.next_stream_step(soon(), "s");
  ASSERT_FALSE(err.ended);
  EXPECT_EQ(err.item.type, StreamItem::Type::kStreamError);
  EXPECT_EQ(err.item.value["code"], -32004);
  EXPECT_FALSE(r.next_stream_step(soon(), "s").ended);
  EXPECT_TRUE(r.next_stream_step(soon(), "s").outcome.ok());
}

TEST(Router, NonNullFinalResultIsYieldedAsOneMoreEvent) {
  Router r;
  ASSERT_TRUE(r.open_stream(1, soon()));
  r.route(R"({"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t"}}})");
  StreamStep extra = r.next_stream_step(soon(), "s");
  ASSERT_FALSE(extra.ended);
  EXPECT_EQ(extra.item.value["task"]["id"], "t");
  StreamStep end = r.next_stream_step(soon(), "s");
  ASSERT_TRUE(end.ended);
  EXPECT_TRUE(end.outcome.ok());
}

TEST(Router, ErrorResponseWithTheStreamIdEndsTheStreamWithThatError) {
  Router r;
  ASSERT_TRUE(r.open_stream(1, soon()));
  r.route(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"no task"}})");
  StreamStep end = r.next_stream_step(soon(), "s");
  ASSERT_TRUE(end.ended);
  EXPECT_EQ(end.outcome.error.kind, ClientErrorKind::kAgent);
  EXPECT_EQ(end.outcome.error.code(), -32001);
}

TEST(Router, FailAllEndsAStreamWithAnErrorAfterItsQueuedEvents) {
  Router r;
  ASSERT_TRUE(r.open_stream(1, soon()));
  r.route(R"({"jsonrpc":"2.0","method":"event/streamResponse","params":{"task":{}}})");
  r.fail_all({ClientErrorKind::kTransport, "agent closed its stdout (exit 5)", nullptr});
  EXPECT_FALSE(r.next_stream_step(soon(), "s").ended);
  StreamStep end = r.next_stream_step(soon(), "s");
  ASSERT_TRUE(end.ended);
  EXPECT_EQ(end.outcome.error.kind, ClientErrorKind::kTransport);
  EXPECT_NE(end.outcome.error.message.find("exit 5"), std::string::npos);
}

TEST(Router, FailAllWakesAWaitingCall) {
  Router r;
  r.expect(1);
  std::thread killer([&] {
    std::this_thread::sleep_for(Millis(50));
    r.fail_all({ClientErrorKind::kTransport, "eof", nullptr});
  });
  CallResult got = r.wait(1, soon(), "request id 1");
  killer.join();
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error.kind, ClientErrorKind::kTransport);
  EXPECT_EQ(got.error.message, "request id 1: eof");
}

TEST(Router, AbandonedStreamDiscardsLateEventsUntilItsFinalResponse) {
  Collector c;
  Router r(c.sink());
  ASSERT_TRUE(r.open_stream(1, soon()));
  r.close_stream();  // abandoned before its final response
  EXPECT_FALSE(r.open_stream(2, now()));
  r.route(R"({"jsonrpc":"2.0","method":"event/streamResponse","params":{"late":true}})");
  r.route(R"({"jsonrpc":"2.0","id":1,"result":null})");
  ASSERT_TRUE(r.open_stream(2, soon()));
  r.route(R"({"jsonrpc":"2.0","id":2,"result":null})");
  StreamStep end = r.next_stream_step(soon(), "s");
  EXPECT_TRUE(end.ended);
  EXPECT_TRUE(c.has("C13"));
}

TEST(Router, EventWithoutAnOpenStreamIsDropped) {
  Collector c;
  Router r(c.sink());
  r.route(R"({"jsonrpc":"2.0","method":"event/streamResponse","params":{}})");
  EXPECT_TRUE(c.has("no stream is open"));
}

}  // namespace
}  // namespace a2a::client

namespace a2a::client {
namespace {

// stdio-json (stdio-binding.md §4): stream events are responses with the id.
TEST(RouterStdioJson, ResponsesWithTheStreamIdAreEventsUntilStreamEnd) {
  Collector c;
  Router r(c.sink(), true);
  ASSERT_TRUE(r.open_stream(7, Deadline::after(Millis(2000))));
  r.route(R"({"type":"heartbeat","sessionId":"s","ts":1})");
  r.route(R"({"jsonrpc":"2.0","id":7,"result":{"task":{"id":"t"}}})");
  r.route(R"({"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"t"}}})");
  r.route(R"({"jsonrpc":"2.0","id":7,"streamEnd":true})");
  std::vector<Json> events;
  StreamStep step;
  for (int i = 0; i < 5 && !(step = r.next_stream_step(Deadline::after(Millis(2000)), "s")).ended; ++i)
    events.push_back(step.item.value);
  EXPECT_TRUE(step.ended);
  EXPECT_TRUE(step.outcome.ok());
  ASSERT_EQ(events.size(), 2u);
  EXPECT_TRUE(events[0].contains("task"));
  EXPECT_TRUE(c.lines.empty()) << c.lines.front();  // the heartbeat is ignored silently
  EXPECT_FALSE(r.close_stream()) << "an ended stream is not abandoned";
}

TEST(RouterStdioJson, AnErrorResponseEndsTheStreamWithThatError) {
  Router r({}, true);
  ASSERT_TRUE(r.open_stream(8, Deadline::after(Millis(2000))));
  r.route(R"({"jsonrpc":"2.0","id":8,"error":{"code":-32001,"message":"no task"}})");
  StreamStep step = r.next_stream_step(Deadline::after(Millis(2000)), "s");
  ASSERT_TRUE(step.ended);
  ASSERT_FALSE(step.outcome.ok());
  EXPECT_EQ(step.outcome.error.code(), -32001);
}

TEST(RouterStdioJson, AnAbandonedStreamIsReleasedByItsStreamEnd) {
  Collector c;
  Router r(c.sink(), true);
  ASSERT_TRUE(r.open_stream(9, Deadline::after(Millis(2000))));
  EXPECT_TRUE(r.close_stream()) << "no end seen: abandoned, the caller sends cancelStream";
  EXPECT_FALSE(r.open_stream(10, Deadline::after(Millis(50)))) << "still registered";
  r.route(R"({"jsonrpc":"2.0","id":9,"result":{"task":{"id":"late"}}})");
  r.route(R"({"jsonrpc":"2.0","id":9,"streamEnd":true})");
  EXPECT_TRUE(r.open_stream(10, Deadline::after(Millis(2000))));
  EXPECT_TRUE(c.has("abandoned stream id 9 ended"));
}

}  // namespace
}  // namespace a2a::client
