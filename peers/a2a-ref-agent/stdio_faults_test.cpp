// Each injected fault changes what a client observes on the wire. The real
// proof comes from the conformance suite's meta-tests; these keep the faults
// from silently turning into no-ops.
#include <gtest/gtest.h>

#include "peers/a2a-ref-agent/exit_codes.hpp"
#include "peers/a2a-ref-agent/test_support.hpp"

namespace a2a::agent {
namespace {

using namespace testing;

ServerOptions with(std::initializer_list<Fault> f) { return StdioHarness::options(faults_of(f)); }

Json next_with_id(StdioHarness& h, core::Millis timeout = core::Millis(3000)) {
  auto deadline = core::Deadline::after(timeout);
  while (auto j = h.read_json(deadline.remaining())) {
    if (j->contains("id")) return *j;
  }
  return nullptr;
}

std::string raw_after_request(std::initializer_list<Fault> f, const std::string& text = "tck-complete-task") {
  StdioHarness h(with(f));
  h.handshake();
  h.request(1, "message/send", send_params(text));
  h.read_raw_for(core::Millis(400));
  return h.raw();
}

TEST(Unit, FramingFaultsChangeTheBytesAfterTheHandshake) {
  EXPECT_NE(raw_after_request({Fault::kFrameLowercaseHeader}).find("content-length: "), std::string::npos);
  EXPECT_NE(raw_after_request({Fault::kFrameBareLf}).find("\nContent-Type: application/json\n\n"), std::string::npos);
  std::string off = raw_after_request({Fault::kFrameLengthOffByOne});
  auto pos = off.rfind("Content-Length: ");
  auto start = off.find("\r\n\r\n", pos) + 4;
  EXPECT_EQ(std::stoul(off.substr(pos + 16)), off.size() - start + 1);
  std::string chars = raw_after_request({Fault::kFrameCountChars}, "tck-complete-task \xc3\xa9\xc3\xa9");
  pos = chars.rfind("Content-Length: ");
  start = chars.find("\r\n\r\n", pos) + 4;
  EXPECT_LT(std::stoul(chars.substr(pos + 16)), chars.size() - start);
}

TEST(Unit, ReaderFaultsChangeHowBadFramesEnd) {
  StdioHarness strict(with({Fault::kReaderCaseSensitive}));
  strict.handshake();
  strict.send_raw("content-length: 2\r\n\r\n{}");
  EXPECT_EQ(strict.wait_exit(), kExitProtocol);

  StdioHarness no_cap(with({Fault::kReaderNoBodyCap}));
  no_cap.handshake();
  no_cap.send_raw("Content-Length: 67108865\r\n\r\n");
  EXPECT_FALSE(no_cap.wait_exit(core::Millis(300)));  // waits for the body instead of failing fast

  StdioHarness survive(with({Fault::kReaderSurviveFatal}));
  survive.handshake();
  survive.send_raw("Content-Length: x\r\n\r\n");
  EXPECT_FALSE(survive.wait_exit(core::Millis(300)));
  survive.request(1, "tasks/list", Json::object());
  EXPECT_EQ(next_with_id(survive)["id"], 1);

  StdioHarness zero(with({Fault::kLifeExitZeroOnFatal}));
  zero.handshake();
  zero.send_raw("Content-Length: x\r\n\r\n");
  EXPECT_EQ(zero.wait_exit(), kExitOk);
}

TEST(Unit, HandshakeFaultsAreVisible) {
  StdioHarness missing(with({Fault::kHsMissing}));
  missing.request(1, "tasks/list", Json::object());
  EXPECT_EQ(missing.read_json().value()["id"], 1);

  StdioHarness noise(with({Fault::kHsStdoutNoise}));
  noise.read_raw_for(core::Millis(200));
  EXPECT_EQ(noise.raw().rfind("agent starting\n", 0), 0u);

  ServerOptions env = with({Fault::kHsIgnoreSessionEnv});
  env.session_env = "fixed";
  StdioHarness ignore(env);
  EXPECT_NE(ignore.read_json().value()["sessionId"], "fixed");

  StdioHarness empty(with({Fault::kHsEmptyVariants}));
  EXPECT_EQ(empty.read_json().value()["supportedVariants"], Json::array());

  StdioHarness reject(with({Fault::kHsServeAfterReject}));
  ASSERT_TRUE(reject.read_json());
  reject.ack(false, "");
  reject.request(1, "tasks/list", Json::object());
  EXPECT_EQ(next_with_id(reject)["id"], 1);

  StdioHarness variant(with({Fault::kHsAcceptUnknownVariant}));
  ASSERT_TRUE(variant.read_json());
  variant.ack(true, "a2a/v9");
  variant.request(1, "tasks/list", Json::object());
  EXPECT_EQ(next_with_id(variant)["id"], 1);
}

TEST(Unit, IdFaultsChangeTheEchoedId) {
  StdioHarness str(with({Fault::kIdAsString}));
  str.handshake();
  str.request(12, "tasks/list", Json::object());
  EXPECT_EQ(next_with_id(str)["id"], "12");
  StdioHarness null_id(with({Fault::kIdNullResponse}));
  null_id.handshake();
  null_id.request(12, "tasks/list", Json::object());
  EXPECT_TRUE(next_with_id(null_id)["id"].is_null());
}

TEST(Unit, ErrorCodeFaultsChangeCodesAndReplies) {
  StdioHarness h(with({Fault::kErrParseAsInvalidRequest, Fault::kErrReplyToNotification,
                       Fault::kErrMethodNotFoundCode, Fault::kErrNotFoundCode, Fault::kErrNoErrorData}));
  h.handshake();
  h.send_raw(wire::encode_content_length("{oops"));
  EXPECT_EQ(h.read_json().value()["error"]["code"], -32600);
  h.send(Json{{"jsonrpc", "2.0"}, {"method", "tasks/list"}});
  EXPECT_EQ(h.read_json().value()["error"]["code"], -32600);
  h.request(1, "nope/nope", Json::object());
  EXPECT_EQ(next_with_id(h)["error"]["code"], -32600);
  h.request(2, "tasks/get", {{"id", "missing"}});
  Json nf = next_with_id(h);
  EXPECT_EQ(nf["error"]["code"], -32603);
  EXPECT_FALSE(nf["error"].contains("data"));

  StdioHarness batch(with({Fault::kErrBatchPartial}));
  batch.handshake();
  batch.send_raw(wire::encode_content_length(R"([{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"}])"));
  Json arr = batch.read_json().value();
  ASSERT_TRUE(arr.is_array());
  EXPECT_EQ(arr.size(), 2u);

