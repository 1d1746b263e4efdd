#include "peers/a2a-ref-agent/grpc/grpc_server.hpp"

#include <unistd.h>

#include <array>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <vector>

#include <google/protobuf/arena.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include "peers/a2a-ref-agent/grpc/grpc_faults.hpp"
#include "peers/a2a-ref-agent/grpc/h2_server.hpp"
#include "peers/a2a-ref-agent/grpc/proto_tree.hpp"
#include "peers/a2a-ref-agent/task_store.hpp"
#include "peers/a2a-ref-agent/worker_pool.hpp"
#include "runner/grpc/proto_json.hpp"
#include "runner/jsonrpc/errors.hpp"

namespace a2a::agent {
namespace {

namespace pb = google::protobuf;
using grpcwire::WireStatus;

constexpr core::Millis kPollSlice{250};  // how often a waiting worker looks at cancellation
constexpr auto kStopGrace = std::chrono::milliseconds(1000);
constexpr int kIoThreads = 2;  // docs/grpc.md, "Our own HTTP/2 server"
constexpr int kNoCredentials = -31401;  // grpcwire::status_code_for: UNAUTHENTICATED

std::string url_host(const std::string& bind) {
  if (bind == "0.0.0.0" || bind.empty()) return "127.0.0.1";
  if (bind == "::") return "[::1]";
  if (bind.find(':') != std::string::npos) return "[" + bind + "]";
  return bind;
}

// "1.0" or "1.0.N": the patch is ignored (spec §3.6).
bool is_served_version(std::string_view v) {
  if (v == "1.0") return true;
  if (!v.starts_with("1.0.") || v.size() == 4) return false;
  return v.substr(4).find_first_not_of("0123456789") == std::string_view::npos;
}

}  // namespace

class GrpcService {
 public:
  explicit GrpcService(GrpcAgentOptions o)
      : options(std::move(o)),
        policy(grpc_policy(options.faults)),
        pool(options.workers, options.max_workers, options.max_queue) {}

  h2::Reactor* create_reactor(h2::CallHandle call);

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
  std::unique_ptr<h2::Server> server;
};

namespace {

// Per operation, looked up once: the method and the prototypes of its messages.
struct MethodTypes {
  const pb::MethodDescriptor* method = nullptr;
  const pb::Message* input = nullptr;
  const pb::Message* output = nullptr;
};

const MethodTypes& method_types(model::Operation op) {
  static const std::array<MethodTypes, model::kAllOperations.size()> table = [] {
    std::array<MethodTypes, model::kAllOperations.size()> t;
    auto* factory = pb::MessageFactory::generated_factory();
    for (model::Operation o : model::kAllOperations) {
      const pb::MethodDescriptor& m = grpcwire::method_of(o);
      t[static_cast<size_t>(o)] = {&m, factory->GetPrototype(m.input_type()), factory->GetPrototype(m.output_type())};
    }
    return t;
  }();
  return table[static_cast<size_t>(op)];
}

// Scratch memory for one message's conversion: small messages need no malloc
// for their protobuf objects.
constexpr size_t kArenaBlock = 4096;

// `use(msg)` on a fresh message like `type`, made in an arena whose first
// block is on the stack; what it returns. The message dies with the call.
template <class Use>
auto with_arena_message(const pb::Message& type, Use&& use) {
  std::array<char, kArenaBlock> block;
  pb::ArenaOptions ao;
  ao.initial_block = block.data();
  ao.initial_block_size = block.size();
  pb::Arena arena(ao);
  return use(*type.New(&arena));
}
// A stream's events read at once, before the first write: at most this many
// bytes (below HTTP/2's initial 64 KiB window, so those writes seldom wait
// for the client; when they do, nothing waits on them: docs/grpc.md,
// "Streams"); a longer stream goes on on a worker.
constexpr size_t kReadyBytes = 32u << 10;

// One call. The constructor and the on_* callbacks run on the connection's
// I/O thread (h2_server.hpp) and never wait. A call that cannot wait (every
// unary call but a blocking SendMessage, and a stream whose events are all
// ready) is served on the
// I/O thread that read its request; the rest goes to a worker of the
// pool, which may wait (a blocking send, a stream waiting for events),
// always in bounded slices that look at cancellation. finish is called
// exactly once, as the last thing touching the call (on_done then deletes
// it). docs/grpc.md, "One core, one path".
class Call : public h2::Reactor {
 public:
  Call(GrpcService& svc, h2::CallHandle call) : svc_(svc), call_(std::move(call)) {
    op_ = grpcwire::operation_of(call_.path());
    if (!op_) {
      finish({svc_.policy.unknown_method,
              "Method not found: '" + std::string(call_.path()) + "' is not a method of " +
                  std::string(grpcwire::kServiceName),
              ""});
    }
  }

