#include "peers/a2a-ref-agent/profile.hpp"

namespace a2a::agent {

namespace {

// P46 on the wire, STRICT in behaviour (stdio-binding.md §8 "Suite
// expectation", §9): PR #46 slash names, handshake and stream shape; lenient
// reader; JSON-RPC 2.0-correct error handling. protocolBinding is PR #46's
// "STDIO" constant (what its clients match on); the provisional URI
// https://a2a-protocol.org/bindings/stdio/v1 belongs to the stdio-json profile.
Profile p46() {
  return Profile{
      .name = "p46",
      .naming = model::MethodNaming::kP46,
      .strictness = jsonrpc::Strictness::kStrict,
      .reader_rules = wire::ContentLengthRules::lenient_strict(),
      .handshake = HandshakeShape::kP46,
      .variants = {"a2a/v1"},
      .stream = StreamShape::kP46Notifications,
      .protocol_binding = "STDIO",
      .interface_url = "stdio://a2a-ref-agent?--profile&p46",
  };
}

// PR #138 / A2A#2048 (stdio-binding.md §4): v1 PascalCase names, the
// versioned handshake, streams as repeated responses ending in streamEnd,
// control frames, a 1 MiB body cap and the 0/1/2/3/4 exit codes.
// Where §4 is silent our choices are in docs/stdio-json.md.
Profile stdio_json() {
  wire::ContentLengthRules rules = wire::ContentLengthRules::lenient_strict();
  rules.max_body = kStdioJsonMaxBody;
  return Profile{
      .name = "stdio-json",
      .naming = model::MethodNaming::kV1,
      .strictness = jsonrpc::Strictness::kStrict,
      .reader_rules = rules,
      .handshake = HandshakeShape::kStdioJson,
      .variants = {"stdio-json"},
      .stream = StreamShape::kJsonResponses,
      .protocol_binding = "https://a2a-protocol.org/bindings/stdio/v1",
      .interface_url = "stdio://a2a-ref-agent?--profile&stdio-json",
      .write_content_type = false,
      .parse_error_fatal = true,
      .oversize_reply = true,
      .session_env_required = true,
      .control_frames = true,
      .exit_io = 1,
  };
}

}  // namespace

std::optional<Profile> profile_by_name(std::string_view name) {
  if (name == "p46") return p46();
  if (name == "stdio-json") return stdio_json();
  return std::nullopt;
}

std::vector<std::string> profile_names() { return {"p46", "stdio-json"}; }

}  // namespace a2a::agent
