// expect_error on the HTTP+JSON/REST binding (see error_expect.hpp). The
// tables are a2a-protocol.md §6.1 (v1.0.1, the one that counts, and v1.0.0)
// and ACTS §6.2 (which the spec overrides where they differ).
#include <algorithm>
#include <cctype>
#include <map>

#include "runner/match/assert.hpp"
#include "runner/match/error_expect.hpp"

namespace a2a::match {
namespace {

// v1.0.1 HTTP statuses by canonical name (spec §5.4; §6.3 for the JSON-RPC
// standard errors, where SDKs differ on MethodNotFound: 404 or 501).
const std::map<std::string, std::vector<int>, std::less<>>& spec_statuses() {
  static const std::map<std::string, std::vector<int>, std::less<>> t = {
      {"TaskNotFoundError", {404}},
      {"TaskNotCancelableError", {400}},
      {"PushNotificationNotSupportedError", {400}},
      {"UnsupportedOperationError", {400}},
      {"ContentTypeNotSupportedError", {400}},
      {"InvalidAgentResponseError", {500}},
      {"ExtendedAgentCardNotConfiguredError", {400}},
      {"ExtensionSupportRequiredError", {400}},
      {"VersionNotSupportedError", {400}},
      {"JSONParseError", {400}},
      {"InvalidRequestError", {400}},
      {"InvalidParamsError", {400}},
      {"MethodNotFoundError", {404, 501}},
      {"InternalError", {500}},
  };
  return t;
}

// ACTS §6.2's REST column, by the name as written, where it differs.
std::optional<int> acts_status(std::string_view written) {
  static const std::map<std::string, int, std::less<>> t = {
      {"TaskNotCancelableError", 409},   {"UnsupportedOperationError", 405},
      {"ContentTypeNotSupportedError", 415}, {"VersionNotSupportedError", 406},
      {"PushNotificationNotSupportedError", 501}, {"StreamingNotSupportedError", 501}};
  auto it = t.find(written);
  if (it == t.end()) return std::nullopt;
  return it->second;
}

// The v1.0.0 table, by canonical name, where v1.0.1 changed it.
std::optional<int> v100_status(std::string_view name) {
  static const std::map<std::string, int, std::less<>> t = {
      {"TaskNotCancelableError", 409}, {"ContentTypeNotSupportedError", 415}, {"InvalidAgentResponseError", 502}};
  auto it = t.find(name);
  if (it == t.end()) return std::nullopt;
  return it->second;
}

// The reason of the first google.rpc.ErrorInfo in error.details, if any.
std::optional<std::string> info_reason(const Json& error) {
  auto it = error.find("details");
  if (it == error.end() || !it->is_array()) return std::nullopt;
  for (const auto& d : *it) {
    if (!d.is_object() || !d.contains("@type") || !d["@type"].is_string()) continue;
    if (!d["@type"].get<std::string>().ends_with("google.rpc.ErrorInfo")) continue;
    if (d.contains("reason") && d["reason"].is_string()) return d["reason"].get<std::string>();
  }
  return std::nullopt;
}

std::string statuses_text(const std::vector<int>& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) out += (i ? " or " : "") + std::to_string(s[i]);
  return out;
}

// The A2A error whose ErrorInfo reason this is ("" when none).
std::string name_of_reason(const std::string& reason) {
  for (const auto& [name, st] : spec_statuses()) {
    auto spec = rest_error_spec(name);
    if (spec && !spec->reason.empty() && spec->reason == reason) return name;
  }
  return "";
}

struct RestActual {
  int status = 0;
  std::optional<std::string> reason;
  std::string describe() const {
    std::string out = "HTTP " + std::to_string(status);
    if (!reason) return out + " without an ErrorInfo detail";
    std::string name = name_of_reason(*reason);
    return out + ", reason " + *reason + (name.empty() ? "" : " (" + name + ")");
  }
};

// Why `written` does not describe the actual error ("" when it does).
std::string rest_judge_name(const std::string& written, const RestActual& a, const ErrorNames& names, std::string& err) {
  auto spec = rest_error_spec(written, names);
  if (!spec) {
    err = "unknown error name '" + written + "' (no REST mapping)";
    return "";
  }
  std::string want = spec->name + " (HTTP " + statuses_text(spec->statuses) +
                     (spec->reason.empty() ? "" : ", reason " + spec->reason) + ")";
  if (!spec->reason.empty() && !a.reason)
    return "expected " + want + ", got " + a.describe() +
           "; A2A errors on REST MUST carry a google.rpc.ErrorInfo detail (a2a-protocol.md §6.4)";
  if (a.reason && *a.reason != spec->reason) {
    if (!spec->reason.empty() || !name_of_reason(*a.reason).empty())
      return "expected " + want + ", got " + a.describe();
  }
  const auto& ok = spec->statuses;
  if (std::find(ok.begin(), ok.end(), a.status) != ok.end()) return "";
  std::string why = "expected " + want + ", got " + a.describe();
  auto acts = acts_status(written);
  auto old = v100_status(spec->name);
  if (acts && *acts == a.status)
    why += "; note: " + std::to_string(a.status) + " is the status ACTS §6.2 gives " + written +
           ", but the A2A spec §5.4 assigns " + statuses_text(ok) + " and the spec wins";
  if (old && *old == a.status)
    why += "; note: " + std::to_string(a.status) + " is the A2A v1.0.0 table's status for " + spec->name +
           "; v1.0.1 changed it to " + statuses_text(ok) + " (a2a-protocol.md §6.1)";
  return why;
}

// One alternative of an error_type / code assertion.
std::string rest_judge_one(const Json& want, const RestActual& a, const ErrorNames& names, std::string& err) {
  if (want.is_string()) return rest_judge_name(want.get<std::string>(), a, names, err);
  if (want.is_number_integer()) {
    int n = want.get<int>();
    if (n >= 100 && n <= 599)
      return n == a.status ? "" : "expected HTTP " + std::to_string(n) + ", got " + a.describe();
    std::string name = names.name_of(n);
    if (name.empty()) {
      err = "code " + std::to_string(n) + " has no error name, so no REST mapping";
      return "";
    }
    return rest_judge_name(name, a, names, err);
  }
  err = "on REST an error is named by an error name, an HTTP status or a JSON-RPC code, got " + compact(want);
  return "";
}

void check_rest_code(const Json& assertion, std::string_view key, const RestActual& a, const ErrorNames& names,
                     MatchResult& out) {
  detail::check_code_alternatives(
      assertion, key, a.describe(), [&](const Json& alt, std::string& err) { return rest_judge_one(alt, a, names, err); },
      out);
}

}  // namespace

