#include <gtest/gtest.h>

#include "peers/a2a-ref-agent/exit_codes.hpp"
#include "peers/a2a-ref-agent/test_support.hpp"

namespace a2a::agent {
namespace {

using namespace testing;

Json msg_params(const std::string& text, const Json& config = nullptr, const Json& extra = Json::object()) {
  return send_params(text, config, extra);
}

// The response to `id`, skipping notifications; null when none arrives in time.
Json response_to(StdioHarness& h, const Json& id, core::Millis timeout = core::Millis(3000)) {
  auto deadline = core::Deadline::after(timeout);
  while (!deadline.expired()) {
    auto j = h.read_json(deadline.remaining());
    if (!j) return nullptr;
    if (j->contains("id") && (*j)["id"] == id) return *j;
  }
  return nullptr;
}

Json call(StdioHarness& h, const Json& id, const std::string& method, const Json& params) {
  h.request(id, method, params);
  return response_to(h, id);
}

TEST(Unit, HandshakeIsTheFirstFrameWithTheSessionIdFromTheEnvironment) {
  ServerOptions opt = StdioHarness::options();
  opt.session_env = "session-from-env";
  opt.pid = 4242;
  StdioHarness h(opt);
  auto body = h.read_body();
  ASSERT_TRUE(body);
  std::string expected_head = "Content-Length: " + std::to_string(body->size()) +
                              "\r\nContent-Type: application/json\r\n\r\n";
  EXPECT_EQ(h.raw().substr(0, expected_head.size()), expected_head);
  Json hs = Json::parse(*body);
  EXPECT_EQ(hs["type"], "handshake");
  EXPECT_EQ(hs["sessionId"], "session-from-env");
  EXPECT_EQ(hs["supportedVariants"], Json::array({"a2a/v1"}));
  EXPECT_EQ(hs["pid"], 4242);
  EXPECT_EQ(hs["features"], Json::object());
}

TEST(Unit, EmptyOrAbsentSessionEnvGivesAFreshUuidV7) {
  for (std::optional<std::string> env : {std::optional<std::string>(""), std::optional<std::string>()}) {
    ServerOptions opt = StdioHarness::options();
    opt.session_env = env;
    StdioHarness h(opt);
    std::string sid = h.read_json().value()["sessionId"];
    ASSERT_EQ(sid.size(), 36u);
    EXPECT_EQ(sid[14], '7');
  }
}

TEST(Unit, RejectedHandshakeExitsZeroWithoutWritingMore) {
  StdioHarness h(StdioHarness::options());
  ASSERT_TRUE(h.read_json());
  h.ack(false, "");
  h.request(1, "tasks/list", Json::object());
  EXPECT_EQ(h.wait_exit(), kExitOk);
  EXPECT_TRUE(h.output_closed());
}

struct BadAck {
  const char* name;
  const char* body;
};
class HandshakeAck : public ::testing::TestWithParam<BadAck> {};

TEST_P(HandshakeAck, BadAckIsAProtocolErrorExit2) {
  StdioHarness h(StdioHarness::options());
  ASSERT_TRUE(h.read_json());
  h.send_raw(wire::encode_content_length(GetParam().body));
  EXPECT_EQ(h.wait_exit(), kExitProtocol);
  EXPECT_TRUE(h.output_closed());
}

INSTANTIATE_TEST_SUITE_P(
    Unit, HandshakeAck,
    ::testing::Values(
        BadAck{"variant_not_offered", R"({"type":"handshakeAck","selectedVariant":"a2a/v9","accept":true})"},
        BadAck{"missing_accept", R"({"type":"handshakeAck","selectedVariant":"a2a/v1"})"},
        BadAck{"missing_variant", R"({"type":"handshakeAck","accept":true})"},
        BadAck{"jsonrpc_request", R"({"jsonrpc":"2.0","id":1,"method":"tasks/list","params":{}})"},
        BadAck{"not_json", "hello"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Unit, AckWithUnknownMembersIsAccepted) {
  StdioHarness h(StdioHarness::options());
  ASSERT_TRUE(h.read_json());
  h.send(Json{{"type", "handshakeAck"}, {"selectedVariant", "a2a/v1"}, {"accept", true}, {"extra", {1, 2}}});
  EXPECT_TRUE(call(h, 1, "tasks/list", Json::object()).contains("result"));
}

TEST(Unit, EofBeforeAckExitsZeroAndNoAckInTimeExitsTwo) {
  StdioHarness eof(StdioHarness::options());
  ASSERT_TRUE(eof.read_json());
  eof.close_input();
  EXPECT_EQ(eof.wait_exit(), kExitOk);

  ServerOptions opt = StdioHarness::options();
  opt.ack_timeout = core::Millis(200);
  StdioHarness slow(opt);
  ASSERT_TRUE(slow.read_json());
  EXPECT_EQ(slow.wait_exit(), kExitProtocol);
}

TEST(Unit, ParseErrorIsAnsweredWithNullIdAndTheSessionContinues) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  h.send_raw(wire::encode_content_length("{this is not json"));
  auto err = h.read_json();
  ASSERT_TRUE(err);
  EXPECT_EQ((*err)["error"]["code"], -32700);
  EXPECT_TRUE((*err)["id"].is_null());
  h.send_raw(wire::encode_content_length(""));  // F13: empty body
  EXPECT_EQ(h.read_json().value()["error"]["code"], -32700);
  EXPECT_TRUE(call(h, 2, "tasks/list", Json::object()).contains("result"));
}

TEST(Unit, AJsonBombIsAParseErrorNotAGigabyte) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  std::string wide = R"({"jsonrpc":"2.0","id":1,"method":"tasks/list","params":{"x":[{})";
  for (int i = 0; i < 1'000'000; ++i) wide += ",{}";
  h.send_raw(wire::encode_content_length(wide + "]}}"));
  auto err = h.read_json();
  ASSERT_TRUE(err);
  EXPECT_EQ((*err)["error"]["code"], -32700) << "more than a million values is refused before parsing";
  h.send_raw(wire::encode_content_length(std::string(1000, '[') + std::string(1000, ']')));
  EXPECT_EQ(h.read_json().value()["error"]["code"], -32700) << "so is nesting deeper than 512";
  EXPECT_TRUE(call(h, 2, "tasks/list", Json::object()).contains("result"));
}

TEST(Unit, InvalidRequestsGetMinus32600) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  for (std::string body : {R"([{"jsonrpc":"2.0","id":1,"method":"tasks/list"}])", "[]", "42",
                           R"({"jsonrpc":"1.0","id":5,"method":"tasks/list","params":{}})",
                           R"({"jsonrpc":"2.0","id":{"a":1},"method":"tasks/list"})"}) {
    h.send_raw(wire::encode_content_length(body));
    auto r = h.read_json();
    ASSERT_TRUE(r) << body;
    EXPECT_EQ((*r)["error"]["code"], -32600) << body;
  }
}

TEST(Unit, NotificationsAreNeverAnswered) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  h.send(Json{{"jsonrpc", "2.0"}, {"method", "tasks/list"}, {"params", Json::object()}});
  h.send(Json{{"jsonrpc", "2.0"}, {"method", "no/such"}});
  h.request(9, "tasks/list", Json::object());
  auto first = h.read_json();
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)["id"], 9);
}