  StdioHarness exits(with({Fault::kErrExitOnParseError}));
  exits.handshake();
  exits.send_raw(wire::encode_content_length("{oops"));
  EXPECT_EQ(exits.wait_exit(), kExitProtocol);
}

// Every frame until nothing arrives for 500 ms.
std::vector<Json> all_frames(StdioHarness& h) {
  std::vector<Json> out;
  while (auto j = h.read_json(core::Millis(500))) out.push_back(*j);
  return out;
}

TEST(Unit, StreamFaultsChangeTheStreamShape) {
  StdioHarness nonnull(with({Fault::kStreamFinalNonnull}));
  nonnull.handshake();
  nonnull.request(1, "message/stream", send_params("tck-stream-basic"));
  auto frames = all_frames(nonnull);
  ASSERT_FALSE(frames.empty());
  EXPECT_EQ(frames.back()["id"], 1);
  EXPECT_TRUE(frames.back()["result"].is_object());

  StdioHarness no_final(with({Fault::kStreamNoFinal}));
  no_final.handshake();
  no_final.request(1, "message/stream", send_params("tck-stream-basic"));
  frames = all_frames(no_final);
  EXPECT_EQ(frames.size(), 4u);
  for (const auto& j : frames) EXPECT_FALSE(j.contains("id"));

  StdioHarness wrong(with({Fault::kStreamFinalWrongId}));
  wrong.handshake();
  wrong.request("s", "message/stream", send_params("tck-stream-basic"));
  EXPECT_EQ(next_with_id(wrong)["id"], "s-other");

  StdioHarness as_resp(with({Fault::kStreamEventsAsResponses}));
  as_resp.handshake();
  as_resp.request(3, "message/stream", send_params("tck-stream-basic"));
  Json first = as_resp.read_json().value();
  EXPECT_EQ(first["id"], 3);
  EXPECT_TRUE(first["result"].contains("task"));

  StdioHarness reorder(with({Fault::kStreamReorder}));
  reorder.handshake();
  reorder.request(4, "message/stream", send_params("tck-stream-basic"));
  EXPECT_TRUE(reorder.read_json().value()["params"].contains("statusUpdate"));

  StdioHarness err_final(with({Fault::kStreamErrorEventAsFinal}));
  err_final.handshake();
  err_final.request(5, "message/stream", send_params("tck-stream-error"));
  Json fin = next_with_id(err_final);
  EXPECT_EQ(fin["error"]["code"], -32603);
  EXPECT_FALSE(next_with_id(err_final, core::Millis(300)).is_object());
}

TEST(Unit, ConcurrencyFaultsChangeWhenThingsAreAnswered) {
  auto open_subscription = [](StdioHarness& h) {
    h.handshake();
    h.request(1, "message/send", send_params("tck-cancel", {{"returnImmediately", true}}));
    Json t = next_with_id(h)["result"]["task"];
    h.request("a", "tasks/subscribe", {{"id", t["id"]}});
    EXPECT_TRUE(h.read_json());
    return t;
  };
  StdioHarness serial(with({Fault::kConcSerialize}));
  Json t = open_subscription(serial);
  serial.request(2, "tasks/list", Json::object());
  EXPECT_TRUE(next_with_id(serial, core::Millis(300)).is_null());  // waits behind the stream

  StdioHarness drop(with({Fault::kConcDropQueuedStream}));
  t = open_subscription(drop);
  drop.request("b", "message/stream", send_params("tck-stream-basic"));
  drop.request(3, "tasks/cancel", {{"id", t["id"]}});
  bool saw_b = false;
  while (auto j = drop.read_json(core::Millis(500))) saw_b |= j->value("id", Json()) == "b";
  EXPECT_FALSE(saw_b);

  StdioHarness inter(with({Fault::kConcInterleaveStreams}));
  t = open_subscription(inter);
  inter.request("b", "message/stream", send_params("tck-stream-basic"));
  EXPECT_EQ(next_with_id(inter)["id"], "b");  // b ran to its end while a is still open
}

TEST(Unit, ReorderIdsFaultSwapsPipelinedResponses) {
  StdioHarness h(with({Fault::kConcReorderIds}));
  h.handshake();
  h.send_raw(wire::encode_content_length(R"({"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"one"}})") +
             wire::encode_content_length(R"({"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{}})"));
  Json a = next_with_id(h), b = next_with_id(h);
  Json by_id = a["id"] == 1 ? a : b;
  EXPECT_EQ(by_id["error"]["code"], -32602);  // id 1 carries the answer to request 2
}

TEST(Unit, LifecycleFaultsChangeTheExit) {
  StdioHarness nonzero(with({Fault::kLifeExitNonzeroOnEof}));
  nonzero.handshake();
  nonzero.close_input();
  EXPECT_EQ(nonzero.wait_exit(), kExitEofFault);

  ServerOptions linger = with({Fault::kLifeIgnoreEof});
  linger.ignore_eof_hold = core::Millis(800);
  StdioHarness ignore(linger);
  ignore.handshake();
  ignore.close_input();
  EXPECT_FALSE(ignore.wait_exit(core::Millis(400)));
  EXPECT_EQ(ignore.wait_exit(core::Millis(3000)), kExitOk);

  StdioHarness crash(with({Fault::kLifeCrashMidFrame}));
  crash.handshake();
  for (int i = 1; i <= 3; ++i) crash.request(i, "tasks/list", Json::object());
  EXPECT_EQ(crash.wait_exit(), kExitCrashFault);
}

}  // namespace
}  // namespace a2a::agent
