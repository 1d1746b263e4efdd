// A stdio wire profile: every choice the binding leaves open, in one value,
// so a second profile (`stdio-json`, PR #138) is a new table row rather
// than new branches through the server (stdio-binding.md §1, §4, §9).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/a2a/methods.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/wire/codec.hpp"

namespace a2a::agent {

enum class HandshakeShape {
  kP46,  // child writes {type:"handshake",sessionId,supportedVariants,pid,features}, reads one handshakeAck
};

enum class StreamShape {
  kP46Notifications,  // event/streamResponse notifications, then one response {id, result:null}
};

struct Profile {
  std::string name;                        // "p46"
  model::MethodNaming naming;              // method names of the 11 operations
  jsonrpc::Strictness strictness;          // how request envelopes are classified
  wire::ContentLengthRules reader_rules;   // how incoming frames are read
  HandshakeShape handshake;
  std::vector<std::string> variants;       // supportedVariants offered
  StreamShape stream;
  std::string protocol_binding;            // AgentInterface.protocolBinding in the agent card
  std::string interface_url;               // AgentInterface.url in the agent card
};

std::optional<Profile> profile_by_name(std::string_view name);
std::vector<std::string> profile_names();

}  // namespace a2a::agent
