// Fake stdio agents for the client's tests: /bin/sh scripts that print exact
// frames with printf, so each edge case is a few readable lines and the bytes
// come from no encoder of ours. Bodies must be ASCII without single quotes.
#pragma once

#include <signal.h>

#include <cerrno>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "peers/a2a-ref-client/handshake.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/wire/codec.hpp"

namespace a2a::client::fake {

// Writes one frame with the body given literally.
inline std::string emit(std::string_view body) {
  return "b='" + std::string(body) + "'; printf 'Content-Length: %d\\r\\n\\r\\n%s' \"${#b}\" \"$b\"; ";
}

// A handshake echoing A2A_SESSION_ID; `rest` follows the sessionId member.
inline std::string handshake(std::string_view rest = R"("supportedVariants":["a2a/v1"],"pid":1,"features":{})") {
  return "b='{\"type\":\"handshake\",\"sessionId\":\"'\"$A2A_SESSION_ID\"'\"," + std::string(rest) +
         "}'; printf 'Content-Length: %d\\r\\n\\r\\n%s' \"${#b}\" \"$b\"; ";
}

// Blocks until `n` bytes arrived on stdin (it may read more; tests don't care).
inline std::string consume(size_t n) { return "head -c " + std::to_string(n) + " >/dev/null; "; }

inline size_t ack_bytes() { return wire::encode_content_length(make_handshake_ack()).size(); }

inline size_t request_bytes(const nlohmann::json& id, std::string_view method, const nlohmann::json& params) {
  return wire::encode_content_length(jsonrpc::dump(jsonrpc::make_request(id, method, params))).size();
}

// Stays alive until stdin closes (a well-behaved agent, L1).
inline std::string until_eof() { return "cat >/dev/null; "; }

// Records the shell's pid in `file` so a test can check the child was killed.
inline std::string write_pid(const std::string& file) { return "echo $$ > " + file + "; "; }

inline std::vector<std::string> argv(const std::string& script) { return {"/bin/sh", "-c", script}; }

inline std::string temp_path(std::string_view tag) {
  return "/tmp/a2a_client_test_" + std::string(tag) + "_" + std::to_string(::getpid());
}

// True when the pid written in `file` no longer names a live process. A
// zombie counts as gone: a killed grandchild waits for init to reap it.
inline bool pid_is_gone(const std::string& file) {
  std::ifstream in(file);
  int pid = 0;
  if (!(in >> pid) || pid <= 0) return false;
  if (::kill(pid, 0) != 0) return errno == ESRCH;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] == 'Z';
}

}  // namespace a2a::client::fake
