#include "peers/a2a-ref-agent/service_params.hpp"

#include <cctype>

namespace a2a::agent {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_served_version(std::string_view v) { return v == "1.0" || v.starts_with("1.0."); }

}  // namespace

ServiceParams service_params_from_env(const std::vector<std::string>& environ_entries) {
  ServiceParams out;
  for (const auto& entry : environ_entries) {
    if (!entry.starts_with(kServiceParamEnvPrefix)) continue;
    size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == kServiceParamEnvPrefix.size()) continue;
    std::string name = lower(std::string_view(entry).substr(kServiceParamEnvPrefix.size(),
                                                            eq - kServiceParamEnvPrefix.size()));
    for (auto& c : name) c = c == '_' ? '-' : c;
    out[name] = entry.substr(eq + 1);
  }
  return out;
}

ServiceParams merge_header_params(const ServiceParams& base, const std::vector<wire::Header>& headers) {
  ServiceParams from_frame;
  for (const auto& h : headers) {
    if (h.name.size() <= kServiceParamHeaderPrefix.size() ||
        lower(std::string_view(h.name).substr(0, kServiceParamHeaderPrefix.size())) != lower(kServiceParamHeaderPrefix)) {
      continue;
    }
    std::string name = lower(std::string_view(h.name).substr(kServiceParamHeaderPrefix.size()));
    std::string& joined = from_frame[name];
    joined += (joined.empty() ? "" : ",") + std::string(trim_blanks(h.value));
  }
  ServiceParams out = base;
  for (auto& [k, v] : from_frame) out[k] = std::move(v);
  return out;
}

ServiceParams merge_service_params(const ServiceParams& session, const Json& member) {
  ServiceParams out = session;
  if (!member.is_object()) return out;
  for (const auto& [key, value] : member.items()) {
    std::string joined;
    if (value.is_string()) {
      joined = value.get<std::string>();
    } else if (value.is_array()) {
      for (const auto& v : value) {
        if (!v.is_string()) continue;
        joined += (joined.empty() ? "" : ",") + v.get<std::string>();
      }
    } else {
      continue;  // not a service parameter value; ignored like an unknown member
    }
    out[lower(key)] = joined;
  }
  return out;
}

std::optional<CallError> check_service_params(const ServiceParams& params) {
  auto it = params.find("a2a-version");
  if (it == params.end() || is_served_version(it->second)) return std::nullopt;
  return a2a_error(jsonrpc::A2AError::kVersionNotSupported,
                   "Version not supported: service parameter a2a-version '" + it->second +
                       "' is not served here; this agent serves A2A 1.0 only",
                   Json{{"requestedVersion", it->second}, {"supportedVersions", "1.0"}});
}

}  // namespace a2a::agent
