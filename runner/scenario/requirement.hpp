// The requirement registry (docs/requirements.md): which documents a test's
// x-requirement may quote, whether a quote's RFC 2119 keyword backs the test's
// level, and the verbatim check tests run against the documents we have.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runner/scenario/model.hpp"

namespace a2a::scenario {

struct QuoteSource {
  std::string_view name;   // the value of x-requirement.source
  std::string_view title;  // how reports name it
  // Path under ../shared of the text a test can check quotes against; "" when
  // the document is not kept beside the project (RFCs, JSON-RPC 2.0, ...).
  std::string_view shared_file;
};

inline constexpr QuoteSource kQuoteSources[] = {
    {"a2a-spec", "A2A specification 1.0", "spec/upstream/specification.md"},
    {"a2a-proto", "a2a.proto (A2A 1.0)", "spec/upstream/a2a.proto"},
    {"a2a-0.3", "A2A specification 0.3", ""},
    {"acts", "ACTS (A2A conformance test specification)", "acts/acts-specification.md"},
    {"stdio-binding", "A2A stdio binding notes (a2a-rs PR #46 / #138)", "spec/stdio-binding.md"},
    {"jsonrpc-2.0", "JSON-RPC 2.0 specification", ""},
    {"rfc3339", "RFC 3339 (timestamps)", ""},
    {"rfc3986", "RFC 3986 (URIs)", ""},
    {"rfc8259", "RFC 8259 (JSON)", ""},
    {"rfc9110", "RFC 9110 (HTTP semantics)", ""},
    {"rfc9112", "RFC 9112 (HTTP/1.1)", ""},
    {"rfc6455", "RFC 6455 (WebSocket)", ""},
    {"whatwg-sse", "HTML Living Standard, server-sent events", ""},
};

const QuoteSource* find_quote_source(std::string_view name);
std::vector<std::string_view> quote_source_names();

// True when `text` holds `keyword` as an upper-case word ("MUST" in "MUST NOT",
// not in "MUSTARD").
bool has_keyword(std::string_view text, std::string_view keyword);
// "" when some quote carries a keyword strong enough for `level` (must: MUST,
// SHALL, REQUIRED; should: those or SHOULD, RECOMMENDED; may: anything), else
// the problem in one sentence.
std::string quotes_back_level(const std::vector<Quote>& quotes, Level level);

// Whitespace collapsed, markdown emphasis ('*', '`'), link syntax ([text](url)) and line-leading '>' or
// '///' comment markers dropped: the form quotes and documents are compared in.
std::string normalise_quote_text(std::string_view text);
// True when every fragment of `quote` (split at "..." / "…") occurs in
// `document`, in order, after normalising both.
bool quote_occurs_in(std::string_view quote, std::string_view document);

}  // namespace a2a::scenario
