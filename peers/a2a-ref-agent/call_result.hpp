// Results of the binding-independent agent core: a JSON value or an error
// {code, message, data}. Bindings map CallError to their own shape
// (JSON-RPC error object, REST google.rpc.Status, gRPC status).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include <nlohmann/json.hpp>

#include "runner/jsonrpc/errors.hpp"

namespace a2a::agent {

using Json = nlohmann::json;

struct CallError {
  int code = 0;
  std::string message;
  Json data;  // null = no data member

  // {"code":..,"message":..[,"data":..]}
  Json to_json() const;
};

// An A2A error from the error table, with data:[ErrorInfo] (metadata may be null).
CallError a2a_error(jsonrpc::A2AError e, std::string_view message, const Json& metadata = nullptr);
// -32602 with data:[google.rpc.BadRequest{fieldViolations:[{field, description}]}].
CallError invalid_params(std::string_view field, std::string_view description);
CallError internal_error(std::string_view message);
CallError task_not_found(std::string_view task_id);

class CallResult {
 public:
  CallResult(Json value) : v_(std::in_place_index<0>, std::move(value)) {}          // NOLINT implicit
  CallResult(CallError error) : v_(std::in_place_index<1>, std::move(error)) {}     // NOLINT implicit

  bool ok() const { return v_.index() == 0; }
  const Json& value() const { return std::get<0>(v_); }
  Json& value() { return std::get<0>(v_); }
  const CallError& error() const { return std::get<1>(v_); }

 private:
  std::variant<Json, CallError> v_;
};

}  // namespace a2a::agent