TEST(Unit, UnknownAndPascalCaseMethodsAreMethodNotFound) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  EXPECT_EQ(call(h, 1, "SendMessage", msg_params("x"))["error"]["code"], -32601);
  EXPECT_EQ(call(h, 2, "do/something", Json::object())["error"]["code"], -32601);
  EXPECT_EQ(call(h, 3, "tasks/get", Json::object())["error"]["code"], -32602);
}

TEST(Unit, PipelinedRequestsAreAnsweredByIdWithTheIdTypePreserved) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  std::string batch;
  for (const Json& id : {Json(7), Json("7"), Json("abc"), Json(nullptr)}) {
    batch += wire::encode_content_length(
        Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "message/send"}, {"params", msg_params("tck-complete-task")}}
            .dump());
  }
  h.send_raw(batch);  // F25: several frames in one write
  std::set<std::string> ids;
  for (int i = 0; i < 4; ++i) {
    auto r = h.read_json();
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->contains("result"));
    ids.insert((*r)["id"].dump());
  }
  EXPECT_EQ(ids, (std::set<std::string>{"7", "\"7\"", "\"abc\"", "null"}));
}

TEST(Unit, FrameSplitIntoSingleBytesAndLowerCaseHeaderAreRead) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  std::string body = Json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tasks/list"}, {"params", Json::object()}}.dump();
  std::string frame = "content-length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  for (char c : frame) h.send_raw(std::string_view(&c, 1));
  EXPECT_TRUE(response_to(h, 1).contains("result"));
}

