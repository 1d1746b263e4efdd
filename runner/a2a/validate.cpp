#include "runner/a2a/validate.hpp"

#include <cctype>
#include <cmath>
#include <set>

#include "runner/a2a/model.hpp"

namespace a2a::model {

namespace {

using Json = nlohmann::json;

constexpr bool R = true;  // REQUIRED

// Hand-written from a2a.proto (package lf.a2a.v1); validate_test.cpp compares
// it with the proto file field by field.
const std::vector<ProtoMessage> kMessages = {
    {"Task",
     {{"", "string", "id", R},
      {"", "string", "context_id"},
      {"", "TaskStatus", "status", R},
      {"repeated", "Artifact", "artifacts"},
      {"repeated", "Message", "history"},
      {"", "google.protobuf.Struct", "metadata"}}},
    {"TaskStatus",
     {{"", "TaskState", "state", R},
      {"", "Message", "message"},
      {"", "google.protobuf.Timestamp", "timestamp"}}},
    {"Part",
     {{"", "string", "text", false, "content"},
      {"", "bytes", "raw", false, "content"},
      {"", "string", "url", false, "content"},
      {"", "google.protobuf.Value", "data", false, "content"},
      {"", "google.protobuf.Struct", "metadata"},
      {"", "string", "filename"},
      {"", "string", "media_type"}}},
    {"Message",
     {{"", "string", "message_id", R},
      {"", "string", "context_id"},
      {"", "string", "task_id"},
      {"", "Role", "role", R},
      {"repeated", "Part", "parts", R},
      {"", "google.protobuf.Struct", "metadata"},
      {"repeated", "string", "extensions"},
      {"repeated", "string", "reference_task_ids"}}},
    {"Artifact",
     {{"", "string", "artifact_id", R},
      {"", "string", "name"},
      {"", "string", "description"},
      {"repeated", "Part", "parts", R},
      {"", "google.protobuf.Struct", "metadata"},
      {"repeated", "string", "extensions"}}},
    {"TaskStatusUpdateEvent",
     {{"", "string", "task_id", R},
      {"", "string", "context_id", R},
      {"", "TaskStatus", "status", R},
      {"", "google.protobuf.Struct", "metadata"}}},
    {"TaskArtifactUpdateEvent",
     {{"", "string", "task_id", R},
      {"", "string", "context_id", R},
      {"", "Artifact", "artifact", R},
      {"", "bool", "append"},
      {"", "bool", "last_chunk"},
      {"", "google.protobuf.Struct", "metadata"}}},
    {"AuthenticationInfo", {{"", "string", "scheme", R}, {"", "string", "credentials"}}},
    {"AgentInterface",
     {{"", "string", "url", R},
      {"", "string", "protocol_binding", R},
      {"", "string", "tenant"},
      {"", "string", "protocol_version", R}}},
    {"AgentCard",
     {{"", "string", "name", R},
      {"", "string", "description", R},
      {"repeated", "AgentInterface", "supported_interfaces", R},
      {"", "AgentProvider", "provider"},
      {"", "string", "version", R},
      {"optional", "string", "documentation_url"},
      {"", "AgentCapabilities", "capabilities", R},
      {"map", "SecurityScheme", "security_schemes"},
      {"repeated", "SecurityRequirement", "security_requirements"},
      {"repeated", "string", "default_input_modes", R},
      {"repeated", "string", "default_output_modes", R},
      {"repeated", "AgentSkill", "skills", R},
      {"repeated", "AgentCardSignature", "signatures"},
      {"optional", "string", "icon_url"}}},
    {"AgentProvider", {{"", "string", "url", R}, {"", "string", "organization", R}}},
    {"AgentCapabilities",
     {{"optional", "bool", "streaming"},
      {"optional", "bool", "push_notifications"},
      {"repeated", "AgentExtension", "extensions"},
      {"optional", "bool", "extended_agent_card"}}},
    {"AgentExtension",
     {{"", "string", "uri"},
      {"", "string", "description"},
      {"", "bool", "required"},
      {"", "google.protobuf.Struct", "params"}}},
    {"AgentSkill",
     {{"", "string", "id", R},
      {"", "string", "name", R},
      {"", "string", "description", R},
      {"repeated", "string", "tags", R},
      {"repeated", "string", "examples"},
      {"repeated", "string", "input_modes"},
      {"repeated", "string", "output_modes"},
      {"repeated", "SecurityRequirement", "security_requirements"}}},
    {"AgentCardSignature",
     {{"", "string", "protected", R}, {"", "string", "signature", R}, {"", "google.protobuf.Struct", "header"}}},
    {"TaskPushNotificationConfig",
     {{"", "string", "tenant"},
      {"", "string", "id"},
      {"", "string", "task_id"},
      {"", "string", "url", R},
      {"", "string", "token"},
      {"", "AuthenticationInfo", "authentication"}}},
    {"StringList", {{"repeated", "string", "list"}}},
    {"SecurityRequirement", {{"map", "StringList", "schemes"}}},
    {"SecurityScheme",
     {{"", "APIKeySecurityScheme", "api_key_security_scheme", false, "scheme"},
      {"", "HTTPAuthSecurityScheme", "http_auth_security_scheme", false, "scheme"},
      {"", "OAuth2SecurityScheme", "oauth2_security_scheme", false, "scheme"},
      {"", "OpenIdConnectSecurityScheme", "open_id_connect_security_scheme", false, "scheme"},
      {"", "MutualTlsSecurityScheme", "mtls_security_scheme", false, "scheme"}}},
    {"APIKeySecurityScheme",
     {{"", "string", "description"}, {"", "string", "location", R}, {"", "string", "name", R}}},
    {"HTTPAuthSecurityScheme",
     {{"", "string", "description"}, {"", "string", "scheme", R}, {"", "string", "bearer_format"}}},
    {"OAuth2SecurityScheme",
     {{"", "string", "description"}, {"", "OAuthFlows", "flows", R}, {"", "string", "oauth2_metadata_url"}}},
    {"OpenIdConnectSecurityScheme", {{"", "string", "description"}, {"", "string", "open_id_connect_url", R}}},
    {"MutualTlsSecurityScheme", {{"", "string", "description"}}},
    {"OAuthFlows",
     {{"", "AuthorizationCodeOAuthFlow", "authorization_code", false, "flow"},
      {"", "ClientCredentialsOAuthFlow", "client_credentials", false, "flow"},
      {"", "ImplicitOAuthFlow", "implicit", false, "flow"},
      {"", "PasswordOAuthFlow", "password", false, "flow"},
      {"", "DeviceCodeOAuthFlow", "device_code", false, "flow"}}},
    {"AuthorizationCodeOAuthFlow",
     {{"", "string", "authorization_url", R},
      {"", "string", "token_url", R},
      {"", "string", "refresh_url"},
      {"map", "string", "scopes", R},
      {"", "bool", "pkce_required"}}},
    {"ClientCredentialsOAuthFlow",
     {{"", "string", "token_url", R}, {"", "string", "refresh_url"}, {"map", "string", "scopes", R}}},
    {"ImplicitOAuthFlow",
     {{"", "string", "authorization_url"}, {"", "string", "refresh_url"}, {"map", "string", "scopes"}}},
    {"PasswordOAuthFlow", {{"", "string", "token_url"}, {"", "string", "refresh_url"}, {"map", "string", "scopes"}}},
    {"DeviceCodeOAuthFlow",
     {{"", "string", "device_authorization_url", R},
      {"", "string", "token_url", R},
      {"", "string", "refresh_url"},
      {"map", "string", "scopes", R}}},
    {"ListTasksResponse",
     {{"repeated", "Task", "tasks", R},
      {"", "string", "next_page_token", R},
      {"", "int32", "page_size", R},
      {"", "int32", "total_size", R}}},
    {"SendMessageResponse",
     {{"", "Task", "task", false, "payload"}, {"", "Message", "message", false, "payload"}}},
    {"StreamResponse",
     {{"", "Task", "task", false, "payload"},
      {"", "Message", "message", false, "payload"},
      {"", "TaskStatusUpdateEvent", "status_update", false, "payload"},
      {"", "TaskArtifactUpdateEvent", "artifact_update", false, "payload"}}},
    {"ListTaskPushNotificationConfigsResponse",
     {{"repeated", "TaskPushNotificationConfig", "configs"}, {"", "string", "next_page_token"}}},
};

const std::vector<ProtoEnum> kEnums = {
    {"TaskState",
     {"TASK_STATE_UNSPECIFIED", "TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED",
      "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_REJECTED",
      "TASK_STATE_AUTH_REQUIRED"}},
    {"Role", {"ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"}},
};

// Verbatim sentences of specification.md (markdown bold markers removed).
constexpr std::string_view kQuoteRequired =
    "Fields marked with `[(google.api.field_behavior) = REQUIRED]` indicate that the field MUST be present and "
    "set in valid messages.";
constexpr std::string_view kQuoteRequiredArray = "Arrays marked as required MUST contain at least one element.";
constexpr std::string_view kQuoteTimestamp =
    "When serialized to JSON (in JSON-RPC, HTTP/REST, or other JSON-based bindings), these timestamps MUST be "
    "represented as ISO 8601 formatted strings in UTC timezone.";
constexpr std::string_view kQuoteTimestampZ =
    "Timestamps MUST NOT include timezone offsets other than 'Z' (all times are UTC)";
constexpr std::string_view kQuoteEnum =
    "Enum values MUST be represented according to the [ProtoJSON specification](https://protobuf.dev/"
    "programming-guides/json/), which serializes enums as their string names as defined in the Protocol Buffer "
    "definition (typically SCREAMING_SNAKE_CASE).";
constexpr std::string_view kQuoteProtoJson =
    "This follows the ProtoJSON specification as adopted in [ADR-001](../adrs/adr-001-protojson-serialization.md).";
constexpr std::string_view kQuoteNormative =
    "the file `spec/a2a.proto` is the single authoritative normative definition of all protocol data objects and "
    "request/response messages.";
constexpr std::string_view kQuoteInterfaceUrl = "Each interface MUST accurately declare its transport protocol and URL";

const std::vector<std::string_view> kQuotes = {kQuoteRequired, kQuoteRequiredArray, kQuoteTimestamp,
                                               kQuoteTimestampZ, kQuoteEnum,        kQuoteProtoJson,
                                               kQuoteNormative, kQuoteInterfaceUrl};

// a2a.proto's comment on AgentInterface.url (verbatim).
constexpr std::string_view kProtoInterfaceUrl =
    "For HTTP-based transports, must be a valid absolute HTTPS URL in production.";

std::string q(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string declaration(std::string_view message, const ProtoField& f) {
  std::string t = f.label == "map" ? "map<string, " + std::string(f.type) + ">" : std::string(f.type);
  std::string lab = (f.label.empty() || f.label == "map") ? "" : std::string(f.label) + " ";
  return "a2a.proto " + std::string(message) + ": `" + lab + t + " " + std::string(f.name) + "`" +
         (f.required ? " [REQUIRED]" : "");
}

std::string type_source(std::string_view message, const ProtoField& f) {
  return declaration(message, f) + "; spec §5.5 " + q(kQuoteProtoJson);
}

std::string required_source(std::string_view message, const ProtoField& f, bool array) {
  return declaration(message, f) + "; spec §5.7 " + q(array ? kQuoteRequiredArray : kQuoteRequired);
}

const ProtoEnum* find_enum(std::string_view name) {
  for (const auto& e : kEnums)
    if (e.name == name) return &e;
  return nullptr;
}

std::string kind_of(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return "a number";
    case Json::value_t::string: return "a string";
    case Json::value_t::array: return "an array";
    case Json::value_t::object: return "an object";
    default: return "a value";
  }
}

std::string show(const Json& v) {
  std::string s = v.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

bool is_digits(std::string_view s, size_t at, size_t n) {
  if (at + n > s.size()) return false;
  for (size_t i = at; i < at + n; ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

// RFC 3339 date-time in UTC: YYYY-MM-DDTHH:MM:SS[.fraction]Z, ranges checked.
bool is_utc_timestamp(std::string_view s) {
  if (s.size() < 20 || !is_digits(s, 0, 4) || s[4] != '-' || !is_digits(s, 5, 2) || s[7] != '-' ||
      !is_digits(s, 8, 2) || s[10] != 'T' || !is_digits(s, 11, 2) || s[13] != ':' || !is_digits(s, 14, 2) ||
      s[16] != ':' || !is_digits(s, 17, 2))
    return false;
  size_t i = 19;
  if (i < s.size() && s[i] == '.') {
    size_t start = ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == start || i - start > 9) return false;
  }
  if (i + 1 != s.size() || s[i] != 'Z') return false;
  return parse_timestamp_ms(s).has_value();
}

bool has_offset(std::string_view s) {
  return s.size() > 20 && (s.find('+', 19) != std::string_view::npos || s.rfind('-') > 10);
}

bool base64_alphabet_only(std::string_view s) {
  size_t pad = 0;
  for (char c : s) {
    if (c == '=') {
      ++pad;
      continue;
    }
    if (pad) return false;  // padding only at the end
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/' || c == '-' || c == '_'))
      return false;
  }
  return pad <= 2;
}

bool is_absolute_http_url(std::string_view u) {
  std::string lower;
  for (char c : u.substr(0, 8)) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t skip = lower.rfind("https://", 0) == 0 ? 8 : lower.rfind("http://", 0) == 0 ? 7 : 0;
  if (!skip) return false;
  auto host_end = u.find_first_of("/?#", skip);
  auto authority = u.substr(skip, host_end == std::string_view::npos ? std::string_view::npos : host_end - skip);
  if (authority.empty()) return false;
  for (char c : authority)
    if (std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

bool is_http_binding(std::string_view b) { return b == "JSONRPC" || b == "HTTP+JSON"; }

class Validator {
 public:
  std::vector<PayloadViolation> out;

  void message(std::string_view type, const Json& v, const std::string& path) {
    const ProtoMessage* m = find_message(type);
    if (!m) return;
    if (!v.is_object()) {
      add(path, "expected a JSON object (" + std::string(type) + "), got " + kind_of(v) + " " + show(v),
          "a2a.proto `message " + std::string(type) + "`; spec §5.5 " + q(kQuoteProtoJson));
      return;
    }
    std::set<std::string_view> oneof_seen;
    for (const auto& f : m->fields) {
      std::string jn = json_name(f.name);
      std::string p = path.empty() ? jn : path + "." + jn;
      auto it = v.find(jn);
      bool absent = it == v.end() || (it->is_null() && f.type != "google.protobuf.Value");
      if (absent) {
        if (f.required) add(p, "missing; the field is REQUIRED", required_source(type, f, false));
        continue;
      }
      if (!f.oneof.empty()) {
        if (oneof_seen.count(f.oneof))
          add(p, "a second member of oneof " + std::string(f.oneof) + " is set",
              "a2a.proto " + std::string(type) + ": `oneof " + std::string(f.oneof) +
                  "` (one member at most); spec §5.5 " + q(kQuoteProtoJson));
        oneof_seen.insert(f.oneof);
      }
      field(type, f, *it, p);
    }
    if (type == "AgentInterface") interface_url(v, path);
  }

 private:
  void add(const std::string& path, std::string what, std::string source) {
    out.push_back({path.empty() ? "$" : path, std::move(what), std::move(source)});
  }

  void field(std::string_view msg, const ProtoField& f, const Json& v, const std::string& p) {
    if (f.label == "repeated") {
      if (!v.is_array()) {
        add(p, "expected a JSON array, got " + kind_of(v) + " " + show(v), type_source(msg, f));
        return;
      }
      if (f.required && v.empty() && !(msg == "ListTasksResponse" && f.name == "tasks"))
        add(p, "empty; a REQUIRED array needs at least one element", required_source(msg, f, true));
      for (size_t i = 0; i < v.size(); ++i) single(msg, f, v[i], p + "[" + std::to_string(i) + "]");
      return;
    }
    if (f.label == "map") {
      if (!v.is_object()) {
        add(p, "expected a JSON object (map), got " + kind_of(v) + " " + show(v), type_source(msg, f));
        return;
      }
      if (f.required && v.empty())
        add(p, "empty; the field is REQUIRED", required_source(msg, f, false));
      for (auto it = v.begin(); it != v.end(); ++it) single(msg, f, it.value(), p + "." + it.key());
      return;
    }
    single(msg, f, v, p);
  }

  void single(std::string_view msg, const ProtoField& f, const Json& v, const std::string& p) {
    std::string_view t = f.type;
    if (t == "string") {
      if (!v.is_string()) add(p, "expected a JSON string, got " + kind_of(v) + " " + show(v), type_source(msg, f));
    } else if (t == "bool") {
      if (!v.is_boolean()) add(p, "expected true or false, got " + kind_of(v) + " " + show(v), type_source(msg, f));
    } else if (t == "int32") {
      // An integral number within int32 (ProtoJSON also reads 1.0 and 1e2).
      bool ok = v.is_number() && !v.is_number_float()
                    ? (v.is_number_unsigned() ? v.get<unsigned long long>() <= 2147483647ULL
                                              : v.get<long long>() >= -2147483648LL && v.get<long long>() <= 2147483647LL)
                    : v.is_number_float() && std::trunc(v.get<double>()) == v.get<double>() &&
                          v.get<double>() >= -2147483648.0 && v.get<double>() <= 2147483647.0;
      if (v.is_string()) {  // ProtoJSON parsers accept an integer in a string
        std::string s = v.get<std::string>();
        size_t at = (!s.empty() && s[0] == '-') ? 1 : 0;
        ok = s.size() > at && is_digits(s, at, s.size() - at);
      }
      if (!ok) add(p, "expected an integer, got " + kind_of(v) + " " + show(v), type_source(msg, f));
    } else if (t == "bytes") {
      if (!v.is_string() || !base64_alphabet_only(v.get<std::string>()))
        add(p, "expected a base64 string, got " + kind_of(v) + " " + show(v), type_source(msg, f));
    } else if (t == "google.protobuf.Timestamp") {
      timestamp(msg, f, v, p);
    } else if (t == "google.protobuf.Struct") {
      if (!v.is_object()) add(p, "expected a JSON object (Struct), got " + kind_of(v) + " " + show(v), type_source(msg, f));
    } else if (t == "google.protobuf.Value") {
      // any JSON value
    } else if (const ProtoEnum* e = find_enum(t)) {
      bool ok = false;
      if (v.is_string())
        for (auto n : e->values) ok = ok || n == v.get<std::string>();
      if (!ok)
        add(p, "expected a " + std::string(e->name) + " name (" + std::string(e->values[1]) + ", ...), got " + show(v),
            declaration(msg, f) + "; spec §5.5 " + q(kQuoteEnum));
    } else {
      message(t, v, p);
    }
  }

  void timestamp(std::string_view msg, const ProtoField& f, const Json& v, const std::string& p) {
    std::string src = declaration(msg, f) + "; spec §5.6.1 " + q(kQuoteTimestamp);
    if (!v.is_string()) {
      add(p, "expected an RFC 3339 timestamp string, got " + kind_of(v) + " " + show(v), src);
      return;
    }
    std::string s = v.get<std::string>();
    if (is_utc_timestamp(s)) return;
    if (parse_timestamp_ms(s) && has_offset(s))
      add(p, "timestamp " + show(v) + " has a timezone offset other than Z",
          declaration(msg, f) + "; spec §5.6.1 " + q(kQuoteTimestampZ));
    else
      add(p, "not an RFC 3339 timestamp (YYYY-MM-DDTHH:MM:SS[.fff]Z): " + show(v), src);
  }

  void interface_url(const Json& v, const std::string& path) {
    auto b = v.find("protocolBinding");
    auto u = v.find("url");
    if (b == v.end() || u == v.end() || !b->is_string() || !u->is_string()) return;
    if (!is_http_binding(b->get<std::string>())) return;
    if (is_absolute_http_url(u->get<std::string>())) return;
    add(path.empty() ? "url" : path + ".url",
        "the " + b->get<std::string>() + " interface URL " + show(*u) + " is not an absolute http(s) URL",
        "a2a.proto AgentInterface.url: " + q(kProtoInterfaceUrl) + "; spec §8.3.1 " + q(kQuoteInterfaceUrl));
  }
};

}  // namespace

std::span<const ProtoMessage> payload_messages() { return kMessages; }
std::span<const ProtoEnum> payload_enums() { return kEnums; }
std::span<const std::string_view> cited_quotes() { return kQuotes; }

const ProtoMessage* find_message(std::string_view name) {
  for (const auto& m : kMessages)
    if (m.name == name) return &m;
  return nullptr;
}

std::string json_name(std::string_view proto_name) {
  std::string out;
  bool up = false;
  for (char c : proto_name) {
    if (c == '_') {
      up = true;
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out;
}

std::string PayloadViolation::describe() const { return path + ": " + what + " [" + source + "]"; }

std::vector<PayloadViolation> validate_payload(std::string_view type, const nlohmann::json& value,
                                               const std::string& path) {
  Validator v;
  v.message(type, value, path);
  return std::move(v.out);
}

}  // namespace a2a::model
