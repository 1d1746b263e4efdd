#include "peers/a2a-ref-client/session.hpp"

#include <cstdlib>

#include "peers/a2a-ref-client/agent_status.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/wire/codec.hpp"
#include "peers/a2a-ref-client/fault.hpp"

namespace a2a::client {
namespace {

using core::Deadline;
using core::Millis;

// The reader wakes this often to notice close(); not a protocol timeout.
constexpr Millis kReaderPoll{100};

bool lock_until(std::unique_lock<std::timed_mutex>& lock, Deadline deadline) {
  if (deadline.is_never()) {
    lock.lock();  // bounded by the write deadline of whoever holds it
    return true;
  }
  return lock.try_lock_until(deadline.time());
}

transport::SpawnOptions spawn_options(const std::vector<std::string>& argv,
                                      const SessionOptions& options, const std::string& session_id) {
  transport::SpawnOptions so;
  so.argv = argv;
  so.inherit_env = options.inherit_env;
  if (!options.inherit_env) {
    for (const std::string& name : kMinimalEnv) {
      if (const char* v = std::getenv(name.c_str())) so.env_set[name] = v;
    }
  }
  for (const auto& [k, v] : options.env_set) so.env_set[k] = v;
  so.env_set["A2A_SESSION_ID"] = session_id;
  so.drain_stderr = !fault_on("client-leave-stderr-unread");
  return so;
}

// Runs the handshake on a freshly spawned agent; the caller kills it on failure.
core::Expected<HandshakeInfo> run_handshake(transport::StdioProcess& proc, wire::Decoder& decoder,
                                        const SessionOptions& options, const std::string& session_id) {
  Deadline deadline = Deadline::after(fault_on("client-short-handshake-wait") ? Millis(1000) : options.handshake_timeout);
  auto body = read_first_frame(proc, decoder, deadline);
  if (!body) return core::fail(body.error());
  auto info = validate_handshake(*body, session_id, options.variant);
  const bool json = options.profile == WireProfile::kStdioJson;
  if (info && json && !fault_on("client-accept-any-protocol")) {
    if (auto v = validate_json_handshake(info->raw); !v) info = core::fail(v.error());
  }
  if (!info) {
    // §4: the client still declines in writing, so the child can exit 0 before it is killed.
    if (json && body) {
      auto declined = proc.write(wire::encode_content_length(make_json_handshake_ack(session_id, "", false)), deadline);
      // Then EOF and a short grace: a child that read the decline exits 0 by
      // itself (the caller kills whatever is left).
      proc.close_stdin();
      if (declined) (void)proc.wait_exit(Deadline::after(Millis(1000)));
    }
    return info;
  }
  std::string ack = json ? make_json_handshake_ack(session_id, options.variant, true) : make_handshake_ack(options.variant);
  auto wrote = proc.write(wire::encode_content_length(ack), deadline);
  if (!wrote) {
    return core::fail(wrote.error().kind, "writing the handshakeAck failed: " + wrote.error().message +
                                              stderr_excerpt(proc));
  }
  return info;
}

}  // namespace

SessionOptions options_for_profile(SessionOptions base, WireProfile profile) {
  base.profile = profile;
  base.naming = profile == WireProfile::kStdioJson ? model::MethodNaming::kV1 : model::MethodNaming::kP46;
  base.variant = std::string(profile == WireProfile::kStdioJson ? kVariantStdioJson : kVariantA2aV1);
  return base;
}

const std::vector<std::string> kMinimalEnv = {
    "PATH",   "HOME",  "USER",    "LOGNAME",     "SHELL",         "TERM",
    "LANG",   "LC_ALL", "LC_CTYPE", "TMPDIR",    "TZ",            "LD_LIBRARY_PATH",
    "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"};

core::Expected<std::unique_ptr<StdioSession>> StdioSession::connect(
    const std::vector<std::string>& argv, SessionOptions options) {
  if (argv.empty()) return core::fail(core::ErrorKind::kInvalidArgument, "empty agent command");
  std::string session_id = options.session_id.empty() ? core::uuid_v7() : options.session_id;
  auto spawned = transport::StdioProcess::spawn(spawn_options(argv, options, session_id));
  if (!spawned) return core::fail(spawned.error());
  std::unique_ptr<transport::StdioProcess> proc = std::move(*spawned);
  auto decoder = wire::make_content_length_decoder(wire::ContentLengthRules::lenient_strict());
  auto info = run_handshake(*proc, *decoder, options, session_id);
  if (!info) {
    // H8/H10/H12: a child that failed its handshake never outlives connect().
    transport::ExitStatus st = proc->kill_now();
    core::Error e = info.error();
    e.message = "handshake with '" + argv[0] + "' failed: " + e.message + " (agent terminated: " +
                st.str() + ")";
    return core::fail(std::move(e));
  }
  return std::unique_ptr<StdioSession>(
      new StdioSession(std::move(proc), std::move(decoder), std::move(*info), std::move(options)));
}

StdioSession::StdioSession(std::unique_ptr<transport::StdioProcess> proc,
                           std::unique_ptr<wire::Decoder> decoder, HandshakeInfo info,
                           SessionOptions options)
    : proc_(std::move(proc)),
      decoder_(std::move(decoder)),
      handshake_(std::move(info)),
      options_(std::move(options)),
      router_(options_.on_diagnostic, options_.profile == WireProfile::kStdioJson) {
  reader_ = std::thread([this] { reader_loop(); });
}

StdioSession::~StdioSession() { close(); }

Json StdioSession::next_id() {
  if (options_.ids == IdStyle::kUuid) return core::uuid_v7();
  return next_id_.fetch_add(1);
}

std::string StdioSession::method_of(model::Operation op) const {
  return std::string(model::method_name(op, options_.naming));
}

std::optional<ClientError> StdioSession::write_request(const Json& id, const std::string& method,
                                                       const Json& params, Deadline deadline,
                                                       const std::string& what) {
  std::unique_lock lock(write_mu_, std::defer_lock);
  if (!lock_until(lock, deadline)) {
    return ClientError{ClientErrorKind::kTimeout,
                       what + ": another request's write blocked stdin past the deadline (L8)", nullptr};
  }
  if (auto dead = router_.dead()) return ClientError{dead->kind, what + ": " + dead->message, nullptr};
  std::string bytes = wire::encode_content_length(jsonrpc::dump(jsonrpc::make_request(id, method, params)));
  auto wrote = proc_->write(bytes, deadline);
  if (wrote) return std::nullopt;
  // A failed write may have left part of a frame on the pipe: no later frame
  // could be parsed by the agent, so the session ends here.
  ClientError dead{ClientErrorKind::kTransport, "", nullptr};
  if (wrote.error().kind == core::ErrorKind::kBrokenPipe) {
    dead.message = "agent closed its stdin (" + describe_exit(*proc_, Millis(500)) + ")" +
                   stderr_excerpt(*proc_);
  } else {
    dead.message = "writing to the agent failed (" + wrote.error().message +
                   "); the byte stream is unusable after a partial frame";
  }
  router_.fail_all(dead);
  ClientError out = dead;
  if (wrote.error().kind == core::ErrorKind::kTimeout) out.kind = ClientErrorKind::kTimeout;
  out.message = what + ": " + dead.message;
  return out;
}

CallResult StdioSession::call(model::Operation op, const Json& params, Deadline deadline) {
  PendingCall pending = start_call(op, params, deadline);
  return finish_call(pending);
}

CallResult StdioSession::call_method(const std::string& method, const Json& params, Deadline deadline) {
  PendingCall pending = start_method(method, params, deadline);
  return finish_call(pending);
}

PendingCall StdioSession::start_call(model::Operation op, const Json& params, Deadline deadline) {
  if (model::is_streaming(op)) {
    return {nullptr, method_of(op), deadline,
            CallResult::failure({ClientErrorKind::kUsage, method_of(op) + " is a streaming operation: use stream()", nullptr})};
  }
  return start_method(method_of(op), params, deadline);
}

PendingCall StdioSession::start_method(const std::string& method, const Json& params, Deadline deadline) {
  Json id = next_id();
  PendingCall pending{id, "request id " + id.dump() + " (" + method + ")", deadline, std::nullopt};
  router_.expect(id);
  if (auto err = write_request(id, method, params, deadline, pending.what)) {
    router_.forget(id);
    pending.failed = CallResult::failure(*err);
  }
  return pending;
}

CallResult StdioSession::finish_call(PendingCall& pending) {
  if (pending.failed) return *pending.failed;
  CallResult r = router_.wait(pending.id, pending.deadline, pending.what);
  if (!r.ok() && r.error.message.empty()) r.error.message = pending.what;
  return r;
}

CallResult StdioSession::stream(model::Operation op, const Json& params,
                                const StreamCallback& on_event, Deadline deadline) {
  std::string method = method_of(op);
  if (!model::is_streaming(op)) {
    return CallResult::failure({ClientErrorKind::kUsage, method + " is not a streaming operation: use call()", nullptr});
  }
  Json id = next_id();
  std::string what = "stream id " + id.dump() + " (" + method + ")";
  if (!router_.open_stream(id, deadline)) {
    if (auto dead = router_.dead()) return CallResult::failure({dead->kind, what + ": " + dead->message, nullptr});
    return CallResult::failure({ClientErrorKind::kTimeout,
                                what + ": the previous stream did not end before the deadline", nullptr});
  }
  if (auto err = write_request(id, method, params, deadline, what)) {
    router_.close_stream();
    return CallResult::failure(*err);
  }
  for (;;) {
    StreamStep step = router_.next_stream_step(deadline, what);
    if (step.ended) {
      // stdio-json: a stream we give up on is canceled on the wire (C13), so
      // the agent ends it with streamEnd instead of running on.
      if (router_.close_stream() && json()) send_cancel_stream(id, Deadline::after(Millis(1000)));
      if (!step.outcome.ok() && step.outcome.error.message.empty()) step.outcome.error.message = what;
      return step.outcome;
    }
    on_event(step.item);
  }
}

void StdioSession::reader_loop() {
  for (;;) {
    if (!drain_frames()) break;
    if (stop_reader_.load()) break;
    transport::ReadResult rr = proc_->read_some(Deadline::after(kReaderPoll));
    if (rr.status == transport::ReadResult::Status::kTimeout) continue;
    if (rr.status == transport::ReadResult::Status::kData) {
      decoder_->feed(rr.data);
      continue;
    }
    if (rr.status == transport::ReadResult::Status::kEof) {
      decoder_->finish();
      if (drain_frames()) fail_on_eof_or_error("agent closed its stdout");
      break;
    }
    fail_on_eof_or_error("reading the agent's stdout failed: " + rr.error);
    break;
  }
  {
    std::lock_guard lock(reader_done_mu_);
    reader_done_ = true;
  }
  reader_done_cv_.notify_all();
}

bool StdioSession::drain_frames() {
  for (;;) {
    wire::DecodeResult r = decoder_->next();
    switch (r.status) {
      case wire::DecodeResult::Status::kFrame: router_.route(r.frame.body); break;
      case wire::DecodeResult::Status::kNeedMore:
      case wire::DecodeResult::Status::kEnd: return true;
      case wire::DecodeResult::Status::kError:
        if (fault_on("client-hang-on-framing-error")) return false;
        fail_on_eof_or_error("framing error on the agent's stdout: " + std::string(wire::to_string(r.error)) +
                             ": " + r.detail);
        return false;
    }
  }
}

void StdioSession::fail_on_eof_or_error(const std::string& cause) {
  if (router_.dead()) return;  // close() got there first: not an agent fault
  std::string message = cause + " (" + describe_exit(*proc_, Millis(500)) + ")" + stderr_excerpt(*proc_);
  router_.fail_all({ClientErrorKind::kTransport, message, nullptr});
}

void StdioSession::send_cancel_stream(const Json& id, Deadline deadline) {
  std::unique_lock lock(write_mu_, std::defer_lock);
  if (fault_on("client-no-cancel-stream") || !lock_until(lock, deadline) || router_.dead()) return;
  Json cancel = {{"jsonrpc", "2.0"}, {"id", id}, {"cancelStream", true}};
  auto wrote = proc_->write(wire::encode_content_length(jsonrpc::dump(cancel)), deadline);
  // As in write_request: a partial frame leaves the byte stream unusable.
  if (!wrote) router_.fail_all({ClientErrorKind::kTransport, "writing cancelStream failed: " + wrote.error().message, nullptr});
}

void StdioSession::request_shutdown(Deadline deadline) {
  if (router_.dead()) return;
  CallResult r = call_method("system/shutdown", Json::object(), deadline);
  if (!r.ok() && options_.on_diagnostic) {
    options_.on_diagnostic("system/shutdown was not answered: " + r.error.message);
  }
}

transport::ExitStatus StdioSession::close() {
  std::lock_guard close_lock(close_mu_);
  if (exit_) return *exit_;
  Deadline grace = Deadline::after(options_.close_grace);
  if (json()) request_shutdown(grace.min(Deadline::after(options_.shutdown_timeout)));
  router_.fail_all({ClientErrorKind::kClosed, "the session was closed by the client", nullptr});
  {
    std::unique_lock lock(write_mu_, std::defer_lock);
    if (lock_until(lock, grace)) proc_->close_stdin();
  }
  // L1: a well-behaved agent exits on stdin EOF, which ends the reader. An
  // exited child whose grandchildren still hold stdout (L10) ends the wait
  // too: shutdown() then kills the group.
  for (;;) {
    std::unique_lock lock(reader_done_mu_);
    Deadline slice = grace.min(Deadline::after(Millis(50)));
    if (reader_done_cv_.wait_until(lock, slice.time(), [&] { return reader_done_; })) break;
    lock.unlock();
    if (grace.expired() || proc_->poll_exit()) break;
  }
  stop_reader_.store(true);
  if (reader_.joinable()) reader_.join();
  exit_ = proc_->shutdown(grace.remaining(), Millis(2000));
  return *exit_;
}

}  // namespace a2a::client
