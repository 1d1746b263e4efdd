// ACTS raw HTTP steps (§4.4) plus ours: `bytes` (sent as they are),
// `x-body-fill` (a large body built at run time) and `expect.headers`.
#include "runner/scenario/parser.hpp"

namespace a2a::scenario::detail {

namespace {

// The step's keys (parse_step.cpp lists them too, for typo suggestions).
constexpr std::string_view kRawStepKeys[] = {"id",     "description",   "delay_ms", "raw",        "expect",
                                             "expect_error", "expect_stream", "capture", "assertions", "x-grades"};
constexpr std::string_view kRawRequestKeys[] = {"method", "path", "headers", "body", "body_raw", "bytes",
                                                "x-body-fill"};
constexpr std::string_view kBodyFillKeys[] = {"prefix", "fill", "size", "suffix"};
constexpr std::string_view kHttpMethods[] = {"GET", "POST", "PUT", "DELETE"};

// ACTS §4.4 plus ours: {bytes: "..."} alone sends those bytes as they are.
void parse_raw_request(const MapReader& m, Step& step, ParseContext& ctx) {
  MapReader r(m.get("raw"), "'raw' of " + m.context(), m.diags());
  r.check_keys(kRawRequestKeys);
  if (r.has("bytes")) {
    for (auto k : {"method", "path", "headers", "body", "body_raw"}) {
      if (r.has(k)) r.error(k, "'bytes' is sent as it is: it excludes '" + std::string(k) + "'");
    }
    std::string bytes;
    if (bytes_field(r, "bytes", ctx, bytes)) step.raw_bytes = std::move(bytes);
    step.raw = m.json("raw");
    return;
  }
  r.one_of("method", kHttpMethods, true);
  r.string("path", true);
  if (r.expect_map("headers")) {
    MapReader h(r.get("headers"), "'headers' of " + m.context(), m.diags());
    h.check_duplicates();
    for (const auto& k : h.keys()) h.string(k);
  }
  r.string("body_raw");
  int bodies = r.has("body") + r.has("body_raw") + r.has("x-body-fill");
  if (bodies > 1) {
    r.error(r.has("x-body-fill") ? "x-body-fill" : "body_raw",
            "'body', 'body_raw' and 'x-body-fill' are mutually exclusive");
  }
  if (r.expect_map("x-body-fill")) {
    // A large body built at run time: prefix, `fill` repeated to `size` bytes, suffix.
    MapReader f(r.get("x-body-fill"), "'x-body-fill' of " + m.context(), m.diags());
    f.check_keys(kBodyFillKeys);
    if (auto fill = f.string("fill", true); fill && fill->empty()) f.error("fill", "'fill' must not be empty");
    f.integer("size", 0, kMaxSendBytes, true);
    f.string("prefix");
    f.string("suffix");
  }
  step.raw = m.json("raw");
}

}  // namespace

void parse_raw_step(const MapReader& m, Step& step, ParseContext& ctx) {
  m.check_keys(kRawStepKeys);
  step.kind = StepKind::kRaw;
  if (m.expect_map("raw")) parse_raw_request(m, step, ctx);
  parse_expectations(m, step, true);
  step.capture = parse_capture(m);
  step.assertions = parse_named_assertions(m, "assertions");
}

}  // namespace a2a::scenario::detail
