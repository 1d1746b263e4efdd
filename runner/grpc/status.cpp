#include "runner/grpc/status.hpp"

#include <array>

#include <google/protobuf/stubs/strutil.h>
#include <google/protobuf/util/json_util.h>

#include "google/rpc/a2a_conform_rpc.pb.h"
#include "runner/grpc/proto_json.hpp"
#include "runner/jsonrpc/errors.hpp"

namespace a2a::grpcwire {
namespace {

constexpr std::array<std::string_view, 17> kNames = {
    "OK",        "CANCELLED",         "UNKNOWN",           "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
    "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
    "OUT_OF_RANGE", "UNIMPLEMENTED",     "INTERNAL",          "UNAVAILABLE",      "DATA_LOSS",         "UNAUTHENTICATED"};

// ErrorInfo.metadata is map<string, string>: other values as JSON text.
Json stringified_detail(Json d) {
  if (!d.is_object()) return d;
  auto it = d.find("metadata");
  if (it == d.end() || !it->is_object()) return d;
  for (auto& [k, v] : it->items())
    if (!v.is_string()) v = v.dump();
  return d;
}

}  // namespace

std::string code_name(int code) {
  if (code >= 0 && code < static_cast<int>(kNames.size())) return std::string(kNames[static_cast<size_t>(code)]);
  return "CODE_" + std::to_string(code);
}

std::optional<int> code_by_name(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<int>(i);
  return std::nullopt;
}

int status_code_for(int jsonrpc_code) {
  if (auto row = jsonrpc::row_by_code(jsonrpc_code)) {
    auto c = code_by_name(row->grpc_status);
    return c ? *c : kUnknown;
  }
  switch (jsonrpc_code) {
    case jsonrpc::kParseError:
    case jsonrpc::kInvalidRequest:
    case jsonrpc::kInvalidParams:
      return kInvalidArgument;
    case jsonrpc::kMethodNotFound:
      return kUnimplemented;
    case jsonrpc::kInternalError:
      return kInternal;
    case -31401:
      return kUnauthenticated;
    default:
      return kUnknown;
  }
}

core::Expected<std::string> encode_status(int code, const std::string& message, const Json& details) {
  Json st = {{"code", code}, {"message", message}, {"details", Json::array()}};
  if (details.is_array())
    for (const auto& d : details)
      if (d.is_object() && d.contains("@type") && d["@type"].is_string()) st["details"].push_back(stringified_detail(d));
  return json_to_binary(*google::rpc::Status::descriptor(), st);
}

WireStatus status_from_error(const Json& error_object) {
  WireStatus w;
  int jcode = error_object.is_object() && error_object.contains("code") && error_object["code"].is_number_integer()
                  ? error_object["code"].get<int>()
                  : jsonrpc::kInternalError;
  w.code = status_code_for(jcode);
  if (error_object.is_object() && error_object.contains("message") && error_object["message"].is_string())
    w.message = error_object["message"].get<std::string>();
  Json data = error_object.is_object() ? error_object.value("data", Json()) : Json();
  if (!data.is_array()) data = Json::array();
  auto bytes = encode_status(w.code, w.message, data);
  if (!bytes) {
    // A detail protobuf cannot read (a bad ErrorInfo member): keep the rest.
    Json kept = Json::array();
    for (const auto& d : data) {
      auto one = encode_status(w.code, w.message, Json::array({d}));
      if (one) kept.push_back(d);
    }
    bytes = encode_status(w.code, w.message, kept);
  }
  if (bytes) w.details = std::move(*bytes);
  return w;
}

core::Expected<Json> decode_status(std::string_view bytes) {
  google::rpc::Status st;
  if (!st.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return core::fail(core::ErrorKind::kProtocol,
                      "grpc-status-details-bin: the " + std::to_string(bytes.size()) +
                          " bytes are not a google.rpc.Status");
  Json out = {{"code", st.code()}, {"message", st.message()}, {"details", Json::array()}};
  for (const auto& any : st.details()) {
    // An Any prints as {"@type": ..., members} when its type is linked in.
    std::string text;
    auto ok = google::protobuf::util::MessageToJsonString(any, &text);
    Json d = ok.ok() ? Json::parse(text, nullptr, false) : Json();
    if (!ok.ok() || d.is_discarded()) {
      std::string b64;
      google::protobuf::Base64Escape(any.value(), &b64);
      d = {{"@type", any.type_url()}, {"value", b64}};
    }
    out["details"].push_back(std::move(d));
  }
  return out;
}

}  // namespace a2a::grpcwire
