// What `a2a-ref-client` does once its flags are parsed: one session, one
// operation or a script, JSON lines on `out`, diagnostics on `err`, and the
// exit code. main.cpp only maps flags to a CliConfig (CLI11 stays there).
#pragma once

#include "peers/a2a-ref-client/handshake.hpp"

#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/a2a/methods.hpp"
#include "peers/a2a-ref-client/card.hpp"
#include "peers/a2a-ref-client/client_session.hpp"
#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"
#include "runner/transport/transcript.hpp"

namespace a2a::client {

using Json = nlohmann::json;

inline constexpr int kExitOk = 0;
inline constexpr int kExitOpFailed = 1;    // an operation failed: agent error, stream error, timeout
inline constexpr int kExitTransport = 2;   // spawn, handshake, EOF, framing, broken pipe, card fetch
inline constexpr int kExitUsage = 64;      // bad flags, bad script (EX_USAGE)

struct OpRequest {
  std::string name;  // CLI name ("send"), echoed as "op" in every output line
  model::Operation op = model::Operation::kSendMessage;
  Json params = Json::object();
};

// Opens a session on a GRPC interface (peers/a2a-ref-client/grpc/, linked
// only in builds with the gRPC binding; a2a_client_core has no gRPC).
struct GrpcSessionSetup {
  std::string bearer_token;                     // "authorization: Bearer ..." metadata when set
  transport::Transcript* transcript = nullptr;  // -v
};
using GrpcSessionFactory =
    std::function<core::Expected<std::unique_ptr<Session>>(const SelectedInterface&, const GrpcSessionSetup&)>;

struct CliConfig {
  // Exactly one of agent (stdio) and url (HTTP bindings) is set.
  std::string agent;  // command line, split like a shell without expansion
  std::string url;    // the agent's base URL: the card is fetched from {url}/.well-known/agent-card.json
  std::string binding;  // with url: "" = the card's order, "jsonrpc", "rest" or "grpc" forces one
  GrpcSessionFactory grpc;  // empty: this build has no gRPC binding
  bool insecure = false;
  std::string bearer_token;  // with --url: sent as "Authorization: Bearer ..." (the extended card needs it)  // with an https url: skip certificate verification
  core::Millis timeout{30000};
  core::Millis handshake_timeout{10000};
  core::Millis close_grace{5000};
  std::string session_id;  // empty = a fresh UUIDv7
  WireProfile profile = WireProfile::kP46;  // stdio: --profile p46 | stdio-json
  bool uuid_ids = false;
  bool inherit_env = false;
  std::map<std::string, std::string> env_set;
  bool verbose = false;       // notes and the wire transcript on stderr
  std::vector<OpRequest> ops; // run in order (the CLI gives one)
  std::string script_path;    // non-empty: run this script ("-" = script_in) instead of ops
};

int run_cli(const CliConfig& config, std::istream& script_in, std::ostream& out, std::ostream& err);

}  // namespace a2a::client
