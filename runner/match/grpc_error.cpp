// expect_error on the gRPC binding (see grpc_error.hpp).
#include "runner/match/grpc_error.hpp"

#include <algorithm>
#include <map>

#include "runner/match/assert.hpp"

namespace a2a::match {
namespace {

constexpr std::string_view kDomain = "a2a-protocol.org";

// Spec §5.4 (v1.0.1), and for JSON-RPC's own errors the gRPC codes their
// meaning has (the spec's gRPC examples: INVALID_ARGUMENT for bad
// parameters; UNIMPLEMENTED is gRPC's own answer to an unknown method).
const std::map<std::string, std::vector<std::string>, std::less<>>& table() {
  static const std::map<std::string, std::vector<std::string>, std::less<>> t = {
      {"TaskNotFoundError", {"NOT_FOUND"}},
      {"TaskNotCancelableError", {"FAILED_PRECONDITION"}},
      {"PushNotificationNotSupportedError", {"FAILED_PRECONDITION"}},
      {"UnsupportedOperationError", {"FAILED_PRECONDITION"}},
      {"ContentTypeNotSupportedError", {"INVALID_ARGUMENT"}},
      {"InvalidAgentResponseError", {"INTERNAL"}},
      {"ExtendedAgentCardNotConfiguredError", {"FAILED_PRECONDITION"}},
      {"ExtensionSupportRequiredError", {"FAILED_PRECONDITION"}},
      {"VersionNotSupportedError", {"FAILED_PRECONDITION"}},
      {"JSONParseError", {"INVALID_ARGUMENT"}},
      {"InvalidRequestError", {"INVALID_ARGUMENT"}},
      {"InvalidParamsError", {"INVALID_ARGUMENT"}},
      {"MethodNotFoundError", {"UNIMPLEMENTED"}},
      {"InternalError", {"INTERNAL"}},
  };
  return t;
}

struct Info {
  std::string reason;
  std::string domain;
};

std::optional<Info> error_info(const Json& error) {
  auto it = error.find("details");
  if (it == error.end() || !it->is_array()) return std::nullopt;
  for (const auto& d : *it) {
    if (!d.is_object() || !d.contains("@type") || !d["@type"].is_string()) continue;
    if (!d["@type"].get<std::string>().ends_with("google.rpc.ErrorInfo")) continue;
    Info i;
    if (d.contains("reason") && d["reason"].is_string()) i.reason = d["reason"].get<std::string>();
    if (d.contains("domain") && d["domain"].is_string()) i.domain = d["domain"].get<std::string>();
    return i;
  }
  return std::nullopt;
}

std::string code_text(int code) {
  static const char* kNames[] = {"OK",        "CANCELLED",         "UNKNOWN",           "INVALID_ARGUMENT",
                                 "DEADLINE_EXCEEDED", "NOT_FOUND",  "ALREADY_EXISTS",    "PERMISSION_DENIED",
                                 "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
                                 "UNIMPLEMENTED", "INTERNAL",     "UNAVAILABLE",       "DATA_LOSS",
                                 "UNAUTHENTICATED"};
  if (code >= 0 && code <= 16) return kNames[code];
  return "CODE_" + std::to_string(code);
}

struct Actual {
  std::string status;
  std::optional<Info> info;
  std::string describe() const {
    std::string out = status;
    if (!info) return out + " without an ErrorInfo detail";
    out += ", reason " + (info->reason.empty() ? std::string("(none)") : info->reason);
    if (info->domain != kDomain) out += ", domain '" + info->domain + "'";
    return out;
  }
};

std::string list_text(const std::vector<std::string>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? " or " : "") + v[i];
  return out;
}

std::string judge_name(const std::string& written, const Actual& a, const ErrorNames& names, std::string& err) {
  auto spec = rest_error_spec(written, names);
  auto it = spec ? table().find(spec->name) : table().end();
  if (!spec || it == table().end()) {
    err = "unknown error name '" + written + "' (no gRPC mapping)";
    return "";
  }
  const auto& ok = it->second;
  std::string want = spec->name + " (" + list_text(ok) + (spec->reason.empty() ? "" : ", reason " + spec->reason) + ")";
  if (!spec->reason.empty()) {
    if (!a.info)
      return "expected " + want + ", got " + a.describe() +
             "; A2A errors on gRPC MUST include a google.rpc.ErrorInfo in status.details (spec §10.6)";
    if (a.info->reason != spec->reason) return "expected " + want + ", got " + a.describe();
    if (a.info->domain != kDomain)
      return "expected " + want + ", got " + a.describe() + "; the ErrorInfo domain MUST be \"a2a-protocol.org\" (spec §10.6)";
  } else if (a.info && !a.info->reason.empty()) {
    // A JSON-RPC standard error written as an A2A one (or the other way round).
    for (const auto& [name, codes] : table()) {
      auto other = rest_error_spec(name, names);
      if (other && !other->reason.empty() && other->reason == a.info->reason)
        return "expected " + want + ", got " + a.describe() + " (" + name + ")";
    }
  }
  if (std::find(ok.begin(), ok.end(), a.status) != ok.end()) return "";
  return "expected " + want + ", got " + a.describe() + " (spec §5.4 maps " + spec->name + " to " + list_text(ok) + ")";
}

std::string judge_one(const Json& want, const Actual& a, const ErrorNames& names, std::string& err) {
  if (want.is_string()) {
    std::string w = want.get<std::string>();
    for (int c = 0; c <= 16; ++c)
      if (w == code_text(c)) return w == a.status ? "" : "expected status " + w + ", got " + a.describe();
    return judge_name(w, a, names, err);
  }
  if (want.is_number_integer()) {
    int n = want.get<int>();
    std::string name = names.name_of(n);
    if (name.empty()) {
      err = "code " + std::to_string(n) + " has no error name, so no gRPC mapping";
      return "";
    }
    return judge_name(name, a, names, err);
  }
  err = "on gRPC an error is named by an error name, a gRPC status name or a JSON-RPC code, got " + compact(want);
  return "";
}

void check_code(const Json& assertion, std::string_view key, const Actual& a, const ErrorNames& names, MatchResult& out) {
  detail::check_code_alternatives(
      assertion, key, a.describe(), [&](const Json& alt, std::string& err) { return judge_one(alt, a, names, err); },
      out);
}

}  // namespace

std::vector<std::string> grpc_statuses_of(std::string_view name, const ErrorNames& names) {
  auto spec = rest_error_spec(name, names);
  if (!spec) return {};
  auto it = table().find(spec->name);
  return it == table().end() ? std::vector<std::string>{} : it->second;
}

MatchResult match_grpc_error(const Json& error, int grpc_code, const Json& expect, const ErrorNames& names) {
  MatchResult out;
  if (!detail::check_error_keys(error, expect, out)) return out;
  Actual a{code_text(grpc_code), error_info(error)};
  if (auto it = expect.find("error_type"); it != expect.end()) {
    if (it->is_string() || it->is_number_integer()) check_code(*it, "error_type", a, names, out);
    else out.add_error("expect_error.error_type", "must be an error name, got " + compact(*it));
  }
  if (auto it = expect.find("code"); it != expect.end()) check_code(*it, "code", a, names, out);
  Json view = error;
  if (expect.contains("data") && error.contains("details")) view["data"] = error["details"];
  detail::check_error_fields(view, expect, out);
  return out;
}

}  // namespace a2a::match
