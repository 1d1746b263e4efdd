// The legal variation on the HTTP wire (--legal-variation, docs/legal-variation.md):
// a decorator around each exchange that answers what the bindings produce in
// the other legal way: pretty-printed bodies sent chunked instead of compact
// ones with Content-Length, media types with parameters (JSON-RPC) or
// application/a2a+json (REST), and SSE written with comments, id:, retry:,
// mixed CRLF / LF line ends and data split over two lines; a REST stream
// that ends after a status update resends the final Task (spec §11.7). The
// bindings themselves are unchanged.
#pragma once

#include <memory>

#include "peers/a2a-ref-agent/agent_core.hpp"
#include "runner/transport/http_server.hpp"

namespace a2a::agent {

// `core` (for the final Task snapshot) must outlive the exchange.
std::shared_ptr<transport::HttpExchange> legal_variation_exchange(std::shared_ptr<transport::HttpExchange> inner,
                                                                  AgentCore& core);

}  // namespace a2a::agent
