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
  kP46,       // child writes {type:"handshake",sessionId,supportedVariants,pid,features}, reads one handshakeAck
  kStdioJson,  // PR #138: adds protocol/protocolVersion, features as a list; ack has selectVariant and echoes sessionId
};

enum class StreamShape {
  kP46Notifications,  // event/streamResponse notifications, then one response {id, result:null}
  kJsonResponses,     // PR #138: responses {id, result:<event>} repeated, then {id, streamEnd:true}
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
  // stdio-json (stdio-binding.md §4) switches; all off/as P46 by default.
  bool write_content_type = true;          // PR #138 writes Content-Length only
  bool parse_error_fatal = false;          // -32700 (id null) then exit 2
  bool oversize_reply = false;             // body above the cap: -32000 "Message too large", then exit 2
  bool session_env_required = false;       // A2A_SESSION_ID missing or empty: exit 4, nothing written
  bool control_frames = false;             // heartbeat, cancelStream, system/shutdown, serviceParams
  int exit_io = 3;                         // exit status when stdout is unwritable (stdio-json: 1, generic)
};

inline constexpr size_t kStdioJsonMaxBody = 1 << 20;  // PR #138 default (draft spec recommendation)

std::optional<Profile> profile_by_name(std::string_view name);
std::vector<std::string> profile_names();

}  // namespace a2a::agent
