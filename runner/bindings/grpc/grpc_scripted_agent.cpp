#include "runner/bindings/grpc/grpc_scripted_agent.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

#include <google/protobuf/descriptor.h>
#include <grpcpp/generic/async_generic_service.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/support/byte_buffer.h>

#include "runner/engine/client_http.hpp"
#include "runner/grpc/byte_buffer.hpp"
#include "runner/grpc/proto_json.hpp"
#include "runner/grpc/status.hpp"
#include "runner/jsonrpc/errors.hpp"
#include "runner/transport/transcript.hpp"

namespace a2a::bindings {
namespace {

using Json = nlohmann::json;

// Calls nobody answered pile up only while a scenario runs.
constexpr size_t kMaxCalls = 1000;

class GrpcScriptedAgent;

// One call. gRPC runs the On* callbacks; the scenario's thread writes and
// finishes. Owned by the agent (not deleted in OnDone), so the scenario may
// hold it after gRPC is done with it; every reactor operation happens
// before Finish, and Finish happens exactly once (finish()).
class ScriptedCall : public grpc::ServerGenericBidiReactor {
 public:
  ScriptedCall(GrpcScriptedAgent& agent, grpc::GenericCallbackServerContext* ctx) : agent_(agent), ctx_(ctx) {}
  void start() { StartRead(&request_); }

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override {
    std::lock_guard lk(mu_);
    write_pending_ = false;
    write_ok_ = ok;
    cv_.notify_all();
  }
  void OnCancel() override {
    std::lock_guard lk(mu_);
    cancelled_ = true;
    cv_.notify_all();
  }
  void OnDone() override {}

  // One message; false when the client is gone or the deadline passed.
  // op_mu_ orders the reactor operations (a write, then Finish, once);
  // mu_ guards the state the callbacks change, never held into gRPC.
  bool write(const std::string& bytes, core::Deadline d) {
    std::lock_guard op(op_mu_);
    {
      std::lock_guard lk(mu_);
      if (finished_ || cancelled_) return false;
      response_ = grpcwire::to_buffer(bytes);
      write_pending_ = true;
    }
    StartWrite(&response_);
    std::unique_lock lk(mu_);
    while (write_pending_ && !d.expired()) cv_.wait_until(lk, d.time());
    return !write_pending_ && write_ok_;
  }
  void finish(const grpc::Status& st) {
    std::lock_guard op(op_mu_);
    {
      std::unique_lock lk(mu_);
      if (finished_) return;
      finished_ = true;
      // A write the client never took: the server's shutdown cancels the call; wait for that.
      if (write_pending_) cv_.wait_for(lk, std::chrono::seconds(2), [this] { return !write_pending_; });
    }
    Finish(st);
  }

  const std::string& method() const { return ctx_->method(); }
  Json view;  // what x-expect-request sees (set in OnReadDone)

 private:
  GrpcScriptedAgent& agent_;
  grpc::GenericCallbackServerContext* ctx_;
  grpc::ByteBuffer request_, response_;
  std::mutex op_mu_, mu_;
  std::condition_variable cv_;
  bool write_pending_ = false, write_ok_ = false, cancelled_ = false, finished_ = false;
};

class Service : public grpc::CallbackGenericService {
 public:
  explicit Service(GrpcScriptedAgent& a) : agent_(a) {}
  grpc::ServerGenericBidiReactor* CreateReactor(grpc::GenericCallbackServerContext* ctx) override;

