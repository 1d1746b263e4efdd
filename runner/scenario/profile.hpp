// Stdio wire profiles (docs/scenario-format.md §4): one YAML file per profile
// (suites/profiles/<name>.yaml) holding the wire choices a scenario refers to
// as {{profile.<path>}}. Errors follow the loader's convention: one
// "file:line:column: problem" line per problem, all problems at once.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/core/expected.hpp"

namespace a2a::scenario {

// The 11 operations a profile must name a method for.
inline constexpr std::string_view kProfileOperations[] = {
    "send_message",       "send_streaming_message", "get_task",          "list_tasks",
    "cancel_task",        "subscribe_to_task",      "create_push_config", "get_push_config",
    "list_push_configs",  "delete_push_config",     "get_extended_agent_card"};

struct Profile {
  struct Framing {
    std::string kind;          // content-length | newline | http
    std::string content_type;  // written in frames when set
    int64_t max_body = 64LL << 20;
    int64_t max_header_block = 8192;
    bool header_case_insensitive = false;
  };
  struct Handshake {
    bool enabled = true;         // false: `handshake: none`
    std::string from = "agent";  // agent | client
    std::string type;            // "handshake"
    std::string ack_type;        // "handshakeAck"
    std::string variant;         // what `x-handshake: accept` picks
    std::string variant_field;   // "selectedVariant" / "selectVariant"
    std::string session_env;     // env var carrying the session id
    std::vector<std::string> fields;  // members the handshake must have
    std::string protocol;             // stdio-json: the handshake's `protocol` must be this
    std::string protocol_version;     // stdio-json: same major required
    bool ack_session = false;         // stdio-json: the ack echoes sessionId
  };
  struct Stream {
    std::string event_method;  // notification method of events ("" = responses)
    std::string error_method;
    std::string final;         // result-null | stream-end
    std::string end_member;    // stream-end: the member marking the end ("streamEnd")
    std::string cancel_member; // the member of a cancel frame ("cancelStream"); "" = none
  };
  struct Timeouts {
    int handshake_ms = 10000;
    int step_ms = 5000;
    int exit_ms = 5000;
  };

  std::string name;  // `profile:`
  std::string description;
  std::string file;
  Framing framing;
  Handshake handshake;
  std::map<std::string, std::string> methods;  // operation -> method name
  Stream stream;
  std::map<std::string, int64_t> errors;       // "parse" -> -32700
  Timeouts timeouts;
  nlohmann::json doc;  // the whole file, for {{profile.<path>}}

  // A profile of a URL binding (framing kind http or websocket, e.g.
  // suites/profiles/websocket.yaml) documents that binding's rules; it is
  // never the wire profile of a stdio run (--profile), so no stdio scenario
  // runs under it.
  bool describes_url_binding() const { return framing.kind == "http" || framing.kind == "websocket"; }

  // Value at a dot-path ("methods.get_task", "errors.parse"); nullopt if absent.
  std::optional<nlohmann::json> lookup(std::string_view path) const;
  // Method name of an operation ("get_task" -> "tasks/get"); "" if unknown.
  std::string method(std::string_view operation) const;
};

core::Expected<Profile> load_profile(const std::filesystem::path& path);
core::Expected<Profile> parse_profile_text(std::string_view text, const std::string& name);

// `name` is a file path if it names an existing file, else <dir>/<name>.yaml
// (then .yml) in each search dir in order. kNotFound lists where it looked.
core::Expected<std::filesystem::path> find_profile(
    std::string_view name, const std::vector<std::filesystem::path>& search_dirs);

}  // namespace a2a::scenario
