// Fuzzes the REST route table (runner/a2a/rest_routes.hpp). Input: [verb]
// then "path?query". Invariants: nothing throws; a miss is a 404, or a 405
// with a non-empty Allow list; a hit's path params re-encoded by rest_call
// match the same route with the same params (unless the tenant itself is a
// route's literal first segment, which no encoding can tell apart); a GET
// query that parses re-encodes to the same params.
#include <cctype>
#include <cstdint>
#include <iterator>
#include <string>
#include <variant>

#include "fuzz/fuzz_support.hpp"
#include "runner/a2a/rest_routes.hpp"

namespace {

using a2a::fuzz::show;
using namespace a2a::model;

constexpr std::string_view kVerbs[] = {"GET", "POST", "DELETE", "PUT", "get", ""};

// A tenant equal to a route's literal first segment makes "/{tenant}/rest"
// read as an untenanted route whenever the rest fits one: inherent to the
// path scheme (spec §11.3), so the round trip is not checked then.
bool ambiguous_tenant(const Json& params) {
  if (!params.contains("tenant")) return false;
  const std::string t = params.at("tenant").get<std::string>();
  return t == "tasks" || t == "message:send" || t == "message:stream" || t == "extendedAgentCard";
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

void check_query(Operation op, const Json& path_params, std::string_view query) {
  auto parsed = parse_rest_query(op, query);
  if (auto* why = std::get_if<std::string>(&parsed)) {
    A2A_FUZZ_CHECK(!why->empty(), "query refused without a reason");
    return;
  }
  Json fields = std::get<Json>(parsed);
  A2A_FUZZ_CHECK(fields.is_object(), "query params not an object");
  // Fields named like path params are the path's; rest_call puts them there.
  for (const auto& [name, value] : path_params.items()) fields.erase(name);
  for (const char* bound : {"tenant", "id", "taskId"}) fields.erase(bound);
  // "A2A-Vers_ion" camel-cases to a field that reads back as the A2A-Version
  // service parameter (skipped by name): harmless, so not compared.
  for (auto it = fields.begin(); it != fields.end();) {
    it = iequals(it.key(), "A2A-Version") ? fields.erase(it) : std::next(it);
  }
  Json all = fields;
  all.update(path_params);
  RestCall call = rest_call(op, all);
  std::string target = call.target();
  size_t q = target.find('?');
  auto again = parse_rest_query(op, q == std::string::npos ? "" : std::string_view(target).substr(q + 1));
  A2A_FUZZ_CHECK(std::holds_alternative<Json>(again) && std::get<Json>(again) == fields,
                 "query '" + show(query) + "' -> " + fields.dump() + " -> '" + show(target) + "' -> " +
                     (std::holds_alternative<Json>(again) ? std::get<Json>(again).dump() : std::get<std::string>(again)));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view verb = kVerbs[data[0] % std::size(kVerbs)];
  const std::string_view target(reinterpret_cast<const char*>(data) + 1, size - 1);
  const size_t qpos = target.find('?');
  const std::string_view path = target.substr(0, qpos);
  const std::string_view query = qpos == std::string_view::npos ? std::string_view{} : target.substr(qpos + 1);

  auto matched = match_rest_route(verb, path);
  if (auto* err = std::get_if<RestRouteError>(&matched)) {
    A2A_FUZZ_CHECK(err->status == 404 || (err->status == 405 && !err->allow.empty()),
                   std::to_string(err->status) + " for " + std::string(verb) + " '" + show(path) + "'");
    A2A_FUZZ_CHECK(!err->message.empty(), "error without a message");
    return 0;
  }
  const RestRoute& route = std::get<RestRoute>(matched);
  for (const auto& [name, value] : route.path_params.items()) {
    A2A_FUZZ_CHECK(value.is_string() && !value.get<std::string>().empty() ||
                       (name == "tenant" && value.is_string()),
                   "path param " + name + " = " + value.dump());
  }
  RestCall call = rest_call(route.op, route.path_params);
  A2A_FUZZ_CHECK(!call.path.empty() && call.path.front() == '/', "rest_call path '" + show(call.path) + "'");
  if (!ambiguous_tenant(route.path_params)) {
    auto back = match_rest_route(call.method, call.path);
    const auto* again = std::get_if<RestRoute>(&back);
    A2A_FUZZ_CHECK(again && again->op == route.op && again->path_params == route.path_params,
                   std::string(verb) + " '" + show(path) + "' -> " + route.path_params.dump() + " -> " + call.method +
                       " '" + show(call.path) + "' -> " +
                       (again ? std::string(canonical_name(again->op)) + " " + again->path_params.dump() : "no route"));
  }
  if (call.method == "GET") check_query(route.op, route.path_params, query);
  return 0;
}
