// What the HTTP bindings share (JSON-RPC over HTTP+SSE, HTTP+JSON/REST, and
// their A2A 0.3 adapters): the request every call sends (A2A-Version,
// Accept, --header), one unary exchange and one SSE stream over the
// session's connection pool, bounded in bytes, events and time, and the
// agent card fetched from --url. Every departure from HTTP's or SSE's rules
// is a violation in the OpResult (docs/bindings.md).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runner/engine/operations.hpp"
#include "runner/transport/http_client.hpp"
#include "runner/transport/url.hpp"

namespace a2a::bindings::http {

using engine::OpResult;
using engine::Session;
using Json = nlohmann::json;

// Why a URL cannot be an HTTP interface ("" when it can): check_url of the HTTP bindings.
std::string url_problem(const std::string& url);

// POST/GET/... with A2A-Version (not on an A2A 0.3 interface), Accept
// (text/event-stream for streams), every --header and, with a body,
// Content-Type application/json.
transport::HttpRequest make_request(const Session& s, std::string method, std::string target,
                                    bool streaming, const std::optional<std::string>& body);
// Adds a violation once (at most 8 per result).
void add_violation(OpResult& r, std::string what);
bool is_json_type(const std::string& content_type);  // application/json or application/a2a+json
// The Content-Type's media type, lower-cased, without parameters ("" when none).
std::string media_type(const transport::HeaderList& headers);

// A unary body above max_body, cut by us: said first in r.problem (or as a
// violation), or the reason would only show its valid start as "not JSON".
void note_cut_body(OpResult& r);

// One unary exchange; on failure `r` becomes kNoResponse (why in r.problem).
std::optional<transport::HttpResponse> exchange(Session& s, const transport::Url& url,
                                                const transport::HttpRequest& req, core::Deadline d,
                                                OpResult& r);

// One streaming exchange. A text/event-stream 2xx answer is parsed as SSE,
// each event's data going to on_data; any other answer (an error before the
// first event, or a non-SSE body) is kept whole in `whole` and `collected`
// set. false when the exchange failed (r is then kNoResponse).
bool stream_exchange(Session& s, const transport::Url& url, const transport::HttpRequest& req,
                     core::Deadline d, OpResult& r, const std::function<void(const std::string&)>& on_data,
                     std::string& whole, bool& collected);

// The A2A 0.3 adapters: each translation note is a violation naming the 0.3
// rule (what = "result", "stream event", ...).
void v03_notes(OpResult& r, const std::vector<std::string>& notes, const std::string& what);

// get_agent_card on any network binding: GET {--url}/.well-known/agent-card.json
// (every binding's card is served over HTTP); a 0.3 interface's card is read as 1.0.
OpResult fetch_card_operation(Session& s, core::Deadline deadline);

}  // namespace a2a::bindings::http
