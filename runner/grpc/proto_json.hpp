// lf.a2a.v1.A2AService by operation, and ProtoJSON <-> protobuf binary for
// its messages (docs/grpc.md). The runner, the reference agent and the
// reference client keep A2A values as ProtoJSON (what every scenario and the
// JSON bindings speak); only the gRPC binding turns them into bytes, through
// protobuf's own JSON mapping, so no message class is written by hand.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "runner/a2a/methods.hpp"
#include "runner/core/expected.hpp"

namespace google::protobuf {
class Descriptor;
class MethodDescriptor;
}  // namespace google::protobuf

namespace a2a::grpcwire {

using Json = nlohmann::json;

inline constexpr std::string_view kServiceName = "lf.a2a.v1.A2AService";

// The A2AService method of an operation (from the generated descriptor pool).
const google::protobuf::MethodDescriptor& method_of(model::Operation op);
// "/lf.a2a.v1.A2AService/SendMessage": the HTTP/2 :path of a call.
std::string method_path(model::Operation op);
// The operation of a method, by its name ("SendMessage") or :path.
std::optional<model::Operation> operation_of(std::string_view method);

// ProtoJSON (camelCase or proto field names, enum names or numbers) to the
// binary of `type`. Unknown members are errors, as on every A2A binding;
// the message names the member protobuf could not read. `ignore_unknown`
// drops them instead (an encoder of its own output: members the proto does
// not know have no binary form).
core::Expected<std::string> json_to_binary(const google::protobuf::Descriptor& type, const Json& value,
                                           bool ignore_unknown = false);
// Binary of `type` to ProtoJSON (camelCase names, enums by name, default
// values left out as proto3 JSON does). Bytes that do not parse as `type`
// are an error.
core::Expected<Json> binary_to_json(const google::protobuf::Descriptor& type, std::string_view bytes);

}  // namespace a2a::grpcwire