  void on_read_done(bool ok) override {
    if (!ok) {
      finish({grpcwire::kInvalidArgument, "no request message was received", ""});
      return;
    }
    guarded([this] { start(); });
  }

  void on_write_done(bool ok) override {
    std::lock_guard<std::mutex> lk(mu_);
    write_pending_ = false;
    write_ok_ = ok;
    cv_.notify_all();
  }

  void on_cancel() override {
    std::lock_guard<std::mutex> lk(mu_);
    cancelled_ = true;
    if (stream_) stream_->cancel();
    cv_.notify_all();
  }

  void on_done() override { delete this; }

 private:
  const Faults& faults() const { return svc_.options.faults; }

  bool cancelled() {
    std::lock_guard<std::mutex> lk(mu_);
    return cancelled_;
  }

  void finish(WireStatus w) { call_.finish(std::move(w)); }
  void finish_error(const CallError& e) { finish(grpc_error_status(faults(), e.to_json())); }
  void finish_cancelled() { finish(cancelled_status()); }
  static WireStatus cancelled_status() {
    return {grpcwire::kCancelled, "the call was cancelled (or its deadline passed)", ""};
  }

  template <class Fn>
  void guarded(Fn&& fn) {
    try {
      fn();
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

  std::string metadata(const std::string& key) const { return std::string(call_.header(key)); }

  // The request as the core's JSON: straight from the bytes by the tables
  // (proto_tree.hpp wire_to_tree), else parsed and converted by reflection,
  // else through ProtoJSON text, which also words the error for bytes that are
  // not the method's request.
  core::Expected<Json> decode(const MethodTypes& t) {
    std::string_view bytes = call_.request();
    if (auto direct = wire_to_tree(*t.method->input_type(), bytes)) return std::move(*direct);
    auto tree = with_arena_message(*t.input, [&](pb::Message& msg) -> std::optional<Json> {
      if (!msg.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return std::nullopt;
      return proto_to_tree(msg);
    });
    if (tree) return std::move(*tree);
    return grpcwire::binary_to_json(*t.method->input_type(), std::string(bytes));
  }

  // `msg` serialized into `out` after h2::kFrameRoom bytes (the message prefix).
  static bool serialize(const pb::Message& msg, std::string& out) {
    size_t n = msg.ByteSizeLong();
    out.resize(h2::kFrameRoom + n);
    return msg.SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t*>(out.data() + h2::kFrameRoom)) ==
           reinterpret_cast<uint8_t*>(out.data() + out.size());
  }

  // `text` (a JSON value, as the core logs events) as a message like
  // `type` into `out`: wire bytes straight from the text (proto_tree.hpp
  // text_to_wire), else a message set from the text (text_to_proto), else
  // parsed into a tree and encoded as before.
  std::optional<WireStatus> encode_text(const pb::Message& type, std::string_view text, std::string& out) {
    out.assign(h2::kFrameRoom, '\0');
    if (text_to_wire(*type.GetDescriptor(), text, out)) return std::nullopt;
    if (with_arena_message(type, [&](pb::Message& msg) { return text_to_proto(text, msg) && serialize(msg, out); }))
      return std::nullopt;
    return encode(type, Json::parse(text), out);
  }

  // `value` as a message like `type` into `out` (after h2::kFrameRoom bytes
  // for the message prefix): by the tables (tree_to_wire), else by
  // reflection, else through ProtoJSON; else the INTERNAL status to end with.
  std::optional<WireStatus> encode(const pb::Message& type, const Json& value, std::string& out) {
    out.assign(h2::kFrameRoom, '\0');
    if (tree_to_wire(*type.GetDescriptor(), value, out)) return std::nullopt;
    if (with_arena_message(type, [&](pb::Message& msg) { return tree_to_proto(value, msg) && serialize(msg, out); }))
      return std::nullopt;
    // Members the proto does not know (the legal variation's) have no binary form.
    auto bytes = grpcwire::json_to_binary(*type.GetDescriptor(), value, true);
    if (bytes) {
      out.assign(h2::kFrameRoom, '\0');
      out.append(*bytes);
      return std::nullopt;
    }
    svc_.log("cannot encode a result: " + bytes.error().message);
    return WireStatus{grpcwire::kInternal, "the agent produced an invalid " + type.GetDescriptor()->full_name() + ": " +
                                               bytes.error().message, ""};
  }

  // On the I/O thread that read the request.
  void start() {
    AgentCore* core = svc_.core.load();
    if (!core || svc_.stopping) return finish({grpcwire::kUnavailable, "the agent is not serving", ""});
    if (!svc_.policy.version_label.empty()) call_.add_initial_metadata("a2a-version", svc_.policy.version_label);
    if (auto e = check_version()) return finish_error(*e);
    const MethodTypes& t = method_types(*op_);
    auto params = decode(t);
    if (!params) return finish({svc_.policy.malformed_request, params.error().message, ""});
    if (*op_ == model::Operation::kGetExtendedAgentCard && !authorized()) {
      return finish_error(CallError{kNoCredentials,
                                    "Unauthenticated: GetExtendedAgentCard needs `authorization: Bearer <token>` "
                                    "metadata (spec §13.3; the public card declares the scheme)",
                                    nullptr});
    }
    if (model::is_streaming(*op_)) return start_stream(*core, t, *params);
    if (!core->may_block(*op_, *params)) return answer(*core, t, *params);
    params_ = std::move(*params);
    if (!svc_.pool.submit([this, core, &t] { guarded([&] { answer(*core, t, params_); }); }))
      finish({grpcwire::kResourceExhausted, "Server overloaded: too many calls in flight", ""});
  }

  // GetTask encoded straight from the store (AgentCore::render_task,
  // proto_tree.hpp task_to_wire, else task_to_proto); false: answer() as
  // for every call.
  bool answer_task(AgentCore& core, const MethodTypes& t, const Json& params) {
    std::string out(h2::kFrameRoom, '\0');
    bool done = core.render_task(params, [&](const TaskRecord& r, const TaskView& v) {
      return task_to_wire(r, v, *t.output->GetDescriptor(), out);
    });
    if (!done) done = with_arena_message(*t.output, [&](pb::Message& msg) {
      return core.render_task(params, [&](const TaskRecord& r, const TaskView& v) { return task_to_proto(r, v, msg); }) &&
             serialize(msg, out);
    });
    if (!done) return false;
    if (cancelled()) {
      finish_cancelled();
      return true;
    }
    call_.write_and_finish(std::move(out), WireStatus{grpcwire::kOk, "", ""});
    return true;
  }

  void answer(AgentCore& core, const MethodTypes& t, const Json& params) {
    if (*op_ == model::Operation::kGetTask && answer_task(core, t, params)) return;
    CallResult r = core.call(*op_, params);
    if (cancelled()) return finish_cancelled();
    if (!r.ok()) return finish_error(r.error());
    // DeleteTaskPushNotificationConfig: the core's null is google.protobuf.Empty.
    if (r.value().is_null()) r.value() = Json::object();
    std::string out;
    if (auto st = encode(*t.output, r.value(), out)) return finish(*st);
    call_.write_and_finish(std::move(out), WireStatus{grpcwire::kOk, "", ""});
  }

  // The next item of `stream` (its event encoded into `out`); `bad` is set
  // when the event has no binary form.
  StreamItem next_encoded(EventStream& stream, const pb::Message& type, core::Deadline deadline, std::string& out,
                          std::optional<WireStatus>& bad) {
    return stream.next_view_or_text(
        deadline, [&](const Json& event) { bad = encode(type, event, out); },
        [&](std::string_view event) { bad = encode_text(type, event, out); });
  }

  // How a stream ends on kEnd or kError.
  WireStatus end_of(const StreamItem& item) {
    if (item.kind == StreamItem::Kind::kError)
      return grpc_stream_failure(faults(), grpc_error_status(faults(), item.error.to_json()));
    if (svc_.stopping) return {grpcwire::kUnavailable, "the agent is stopping", ""};
    return {grpcwire::kOk, "", ""};
  }

  // On the I/O thread: the events ready now are read; when the stream
  // ends among them they are written from the callbacks, else a worker
  // writes them and follows the rest of the stream.
  void start_stream(AgentCore& core, const MethodTypes& t, const Json& params) {
    StreamOpen opened = core.open_stream(*op_, params);
    if (!opened.stream) {
      CallError e = opened.error.value_or(internal_error("stream refused"));
      return finish(grpc_stream_failure(faults(), grpc_error_status(faults(), e.to_json())));
    }
    owned_ = decorate_grpc_stream(faults(), std::move(opened.stream));
    until_ = core::Deadline::after(svc_.options.max_stream);
    size_t bytes = 0;
    std::optional<WireStatus> end;
    while (!end && bytes < kReadyBytes) {
      std::string buf;
      std::optional<WireStatus> bad;
      StreamItem item = next_encoded(*owned_, *t.output, core::Deadline::after(core::Millis(0)), buf, bad);
      if (item.kind == StreamItem::Kind::kTimeout) break;
      if (item.kind != StreamItem::Kind::kEvent) {
        end = end_of(item);
      } else if (bad) {
        end = *bad;
      } else {
        bytes += buf.size();
        ready_.push_back(std::move(buf));
      }
    }
    if (end) {
      owned_->cancel();
      owned_.reset();  // nothing of the core outlives the call's end
      // All of it at once: the transport sends as the peer's window allows.
      return call_.write_all_and_finish(std::move(ready_), *end);
    }
    if (!svc_.pool.submit([this, &t] { guarded([&] { follow_stream(*t.output); }); })) {
      owned_->cancel();
      owned_.reset();
      finish({grpcwire::kResourceExhausted, "Server overloaded: too many calls in flight", ""});
    }
  }

  // On a worker: the events read at once, then the rest of the stream.
  void follow_stream(const pb::Message& type) {
    {
      std::lock_guard<std::mutex> lk(mu_);
      stream_ = owned_.get();
      if (cancelled_) owned_->cancel();
    }
    WireStatus end{grpcwire::kOk, "", ""};
    bool open = true;
    for (auto& b : ready_) {
      if (!write(std::move(b))) {
        end = cancelled_status();
        open = false;
        break;
      }
    }
    ready_.clear();
    if (open) end = pump(*owned_, type);
    {
      std::lock_guard<std::mutex> lk(mu_);
      stream_ = nullptr;
    }
    owned_->cancel();
    owned_.reset();  // before finish: nothing of the core outlives the call's end
    finish(end);
  }

  // Sends the stream's events; returns how the call ends.
  WireStatus pump(EventStream& stream, const pb::Message& type) {
    for (;;) {
      if (cancelled()) return cancelled_status();
      if (until_.expired())
        return {grpcwire::kUnavailable, "the stream was open for the agent's longest stream time; subscribe again",
                ""};
      std::string buf;
      std::optional<WireStatus> bad;
      StreamItem item = next_encoded(stream, type, core::Deadline::after(kPollSlice).min(until_), buf, bad);
      switch (item.kind) {
        case StreamItem::Kind::kTimeout:
          continue;
        case StreamItem::Kind::kEnd:
          if (cancelled()) continue;  // reported above
          return end_of(item);
        case StreamItem::Kind::kError:
          // gRPC has no error event: a mid-stream error is the call's status.
          return end_of(item);
        case StreamItem::Kind::kEvent:
          if (bad) return *bad;
          if (!write(std::move(buf))) continue;  // cancelled: reported above
          break;
      }
    }
  }

  // One message from a worker; waits for its completion (one write in
  // flight at a time). False when the call was cancelled. A client that
  // stops reading is cut off at the stream's time limit.
  bool write(std::string bytes) {
    {
      std::lock_guard<std::mutex> lk(mu_);
      write_pending_ = true;
    }
    call_.write(std::move(bytes));
    std::unique_lock<std::mutex> lk(mu_);
    bool cut = false;
    while (write_pending_) {
      cv_.wait_for(lk, kPollSlice);
      if (write_pending_ && !cut && until_.expired()) {
        cut = true;
        call_.try_cancel();  // the pending write completes with ok = false
      }
    }
    if (!write_ok_) cancelled_ = true;
    return write_ok_ && !cancelled_;
  }

  GrpcService& svc_;
  h2::CallHandle call_;
  std::optional<model::Operation> op_;
  Json params_;  // a call handed to a worker
  // A stream: the core's (decorated) stream, its time limit, the events read at once.
  std::unique_ptr<EventStream> owned_;
  core::Deadline until_ = core::Deadline::never();
  std::vector<std::string> ready_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool cancelled_ = false;
  bool write_pending_ = false;
  bool write_ok_ = true;
  EventStream* stream_ = nullptr;  // while a worker follows a stream: on_cancel ends it
};

}  // namespace

h2::Reactor* GrpcService::create_reactor(h2::CallHandle call) { return new Call(*this, std::move(call)); }

core::Expected<std::unique_ptr<GrpcAgent>> GrpcAgent::start(GrpcAgentOptions options) {
  std::unique_ptr<GrpcAgent> a(new GrpcAgent());
  std::string bind = options.bind;
  uint16_t port = options.port;
  a->service_ = std::make_unique<GrpcService>(std::move(options));
  GrpcService& svc = *a->service_;
  h2::ServerOptions so;
  so.bind = bind;
  so.port = port;
  so.io_threads = kIoThreads;
  // Larger requests are refused by the transport with RESOURCE_EXHAUSTED.
  so.max_receive = svc.policy.max_receive;
  auto server = h2::Server::start(so, [&svc](h2::CallHandle call) { return svc.create_reactor(std::move(call)); });
  if (!server) {
    a->service_->pool.stop();
    return core::fail(core::ErrorKind::kIo, server.error().message);
  }
  svc.server = std::move(*server);
  a->port_ = svc.server->port();
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
  if (!svc.server) return svc.pool.stop();
  // Blocked sends return and streams end now, so every call can finish.
  if (AgentCore* core = svc.core.load()) core->shutdown();
  // GOAWAY, a grace for the calls to end, then the rest is cancelled; the
  // workers' last writes still reach the I/O threads before they close.
  svc.server->goaway();
  if (!svc.server->wait_calls(kStopGrace)) svc.server->cancel_all();
  svc.pool.stop();
  svc.server->wait_calls(kStopGrace);
  svc.server->stop();
}

}  // namespace a2a::agent
