// Reading request parameters the way a ProtoJSON reader does: lowerCamelCase
// names, also the proto snake_case names (a2a-protocol.md §2), and a typed
// -32602 naming the field on every mismatch. Getters return the error, or
// nullopt with `out` set (left unset when the field is absent or null).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "peers/a2a-ref-agent/call_result.hpp"

namespace a2a::agent {

// "pageToken" -> "page_token".
std::string snake_case(std::string_view camel);

// The member `camel` (or its snake_case spelling) of an object; nullptr when
// absent, null, or `obj` is not an object.
const Json* field(const Json& obj, std::string_view camel);

// Params must be a JSON object; `allow_absent` also accepts null (no params).
std::optional<CallError> require_object(const Json& params, bool allow_absent);

// `prefix` names the enclosing object in errors ("configuration").
std::optional<CallError> get_string(const Json& obj, std::string_view name,
                                    std::optional<std::string>& out, std::string_view prefix = {});
// Required non-empty string.
std::optional<CallError> get_required_string(const Json& obj, std::string_view name, std::string& out,
                                             std::string_view prefix = {});
// int32 as a JSON integer or a decimal string (ProtoJSON accepts both).
std::optional<CallError> get_int(const Json& obj, std::string_view name, std::optional<long long>& out,
                                 std::string_view prefix = {});
std::optional<CallError> get_bool(const Json& obj, std::string_view name, std::optional<bool>& out,
                                  std::string_view prefix = {});
// historyLength: absent = unset; negative is invalid (a2a-protocol.md §3.13).
std::optional<CallError> get_history_length(const Json& obj, std::optional<long long>& out,
                                            std::string_view prefix = {});

}  // namespace a2a::agent
