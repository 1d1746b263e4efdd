// ACTS abstract operations over the HTTP bindings (JSON-RPC over HTTP, REST),
// as stdio_ops.hpp does for stdio: the assertion root is the A2A object, and
// every departure from the binding's rules is a violation even when the A2A
// payload is fine. Common to both: `A2A-Version: <the test's spec_version>`,
// and the interface's tenant added to params unless they carry one.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "runner/engine/stdio_ops.hpp"
#include "runner/transport/url.hpp"

namespace a2a::engine {

OpResult call_http_operation(Session& s, const std::string& operation, const Json& params,
                             core::Deadline deadline);
// get_agent_card: GET {--url}/.well-known/agent-card.json (any binding's card is served over HTTP).
OpResult fetch_card_operation(Session& s, core::Deadline deadline);

namespace http_detail {

// The interface's tenant, unless `params` name one.
Json with_tenant(const Session& s, const Json& params);
transport::Url interface_url(const Session& s);
// POST/GET/... with A2A-Version, Accept (text/event-stream for streams) and,
// with a body, Content-Type application/json.
transport::HttpRequest make_request(const Session& s, std::string method, std::string target,
                                    bool streaming, const std::optional<std::string>& body);
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

// The A2A 0.3 profile: each translation note is a violation naming the 0.3
// rule (what = "result", "stream event", ...).
void v03_notes(OpResult& r, const std::vector<std::string>& notes, const std::string& what);
// The 0.3 stream's end (§9.1 "End of stream"): the last status-update carries
// final:true and nothing follows an event that does. One entry per event.
void check_v03_final(OpResult& r, const std::vector<bool>& is_status, const std::vector<bool>& finals);

}  // namespace http_detail

// rest_v03_ops.cpp: abstract operations on a rest@0.3 interface.
OpResult rest_v03_operation(Session& s, const std::string& operation, const Json& params, core::Deadline deadline);

// rest_ops.cpp
OpResult rest_operation(Session& s, const std::string& operation, const Json& params, core::Deadline deadline);

}  // namespace a2a::engine