 private:
  GrpcScriptedAgent& agent_;
};

class GrpcScriptedAgent : public engine::ScriptedAgent {
 public:
  explicit GrpcScriptedAgent(transport::Transcript* tr) : tr_(tr), service_(*this) {}
  ~GrpcScriptedAgent() override {
    {
      std::lock_guard lk(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    std::vector<std::shared_ptr<ScriptedCall>> calls;
    {
      std::lock_guard lk(mu_);
      calls = calls_;
    }
    // Streams left open (end: never) and calls never answered end now.
    for (const auto& c : calls) c->finish(grpc::Status(grpc::StatusCode::UNAVAILABLE, "the scenario ended"));
    if (server_) server_->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(500));
    server_.reset();
  }

  core::Expected<void> start() {
    grpc::ServerBuilder b;
    int port = 0;
    b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    b.RegisterCallbackGenericService(&service_);
    b.SetMaxReceiveMessageSize(64 << 20);
    server_ = b.BuildAndStart();
    if (!server_ || port == 0) return core::fail(core::ErrorKind::kIo, "the scripted gRPC agent could not listen on 127.0.0.1");
    address_ = "127.0.0.1:" + std::to_string(port);
    auto card = engine::ScriptedServer::start("grpc", tr_);
    if (!card) return core::fail(card.error());
    card_ = std::move(*card);
    card_->set_interface(address_, "GRPC");
    return {};
  }

  std::string target() const override { return card_->base_url(); }
  std::string interface_url() const override { return address_; }
  void set_card_members(Json members) override { card_->set_card_members(std::move(members)); }

  std::shared_ptr<ScriptedCall> adopt(grpc::GenericCallbackServerContext* ctx) {
    auto c = std::make_shared<ScriptedCall>(*this, ctx);
    std::lock_guard lk(mu_);
    calls_.push_back(c);
    return c;
  }
  bool overloaded() {
    std::lock_guard lk(mu_);
    return stop_ || calls_.size() > kMaxCalls;
  }

  void received(ScriptedCall* call) {
    if (tr_) tr_->add(transport::Direction::kFromPeer, "gRPC call " + call->view.dump());
    std::lock_guard lk(mu_);
    for (const auto& c : calls_)
      if (c.get() == call) inbox_.push_back(c);
    cv_.notify_all();
  }

  std::optional<Json> take(core::Deadline d) override {
    std::unique_lock lk(mu_);
    while (inbox_.empty() && !stop_ && !d.expired()) cv_.wait_until(lk, d.time());
    if (inbox_.empty()) return std::nullopt;
    last_ = inbox_.front();
    inbox_.pop_front();
    return last_->view;
  }

  engine::ScriptedReply reply(const Json& v, const std::function<void(int)>& pause, core::Deadline d) override {
    std::shared_ptr<ScriptedCall> call;
    {
      std::lock_guard lk(mu_);
      call = std::move(last_);
      last_.reset();
    }
    if (!call) return {"x-reply without a request (x-expect-request first)", ""};
    if (v.contains("delay_ms")) pause(v["delay_ms"].get<int>());
    auto op = grpcwire::operation_of(call->method());
    if (!op) {
      call->finish(grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "unknown method " + call->method()));
      return {"the client called " + call->method() + ", not a method of lf.a2a.v1.A2AService", ""};
    }
    const auto& out_type = *grpcwire::method_of(*op).output_type();
    if (v.contains("stream")) {
      for (const auto& item : v["stream"]) {
        if (item.contains("delay_ms")) pause(item["delay_ms"].get<int>());
        if (item.contains("error")) return finish_error(*call, item["error"]);  // gRPC: an error ends the stream
        if (!item.contains("event")) continue;
        auto bytes = grpcwire::json_to_binary(out_type, item["event"]);
        if (!bytes) return unsendable(*call, "the stream event is not a " + out_type.full_name() + ": " + bytes.error().message);
        note("gRPC stream message " + item["event"].dump());
        if (!call->write(*bytes, d)) return {"the client ended the stream early (or did not read it)", ""};
      }
      std::string end = v.value("end", "final");
      if (end == "never" || end == "none") return {};
      if (end == "cut" || end == "eof") {
        note("gRPC status UNAVAILABLE (the stream is cut)");
        call->finish(grpc::Status(grpc::StatusCode::UNAVAILABLE, "connection cut by the scripted agent"));
        return {};
      }
      note("gRPC status OK");
      call->finish(grpc::Status::OK);
      return {};
    }
    if (v.contains("error")) return finish_error(*call, v["error"]);
    Json result = v.value("result", Json());
    auto bytes = grpcwire::json_to_binary(out_type, result.is_null() ? Json::object() : result);
    if (!bytes) return unsendable(*call, "the result is not a " + out_type.full_name() + ": " + bytes.error().message);
    note("gRPC OK " + result.dump());
    if (!call->write(*bytes, d)) return {"the client went away before the answer", ""};
    call->finish(grpc::Status::OK);
    return {};
  }

