#include "peers/a2a-ref-agent/rpc_session.hpp"

#include <unistd.h>

#include "peers/a2a-ref-agent/exit_codes.hpp"
#include "peers/a2a-ref-agent/handshake.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::agent {
namespace {

// After stdin EOF and the grace period, how long shut-down calls get to return.
constexpr core::Millis kAfterShutdown{500};
// conc-reorder-ids: how long a response waits for a partner to swap ids with.
constexpr core::Millis kHoldForPartner{500};

}  // namespace

RpcSession::RpcSession(AgentCore& core, RpcOut& out, const Profile& profile, SessionLimits limits, int log_fd,
                       SessionContext ctx)
    : core_(core),
      out_(out),
      profile_(profile),
      faults_(out.faults()),
      log_fd_(log_fd),
      ctx_(std::move(ctx)),
      pool_(limits.workers, limits.max_workers, limits.max_queue),
      streams_(core, out, limits.max_stream, profile.stream) {}

RpcSession::~RpcSession() { abort(); }

void RpcSession::log(std::string_view msg) const {
  if (log_fd_ < 0) return;
  std::string line = "a2a-ref-agent: " + std::string(msg) + "\n";
  [[maybe_unused]] ssize_t n = ::write(log_fd_, line.data(), line.size());
}

std::optional<int> RpcSession::on_body(std::string_view body, const std::vector<wire::Header>* headers) {
  if (profile_.control_frames) {
    // A second parse, only on this profile: control frames are not JSON-RPC
    // requests, and serviceParams is a member classify_incoming drops.
    Json doc = jsonrpc::parse_json_or_discarded(body);
    std::optional<int> exit;
    if (doc.is_object() && on_control(doc, headers, exit)) return exit;
  }
  jsonrpc::Incoming in = jsonrpc::classify_incoming(body, profile_.strictness);
  if (!in.message) {
    if (in.reply) return on_rejected(body, *in.reply);
    return std::nullopt;  // a dropped notification
  }
  const jsonrpc::Message& m = *in.message;
  if (m.kind == jsonrpc::Kind::kNotification) {
    // J8: never answered; unknown notification methods are ignored too.
    if (faults_.has(Fault::kErrReplyToNotification)) {
      out_.write_error(nullptr, CallError{jsonrpc::kInvalidRequest, "Invalid Request: notification", nullptr});
    }
    return std::nullopt;
  }
  if (m.kind != jsonrpc::Kind::kRequest) return std::nullopt;  // classify answers responses itself
  if (faults_.has(Fault::kLifeCrashMidFrame) && ++requests_ == 3) {
    std::string frame = out_.frames().encode(jsonrpc::dump(out_.error(m.id, internal_error("crash"))));
    out_.frames().write_raw(std::string_view(frame).substr(0, frame.size() / 2));
    log("--fault life-crash-mid-frame: exiting in the middle of a frame");
    return kExitCrashFault;
  }
  on_request(m.id, m.method, m.params);
  return std::nullopt;
}

std::optional<int> RpcSession::on_rejected(std::string_view body, const Json& reply) {
  int code = reply["error"].value("code", 0);
  if (code == jsonrpc::kInvalidRequest && is_handshake_message(body)) {
    log("protocol error: a handshake message arrived mid-session (H16)");
    return ctx_.protocol_exit;
  }
  if (faults_.has(Fault::kErrBatchPartial)) {
    Json doc = jsonrpc::parse_json_or_discarded(body);
    if (!doc.is_discarded() && doc.is_array() && !doc.empty()) {
      Json batch = Json::array();
      for (const auto& el : doc) {
        Json id = el.is_object() && el.contains("id") ? el["id"] : Json(nullptr);
        batch.push_back(out_.error(id, CallError{jsonrpc::kInvalidRequest, "Invalid Request", nullptr}));
      }
      out_.write(batch);
      return std::nullopt;
    }
  }
  Json answer = reply;
  if (code == jsonrpc::kParseError && faults_.has(Fault::kErrParseAsInvalidRequest)) {
    answer["error"]["code"] = jsonrpc::kInvalidRequest;
  }
  answer["id"] = out_.out_id(answer.value("id", Json(nullptr)));
  out_.write(answer);
  if (code == jsonrpc::kParseError && profile_.parse_error_fatal && !faults_.has(Fault::kJsonParseErrorContinues)) {
    log("protocol error: malformed JSON (stdio-json: -32700, then exit)");
    return ctx_.protocol_exit;
  }
  if (code == jsonrpc::kParseError && faults_.has(Fault::kErrExitOnParseError)) {
    log("--fault err-exit-on-parse-error: exiting after a parse error");
    return kExitProtocol;
  }
  return std::nullopt;
}

