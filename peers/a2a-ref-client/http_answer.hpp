// What an HTTP answer means to the client, per binding: pure functions from
// status and body bytes to a result, an agent error or a stream item, so the
// error mapping is tested on literal bodies (a2a-protocol.md §4.2, §4.4, §6).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "peers/a2a-ref-client/client_error.hpp"
#include "peers/a2a-ref-client/router.hpp"  // StreamItem

namespace a2a::client {

// How much of an unexpected body goes into an error message.
inline constexpr size_t kBodyExcerpt = 200;

// REST error body -> the object printed as the agent error:
//   {"code":<JSON-RPC code>,"message":..,"httpStatus":404,"status":"NOT_FOUND","details":[..]}
// `code` comes from the ErrorInfo reason (TASK_NOT_FOUND -> -32001, §6.1),
// else from generic statuses (INVALID_ARGUMENT -> -32602, INTERNAL -> -32603),
// else it is left out. A body that is not a google.rpc.Status gives
// {"httpStatus":..,"message":"HTTP 404 Not Found","body":"<first 200 bytes>"}.
Json rest_error_object(int http_status, std::string_view reason_phrase, std::string_view body);

// A REST response: any 2xx is success (empty body -> null; a body that is not
// JSON is a transport error), anything else a kAgent error built by
// rest_error_object().
CallResult rest_answer(int http_status, std::string_view reason_phrase, std::string_view body);

// A JSON-RPC response over HTTP, whatever the status (§10 C13): result ->
// success, error -> kAgent with the object verbatim. A body that is not a
// JSON-RPC response is a kAgent error with httpStatus when the status is not
// 2xx (a web server's own error page), else a transport error. An id other
// than ours (null allowed on errors) is a transport error.
CallResult jsonrpc_answer(int http_status, std::string_view reason_phrase, std::string_view body,
                          const Json& id);

// One SSE `data:` of a stream. JSON-RPC: a response; result -> event, error ->
// streamError (the error object). REST: a bare StreamResponse -> event;
// {"error":{..}} -> streamError (rest_error_object of it). nullopt and *why set
// when the data is not JSON or has neither shape.
std::optional<StreamItem> jsonrpc_stream_item(std::string_view data, const Json& id, std::string* why);
std::optional<StreamItem> rest_stream_item(std::string_view data, std::string* why);

}  // namespace a2a::client
