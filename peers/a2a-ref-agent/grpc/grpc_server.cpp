#include "peers/a2a-ref-agent/grpc/grpc_server.hpp"

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <variant>

#include <google/protobuf/descriptor.h>
#include <grpcpp/generic/async_generic_service.h>
#include <grpcpp/grpcpp.h>

#include "peers/a2a-ref-agent/grpc/grpc_faults.hpp"
#include "peers/a2a-ref-agent/worker_pool.hpp"
#include "runner/grpc/byte_buffer.hpp"
#include "runner/grpc/proto_json.hpp"
#include "runner/jsonrpc/errors.hpp"

namespace a2a::agent {
namespace {

namespace pb = google::protobuf;
using grpcwire::WireStatus;

constexpr core::Millis kPollSlice{250};  // how often a waiting worker looks at cancellation
constexpr auto kStopGrace = std::chrono::milliseconds(1000);
constexpr int kNoCredentials = -31401;  // grpcwire::status_code_for: UNAUTHENTICATED

std::string url_host(const std::string& bind) {
  if (bind == "0.0.0.0" || bind.empty()) return "127.0.0.1";
  if (bind == "::") return "[::1]";
  if (bind.find(':') != std::string::npos) return "[" + bind + "]";
  return bind;
}

std::string listen_host(const std::string& bind) {
  return bind.find(':') != std::string::npos ? "[" + bind + "]" : bind;
}

// "1.0" or "1.0.N": the patch is ignored (spec §3.6).
bool is_served_version(std::string_view v) {
  if (v == "1.0") return true;
  if (!v.starts_with("1.0.") || v.size() == 4) return false;
  return v.substr(4).find_first_not_of("0123456789") == std::string_view::npos;
}

}  // namespace

class GrpcService : public grpc::CallbackGenericService {
 public:
  explicit GrpcService(GrpcAgentOptions o)
      : options(std::move(o)),
        policy(grpc_policy(options.faults)),
        pool(options.workers, options.max_workers, options.max_queue) {}

  grpc::ServerGenericBidiReactor* CreateReactor(grpc::GenericCallbackServerContext* ctx) override;

  void log(const std::string& what) const {
    if (options.log_fd < 0) return;
    std::string line = "a2a-ref-agent: grpc: " + what + "\n";
    [[maybe_unused]] ssize_t n = ::write(options.log_fd, line.data(), line.size());
  }

  const GrpcAgentOptions options;
  const GrpcPolicy policy;
  WorkerPool pool;
  std::atomic<AgentCore*> core{nullptr};
  std::atomic<bool> stopping{false};
  std::unique_ptr<grpc::Server> server;
};

namespace {

// One call. The constructor and the On* callbacks run on gRPC's threads and
// never wait; serve() runs on a worker of the pool and may (a blocking send,
// a stream waiting for events), always in bounded slices that look at
// cancellation. Finish is called exactly once, as the last thing touching
// the call (OnDone then deletes it).
class Call : public grpc::ServerGenericBidiReactor {
 public:
  Call(GrpcService& svc, grpc::GenericCallbackServerContext* ctx) : svc_(svc), ctx_(ctx) {
    op_ = grpcwire::operation_of(ctx->method());
    if (!op_) {
      finish({svc_.policy.unknown_method,
              "Method not found: '" + ctx->method() + "' is not a method of " +
                  std::string(grpcwire::kServiceName),
              ""});
      return;
    }
    StartRead(&request_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) {
      finish({grpcwire::kInvalidArgument, "no request message was received", ""});
      return;
    }
    if (!svc_.pool.submit([this] { guarded_serve(); }))
      finish({grpcwire::kResourceExhausted, "Server overloaded: too many calls in flight", ""});
  }

  void OnWriteDone(bool ok) override {
    std::lock_guard<std::mutex> lk(mu_);
    write_pending_ = false;
    write_ok_ = ok;
    cv_.notify_all();
  }

  void OnCancel() override {
    std::lock_guard<std::mutex> lk(mu_);
    cancelled_ = true;
    if (stream_) stream_->cancel();
    cv_.notify_all();
  }

  void OnDone() override { delete this; }

 private:
  const Faults& faults() const { return svc_.options.faults; }

  bool cancelled() {
    std::lock_guard<std::mutex> lk(mu_);
    return cancelled_;
  }

  void finish(const WireStatus& w) {
    Finish(grpc::Status(static_cast<grpc::StatusCode>(w.code), w.message, w.details));
  }
  void finish_error(const CallError& e) { finish(grpc_error_status(faults(), e.to_json())); }
  void finish_cancelled() { finish({grpcwire::kCancelled, "the call was cancelled (or its deadline passed)", ""}); }

  void guarded_serve() {
    try {
      serve();
    } catch (const std::exception& e) {
      // A bug of ours costs one call, not the agent.
      svc_.log(std::string("internal error: ") + e.what());
      finish({grpcwire::kInternal, "internal error", ""});
    }
  }

