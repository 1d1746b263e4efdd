#include "runner/a2a/rest_routes.hpp"

#include <array>
#include <charconv>
#include <limits>

#include "runner/core/escape.hpp"

namespace a2a::model {
namespace {

// ---------------------------------------------------------------------------
// Percent-encoding (RFC 3986). Local because this module sits below transport.

bool unreserved(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

std::string encode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (unreserved(c)) {
      out += c;
    } else {
      auto b = static_cast<unsigned char>(c);
      out += '%';
      out += kHex[b >> 4];
      out += kHex[b & 15];
    }
  }
  return out;
}

// Invalid escapes are kept as written. '+' stays '+' (RFC 3986, not form encoding).
std::string decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      int hi = core::hex_digit_value(s[i + 1]), lo = core::hex_digit_value(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

// ---------------------------------------------------------------------------
// The route table. A pattern is a list of segments: a literal, "{id}"-like
// parameter, or a parameter followed by a custom verb (":cancel").

struct Route {
  Operation op;
  std::string_view verbs;   // "GET" / "POST" / "GET, POST"
  std::array<std::string_view, 4> segs;
  size_t n;
};

constexpr std::array<Route, 11> kRoutes = {{
    {Operation::kSendMessage, "POST", {"message:send"}, 1},
    {Operation::kSendStreamingMessage, "POST", {"message:stream"}, 1},
    {Operation::kListTasks, "GET", {"tasks"}, 1},
    {Operation::kGetTask, "GET", {"tasks", "{id}"}, 2},
    {Operation::kCancelTask, "POST", {"tasks", "{id}:cancel"}, 2},
    {Operation::kSubscribeToTask, "GET, POST", {"tasks", "{id}:subscribe"}, 2},
    {Operation::kCreatePushConfig, "POST", {"tasks", "{taskId}", "pushNotificationConfigs"}, 3},
    {Operation::kListPushConfigs, "GET", {"tasks", "{taskId}", "pushNotificationConfigs"}, 3},
    {Operation::kGetPushConfig, "GET", {"tasks", "{taskId}", "pushNotificationConfigs", "{id}"}, 4},
    {Operation::kDeletePushConfig, "DELETE", {"tasks", "{taskId}", "pushNotificationConfigs", "{id}"}, 4},
    {Operation::kGetExtendedAgentCard, "GET", {"extendedAgentCard"}, 1},
}};

const Route& route_of(Operation op) {
  for (const auto& r : kRoutes) {
    if (r.op == op) return r;
  }
  return kRoutes[0];  // unreachable: every operation has a route
}

// Splits "/a/b" into {"a","b"}; nullopt unless the path starts with '/'.
std::optional<std::vector<std::string_view>> split_path(std::string_view path) {
  if (path.empty() || path[0] != '/') return std::nullopt;
  std::vector<std::string_view> out;
  size_t start = 1;
  for (;;) {
    size_t slash = path.find('/', start);
    out.push_back(path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return out;
}

// One raw segment against one pattern segment; parameters are decoded into `params`.
bool match_segment(std::string_view pattern, std::string_view raw, Json& params) {
  if (pattern.front() != '{') return raw == pattern;
  size_t close = pattern.find('}');
  std::string name(pattern.substr(1, close - 1));
  std::string_view verb = pattern.substr(close + 1);  // "" or ":cancel"
  // A raw ':' always starts the custom verb; an id holds ':' only percent-encoded.
  size_t colon = raw.find(':');
  std::string_view value = raw.substr(0, colon);
  std::string_view raw_verb = colon == std::string_view::npos ? std::string_view{} : raw.substr(colon);
  if (raw_verb != verb || value.empty()) return false;
  params[name] = decode(value);
  return true;
}

// The routes whose shape matches `segs` (any verb), with the params of the first.
std::vector<const Route*> shape_matches(const std::vector<std::string_view>& segs, size_t from, Json& params) {
  std::vector<const Route*> out;
  for (const auto& r : kRoutes) {
    if (r.n != segs.size() - from) continue;
    Json p = Json::object();
    bool ok = true;
    for (size_t i = 0; i < r.n && ok; ++i) ok = match_segment(r.segs[i], segs[from + i], p);
    if (!ok) continue;
    if (out.empty()) params = std::move(p);
    out.push_back(&r);
  }
  return out;
}

bool verb_allowed(std::string_view verbs, std::string_view method) {
  size_t pos = 0;
  while (pos < verbs.size()) {
    size_t comma = verbs.find(',', pos);
    std::string_view v = verbs.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
    if (v == method) return true;
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return false;
}

std::string allow_list(const std::vector<const Route*>& routes) {
  std::string out;
  for (const char* verb : {"GET", "POST", "DELETE"}) {
    for (const Route* r : routes) {
      if (verb_allowed(r->verbs, verb)) {
        if (!out.empty()) out += ", ";
        out += verb;
        break;
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Client side helpers.

std::string path_value(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  return v.dump();
}

std::string scalar_text(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return v.dump();
}

}  // namespace

std::string RestCall::target() const {
  std::string t = path;
  char sep = '?';
  for (const auto& [name, value] : query) {
    t += sep;
    t += encode(name) + "=" + encode(value);
    sep = '&';
  }
  return t;
}

RestCall rest_call(Operation op, const Json& params) {
  const Route& r = route_of(op);
  Json rest = params.is_object() ? params : Json::object();
  RestCall call;
  call.method = std::string(r.verbs.substr(0, r.verbs.find(',')));
  if (op == Operation::kSubscribeToTask) call.method = "POST";
  if (rest.contains("tenant")) {
    std::string tenant = path_value(rest["tenant"]);
    if (!tenant.empty()) call.path = "/" + encode(tenant);
    rest.erase("tenant");
  }
  for (size_t i = 0; i < r.n; ++i) {
    std::string_view seg = r.segs[i];
    call.path += '/';
    if (seg.front() != '{') {
      call.path += seg;
      continue;
    }
    size_t close = seg.find('}');
    std::string name(seg.substr(1, close - 1));
    call.path += encode(path_value(rest.value(name, Json(nullptr))));
    call.path += seg.substr(close + 1);
    rest.erase(name);
  }
  if (call.method == "POST") {
    call.body = std::move(rest);
    return call;
  }
  for (auto it = rest.begin(); it != rest.end(); ++it) {
    if (it->is_array()) {
      for (const auto& el : *it) {
        if (!el.is_structured() && !el.is_null()) call.query.emplace_back(it.key(), scalar_text(el));
      }
    } else if (!it->is_structured() && !it->is_null()) {
      call.query.emplace_back(it.key(), scalar_text(*it));
    }
  }
  return call;
}

std::variant<RestRoute, RestRouteError> match_rest_route(std::string_view method, std::string_view path) {
  auto segs = split_path(path);
  if (!segs) return RestRouteError{404, "", "Not found: '" + std::string(path) + "' is not an absolute path"};
  Json params = Json::object();
  std::vector<const Route*> found = shape_matches(*segs, 0, params);
  if (found.empty() && segs->size() > 1 && !(*segs)[0].empty()) {
    found = shape_matches(*segs, 1, params);
    if (!found.empty()) params["tenant"] = decode((*segs)[0]);
  }
  if (found.empty()) {
    return RestRouteError{404, "", "Not found: no A2A REST route matches '" + std::string(path) + "'"};
  }
  for (const Route* r : found) {
    if (verb_allowed(r->verbs, method)) return RestRoute{r->op, std::move(params)};
  }
  std::string allow = allow_list(found);
  return RestRouteError{405, allow,
                        "Method not allowed: " + std::string(method) + " " + std::string(path) + " (allowed: " +
                            allow + ")"};
}

namespace {

enum class QueryType { kString, kInt, kBool };

QueryType query_type(Operation op, std::string_view name) {
  bool list_tasks = op == Operation::kListTasks;
  if (name == "historyLength" && (list_tasks || op == Operation::kGetTask)) return QueryType::kInt;
  if (name == "pageSize" && (list_tasks || op == Operation::kListPushConfigs)) return QueryType::kInt;
  if (name == "includeArtifacts" && list_tasks) return QueryType::kBool;
  return QueryType::kString;
}

// "page_size" -> "pageSize" (ProtoJSON readers accept the proto names too).
std::string camel_case(std::string_view s) {
  std::string out;
  bool up = false;
  for (char c : s) {
    if (c == '_' && !out.empty()) {
      up = true;
      continue;
    }
    out += up && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    up = false;
  }
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// The typed value, or an error naming the parameter.
std::variant<Json, std::string> typed_value(QueryType type, const std::string& name, const std::string& value) {
  if (type == QueryType::kString) return Json(value);
  if (type == QueryType::kBool) {
    if (iequals(value, "true")) return Json(true);
    if (iequals(value, "false")) return Json(false);
    return "query parameter " + name + ": '" + value + "' is not a boolean (true or false)";
  }
  long long n = 0;
  const char* first = value.data();
  const char* last = value.data() + value.size();
  auto [ptr, ec] = std::from_chars(first, last, n);
  if (value.empty() || ec != std::errc() || ptr != last) {
    return "query parameter " + name + ": '" + value + "' is not an integer";
  }
  if (n < std::numeric_limits<int32_t>::min() || n > std::numeric_limits<int32_t>::max()) {
    return "query parameter " + name + ": " + value + " is out of the int32 range";
  }
  return Json(n);
}

}  // namespace

std::variant<Json, std::string> parse_rest_query(Operation op, std::string_view query) {
  Json out = Json::object();
  size_t pos = 0;
  while (pos <= query.size()) {
    size_t amp = query.find('&', pos);
    std::string_view piece = query.substr(pos, amp == std::string_view::npos ? std::string_view::npos : amp - pos);
    pos = amp == std::string_view::npos ? query.size() + 1 : amp + 1;
    if (piece.empty()) continue;
    size_t eq = piece.find('=');
    std::string raw_name = decode(piece.substr(0, eq));
    std::string value = eq == std::string_view::npos ? "" : decode(piece.substr(eq + 1));
    if (raw_name.empty()) return "query: a parameter without a name ('" + std::string(piece) + "')";
    if (iequals(raw_name, "A2A-Version")) continue;  // a service parameter (R2), not a field
    std::string name = camel_case(raw_name);
    QueryType type = query_type(op, name);
    if (out.contains(name)) {
      // No GET route of A2A 1.0 has a repeated field: a second value is ambiguous.
      return "query parameter " + name + ": given more than once";
    }
    auto v = typed_value(type, name, value);
    if (auto* err = std::get_if<std::string>(&v)) return *err;
    out[name] = std::move(std::get<Json>(v));
  }
  return out;
}

}  // namespace a2a::model
