// Service parameters on the stdio-json profile (stdio-binding.md §4, A2A spec
// §5 "service parameters"): session-level values from A2A_SP_<NAME>
// environment variables, per-frame values from A2A-SP-<name> header lines,
// per-request values from the request's `serviceParams` member (each level
// overrides the one before). Keys are lower-case, '-'-separated
// ("a2a-version"); multiple values are comma-joined strings.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "peers/a2a-ref-agent/call_result.hpp"
#include "runner/wire/codec.hpp"

namespace a2a::agent {

using ServiceParams = std::map<std::string, std::string>;

inline constexpr std::string_view kServiceParamEnvPrefix = "A2A_SP_";
inline constexpr std::string_view kServiceParamHeaderPrefix = "A2A-SP-";  // any case

// "A2A_SP_A2A_VERSION=1.0" -> {"a2a-version": "1.0"}; other entries ignored.
ServiceParams service_params_from_env(const std::vector<std::string>& environ_entries);

// `base` overridden by the frame's A2A-SP-<name> header lines (prefix
// matched in any case, name lower-cased; one line per value, so repeated
// names are comma-joined in order). Other headers are ignored.
ServiceParams merge_header_params(const ServiceParams& base, const std::vector<wire::Header>& headers);

// `session` overridden by the members of a `serviceParams` object (string
// values as they are, arrays of strings comma-joined, keys lower-cased).
// A `member` that is not an object changes nothing.
ServiceParams merge_service_params(const ServiceParams& session, const Json& member);

// The one parameter the reference agent acts on: "a2a-version". Absent means
// 1.0 on this binding (the handshake already fixed the protocol version);
// present and not 1.0 / 1.0.N it is VersionNotSupportedError (-32009).
std::optional<CallError> check_service_params(const ServiceParams& params);

}  // namespace a2a::agent