  // The service parameter a2a-version (§10.2). Absent or empty is 0.3
  // (§3.6.2: "Agents MUST interpret empty value as 0.3 version"), which this
  // 1.0 interface does not serve (docs/grpc.md "Version").
  std::optional<CallError> check_version() const {
    if (!svc_.policy.check_version) return std::nullopt;
    std::string version = metadata("a2a-version");
    if (is_served_version(version) || (version.empty() && svc_.policy.absent_version_is_current)) return std::nullopt;
    std::string shown = version.empty() ? "(none, which means 0.3)" : "'" + version + "'";
    return a2a_error(jsonrpc::A2AError::kVersionNotSupported,
                     "Version not supported: a2a-version " + shown +
                         " is not served here; this interface serves A2A 1.0 only",
                     Json{{"requestedVersion", version}, {"supportedVersions", "1.0"}});
  }

  // GetExtendedAgentCard needs `authorization: Bearer <token>` (§13.3).
  bool authorized() const {
    if (!svc_.policy.require_card_auth) return true;
    std::string v = metadata("authorization");
    if (v.size() < 7 || (v.compare(0, 7, "Bearer ") != 0 && v.compare(0, 7, "bearer ") != 0)) return false;
    std::string token = v.substr(7);
    for (const auto& t : svc_.options.auth_tokens)
      if (token == t) return true;
    return false;
  }

  std::string metadata(const std::string& key) const {
    const auto& md = ctx_->client_metadata();
    auto it = md.find(key);
    return it == md.end() ? std::string() : std::string(it->second.data(), it->second.size());
  }

  void serve() {
    AgentCore* core = svc_.core.load();
    if (!core || svc_.stopping) return finish({grpcwire::kUnavailable, "the agent is not serving", ""});
    if (!svc_.policy.version_label.empty()) ctx_->AddInitialMetadata("a2a-version", svc_.policy.version_label);
    if (auto e = check_version()) return finish_error(*e);
    const pb::MethodDescriptor& m = grpcwire::method_of(*op_);
    auto params = grpcwire::binary_to_json(*m.input_type(), grpcwire::from_buffer(request_));
    if (!params) return finish({svc_.policy.malformed_request, params.error().message, ""});
    if (*op_ == model::Operation::kGetExtendedAgentCard && !authorized()) {
      return finish_error(CallError{kNoCredentials,
                                    "Unauthenticated: GetExtendedAgentCard needs `authorization: Bearer <token>` "
                                    "metadata (spec §13.3; the public card declares the scheme)",
                                    nullptr});
    }
    if (model::is_streaming(*op_)) return serve_stream(*core, *m.output_type(), *params);
    CallResult r = core->call(*op_, *params);
    if (cancelled()) return finish_cancelled();
    if (!r.ok()) return finish_error(r.error());
    // DeleteTaskPushNotificationConfig: the core's null is google.protobuf.Empty.
    auto bytes = encode_or_status(*m.output_type(), r.value().is_null() ? Json::object() : r.value());
    if (auto* st = std::get_if<WireStatus>(&bytes)) return finish(*st);
    response_ = grpcwire::to_buffer(std::get<std::string>(bytes));
    StartWriteAndFinish(&response_, grpc::WriteOptions(), grpc::Status::OK);
  }

  // A result as bytes of `type`, or the INTERNAL status to end the call with.
  std::variant<std::string, WireStatus> encode_or_status(const pb::Descriptor& type, const Json& value) {
    // Members the proto does not know (the legal variation's) have no binary form.
    auto bytes = grpcwire::json_to_binary(type, value, true);
    if (bytes) return std::move(*bytes);
    svc_.log("cannot encode a result: " + bytes.error().message);
    return WireStatus{grpcwire::kInternal, "the agent produced an invalid " + type.full_name() + ": " +
                                               bytes.error().message, ""};
  }

  void serve_stream(AgentCore& core, const pb::Descriptor& type, const Json& params) {
    StreamOpen opened = core.open_stream(*op_, params);
    if (!opened.stream) {
      CallError e = opened.error.value_or(internal_error("stream refused"));
      return finish(grpc_stream_failure(faults(), grpc_error_status(faults(), e.to_json())));
    }
    std::unique_ptr<EventStream> stream = decorate_grpc_stream(faults(), std::move(opened.stream));
    {
      std::lock_guard<std::mutex> lk(mu_);
      stream_ = stream.get();
      if (cancelled_) stream->cancel();
    }
    WireStatus end = pump(*stream, type);
    {
      std::lock_guard<std::mutex> lk(mu_);
      stream_ = nullptr;
    }
    stream->cancel();
    stream.reset();  // before Finish: nothing of the core outlives the call's end
    finish(end);
  }

