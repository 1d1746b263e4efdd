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

}  // namespace

std::optional<Profile> profile_by_name(std::string_view name) {
  if (name == "p46") return p46();
  return std::nullopt;
}

std::vector<std::string> profile_names() { return {"p46"}; }

}  // namespace a2a::agent
