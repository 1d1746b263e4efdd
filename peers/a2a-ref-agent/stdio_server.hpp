// The stdio binding server: runs one session on given descriptors (stdin and
// stdout in the executable, pipes in tests) and returns the exit status
// (exit_codes.hpp). Never raises SIGPIPE (it ignores the signal process-wide)
// and never writes anything but frames to `out_fd`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "peers/a2a-ref-agent/agent_core.hpp"
#include "peers/a2a-ref-agent/profile.hpp"
#include "peers/a2a-ref-agent/rpc_session.hpp"
#include "peers/a2a-ref-agent/service_params.hpp"

namespace a2a::agent {

struct ServerOptions {
  Profile profile;
  Faults faults;
  std::optional<std::string> session_env;  // the value of A2A_SESSION_ID, if the variable is set
  std::optional<std::string> protocol_version_env;  // stdio-json: A2A_PROTOCOL_VERSION, if set
  ServiceParams session_params;            // stdio-json: from A2A_SP_* (service_params.hpp)
  core::Millis heartbeat{0};               // stdio-json: send a heartbeat frame this often; 0 = never
  uint32_t pid = 0;                        // written in the handshake; 0 = getpid()
  core::Millis ack_timeout{10000};         // L11: no handshakeAck in time -> exit 2
  core::Millis write_timeout{30000};       // a peer that stops reading our stdout that long is gone
  core::Millis eof_grace{1000};            // in-flight unary calls after stdin EOF
  core::Millis ignore_eof_hold{600000};    // --fault life-ignore-eof: how long to linger
  SessionLimits limits;
  int log_fd = 2;                          // diagnostics; -1 = silent
  AgentConfig agent;                       // interfaces default to the profile's
};

ServerOptions default_server_options(const Profile& profile);

int serve_stdio(int in_fd, int out_fd, const ServerOptions& options);

}  // namespace a2a::agent