  // Sends the stream's events; returns how the call ends.
  WireStatus pump(EventStream& stream, const pb::Descriptor& type) {
    core::Deadline until = core::Deadline::after(svc_.options.max_stream);
    for (;;) {
      if (cancelled()) return {grpcwire::kCancelled, "the call was cancelled (or its deadline passed)", ""};
      if (until.expired())
        return {grpcwire::kUnavailable, "the stream was open for the agent's longest stream time; subscribe again",
                ""};
      StreamItem item = stream.next(core::Deadline::after(kPollSlice).min(until));
      switch (item.kind) {
        case StreamItem::Kind::kTimeout:
          continue;
        case StreamItem::Kind::kEnd:
          if (cancelled()) continue;  // reported above
          if (svc_.stopping) return {grpcwire::kUnavailable, "the agent is stopping", ""};
          return {grpcwire::kOk, "", ""};
        case StreamItem::Kind::kError:
          // gRPC has no error event: a mid-stream error is the call's status.
          return grpc_stream_failure(faults(), grpc_error_status(faults(), item.error.to_json()));
        case StreamItem::Kind::kEvent: {
          auto bytes = encode_or_status(type, item.event);
          if (auto* st = std::get_if<WireStatus>(&bytes)) return *st;
          if (!write(std::get<std::string>(bytes), until)) continue;  // cancelled: reported above
          break;
        }
      }
    }
  }

  // One message; waits for its completion (one write in flight at a time).
  // False when the call was cancelled. A client that stops reading is cut
  // off at `until`.
  bool write(const std::string& bytes, core::Deadline until) {
    response_ = grpcwire::to_buffer(bytes);
    {
      std::lock_guard<std::mutex> lk(mu_);
      write_pending_ = true;
    }
    StartWrite(&response_);
    std::unique_lock<std::mutex> lk(mu_);
    bool cut = false;
    while (write_pending_) {
      cv_.wait_for(lk, kPollSlice);
      if (write_pending_ && !cut && until.expired()) {
        cut = true;
        ctx_->TryCancel();  // the pending write completes with ok = false
      }
    }
    if (!write_ok_) cancelled_ = true;
    return write_ok_ && !cancelled_;
  }

  GrpcService& svc_;
  grpc::GenericCallbackServerContext* ctx_;
  std::optional<model::Operation> op_;
  grpc::ByteBuffer request_;
  grpc::ByteBuffer response_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool cancelled_ = false;
  bool write_pending_ = false;
  bool write_ok_ = true;
  EventStream* stream_ = nullptr;  // while a stream is pumped: OnCancel ends it
};

}  // namespace

grpc::ServerGenericBidiReactor* GrpcService::CreateReactor(grpc::GenericCallbackServerContext* ctx) {
  return new Call(*this, ctx);
}

core::Expected<std::unique_ptr<GrpcAgent>> GrpcAgent::start(GrpcAgentOptions options) {
  std::unique_ptr<GrpcAgent> a(new GrpcAgent());
  std::string bind = options.bind;
  uint16_t port = options.port;
  a->service_ = std::make_unique<GrpcService>(std::move(options));
  GrpcService& svc = *a->service_;
  grpc::ServerBuilder b;
  int selected = 0;
  b.AddListeningPort(listen_host(bind) + ":" + std::to_string(port), grpc::InsecureServerCredentials(), &selected);
  b.RegisterCallbackGenericService(&svc);
  // Larger requests are refused by gRPC itself with RESOURCE_EXHAUSTED.
  b.SetMaxReceiveMessageSize(svc.policy.max_receive);
  svc.server = b.BuildAndStart();
  if (!svc.server || selected == 0) {
    a->service_->pool.stop();
    return core::fail(core::ErrorKind::kIo, "grpc: cannot listen on " + listen_host(bind) + ":" + std::to_string(port));
  }
  a->port_ = static_cast<uint16_t>(selected);
  a->address_ = url_host(bind) + ":" + std::to_string(a->port_);
  return a;
}

GrpcAgent::~GrpcAgent() { stop(); }

uint16_t GrpcAgent::port() const { return port_; }
std::string GrpcAgent::address() const { return address_; }

Json GrpcAgent::interface() const {
  return Json{{"url", address_}, {"protocolBinding", "GRPC"}, {"protocolVersion", "1.0"}};
}

void GrpcAgent::attach(AgentCore& core) { service_->core = &core; }

void GrpcAgent::stop() {
  if (stopped_ || !service_) return;
  stopped_ = true;
  GrpcService& svc = *service_;
  svc.stopping = true;
  // Blocked sends return and streams end now, so every call can finish.
  if (AgentCore* core = svc.core.load()) core->shutdown();
  if (svc.server) svc.server->Shutdown(std::chrono::system_clock::now() + kStopGrace);
  svc.pool.stop();
  svc.server.reset();
}

}  // namespace a2a::agent
