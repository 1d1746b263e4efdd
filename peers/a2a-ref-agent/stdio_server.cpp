#include "peers/a2a-ref-agent/stdio_server.hpp"

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

// nullopt: serve; a value: exit with it.
std::optional<int> on_ack(const ServerOptions& opt, const FrameReader::Result& res) {
  using K = FrameReader::Result::Kind;
  switch (res.kind) {
    case K::kEnd: log(opt, "stdin closed before the handshakeAck; exiting"); return kExitOk;
    case K::kTimeout:
      log(opt, "protocol error: no handshakeAck within " + std::to_string(opt.ack_timeout.count()) + " ms");
      return kExitProtocol;
    case K::kError: log(opt, "protocol error: bad frame instead of a handshakeAck: " + res.error); return kExitProtocol;
    case K::kWoken: return kExitIo;  // only the writer wakes us: stdout failed
    case K::kFrame: break;
  }
  AckOutcome ack = check_ack(res.body, opt.profile.variants, opt.faults.has(Fault::kHsAcceptUnknownVariant));
  if (ack.verdict == AckOutcome::Verdict::kAccept) return std::nullopt;
  if (ack.verdict == AckOutcome::Verdict::kProtocolError) {
    log(opt, "protocol error: " + ack.detail);
    return kExitProtocol;
  }
  if (opt.faults.has(Fault::kHsServeAfterReject)) return std::nullopt;
  log(opt, "the client rejected the handshake; exiting");
  return kExitOk;
}

std::optional<int> do_handshake(const ServerOptions& opt, FrameWriter& w, FrameReader& r) {
  if (opt.faults.has(Fault::kHsStdoutNoise)) w.write_raw("agent starting\n");
  if (opt.faults.has(Fault::kHsMissing)) return std::nullopt;
  std::string session = opt.faults.has(Fault::kHsIgnoreSessionEnv) ? core::uuid_v7()
                                                                    : choose_session_id(opt.session_env);
  std::vector<std::string> variants = opt.faults.has(Fault::kHsEmptyVariants) ? std::vector<std::string>{}
                                                                              : opt.profile.variants;
  uint32_t pid = opt.pid != 0 ? opt.pid : static_cast<uint32_t>(::getpid());
  if (!w.write_json(make_handshake(session, variants, pid))) {
    log(opt, "cannot write the handshake: " + w.failure());
    return kExitIo;
  }
  return on_ack(opt, r.next(core::Deadline::after(opt.ack_timeout)));
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

int serve_session(const ServerOptions& opt, FrameWriter& w, FrameReader& r) {
  AgentCore core(agent_config(opt));
  RpcOut out(w, opt.faults);
  RpcSession session(core, out, opt.profile, opt.limits, opt.log_fd);
  for (;;) {
    FrameReader::Result res = r.next(core::Deadline::after(kReaderSlice));
    if (res.kind != FrameReader::Result::Kind::kFrame) w.flush();  // before any drain or exit
    if (w.failed()) {
      log(opt, "cannot write to stdout, stopping: " + w.failure());
      session.abort();
      return kExitIo;
    }
    switch (res.kind) {
      case FrameReader::Result::Kind::kFrame:
        if (auto code = session.on_body(res.body)) {
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
        return opt.faults.has(Fault::kLifeExitZeroOnFatal) ? kExitOk : kExitProtocol;
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
  FrameReader reader(in_fd, reader_rules(opt), wake.read_fd());
  if (auto code = do_handshake(opt, writer, reader)) return *code;
  writer.enable_framing_faults();
  // Answers given on this (the reader) thread are collected and written
  // together, every few KiB and whenever it waits for input: pipelined
  // requests cost a few write(2)s per read, not one each.
  writer.batch_writes_from_this_thread();
  reader.set_before_wait([&writer] { writer.flush(); });
  int code = serve_session(opt, writer, reader);
  writer.flush();
  return code;
}

}  // namespace a2a::agent
