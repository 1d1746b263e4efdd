// The HTTP+JSON/REST binding (A2A spec §11, a2a-protocol.md §4.4): verb,
// path, query and body from the shared route table (runner/a2a/rest_routes);
// 2xx = the result, any other status an error whose body must be a
// google.rpc.Status; streams are SSE of bare StreamResponses.
#pragma once

#include "runner/engine/binding_registry.hpp"

namespace a2a::bindings {

// The registry entry: key "rest", card name "HTTP+JSON"; expect_error reads
// the google.rpc.Status and the HTTP status (match::match_rest_error).
engine::OperationBinding rest_operation_binding();

}  // namespace a2a::bindings
