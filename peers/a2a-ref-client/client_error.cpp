#include "peers/a2a-ref-client/client_error.hpp"

#include "runner/jsonrpc/errors.hpp"

namespace a2a::client {

std::string_view to_string(ClientErrorKind kind) {
  switch (kind) {
    case ClientErrorKind::kAgent: return "agent";
    case ClientErrorKind::kTimeout: return "timeout";
    case ClientErrorKind::kTransport: return "transport";
    case ClientErrorKind::kHandshake: return "handshake";
    case ClientErrorKind::kUsage: return "usage";
    case ClientErrorKind::kClosed: return "closed";
  }
  return "unknown";
}

int ClientError::code() const {
  if (kind != ClientErrorKind::kAgent || !rpc_error.is_object()) return 0;
  auto it = rpc_error.find("code");
  if (it == rpc_error.end() || !it->is_number_integer()) return 0;
  return it->get<int>();
}

std::string ClientError::str() const {
  if (kind != ClientErrorKind::kAgent) return std::string(to_string(kind)) + ": " + message;
  std::string out = "agent error";
  if (rpc_error.is_object() && rpc_error.contains("code") && rpc_error["code"].is_number_integer()) {
    int c = code();
    out += " " + std::to_string(c) + " (" + std::string(jsonrpc::code_name(c)) + ")";
  }
  if (rpc_error.is_object() && rpc_error.contains("message") && rpc_error["message"].is_string()) {
    out += ": " + rpc_error["message"].get<std::string>();
  }
  if (!message.empty()) out += " [" + message + "]";
  return out;
}

Json ClientError::to_json() const {
  Json out = Json::object();
  out["kind"] = std::string(to_string(kind));
  if (kind == ClientErrorKind::kAgent && rpc_error.is_object()) {
    // Keep the agent's members verbatim (code, message, data) so scripts can match on them.
    for (auto it = rpc_error.begin(); it != rpc_error.end(); ++it) {
      if (it.key() != "kind") out[it.key()] = it.value();
    }
    if (!out.contains("message")) out["message"] = message;
    return out;
  }
  if (kind == ClientErrorKind::kAgent) out["error"] = rpc_error;  // not an object: keep as sent
  out["message"] = message;
  return out;
}

}  // namespace a2a::client