void RpcSession::on_request(const Json& id, const std::string& method, const Json& params) {
  if (profile_.stream == StreamShape::kJsonResponses && !faults_.has(Fault::kJsonStreamIdReuse) &&
      streams_.is_open(id)) {
    // stdio-json: responses are told apart by id only, so an open stream's id is taken.
    out_.write_error(id, CallError{jsonrpc::kInvalidRequest,
                                   "Invalid Request: id " + id.dump() + " names a stream that is still open", nullptr});
    return;
  }
  auto op = model::operation_from_method(method, profile_.naming);
  if (!op) {
    int code = faults_.has(Fault::kErrMethodNotFoundCode) ? jsonrpc::kInvalidRequest : jsonrpc::kMethodNotFound;
    out_.write_error(id, CallError{code, "Method not found: '" + method + "' is not a method of the " +
                                             profile_.name + " profile",
                                   nullptr});
    return;
  }
  if (model::is_streaming(*op)) {
    // submit() owns the table of open ids and refuses a taken one itself.
    if (!streams_.submit(StreamJob{id, *op, params})) {
      out_.write_error(id, CallError{jsonrpc::kInvalidRequest,
                                     "Invalid Request: id " + id.dump() + " names a stream that is still open", nullptr});
    }
    return;
  }
  if (faults_.has(Fault::kConcSerialize)) {
    streams_.submit_unary([this, id, op = *op, params] { run_unary(id, op, params); });
    return;
  }
  // A call that cannot block is answered right here on the reader thread: a
  // hand-off to a worker would cost more than the call itself.
  if (!core_.may_block(*op, params)) {
    run_unary(id, *op, params);
    return;
  }
  if (!pool_.submit([this, id, op = *op, params] { run_unary(id, op, params); })) {
    out_.write_error(id, internal_error("Server overloaded: too many requests in flight"));
  }
}

bool RpcSession::on_control(const Json& doc, const std::vector<wire::Header>* headers, std::optional<int>& exit) {
  if (!doc.contains("jsonrpc")) {
    auto type = doc.find("type");
    if (type == doc.end() || *type != "heartbeat") return false;  // handshake family: H16 below
    if (!faults_.has(Fault::kJsonHeartbeatFatal)) return true;   // accepted and ignored
    log("--fault json-heartbeat-fatal: a heartbeat is taken as a protocol error");
    exit = ctx_.protocol_exit;
    return true;
  }
  auto id = doc.find("id");
  if (id == doc.end()) return false;
  if (doc.value("cancelStream", false) == true && !doc.contains("method")) {
    if (!faults_.has(Fault::kJsonIgnoreCancelStream)) streams_.cancel(*id);
    return true;
  }
  auto method = doc.find("method");
  if (method == doc.end() || !method->is_string() || doc.value("jsonrpc", Json()) != "2.0") return false;
  if (!faults_.has(Fault::kJsonServiceParamsIgnored)) {
    ServiceParams sp = headers ? merge_header_params(ctx_.session_params, *headers) : ctx_.session_params;
    sp = merge_service_params(sp, doc.value("serviceParams", Json()));
    if (auto err = check_service_params(sp)) {
      out_.write_error(*id, *err);
      return true;
    }
  }
  if (*method != kShutdownMethod) return false;
  if (faults_.has(Fault::kJsonShutdownNoExit)) {
    out_.write_result(*id, Json::object());
    return true;
  }
  // Open streams end (streamEnd) and calls in flight finish first, so {} is the last frame.
  drain(core::Millis(2000));
  out_.write_result(*id, Json::object());
  log("system/shutdown: exiting");
  exit = kExitOk;
  return true;
}

void RpcSession::run_unary(const Json& id, model::Operation op, const Json& params) {
  try {
    CallResult r = core_.call(op, params);
    write_unary(r.ok() ? out_.result(id, std::move(r.value())) : out_.error(id, r.error()));
  } catch (const std::exception& e) {
    // A bug of ours must cost one request, not the session.
    log(std::string("internal error: ") + e.what());
    write_unary(out_.error(id, internal_error(std::string("Internal error: ") + e.what())));
  }
}

void RpcSession::write_unary(Json response) {
  if (!faults_.has(Fault::kConcReorderIds)) {
    out_.write(response);
    return;
  }
  std::lock_guard<std::mutex> lk(held_mu_);
  if (!held_) {
    held_ = std::move(response);
    held_since_ = core::Clock::now();
    return;
  }
  std::swap((*held_)["id"], response["id"]);
  out_.write(response);
  out_.write(*held_);
  held_.reset();
}

void RpcSession::tick() {
  std::lock_guard<std::mutex> lk(held_mu_);
  if (!held_ || core::Clock::now() - held_since_ < kHoldForPartner) return;
  out_.write(*held_);
  held_.reset();
}

void RpcSession::drain(core::Millis grace) {
  if (ended_) return;
  streams_.close();
  pool_.wait_idle(core::Deadline::after(grace));
  core_.shutdown();
  pool_.wait_idle(core::Deadline::after(kAfterShutdown));
  pool_.stop();
  std::lock_guard<std::mutex> lk(held_mu_);
  if (held_) out_.write(*held_);
  held_.reset();
  ended_ = true;
}

void RpcSession::abort() {
  if (ended_) return;
  core_.shutdown();
  streams_.close();
  pool_.stop();
  ended_ = true;
}

}  // namespace a2a::agent
