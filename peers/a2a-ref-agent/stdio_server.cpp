#include "peers/a2a-ref-agent/stdio_server.hpp"

#include <algorithm>
#include <csignal>
#include <limits>
#include <thread>
#include <unistd.h>

#include "peers/a2a-ref-agent/exit_codes.hpp"
#include "peers/a2a-ref-agent/fd_io.hpp"
#include "peers/a2a-ref-agent/frame_writer.hpp"
#include "peers/a2a-ref-agent/handshake.hpp"
#include "runner/core/escape.hpp"

namespace a2a::agent {
namespace {

// How often the reader loop wakes to notice a failed writer and run session ticks.
constexpr core::Millis kReaderSlice{250};

void log(const ServerOptions& opt, std::string_view msg) {
  if (opt.log_fd < 0) return;
  std::string line = "a2a-ref-agent: " + std::string(msg) + "\n";
  [[maybe_unused]] ssize_t n = ::write(opt.log_fd, line.data(), line.size());
}

wire::ContentLengthRules reader_rules(const ServerOptions& opt) {
  wire::ContentLengthRules rules = opt.profile.reader_rules;
  if (opt.faults.has(Fault::kReaderCaseSensitive)) rules = wire::ContentLengthRules::p46();
  if (opt.faults.has(Fault::kReaderNoBodyCap)) rules.max_body = std::numeric_limits<size_t>::max();
  return rules;
}

bool is_json(const ServerOptions& opt) { return opt.profile.handshake == HandshakeShape::kStdioJson; }

// A protocol error's exit status (json-wrong-exit-code makes it the generic 1).
int protocol_exit(const ServerOptions& opt) {
  return is_json(opt) && opt.faults.has(Fault::kJsonWrongExitCode) ? kExitGeneric : kExitProtocol;
}

// stdio-json start-up checks (§4): A2A_SESSION_ID required (exit 4), a
// supported A2A_PROTOCOL_VERSION major (exit 3). Nothing is written first.
std::optional<int> startup_denied(const ServerOptions& opt) {
  if (!opt.profile.session_env_required) return std::nullopt;
  if ((!opt.session_env || opt.session_env->empty()) && !opt.faults.has(Fault::kJsonSessionEnvOptional)) {
    log(opt, "startup denied: A2A_SESSION_ID is missing or empty (stdio-json requires it)");
    return kExitStartupDenied;
  }
  if (opt.protocol_version_env && !opt.faults.has(Fault::kJsonVersionIgnored)) {
    const std::string& v = *opt.protocol_version_env;
    if (v.substr(0, v.find('.')) != "1") {
      log(opt, "protocol version '" + v + "' is not supported (this agent speaks 1.x)");
      return kExitVersion;
    }
  }
  return std::nullopt;
}

AckRules ack_rules(const ServerOptions& opt, const std::string& session) {
  AckRules rules;
  rules.accept_unknown_variant = opt.faults.has(Fault::kHsAcceptUnknownVariant);
  if (is_json(opt)) {
    rules.variant_field = "selectVariant";
    if (!opt.faults.has(Fault::kJsonAckSessionNotChecked)) rules.session_id = session;
  }
  return rules;
}

// nullopt: serve; a value: exit with it.
std::optional<int> on_ack(const ServerOptions& opt, const FrameReader::Result& res, const std::string& session) {
  using K = FrameReader::Result::Kind;
  switch (res.kind) {
    case K::kEnd: log(opt, "stdin closed before the handshakeAck; exiting"); return kExitOk;
    case K::kTimeout:
      log(opt, "protocol error: no handshakeAck within " + std::to_string(opt.ack_timeout.count()) + " ms");
      return protocol_exit(opt);
    case K::kError:
      log(opt, "protocol error: bad frame instead of a handshakeAck: " + res.error);
      return protocol_exit(opt);
    case K::kWoken: return opt.profile.exit_io;  // only the writer wakes us: stdout failed
    case K::kFrame: break;
  }
  AckOutcome ack = check_ack(res.body, opt.profile.variants, ack_rules(opt, session));
  if (ack.verdict == AckOutcome::Verdict::kAccept) return std::nullopt;
  if (ack.verdict == AckOutcome::Verdict::kProtocolError) {
    log(opt, "protocol error: " + ack.detail);
    return protocol_exit(opt);
  }
  if (opt.faults.has(Fault::kHsServeAfterReject)) return std::nullopt;
  log(opt, "the client rejected the handshake; exiting");
  return kExitOk;
}

std::optional<int> do_handshake(const ServerOptions& opt, FrameWriter& w, FrameReader& r, std::string& session) {
  if (opt.faults.has(Fault::kHsStdoutNoise)) w.write_raw("agent starting\n");
  if (opt.faults.has(Fault::kHsMissing)) return std::nullopt;
  session = opt.faults.has(Fault::kHsIgnoreSessionEnv) ? core::uuid_v7() : choose_session_id(opt.session_env);
  std::vector<std::string> variants = opt.faults.has(Fault::kHsEmptyVariants) ? std::vector<std::string>{}
                                                                              : opt.profile.variants;
  uint32_t pid = opt.pid != 0 ? opt.pid : static_cast<uint32_t>(::getpid());
  Json hs = is_json(opt) ? make_json_handshake(session, variants, pid, !opt.faults.has(Fault::kJsonHsNoVersion))
                         : make_handshake(session, variants, pid);
  if (!w.write_json(hs)) {
    log(opt, "cannot write the handshake: " + w.failure());
    return opt.profile.exit_io;
  }
  return on_ack(opt, r.next(core::Deadline::after(opt.ack_timeout)), session);
}

int on_eof(const ServerOptions& opt, RpcSession& session) {
  if (opt.faults.has(Fault::kLifeIgnoreEof)) {
    log(opt, "--fault life-ignore-eof: lingering after stdin EOF");
    std::this_thread::sleep_for(opt.ignore_eof_hold);
  }
  session.drain(opt.eof_grace);
  return opt.faults.has(Fault::kLifeExitNonzeroOnEof) ? kExitEofFault : kExitOk;
}

AgentConfig agent_config(const ServerOptions& opt) {
  AgentConfig cfg = opt.agent;
  cfg.faults = opt.faults;
  if (cfg.interfaces.empty()) {
    cfg.interfaces = Json::array({{{"url", opt.profile.interface_url},
                                   {"protocolBinding", opt.profile.protocol_binding},
                                   {"protocolVersion", "1.0"}}});
  }
  return cfg;
}

// stdio-json §4: an oversized frame is answered -32000 (id null) before exit 2.
int on_fatal_framing(const ServerOptions& opt, RpcOut& out, const FrameReader::Result& res) {
  if (opt.profile.oversize_reply && res.frame_error == wire::FrameError::kBodyTooLarge &&
      !opt.faults.has(Fault::kJsonOversizeSilent)) {
    out.write_error(nullptr, CallError{-32000, "Message too large", nullptr});
  }
  return opt.faults.has(Fault::kLifeExitZeroOnFatal) ? kExitOk : protocol_exit(opt);
}

// stdio-json: `{"type":"heartbeat","sessionId":...,"ts":<epoch ms>}` every opt.heartbeat.
void maybe_heartbeat(const ServerOptions& opt, RpcOut& out, const std::string& session,
                     core::Clock::time_point& last) {
  if (opt.heartbeat.count() <= 0 || core::Clock::now() - last < opt.heartbeat) return;
  last = core::Clock::now();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::system_clock::now().time_since_epoch());
  out.write(Json{{"type", "heartbeat"}, {"sessionId", session}, {"ts", ms.count()}});
}

int serve_session(const ServerOptions& opt, FrameWriter& w, FrameReader& r, const std::string& session_id) {
  AgentCore core(agent_config(opt));
  RpcOut out(w, opt.faults);
  SessionContext ctx{opt.session_params, protocol_exit(opt)};
  RpcSession session(core, out, opt.profile, opt.limits, opt.log_fd, ctx);
  auto last_heartbeat = core::Clock::now();
  // Heartbeats are due at their own pace, which may be finer than the slice.
  const core::Millis slice = opt.heartbeat.count() > 0 ? std::min(kReaderSlice, opt.heartbeat) : kReaderSlice;
  for (;;) {
    maybe_heartbeat(opt, out, session_id, last_heartbeat);
    FrameReader::Result res = r.next(core::Deadline::after(slice));
    if (res.kind != FrameReader::Result::Kind::kFrame) w.flush();  // before any drain or exit
    if (w.failed()) {
      log(opt, "cannot write to stdout, stopping: " + w.failure());
      session.abort();
      return opt.profile.exit_io;
    }
    switch (res.kind) {
      case FrameReader::Result::Kind::kFrame:
        if (auto code = session.on_body(res.body, res.headers)) {
          w.flush();
          session.abort();
          return *code;
        }
        break;
      case FrameReader::Result::Kind::kTimeout:
      case FrameReader::Result::Kind::kWoken: session.tick(); break;
      case FrameReader::Result::Kind::kEnd: return on_eof(opt, session);
      case FrameReader::Result::Kind::kError:
        log(opt, "fatal framing error: " + res.error);
        if (opt.faults.has(Fault::kReaderSurviveFatal)) {
          r.reset_decoder();
          break;
        }
        // Frames read before the broken one were valid requests: answer them
        // (bounded) before leaving, as after a clean EOF.
        session.drain(opt.eof_grace);
        return on_fatal_framing(opt, out, res);
    }
  }
}

}  // namespace

ServerOptions default_server_options(const Profile& profile) {
  ServerOptions opt;
  opt.profile = profile;
  return opt;
}

int serve_stdio(int in_fd, int out_fd, const ServerOptions& opt) {
  std::signal(SIGPIPE, SIG_IGN);  // EPIPE is handled as an error value (L3)
  WakePipe wake;
  FrameWriter writer(out_fd, opt.faults, opt.write_timeout, [&wake] { wake.wake(); });
  writer.set_content_type(opt.profile.write_content_type);
  FrameReader reader(in_fd, reader_rules(opt), wake.read_fd(), opt.profile.control_frames);
  if (auto code = startup_denied(opt)) return *code;
  std::string session_id;
  if (auto code = do_handshake(opt, writer, reader, session_id)) return *code;
  writer.enable_framing_faults();
  // Answers given on this (the reader) thread are collected and written
  // together, every few KiB and whenever it waits for input: pipelined
  // requests cost a few write(2)s per read, not one each.
  writer.batch_writes_from_this_thread();
  reader.set_before_wait([&writer] { writer.flush(); });
  int code = serve_session(opt, writer, reader, session_id);
  writer.flush();
  return code;
}

}  // namespace a2a::agent
