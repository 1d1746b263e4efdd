// The scripted gRPC agent of client runs, seen by a real gRPC client on
// 127.0.0.1: its card names it, a call is recorded (path, metadata, request
// as ProtoJSON) and answered as x-reply says (result, error with ErrorInfo,
// stream then OK, an error ending a stream, an answer with no binary form).
#include "runner/bindings/grpc/grpc_scripted_agent.hpp"

#include <future>
#include <thread>

#include <google/protobuf/descriptor.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "runner/grpc/proto_json.hpp"
#include "runner/grpc/status.hpp"
#include "runner/transport/http_client.hpp"
#include "runner/transport/transcript.hpp"

namespace a2a::bindings {
namespace {

using Json = nlohmann::json;
using core::Deadline;
using core::Millis;

struct Answer {
  grpc::Status status;
  std::vector<Json> messages;
};

std::string bytes_of(const grpc::ByteBuffer& b) {
  std::vector<grpc::Slice> slices;
  std::string out;
  if (b.Dump(&slices).ok())
    for (const auto& s : slices) out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  return out;
}

// One call of `op` with a ProtoJSON request, on its own thread (the test's
// thread plays the scenario); every message of the answer decoded.
std::future<Answer> call_async(const std::string& authority, model::Operation op, const Json& request) {
  return std::async(std::launch::async, [authority, op, request] {
    auto channel = grpc::CreateChannel(authority, grpc::InsecureChannelCredentials());
    grpc::GenericStub stub(channel);
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(8));
    ctx.AddMetadata("a2a-version", "1.0");
    const auto& m = grpcwire::method_of(op);
    grpc::Slice slice(*grpcwire::json_to_binary(*m.input_type(), request));
    grpc::ByteBuffer req(&slice, 1);
    grpc::CompletionQueue cq;
    Answer a;
    auto call = stub.PrepareCall(&ctx, grpcwire::method_path(op), &cq);
    void* tag = nullptr;
    bool ok = false;
    call->StartCall(reinterpret_cast<void*>(1));
    cq.Next(&tag, &ok);
    call->Write(req, reinterpret_cast<void*>(2));
    cq.Next(&tag, &ok);
    call->WritesDone(reinterpret_cast<void*>(3));
    cq.Next(&tag, &ok);
    for (;;) {
      grpc::ByteBuffer msg;
      call->Read(&msg, reinterpret_cast<void*>(4));
      if (!cq.Next(&tag, &ok) || !ok) break;
      a.messages.push_back(*grpcwire::binary_to_json(*m.output_type(), bytes_of(msg)));
    }
    call->Finish(&a.status, reinterpret_cast<void*>(5));
    cq.Next(&tag, &ok);
    cq.Shutdown();
    while (cq.Next(&tag, &ok)) {
    }
    return a;
  });
}

class ScriptedGrpcAgent : public ::testing::Test {
 protected:
  void SetUp() override {
    auto a = start_grpc_scripted_agent(&tr);
    ASSERT_TRUE(a.ok()) << a.error().message;
    agent = std::move(*a);
  }
  Deadline soon() { return Deadline::after(Millis(5000)); }
  std::function<void(int)> no_pause = [](int) {};
  transport::Transcript tr;
  std::unique_ptr<engine::ScriptedAgent> agent;
};

TEST_F(ScriptedGrpcAgent, CardNamesItsGrpcInterface) {
  auto base = transport::Url::parse(agent->target());
  ASSERT_TRUE(base.ok());
  transport::Url url = base->join(".well-known/agent-card.json");
  transport::HttpRequest req;
  req.method = "GET";
  req.target = url.target();
  auto resp = transport::http_fetch(url, req, soon(), {});
  ASSERT_TRUE(resp.ok()) << resp.error().message;
  Json card = Json::parse(resp->body);
  ASSERT_EQ(card["supportedInterfaces"].size(), 1u);
  EXPECT_EQ(card["supportedInterfaces"][0]["protocolBinding"], "GRPC");
  EXPECT_EQ(card["supportedInterfaces"][0]["url"], agent->interface_url());
  EXPECT_EQ(card["supportedInterfaces"][0]["protocolVersion"], "1.0");
}

TEST_F(ScriptedGrpcAgent, RecordsTheCallAndAnswersWithTheResult) {
  auto f = call_async(agent->interface_url(), model::Operation::kGetTask, {{"id", "t-1"}});
  auto view = agent->take(soon());
  ASSERT_TRUE(view.has_value());
  EXPECT_EQ((*view)["path"], "/lf.a2a.v1.A2AService/GetTask");
  EXPECT_EQ((*view)["method"], "GetTask");
  EXPECT_EQ((*view)["params"], Json({{"id", "t-1"}}));
  EXPECT_EQ((*view)["headers"]["a2a-version"], "1.0");
  Json task = {{"id", "t-1"}, {"contextId", "c-1"}, {"status", {{"state", "TASK_STATE_COMPLETED"}}}};
  auto r = agent->reply({{"result", task}}, no_pause, soon());
  EXPECT_TRUE(r.failure.empty() && r.not_expressible.empty()) << r.failure << r.not_expressible;
  Answer a = f.get();
  EXPECT_TRUE(a.status.ok()) << a.status.error_message();
  ASSERT_EQ(a.messages.size(), 1u);
  EXPECT_EQ(a.messages[0], task);
}

TEST_F(ScriptedGrpcAgent, AJsonRpcErrorBecomesItsStatusWithTheTablesErrorInfo) {
  auto f = call_async(agent->interface_url(), model::Operation::kGetTask, {{"id", "t-404"}});
  ASSERT_TRUE(agent->take(soon()).has_value());
  agent->reply({{"error", {{"code", -32001}, {"message", "Task not found"}, {"data", {{"taskId", "t-404"}}}}}},
               no_pause, soon());
  Answer a = f.get();
  EXPECT_EQ(a.status.error_code(), grpc::StatusCode::NOT_FOUND);
  auto details = grpcwire::decode_status(a.status.error_details());
  ASSERT_TRUE(details.ok());
  EXPECT_EQ((*details)["details"][0]["reason"], "TASK_NOT_FOUND");
  EXPECT_EQ((*details)["details"][0]["domain"], "a2a-protocol.org");
  EXPECT_EQ((*details)["details"][0]["metadata"]["taskId"], "t-404");
}

TEST_F(ScriptedGrpcAgent, StreamsMessagesThenEndsWithOkOrTheErrorItem) {
  Json msg = {{"message", {{"messageId", "m-1"}, {"role", "ROLE_USER"}, {"parts", {{{"text", "hi"}}}}}}};
  Json working = {{"statusUpdate", {{"taskId", "t-1"}, {"contextId", "c-1"}, {"status", {{"state", "TASK_STATE_WORKING"}}}}}};
  auto f = call_async(agent->interface_url(), model::Operation::kSendStreamingMessage, msg);
  ASSERT_TRUE(agent->take(soon()).has_value());
  agent->reply({{"stream", {{{"event", working}}, {{"event", working}}}}}, no_pause, soon());
  Answer a = f.get();
  EXPECT_TRUE(a.status.ok());
  EXPECT_EQ(a.messages.size(), 2u);

  f = call_async(agent->interface_url(), model::Operation::kSendStreamingMessage, msg);
  ASSERT_TRUE(agent->take(soon()).has_value());
  agent->reply({{"stream", {{{"event", working}}, {{"error", {{"code", -32603}, {"message", "tool failed"}}}}}}},
               no_pause, soon());
  a = f.get();
  EXPECT_EQ(a.messages.size(), 1u);
  EXPECT_EQ(a.status.error_code(), grpc::StatusCode::INTERNAL);
  EXPECT_EQ(a.status.error_message(), "tool failed");
}

TEST_F(ScriptedGrpcAgent, AnAnswerWithNoBinaryFormIsNotExpressible) {
  auto f = call_async(agent->interface_url(), model::Operation::kGetTask, {{"id", "t-1"}});
  ASSERT_TRUE(agent->take(soon()).has_value());
  auto r = agent->reply({{"result", {{"id", "t-1"}, {"fileUrl", "x"}}}}, no_pause, soon());
  EXPECT_NE(r.not_expressible.find("fileUrl"), std::string::npos) << r.not_expressible;
  EXPECT_EQ(f.get().status.error_code(), grpc::StatusCode::INTERNAL);  // the client is not left waiting
}

TEST_F(ScriptedGrpcAgent, ACallLeftOpenEndsWhenTheScenarioEnds) {
  auto f = call_async(agent->interface_url(), model::Operation::kGetTask, {{"id", "t-1"}});
  ASSERT_TRUE(agent->take(soon()).has_value());
  agent.reset();
  ASSERT_EQ(f.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_EQ(f.get().status.error_code(), grpc::StatusCode::UNAVAILABLE);
}

}  // namespace
}  // namespace a2a::bindings
