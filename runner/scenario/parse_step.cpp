// ACTS steps (§4, §5.5, §6, §7, §8.2, §9, §10): one action per step, every
// key checked against the action's CDDL rule plus our x-grades.
#include <algorithm>
#include <array>
#include <cctype>

#include "runner/scenario/parser.hpp"
#include "runner/core/ascii.hpp"
#include "runner/scenario/until.hpp"
#include "runner/scenario/yaml_json.hpp"

namespace a2a::scenario::detail {

namespace {

constexpr std::string_view kOperations[] = {
    "send_message",       "send_streaming_message",  "get_task",           "list_tasks",
    "cancel_task",        "subscribe_to_task",       "get_agent_card",     "get_extended_agent_card",
    "create_push_config", "get_push_config",         "list_push_configs",  "delete_push_config"};

// Names the official ACTS files use for the push-config operations (they
// disagree with ACTS §4.1 and with a2a.proto); the canonical name wins.
struct Alias {
  std::string_view written;
  std::string_view canonical;
};
constexpr Alias kAliases[] = {
    {"set_push_notification_config", "create_push_config"},
    {"create_push_notification_config", "create_push_config"},
    {"get_push_notification_config", "get_push_config"},
    {"list_push_notification_configs", "list_push_configs"},
    {"delete_push_notification_config", "delete_push_config"}};

constexpr std::string_view kOperationKeys[] = {
    "id", "description", "delay_ms", "operation", "params", "expect", "expect_error",
    "expect_stream", "capture", "assertions", "repeat", "x-grades", "x-grpc"};
// x-grpc (ours, docs/grpc.md): how the gRPC binding sends this one call.
constexpr std::string_view kGrpcKeys[] = {"method", "metadata", "pad_bytes", "deadline_ms", "corrupt"};
// gRPC status names an expect_error `code` may give on the gRPC binding.
constexpr std::string_view kGrpcStatusNames[] = {
    "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
    "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
    "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};
constexpr std::string_view kRawKeys[] = {"id",      "description",  "delay_ms",
                                         "raw",     "expect",       "expect_error",
                                         "expect_stream", "capture", "assertions", "x-grades"};
constexpr std::string_view kAssertionKeys[] = {"id", "description", "delay_ms", "assertion"};
constexpr std::string_view kClientKeys[] = {"id", "description", "delay_ms", "client_response",
                                            "expect_parsed", "assertions"};
constexpr std::string_view kActsActions[] = {"operation", "assertion", "raw", "client_response",
                                             "x-concurrent"};
constexpr std::string_view kWireKeys[] = {
    "x-handshake", "x-expect-handshake", "x-send-bytes", "x-send-frame", "x-send-request",
    "x-expect-response", "x-expect-notification", "x-expect-frame", "x-expect-stream",
    "x-expect-silence", "x-expect-eof", "x-expect-exit", "x-close-stdin", "x-sleep",
    "x-expect-webhook", "x-client-op", "x-expect-output", "x-expect-request", "x-reply",
    "x-offer-handshake", "x-agent-close", "x-ws"};

// ACTS §6.2 error names, plus the A2A 1.0 names ACTS lacks (the spec wins).
constexpr std::string_view kErrorTypes[] = {
    "TaskNotFoundError", "TaskNotCancelableError", "UnsupportedOperationError",
    "ContentTypeNotSupportedError", "InvalidParamsError", "VersionNotSupportedError",
    "PushNotificationNotSupportedError", "StreamingNotSupportedError",
    "ExtensionSupportRequiredError", "ExtendedCardNotSupportedError", "JSONParseError",
    "MethodNotFoundError", "InternalError", "InvalidRequestError", "InvalidAgentResponseError",
    "ExtendedAgentCardNotConfiguredError"};

constexpr std::string_view kExpectErrorKeys[] = {"error_type", "code", "message", "details", "data"};
constexpr std::string_view kStreamKeys[] = {"min_count", "max_count",   "timeout_ms", "ordering",
                                            "events",    "final_event", "each_event"};
constexpr std::string_view kOrderings[] = {"monotonic_state"};
constexpr std::string_view kEventMatch[] = {"exact_position", "any_position"};
constexpr std::string_view kRepeatKeys[] = {"until", "max_attempts", "delay_ms", "backoff"};
constexpr std::string_view kBackoffs[] = {"none", "linear", "exponential"};
constexpr std::string_view kNamedKeys[] = {"id",    "description", "source", "path",
                                           "match", "any",         "all",    "none"};
constexpr std::string_view kInlineKeys[] = {"source", "any", "all", "none"};
constexpr std::string_view kCollectionKeys[] = {"path", "match"};
constexpr std::string_view kCollections[] = {"any", "all", "none"};
constexpr std::string_view kExpectKeys[] = {"status", "body"};
constexpr std::string_view kRawExpectKeys[] = {"status", "body", "headers"};
constexpr std::string_view kClientResponseKeys[] = {"operation", "wire_payload"};

bool contains(Keys keys, std::string_view key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

std::vector<std::string_view> all_step_keys() {
  std::vector<std::string_view> out;
  for (Keys ks : {Keys(kOperationKeys), Keys(kRawKeys), Keys(kAssertionKeys), Keys(kClientKeys),
                  Keys(kWireKeys), Keys(kActsActions)}) {
    for (auto k : ks) {
      if (!contains(out, k)) out.push_back(k);
    }
  }
  return out;
}

void parse_collection(const MapReader& owner, std::string_view key) {
  if (!owner.expect_map(key)) return;
  MapReader c(owner.get(key), "'" + std::string(key) + "' of " + owner.context(), owner.diags());
  c.check_keys(kCollectionKeys);
  if (auto path = c.string("path", true)) {
    std::string why;
    if (!is_valid_path(*path, true, &why)) c.error("path", "bad path '" + *path + "': " + why);
  }
  c.require("match");
  c.expect_map("match");
}

}  // namespace

void parse_expectations(const MapReader& m, Step& step, bool raw) {
  const std::string& owner = m.context();
  if (m.has("expect") && m.has("expect_error")) {
    m.error("expect_error", "'expect' and 'expect_error' are mutually exclusive");
  }
  for (std::string_view key : {"expect", "expect_error", "expect_stream"}) {
    if (m.has(key) && !step.expect_where.known()) step.expect_where = m.where(key);
  }
  if (m.has("expect")) step.expect = parse_expect(m.get("expect"), owner, m.diags(), raw);
  if (m.has("expect_error")) {
    step.expect_error = parse_expect_error(m.get("expect_error"), owner, m.diags());
  }
  if (m.has("expect_stream")) {
    step.expect_stream = parse_expect_stream(m.get("expect_stream"), owner, m.diags());
  }
}

namespace {

std::optional<Repeat> parse_repeat(const MapReader& m) {
  if (!m.expect_map("repeat")) return std::nullopt;
  MapReader r(m.get("repeat"), "'repeat' of " + m.context(), m.diags());
  r.check_keys(kRepeatKeys);
  Repeat rep;
  if (auto until = r.string("until", true)) {
    auto parsed = parse_until(*until);
    if (parsed) rep.until = std::move(*parsed);
    else r.error("until", parsed.error().message);
  }
  rep.max_attempts = static_cast<int>(r.integer("max_attempts", 1, 100000).value_or(10));
  rep.delay_ms = static_cast<int>(r.integer("delay_ms", 0, kMaxMillis).value_or(1000));
  auto backoff = r.one_of("backoff", kBackoffs).value_or("none");
  rep.backoff = backoff == "linear"        ? Backoff::kLinear
                : backoff == "exponential" ? Backoff::kExponential
                                           : Backoff::kNone;
  return rep;
}

void parse_operation_step(const MapReader& m, Step& step) {
  m.check_keys(kOperationKeys);
  step.kind = StepKind::kOperation;
  if (auto op = resolve_operation(m, "operation", &step.operation_written)) step.operation = *op;
  m.require("params");
  if (m.expect_map("params")) step.params = m.json("params");
  parse_expectations(m, step);
  step.capture = parse_capture(m);
  step.assertions = parse_named_assertions(m, "assertions");
  if (m.has("repeat")) step.repeat = parse_repeat(m);
  if (m.has("x-grpc") && m.expect_map("x-grpc")) {
    MapReader g(m.get("x-grpc"), "'x-grpc' of " + m.context(), m.diags());
    g.check_keys(kGrpcKeys);
    g.string("method");
    g.integer("pad_bytes", 0, 64LL << 20);
    g.integer("deadline_ms", 1, kMaxMillis);
    g.boolean("corrupt");
    if (g.has("metadata") && g.expect_map("metadata")) {
      Json md = g.json("metadata");
      for (const auto& [k, v] : md.items())
        if (!v.is_string() && !v.is_null())
          g.error("metadata", "metadata value of '" + k + "' must be a string (or null: leave the key out)");
    }
    step.grpc_options = m.json("x-grpc");
  }
}

void parse_assertion_step(const MapReader& m, Step& step) {
  m.check_keys(kAssertionKeys);
  step.kind = StepKind::kAssertion;
  if (!m.expect_map("assertion")) return;
  MapReader a(m.get("assertion"), "'assertion' of " + m.context(), m.diags());
  a.check_keys(kInlineKeys);
  a.string("source", true);
  for (auto key : kCollections) parse_collection(a, key);
  step.assertion = m.json("assertion");
}

void parse_client_step(const MapReader& m, Step& step) {
  m.check_keys(kClientKeys);
  step.kind = StepKind::kClient;
  if (m.expect_map("client_response")) {
    MapReader c(m.get("client_response"), "'client_response' of " + m.context(), m.diags());
    c.check_keys(kClientResponseKeys);
    if (auto op = resolve_operation(c, "operation", &step.operation_written)) step.operation = *op;
    c.require("wire_payload");
    step.client_response = m.json("client_response");
  }
  m.require("expect_parsed");
  if (m.expect_map("expect_parsed")) step.expect_parsed = m.json("expect_parsed");
  step.assertions = parse_named_assertions(m, "assertions");
}

std::vector<std::string_view> present_actions(const MapReader& m) {
  std::vector<std::string_view> out;
  for (Keys ks : {Keys(kActsActions), Keys(kWireKeys)}) {
    for (auto k : ks) {
      if (m.has(k)) out.push_back(k);
    }
  }
  return out;
}

void record_step_id(const MapReader& m, const std::string& id, StepIds& ids) {
  auto [it, fresh] = ids.seen.emplace(id, m.where("id"));
  if (!fresh) {
    m.diags().error(m.where("id"), "duplicate step id '" + id + "' in " + ids.test_label +
                                       " (first at line " + std::to_string(it->second.line) + ")");
  }
}

void dispatch(const MapReader& m, std::string_view action, Step& step, ParseContext& ctx,
              StepIds& ids) {
  if (action == "operation") parse_operation_step(m, step);
  else if (action == "raw") parse_raw_step(m, step, ctx);
  else if (action == "assertion") parse_assertion_step(m, step);
  else if (action == "client_response") parse_client_step(m, step);
  else if (action == "x-concurrent") parse_concurrent(m, step, ctx, ids);
  else parse_wire_step(m, *wire_action_from(action), step, ctx);
  if (m.has("x-grades") && (step.kind == StepKind::kOperation || step.kind == StepKind::kRaw ||
                            step.kind == StepKind::kWire)) {
    parse_grades(m, step, ctx);
  }
}

Step parse_step(const YAML::Node& node, size_t index, ParseContext& ctx, StepIds& ids) {
  Step step;
  step.where = ctx.diags.at(node);
  std::string label = "step #" + std::to_string(index + 1);
  if (node.IsMap() && is_string(node["id"])) label = "step '" + node["id"].Scalar() + "'";
  MapReader m(node, label, ctx.diags);
  if (!m.is_map()) return step;
  if (auto id = m.string("id", true)) {
    step.id = *id;
    record_step_id(m, *id, ids);
  }
  step.description = m.string("description").value_or("");
  step.delay_ms = static_cast<int>(m.integer("delay_ms", 0, kMaxMillis).value_or(0));
  auto actions = present_actions(m);
  if (actions.size() != 1) {
    std::vector<std::string_view> every = all_step_keys();
    m.check_keys(every);
    m.diags().error(m.where(), actions.empty()
        ? label + " has no action (expected one of operation, raw, assertion, client_response, "
                  "x-concurrent or an x- wire action)"
        : label + " has several actions (" + join(actions) + "); a step does exactly one thing");
    return step;
  }
  dispatch(m, actions.front(), step, ctx, ids);
  return step;
}

}  // namespace

std::vector<Step> parse_steps(const YAML::Node& list, ParseContext& ctx, StepIds& ids) {
  std::vector<Step> out;
  size_t index = 0;
  for (const auto& node : list) out.push_back(parse_step(node, index++, ctx, ids));
  return out;
}

std::optional<std::string> resolve_operation(const MapReader& m, std::string_view key,
                                             std::string* written) {
  auto name = m.string(key, true);
  if (!name) return std::nullopt;
  if (contains(kOperations, *name)) return name;
  for (const auto& a : kAliases) {
    if (a.written == *name) {
      if (written) *written = *name;
      return std::string(a.canonical);
    }
  }
  std::vector<std::string_view> known(std::begin(kOperations), std::end(kOperations));
  for (const auto& a : kAliases) known.push_back(a.written);
  m.error(key, "unknown operation '" + *name + "'", did_you_mean(*name, known));
  return std::nullopt;
}

// The ACTS files also write the body's keys straight under `expect` (no
// `body:`). That shorthand is folded into `body`; a key one edit away from
// `status` or `body` is reported as a typo instead.
// The ACTS files also write the body's keys straight under `expect` (no
// `body:`). That shorthand is folded into `body`; a key one edit away from
// `status` or `body` is reported as a typo instead. Raw steps may also assert
// on response headers (`headers`, ours): its keys are lower-cased, as header
// names are case-insensitive.
std::optional<Json> parse_expect(const YAML::Node& node, const std::string& owner, Diagnostics& d,
                                 bool raw) {
  MapReader e(node, "'expect' of " + owner, d);
  if (!e.is_map()) return std::nullopt;
  e.check_duplicates();
  Json out = Json::object();
  const bool has_body = e.has("body");
  Keys known = raw ? Keys(kRawExpectKeys) : Keys(kExpectKeys);
  for (const auto& key : e.keys()) {
    if (key == "status") {
      out["status"] = e.json(key);
    } else if (key == "body") {
      if (e.expect_map("body")) out["body"] = e.json("body");
    } else if (raw && key == "headers") {
      if (!e.expect_map("headers")) continue;
      Json h = Json::object();
      const Json written = e.json("headers");
      for (const auto& [name, v] : written.items()) h[core::ascii_lower(name)] = v;
      out["headers"] = std::move(h);
    } else if (has_body || edit_distance(key, "body") <= 1 || edit_distance(key, "status") <= 1) {
      d.error(e.key_where(key), "unknown key '" + key + "' in " + e.context() +
                                did_you_mean(key, known));
    } else {
      out["body"][key] = e.json(key);
    }
  }
  return out;
}

std::optional<Json> parse_expect_error(const YAML::Node& node, const std::string& owner,
                                       Diagnostics& d) {
  MapReader e(node, "'expect_error' of " + owner, d);
  if (!e.is_map()) return std::nullopt;
  e.check_keys(kExpectErrorKeys);
  if (e.keys().empty()) {
    d.error(e.where(), "'expect_error' of " + owner + " must name at least error_type, code or message");
  }
  e.one_of("error_type", kErrorTypes);
  const YAML::Node code = e.get("code");
  if (is_string(code) && !contains(kErrorTypes, code.Scalar()) && !contains(kGrpcStatusNames, code.Scalar())) {
    e.error("code", "unknown error name '" + code.Scalar() + "'", did_you_mean(code.Scalar(), kErrorTypes));
  }
  e.expect_map("details");
  return yaml_to_json(node);
}

std::optional<Json> parse_expect_stream(const YAML::Node& node, const std::string& owner,
                                        Diagnostics& d, Keys extra, std::string_view what) {
  MapReader s(node, "'" + std::string(what) + "' of " + owner, d);
  if (!s.is_map()) return std::nullopt;
  std::vector<std::string_view> known(std::begin(kStreamKeys), std::end(kStreamKeys));
  known.insert(known.end(), extra.begin(), extra.end());
  s.check_keys(known);
  for (auto key : {"min_count", "max_count"}) s.integer(key, 0, 1'000'000);
  s.integer("timeout_ms", 0, kMaxMillis);
  s.one_of("ordering", kOrderings);
  s.expect_map("final_event");
  s.expect_map("each_event");
  if (s.expect_list("events", true)) {
    for (const auto& ev : s.get("events")) {
      MapReader e(ev, "event of " + owner, d);
      if (!e.is_map()) continue;
      e.check_duplicates();
      e.string("description");
      e.one_of("match", kEventMatch);
      e.integer("index", 0, 1'000'000);
    }
  }
  return yaml_to_json(node);
}

StringPairs parse_capture(const MapReader& m) {
  StringPairs out;
  if (!m.expect_map("capture")) return out;
  MapReader c(m.get("capture"), "'capture' of " + m.context(), m.diags());
  c.check_duplicates();
  if (c.keys().empty()) m.error("capture", "'capture' must not be empty");
  for (const auto& name : c.keys()) {
    const YAML::Node v = c.get(name);
    if (!is_string(v)) {
      c.error(name, "capture value for '" + name + "' must be a string (a dot-path; got " +
                        describe(v) + ")");
      continue;
    }
    std::string why;
    if (!is_valid_path(v.Scalar(), false, &why)) {
      c.error(name, "capture path '" + v.Scalar() + "' for '" + name + "' is not a dot-path: " + why);
      continue;
    }
    out.emplace_back(name, v.Scalar());
  }
  return out;
}

Json parse_named_assertions(const MapReader& m, std::string_view key) {
  if (!m.expect_list(key, true)) return Json::array();
  size_t index = 0;
  for (const auto& node : m.get(key)) {
    MapReader a(node, "'" + std::string(key) + "[" + std::to_string(index++) + "]' of " + m.context(),
                m.diags());
    if (!a.is_map()) continue;
    a.check_keys(kNamedKeys);
    a.string("id");
    a.string("description");
    a.string("source", true);
    if (auto path = a.string("path")) {
      std::string why;
      if (!is_valid_path(*path, true, &why)) a.error("path", "bad path '" + *path + "': " + why);
    }
    for (auto c : kCollections) parse_collection(a, c);
  }
  return m.json(key);
}

}  // namespace a2a::scenario::detail