TEST(Unit, UtfEightBodiesAreCountedInBytes) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  Json r = call(h, "u", "message/send", msg_params("tck-complete-task h\xc3\xa9llo \xe2\x9c\x93"));
  ASSERT_TRUE(r.contains("result"));
  EXPECT_NE(r["result"]["task"]["artifacts"][0]["parts"][0]["text"].get<std::string>().find("\xc3\xa9"),
            std::string::npos);
}

TEST(Unit, UnaryRequestsAreAnsweredWhileAStreamIsOpen) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  Json t = call(h, 1, "message/send", msg_params("tck-cancel", {{"returnImmediately", true}}))["result"]["task"];
  h.request("sub", "tasks/subscribe", {{"id", t["id"]}});
  auto snapshot = h.read_json();
  ASSERT_TRUE(snapshot);
  EXPECT_EQ((*snapshot)["method"], "event/streamResponse");
  EXPECT_FALSE(snapshot->contains("id"));
  EXPECT_EQ((*snapshot)["params"]["task"]["id"], t["id"]);
  EXPECT_TRUE(call(h, 2, "tasks/get", {{"id", t["id"]}}).contains("result"));
  h.request(3, "tasks/cancel", {{"id", t["id"]}});
  bool got_cancel = false, got_final = false, got_event = false;
  for (int i = 0; i < 3; ++i) {
    auto j = h.read_json();
    ASSERT_TRUE(j);
    if ((*j)["id"] == 3) got_cancel = true;
    if ((*j)["id"] == "sub") got_final = (*j)["result"].is_null() && j->contains("result");
    if ((*j).value("method", "") == "event/streamResponse") {
      got_event = (*j)["params"]["statusUpdate"]["status"]["state"] == "TASK_STATE_CANCELED";
    }
  }
  EXPECT_TRUE(got_cancel && got_final && got_event);
}

TEST(Unit, ASecondStreamIsQueuedAndServedAfterTheFirst) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  Json t = call(h, 1, "message/send", msg_params("tck-cancel", {{"returnImmediately", true}}))["result"]["task"];
  h.request("a", "tasks/subscribe", {{"id", t["id"]}});
  ASSERT_TRUE(h.read_json());  // a's snapshot
  h.request("b", "message/stream", msg_params("tck-stream-basic"));
  EXPECT_FALSE(h.read_json(core::Millis(300)));  // b waits: P46 notifications carry no id
  h.request(2, "tasks/cancel", {{"id", t["id"]}});
  std::vector<Json> frames;
  while (auto j = h.read_json(core::Millis(2000))) {
    frames.push_back(*j);
    if ((*j)["id"] == "b") break;
  }
  auto pos = [&](auto pred) { return std::find_if(frames.begin(), frames.end(), pred) - frames.begin(); };
  auto a_final = pos([](const Json& j) { return j.value("id", Json()) == "a"; });
  auto b_first = pos([&](const Json& j) { return j.contains("params") && j["params"].contains("task") &&
                                                 j["params"]["task"]["id"] != t["id"]; });
  auto b_final = pos([](const Json& j) { return j.value("id", Json()) == "b"; });
  ASSERT_LT(b_final, static_cast<long>(frames.size()));
  EXPECT_LT(a_final, b_first);
  EXPECT_LT(b_first, b_final);
  // b's task, working, artifact, completed; the cancel response (id 2) may come in between.
  auto b_events = std::count_if(frames.begin() + b_first, frames.begin() + b_final,
                                [](const Json& j) { return !j.contains("id"); });
  EXPECT_EQ(b_events, 4);
}

TEST(Unit, StreamsFollowTheP46Shape) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  h.request(5, "message/stream", msg_params("tck-message-response"));
  Json ev = h.read_json().value();
  EXPECT_EQ(ev["method"], "event/streamResponse");
  EXPECT_TRUE(ev["params"].contains("message"));
  Json fin = h.read_json().value();
  EXPECT_EQ(fin["id"], 5);
  EXPECT_TRUE(fin.contains("result") && fin["result"].is_null());

  h.request(6, "message/stream", msg_params("tck-stream-error"));
  bool error_event = false;
  Json last;
  while (auto j = h.read_json()) {
    last = *j;
    if (j->value("method", "") == "event/streamError") error_event = (*j)["params"]["code"] == -32603;
    if (j->contains("id")) break;
  }
  EXPECT_TRUE(error_event);
  EXPECT_EQ(last["id"], 6);
  EXPECT_TRUE(last["result"].is_null());

  Json refused = call(h, 7, "tasks/subscribe", {{"id", "missing"}});
  EXPECT_EQ(refused["error"]["code"], -32001);  // refused before any event: one error response
}

