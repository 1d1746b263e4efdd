// The HTTP+JSON/REST binding's routes (spec §11.3, a2a-protocol.md §4.1/§4.4),
// both ways, so the runner, the reference client and the reference agent share
// one table: an operation's params (the JSON-RPC params object) become verb,
// path, query and body; a request's verb and path become the operation and the
// params it carries. Paths are relative to the interface URL and may start
// with "/{tenant}". Pure functions, no I/O.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/a2a/methods.hpp"

namespace a2a::model {

using Json = nlohmann::json;

struct RestCall {
  std::string method;  // "GET" | "POST" | "DELETE"
  std::string path;    // "/tasks/t-1:cancel", "/acme/message:send"; segments percent-encoded
  std::vector<std::pair<std::string, std::string>> query;  // name, value (not yet encoded)
  std::optional<Json> body;  // POST bodies; nullopt for GET/DELETE
  // path + "?" + encoded query (when any)
  std::string target() const;
};

// Client side. Fields bound to the path (id, taskId, tenant) come out of
// `params`; GET query parameters are the remaining scalar fields by their
// camelCase names (booleans true/false, numbers decimal, arrays as repeated
// keys); POST bodies are the remaining params. CancelTask sends `{}` when
// nothing remains. SubscribeToTask uses POST (spec §11.3.2; the proto says
// GET, a2a-protocol.md §10 C1). An empty-string tenant is omitted.
RestCall rest_call(Operation op, const Json& params);

// Server side: which route a verb and path name. Errors say why: unknown path
// (404), known path with the wrong verb (405, with the allowed verbs).
struct RestRoute {
  Operation op;
  Json path_params = Json::object();  // {"id": ..} / {"taskId": .., "id": ..} / {"tenant": ..}, decoded
};
struct RestRouteError {
  int status = 404;               // 404 or 405
  std::string allow;              // 405: "GET, POST"
  std::string message;
};
// `path` as received (percent-encoded, no query). Accepts GET and POST for
// SubscribeToTask. A trailing '/' is not stripped (it is another path).
std::variant<RestRoute, RestRouteError> match_rest_route(std::string_view method, std::string_view path);

// Query string -> params for GET routes (historyLength, pageSize as numbers;
// includeArtifacts as bool; others strings; repeated keys and comma-joined
// values both accepted for repeated fields). Errors name the parameter.
std::variant<Json, std::string> parse_rest_query(Operation op, std::string_view query);

}  // namespace a2a::model
