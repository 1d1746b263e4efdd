#include "runner/match/error_expect.hpp"

#include <algorithm>
#include <array>

#include "runner/match/assert.hpp"
#include "runner/match/path.hpp"

namespace a2a::match {
namespace {

ErrorNames build_a2a_names() {
  ErrorNames n;
  // A2A 1.0.1 spec §5.4 (shared/spec/a2a-protocol.md §6.1). Canonical names first.
  n.set("TaskNotFoundError", -32001);
  n.set("TaskNotCancelableError", -32002);
  n.set("PushNotificationNotSupportedError", -32003);
  n.set("UnsupportedOperationError", -32004);
  n.set("ContentTypeNotSupportedError", -32005);
  n.set("InvalidAgentResponseError", -32006);
  n.set("ExtendedAgentCardNotConfiguredError", -32007);
  n.set("ExtensionSupportRequiredError", -32008);
  // ACTS §6.2 says -32006, which the spec gives InvalidAgentResponseError.
  n.set("VersionNotSupportedError", -32009);
  n.set_acts_code("VersionNotSupportedError", -32006);
  // JSON-RPC 2.0 §5.1.
  n.set("JSONParseError", -32700);
  n.set("InvalidRequestError", -32600);
  n.set("MethodNotFoundError", -32601);
  n.set("InvalidParamsError", -32602);
  n.set("InternalError", -32603);
  // ACTS-only names. A2A 1.0 has no streaming error: streaming operations on
  // an agent without capabilities.streaming fail with UnsupportedOperationError
  // (spec §3.3.4, R55). ACTS §6.2 says -32007, which the spec gives
  // ExtendedAgentCardNotConfiguredError.
  n.set("StreamingNotSupportedError", -32004);
  n.set_acts_code("StreamingNotSupportedError", -32007);
  // GetExtendedAgentCard without capabilities.extendedAgentCard fails with
  // UnsupportedOperationError (spec §3.3.4, §13.3, R89); "declared but not
  // configured" is ExtendedAgentCardNotConfiguredError, a different case.
  n.set("ExtendedCardNotSupportedError", -32004);
  // Older spellings of the same codes.
  n.set("ParseError", -32700);
  n.set("AuthenticatedExtendedCardNotConfiguredError", -32007);  // the 0.3 name of -32007
  return n;
}

constexpr std::array kKeys{"error_type", "code", "message", "data", "details"};

std::string with_name(const Json& code, const ErrorNames& names) {
  if (!code.is_number_integer()) return compact(code);
  std::string name = names.name_of(code.get<int>());
  return compact(code) + (name.empty() ? "" : " (" + name + ")");
}

// Names inside a code assertion become codes; "" or the error.
std::string translate(Json& a, const ErrorNames& names, std::vector<std::string>& used) {
  if (a.is_string()) {
    auto code = names.code_of(a.get<std::string>());
    if (!code) return "unknown error name '" + a.get<std::string>() + "'";
    used.push_back(a.get<std::string>());
    a = *code;
    return "";
  }
  if (a.is_array()) {
    for (auto& e : a) {
      if (auto err = translate(e, names, used); !err.empty()) return err;
    }
    return "";
  }
  if (!a.is_object()) return "";
  for (const char* op : {"one_of", "any_of", "all_of", "not", "x-equals"}) {
    auto it = a.find(op);
    if (it == a.end()) continue;
    if (auto err = translate(*it, names, used); !err.empty()) return err;
  }
  return "";
}

void check_code(const Json& error, const Json& assertion, std::string_view key, const ErrorNames& names,
                MatchResult& out) {
  Json want = assertion;
  std::vector<std::string> used;
  if (std::string err = translate(want, names, used); !err.empty()) {
    return out.add_error(std::string("expect_error.") + std::string(key), err);
  }
  const Json* code = error.contains("code") ? &error["code"] : nullptr;
  MatchResult r = match_optional(code, want, "error.code");
  if (r.ok || r.malformed() || !code) return out.merge(std::move(r));
  std::string expected = want.is_number() ? with_name(want, names) : compact(assertion);
  std::string what = "expected " + expected + ", got " + with_name(*code, names);
  for (const auto& name : used) {
    auto acts = names.acts_code_of(name);
    if (acts && *code == *acts) {
      what += "; note: " + compact(*code) + " is the code ACTS §6.2 gives " + name + ", but the A2A spec assigns " +
              std::to_string(*names.code_of(name)) + " and the spec wins";
    }
  }
  out.add("error.code", expected, compact(*code), what);
}

// ErrorInfo and other @type entries: error.data (JSON-RPC) or error.details (REST).
std::vector<PathHit> detail_entries(const Json& error) {
  std::vector<PathHit> out;
  for (const char* key : {"data", "details"}) {
    auto it = error.find(key);
    if (it == error.end()) continue;
    std::string base = std::string("error.") + key;
    if (it->is_object()) out.push_back({&*it, base});
    if (!it->is_array()) continue;
    for (std::size_t i = 0; i < it->size(); ++i) out.push_back({&(*it)[i], append_index(base, i)});
  }
  return out;
}

void check_details(const Json& error, const Json& assertion, MatchResult& out) {
  auto entries = detail_entries(error);
  std::string closest;
  for (const auto& e : entries) {
    MatchResult r = match(*e.value, assertion, e.path);
    out.take_error(r);
    if (r.malformed() || r.ok) return;
    if (closest.empty()) closest = r.mismatches.front().message;
  }
  std::string what = entries.empty() ? "no error details (error.data / error.details), expected one matching "
                                     : "no error detail matched ";
  what += compact(assertion);
  if (!closest.empty()) what += "; first: " + closest;
  out.add("error.data", compact(assertion), show_actual(error.contains("data") ? &error["data"] : nullptr), what);
}

void check_data(const Json& error, const Json& assertion, MatchResult& out) {
  const Json* data = error.contains("data") ? &error["data"] : nullptr;
  MatchResult r = match_optional(data, assertion, "error.data");
  if (!r.ok && data && data->is_array() && !r.mismatches.empty()) {
    r.mismatches.front().message += "; note: A2A 1.0 JSON-RPC errors carry `data` as an array of @type "
                                    "objects (ErrorInfo), spec §9.5";
  }
  out.merge(std::move(r));
}

}  // namespace

const ErrorNames& ErrorNames::a2a() {
  static const ErrorNames names = build_a2a_names();
  return names;
}

void ErrorNames::set(std::string name, int code) {
  for (auto& [n, c] : names_) {
    if (n == name) {
      c = code;
      return;
    }
  }
  names_.emplace_back(std::move(name), code);
}

void ErrorNames::set_acts_code(std::string name, int acts_code) { acts_codes_[std::move(name)] = acts_code; }

std::optional<int> ErrorNames::code_of(std::string_view name) const {
  for (const auto& [n, c] : names_) {
    if (n == name) return c;
  }
  return std::nullopt;
}

std::string ErrorNames::name_of(int code) const {
  for (const auto& [n, c] : names_) {
    if (c == code) return n;
  }
  return "";
}

std::optional<int> ErrorNames::acts_code_of(std::string_view name) const {
  auto it = acts_codes_.find(name);
  if (it == acts_codes_.end()) return std::nullopt;
  return it->second;
}

namespace detail {

bool check_error_keys(const Json& error, const Json& expect, MatchResult& out) {
  if (!expect.is_object()) {
    out.add_error("expect_error", "must be a map");
    return false;
  }
  for (const auto& [key, value] : expect.items()) {
    bool known = key.starts_with("x-") || std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end();
    if (!known) out.add_error("expect_error", "unknown key '" + key + "'");
  }
  if (!error.is_object()) {
    out.add("error", "an error object", compact(error), "expected an error object, got " + compact(error));
    return false;
  }
  return true;
}

void check_error_fields(const Json& error, const Json& expect, MatchResult& out) {
  if (auto it = expect.find("message"); it != expect.end()) {
    out.merge(match_optional(error.contains("message") ? &error["message"] : nullptr, *it, "error.message"));
  }
  if (auto it = expect.find("data"); it != expect.end()) check_data(error, *it, out);
  if (auto it = expect.find("details"); it != expect.end()) check_details(error, *it, out);
}

void check_code_alternatives(const Json& assertion, std::string_view key, const std::string& actual,
                             const std::function<std::string(const Json& alt, std::string& err)>& judge,
                             MatchResult& out) {
  std::string path = "expect_error." + std::string(key);
  std::vector<Json> alternatives;
  if (assertion.is_object() && assertion.size() == 1 && (assertion.contains("one_of") || assertion.contains("any_of"))) {
    const Json& list = assertion.begin().value();
    if (!list.is_array() || list.empty()) return out.add_error(path, "one_of / any_of needs a non-empty list");
    alternatives.assign(list.begin(), list.end());
  } else {
    alternatives.push_back(assertion);
  }
  std::string first;
  for (const auto& alt : alternatives) {
    std::string err;
    std::string why = judge(alt, err);
    if (!err.empty()) return out.add_error(path, err);
    if (why.empty()) return;
    if (first.empty()) first = why;
  }
  if (alternatives.size() > 1) first = "none of " + compact(assertion) + " matched; first: " + first;
  out.add("error", compact(assertion), actual, first);
}

}  // namespace detail

MatchResult match_error(const Json& error, const Json& expect, const ErrorNames& names) {
  MatchResult out;
  if (!detail::check_error_keys(error, expect, out)) return out;
  if (auto it = expect.find("error_type"); it != expect.end()) {
    if (it->is_string() || it->is_number_integer()) check_code(error, *it, "error_type", names, out);
    else out.add_error("expect_error.error_type", "must be an error name, got " + compact(*it));
  }
  if (auto it = expect.find("code"); it != expect.end()) check_code(error, *it, "code", names, out);
  detail::check_error_fields(error, expect, out);
  return out;
}

}  // namespace a2a::match