TEST(Unit, EofAtFrameBoundaryExitsZeroPromptlyAndEndsOpenStreams) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  Json t = call(h, 1, "message/send", msg_params("tck-cancel", {{"returnImmediately", true}}))["result"]["task"];
  h.request("s", "tasks/subscribe", {{"id", t["id"]}});
  ASSERT_TRUE(h.read_json());
  auto start = core::Clock::now();
  h.close_input();
  Json fin = response_to(h, "s");
  EXPECT_TRUE(fin.contains("result"));
  EXPECT_EQ(h.wait_exit(), kExitOk);
  EXPECT_LT(core::Clock::now() - start, milliseconds(1500));
}

TEST(Unit, FatalFramingErrorExitsTwoWithoutReplying) {
  for (std::string bad : {"Content-Length: abc\r\n\r\n{}", "X-Only: 1\r\n\r\n{}", "Content-Length: 67108865\r\n\r\n"}) {
    StdioHarness h(StdioHarness::options());
    h.handshake();
    h.send_raw(bad);
    EXPECT_EQ(h.wait_exit(), kExitProtocol) << core::escape_bytes(bad);
    EXPECT_TRUE(h.output_closed());
  }
}

TEST(Unit, EofInsideAFrameExitsTwo) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  h.send_raw("Content-Length: 50\r\n\r\n{\"jsonrpc\"");
  h.close_input();
  EXPECT_EQ(h.wait_exit(), kExitProtocol);
}

TEST(Unit, HandshakeMidSessionIsAProtocolError) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  h.ack();
  EXPECT_EQ(h.wait_exit(), kExitProtocol);
}

TEST(Unit, ClosedStdoutStopsTheServerWithExitThree) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  h.close_output();
  h.request(1, "tasks/list", Json::object());
  EXPECT_EQ(h.wait_exit(), kExitIo);
}

TEST(Unit, ErrorsCarryErrorInfoData) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  Json r = call(h, "e", "tasks/get", {{"id", "00000000-0000-0000-0000-000000000000"}});
  EXPECT_EQ(r["error"]["code"], -32001);
  EXPECT_EQ(r["error"]["data"][0]["@type"], "type.googleapis.com/google.rpc.ErrorInfo");
  Json card = call(h, "c", "agent/extendedCard", nullptr);
  EXPECT_EQ(card["result"]["supportedInterfaces"][0]["protocolBinding"], "STDIO");
}

TEST(Unit, PipelinedQuickRequestsAreAnsweredInTheirOrder) {
  // Answered on the reader thread and written out together: the batching
  // must neither lose nor reorder a frame.
  StdioHarness h(StdioHarness::options());
  h.handshake();
  constexpr int kRequests = 150;  // ~30 KB each way: fits the pipes while the test writes
  std::string batch;
  for (int i = 0; i < kRequests; ++i) {
    batch += wire::encode_content_length(
        Json{{"jsonrpc", "2.0"}, {"id", i}, {"method", "message/send"}, {"params", msg_params("tck-message-response")}}
            .dump());
  }
  h.send_raw(batch);
  for (int i = 0; i < kRequests; ++i) {
    auto r = h.read_json();
    ASSERT_TRUE(r) << "no answer " << i;
    EXPECT_EQ((*r)["id"], i);
    EXPECT_TRUE((*r)["result"].contains("message"));
  }
}

TEST(Unit, AQuickRequestIsNotHeldBehindABlockingSend) {
  StdioHarness h(StdioHarness::options());
  h.handshake();
  h.request(1, "message/send", msg_params("tck-long-running delay=1500"));  // waits for the task
  h.request(2, "tasks/get", {{"id", "no-such-task"}});
  auto first = h.read_json();
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)["id"], 2);
  EXPECT_EQ(response_to(h, 1, core::Millis(5000))["result"]["task"]["status"]["state"], "TASK_STATE_COMPLETED");
}

}  // namespace
}  // namespace a2a::agent
