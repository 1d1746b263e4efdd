// JSON-RPC 2.0 message model and classification (stdio-binding.md §8.3, J1-J16).
// The id is kept as the exact JSON value the peer sent (1 and "1" differ).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace a2a::jsonrpc {

using Json = nlohmann::json;

// Standard JSON-RPC codes.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;

enum class Kind {
  kRequest,       // method + id (id may be null: J9)
  kNotification,  // method, no id member
  kResponse,      // id + result
  kError,         // id + error
};

struct Message {
  Kind kind = Kind::kRequest;
  Json id;               // exact JSON value; null when absent or null
  bool has_id = false;   // the "id" member was present (even if null)
  std::string method;    // requests and notifications
  Json params;           // null when absent
  bool has_params = false;
  Json result;           // responses
  Json error;            // error responses: the whole error object
  Json raw;              // the whole parsed document; from classify_incoming without "params" (moved to params)
};

// How strictly the server side classifies incoming bodies. kStrict follows
// JSON-RPC 2.0 (-32600 for non-requests, no reply to notifications); kP46
// reproduces a2a-rs PR #46 (-32700 for everything undecodable, replies to
// notifications with -32700, jsonrpc version not checked).
enum class Strictness { kStrict, kP46 };

// Outcome of classifying one frame body received by a server.
struct Incoming {
  std::optional<Message> message;  // set when the body is a request or notification to dispatch
  std::optional<Json> reply;       // set when the server must answer at once (an error response)
  std::string reason;              // why the body was rejected (for logs and reports)
};

// J1-J16 on the server side: parse, validate the envelope, decide whether to
// dispatch, answer with an error, or stay silent. kStrict also answers -32602
// (request id) for "params" that is present but not an object or array (null
// included); a notification with such params is dropped silently (neither
// message nor reply set). kP46 leaves params to the dispatcher. Bodies nested
// deeper than 512 levels are treated as unparsable (-32700).
Incoming classify_incoming(std::string_view body, Strictness strictness = Strictness::kStrict);

// Client side: parse something a server sent. Returns nullopt (and sets *why)
// for bodies that are not JSON or not a JSON-RPC request/notification/response.
std::optional<Message> parse_message(std::string_view body, std::string* why = nullptr);

// Any JSON text a peer sent (not only JSON-RPC), parsed with the same guard
// as above: nesting deeper than 512 levels is refused before parsing, since
// dump(), comparisons and matchers recurse. nullopt (and *why) when refused.
std::optional<Json> parse_json(std::string_view body, std::string* why = nullptr);
// The same as a discarded value on failure, like Json::parse(body, nullptr, false).
Json parse_json_or_discarded(std::string_view body);

// Builders. All produce compact JSON text via dump(). A null `params` leaves
// the member out (null is not a structured value); a null `result` is kept.
Json make_request(const Json& id, std::string_view method, const Json& params);
Json make_notification(std::string_view method, const Json& params);
Json make_result(const Json& id, const Json& result);
Json make_error(const Json& id, int code, std::string_view message, const Json& data = nullptr);

// A valid JSON-RPC id: string, integer number, or null (J10, J11).
bool is_valid_id(const Json& id);

// Serialise compactly without throwing on invalid UTF-8 in strings (replaced).
std::string dump(const Json& j);

}  // namespace a2a::jsonrpc
