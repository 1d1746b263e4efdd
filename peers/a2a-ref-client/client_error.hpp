// What a call, a stream or the session can end with instead of a result.
// An agent's JSON-RPC error object is data the caller asked for (kAgent);
// everything else means the session could not deliver an answer.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace a2a::client {

using Json = nlohmann::json;

enum class ClientErrorKind {
  kAgent,      // the agent answered with a JSON-RPC error object (rpc_error)
  kTimeout,    // the call's deadline passed before its answer arrived
  kTransport,  // EOF, framing error, broken pipe, read/write failure (session is dead)
  kHandshake,  // the agent never became usable (spawn, handshake, ack)
  kUsage,      // the caller used the API wrongly (e.g. call() on a streaming operation)
  kClosed,     // the session was closed before the answer arrived
};

std::string_view to_string(ClientErrorKind kind);

struct ClientError {
  ClientErrorKind kind = ClientErrorKind::kTransport;
  std::string message;      // what went wrong and where ("request id 3 (tasks/get): ...")
  Json rpc_error = nullptr; // kAgent: the error object exactly as the agent sent it

  // The JSON-RPC code for kAgent errors with an integer code, else 0.
  int code() const;
  // "agent error -32001 (TaskNotFoundError): task not found" / "transport: ...".
  std::string str() const;
  // {"kind":"agent","code":-32001,"message":"...","data":...} or {"kind":"transport","message":"..."}.
  Json to_json() const;
};

// A unary answer or a stream's end: the result JSON, or an error.
struct CallResult {
  Json result = nullptr;
  bool has_error = false;
  ClientError error;

  bool ok() const { return !has_error; }
  static CallResult success(Json value) { return CallResult{std::move(value), false, {}}; }
  static CallResult failure(ClientError e) { return CallResult{nullptr, true, std::move(e)}; }
};

}  // namespace a2a::client