 private:
  void note(const std::string& what) {
    if (tr_) tr_->add(transport::Direction::kToPeer, what);
  }
  // A JSON-RPC error object {code, message, data} (the §5.4 status and
  // google.rpc details), or a google.rpc.Status {status: "NOT_FOUND", message, details}.
  engine::ScriptedReply finish_error(ScriptedCall& call, const Json& e) {
    if (e.is_object() && e.contains("status") && e["status"].is_string()) {
      int code = grpcwire::code_by_name(e["status"].get<std::string>()).value_or(grpcwire::kUnknown);
      std::string msg = e.value("message", "");
      std::string details;
      if (e.contains("details")) {
        auto enc = grpcwire::encode_status(code, msg, e["details"]);
        if (!enc) return unsendable(call, "the error's details: " + enc.error().message);
        details = *enc;
      }
      note("gRPC status " + e.dump());
      call.finish(grpc::Status(static_cast<grpc::StatusCode>(code), msg, details));
      return {};
    }
    grpcwire::WireStatus w = grpcwire::status_from_error(with_error_info(e));
    note("gRPC status " + grpcwire::code_name(w.code) + " " + e.dump());
    call.finish(grpc::Status(static_cast<grpc::StatusCode>(w.code), w.message, w.details));
    return {};
  }
  // The scenario's answer has no protobuf form: the call ends (so the client
  // is not left waiting) and the step is a SKIP, not the client's failure.
  engine::ScriptedReply unsendable(ScriptedCall& call, const std::string& why) {
    call.finish(grpc::Status(grpc::StatusCode::INTERNAL, "the scripted agent cannot encode its answer"));
    return {"", why};
  }
  // §10.6: an A2A error on gRPC MUST carry a google.rpc.ErrorInfo. A JSON-RPC
  // error object of the scenario (code -32001..) whose data has none gets
  // the table's (reason, domain a2a-protocol.org, data's string members as
  // metadata), as the agent would send it on this binding.
  static Json with_error_info(const Json& e) {
    if (!e.is_object() || !e.contains("code") || !e["code"].is_number_integer()) return e;
    auto row = jsonrpc::row_by_code(e["code"].get<int>());
    if (!row) return e;
    Json data = e.value("data", Json());
    if (data.is_array())
      for (const auto& d : data)
        if (d.is_object() && d.value("@type", "") == jsonrpc::kErrorInfoType) return e;
    Json md = Json::object();
    if (data.is_object())
      for (const auto& [k, v] : data.items()) md[k] = v.is_string() ? v.get<std::string>() : v.dump();
    Json info = {{"@type", jsonrpc::kErrorInfoType}, {"reason", std::string(row->reason)},
                 {"domain", jsonrpc::kErrorDomain}, {"metadata", md}};
    Json out = e;
    out["data"] = data.is_array() ? data : Json::array();
    out["data"].push_back(info);
    return out;
  }

  transport::Transcript* tr_;
  Service service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<engine::ScriptedServer> card_;
  std::string address_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::shared_ptr<ScriptedCall>> calls_;
  std::deque<std::shared_ptr<ScriptedCall>> inbox_;
  std::shared_ptr<ScriptedCall> last_;
  bool stop_ = false;
};

grpc::ServerGenericBidiReactor* Service::CreateReactor(grpc::GenericCallbackServerContext* ctx) {
  auto call = agent_.adopt(ctx);
  if (agent_.overloaded()) {
    call->finish(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, "too many calls in this scenario"));
    return call.get();
  }
  call->start();
  return call.get();
}

void ScriptedCall::OnReadDone(bool ok) {
  if (!ok) {
    finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "no request message was received"));
    return;
  }
  Json headers = Json::object();
  for (const auto& [k, v] : ctx_->client_metadata()) {
    std::string key(k.data(), k.size());
    if (!key.ends_with("-bin")) headers[key] = std::string(v.data(), v.size());
  }
  const std::string& path = ctx_->method();
  view = {{"path", path}, {"method", path.substr(path.rfind('/') + 1)}, {"headers", headers}, {"params", nullptr}};
  std::string bytes = grpcwire::from_buffer(request_);
  if (auto op = grpcwire::operation_of(path)) {
    auto j = grpcwire::binary_to_json(*grpcwire::method_of(*op).input_type(), bytes);
    if (j) view["params"] = *j;
    else view["problem"] = "the request is not a " + grpcwire::method_of(*op).input_type()->full_name() + ": " + j.error().message;
  }
  agent_.received(this);
}

}  // namespace

core::Expected<std::unique_ptr<engine::ScriptedAgent>> start_grpc_scripted_agent(transport::Transcript* tr) {
  return engine::start_scripted_agent<GrpcScriptedAgent>(tr);
}

}  // namespace a2a::bindings