std::string error_reason(std::string_view name) {
  std::string_view base = name.ends_with("Error") ? name.substr(0, name.size() - 5) : name;
  std::string out;
  for (size_t i = 0; i < base.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(base[i]);
    if (i > 0 && std::isupper(c) && std::islower(static_cast<unsigned char>(base[i - 1]))) out += '_';
    out += static_cast<char>(std::toupper(c));
  }
  return out;
}

std::optional<RestErrorSpec> rest_error_spec(std::string_view written, const ErrorNames& names) {
  auto code = names.code_of(written);
  if (!code) return std::nullopt;
  std::string name = names.name_of(*code);
  auto it = spec_statuses().find(name);
  if (it == spec_statuses().end()) return std::nullopt;
  RestErrorSpec s;
  s.name = name;
  // A2A errors (-32001..-32099) carry an ErrorInfo; JSON-RPC's own do not.
  if (*code <= -32001 && *code >= -32099) s.reason = error_reason(name);
  s.statuses = it->second;
  return s;
}

MatchResult match_rest_error(const Json& error, int http_status, const Json& expect, const ErrorNames& names) {
  MatchResult out;
  if (!detail::check_error_keys(error, expect, out)) return out;
  RestActual a{http_status, info_reason(error)};
  if (auto it = expect.find("error_type"); it != expect.end()) {
    if (it->is_string() || it->is_number_integer()) check_rest_code(*it, "error_type", a, names, out);
    else out.add_error("expect_error.error_type", "must be an error name, got " + compact(*it));
  }
  if (auto it = expect.find("code"); it != expect.end()) check_rest_code(*it, "code", a, names, out);
  // REST has no error.data: a `data` assertion looks at the details list.
  Json view = error;
  if (expect.contains("data") && error.contains("details")) view["data"] = error["details"];
  detail::check_error_fields(view, expect, out);
  return out;
}

}  // namespace a2a::match
