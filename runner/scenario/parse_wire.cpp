// Our stdio wire actions (docs/scenario-format.md §3.2), x-grades (§3.3) and
// x-concurrent. Byte payloads are decoded here, once, so a bad escape or a
// missing fixture is a load error with a line number, not a mid-run surprise.
#include <algorithm>
#include <fstream>
#include <iterator>

#include "runner/core/escape.hpp"
#include "runner/scenario/parser.hpp"
#include "runner/scenario/until.hpp"
#include "runner/scenario/yaml_json.hpp"

namespace a2a::scenario::detail {

namespace {

constexpr std::string_view kCommon[] = {"id", "description", "delay_ms"};
constexpr std::string_view kHandshakeForms[] = {"accept", "reject"};
constexpr std::string_view kHandshakeMapKeys[] = {"variant", "ack", "ack_raw"};
constexpr std::string_view kSendRequestKeys[] = {"method", "id", "params"};
constexpr std::string_view kExpectResponseKeys[] = {"id", "result", "error", "within_ms"};
constexpr std::string_view kExpectNotificationKeys[] = {"method", "params", "within_ms"};
constexpr std::string_view kExpectFrameKeys[] = {"body", "body_raw", "canonical", "within_ms"};
constexpr std::string_view kStreamExtraKeys[] = {"id", "final", "errors", "within_ms"};
constexpr std::string_view kSilenceKeys[] = {"ms", "stream"};
constexpr std::string_view kStreams[] = {"stdout", "stderr"};
constexpr std::string_view kWithinKeys[] = {"within_ms"};
constexpr std::string_view kExitKeys[] = {"status", "within_ms"};
constexpr std::string_view kExitWords[] = {"nonzero", "any"};
constexpr std::string_view kFileKeys[] = {"file"};
constexpr std::string_view kFillKeys[] = {"fill", "count", "prefix", "suffix"};
constexpr std::string_view kGradeKeys[] = {"grade", "note", "description"};
constexpr std::string_view kGrades[] = {"pass", "non_strict", "informational", "fail"};
constexpr std::string_view kExpectationKeys[] = {
    "expect", "expect_error", "expect_stream", "x-expect-handshake", "x-expect-response",
    "x-expect-notification", "x-expect-frame", "x-expect-stream", "x-expect-silence",
    "x-expect-eof", "x-expect-exit", "x-expect-webhook", "x-expect-output", "x-expect-request", "x-ws"};
constexpr std::string_view kOutputKeys[] = {"line", "within_ms"};
constexpr std::string_view kRequestKeys[] = {"method", "params", "headers", "path", "within_ms"};
constexpr std::string_view kReplyKeys[] = {"id", "result", "error", "frame", "body_raw", "stream", "end",
                                           "delay_ms", "status", "headers", "body", "close", "stderr_bytes"};
constexpr std::string_view kStreamEnds[] = {"final", "none", "eof", "cut", "final-other-id", "never"};
constexpr std::string_view kAgentCloseKeys[] = {"exit"};
constexpr std::string_view kFanOutKeys[] = {"repeat", "steps"};
constexpr std::string_view kWebhookKeys[] = {"count", "within_ms", "until", "body", "headers", "each_body"};
// x-ws (the WebSocket binding's raw steps, docs/websocket.md "Raw steps").
constexpr std::string_view kWsActions[] = {"upgrade", "expect_upgrade", "send", "request", "expect_response",
                                           "expect_stream", "expect_frame", "expect_silence", "expect_pong",
                                           "expect_close"};
constexpr std::string_view kWsUpgradeKeys[] = {"headers", "path", "probe"};
constexpr std::string_view kWsProbeKeys[] = {"method", "params"};
constexpr std::string_view kWsSendKeys[] = {"text", "binary", "json", "ping", "pong", "close", "fill"};
constexpr std::string_view kWsCloseKeys[] = {"code", "reason"};
constexpr std::string_view kWsRequestKeys[] = {"method", "params", "id", "count"};
constexpr std::string_view kWsStreamExtraKeys[] = {"id", "end", "final", "within_ms"};
constexpr std::string_view kWsStreamEnds[] = {"complete", "terminal"};
constexpr std::string_view kWsFrameKeys[] = {"text", "binary", "within_ms"};
constexpr std::string_view kWsSilenceKeys[] = {"ms", "id", "ignore_completion"};
constexpr std::string_view kWsPongKeys[] = {"payload", "within_ms"};
constexpr std::string_view kWsCloseExpectKeys[] = {"code", "within_ms"};
constexpr int kMaxWsRequests = 1024;

// In double quotes YAML decodes escapes itself, and "\xff" becomes U+00FF
// (two bytes). Bytes fields must mean bytes, so a double-quoted scalar is
// re-read from the source text and decoded by our own rules.
bool scalar_bytes(const YAML::Node& node, const ParseContext& ctx, std::string& out,
                  std::string& why) {
  std::string text = node.Scalar();
  const auto pos = static_cast<size_t>(node.Mark().pos);
  if (node.Tag() == "!" && pos < ctx.source.size() && ctx.source[pos] == '"') {
    size_t end = pos + 1;
    while (end < ctx.source.size() && ctx.source[end] != '"') end += ctx.source[end] == '\\' ? 2 : 1;
    text = std::string(ctx.source.substr(pos + 1, end - pos - 1));
    if (text.find('\n') != std::string::npos) {
      why = "a double-quoted byte string must fit on one line (use single quotes or a block)";
      return false;
    }
  }
  return core::unescape_bytes(text, out, &why);
}

}  // namespace

// Decodes the string at `key` of `m` into `out`; records an error if not.
bool bytes_field(const MapReader& m, std::string_view key, const ParseContext& ctx, std::string& out) {
  if (!m.string(key)) return false;
  std::string why;
  if (!scalar_bytes(m.get(key), ctx, out, why)) {
    m.error(key, "bad escape in '" + std::string(key) + "': " + why);
    return false;
  }
  return true;
}

namespace {

void read_fixture(const MapReader& f, const ParseContext& ctx, WireAction& w) {
  auto rel = f.string("file", true);
  if (!rel) return;
  const std::filesystem::path path = ctx.base_dir / *rel;
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(st)) {
    f.diags().error(f.where("file"), "x-send-bytes file '" + *rel + "' not found (looked for " +
                    path.generic_string() + ")", core::ErrorKind::kNotFound);
    return;
  }
  // Only a regular file is read: a FIFO or a device could block the loader
  // or never end.
  if (!std::filesystem::is_regular_file(st)) {
    f.error("file", "x-send-bytes file '" + *rel + "' is " + file_type_text(st.type()) +
                        ", not a regular file (" + path.generic_string() + ")");
    return;
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) {
    f.error("file", "x-send-bytes file '" + *rel + "' cannot be read: " + ec.message());
    return;
  }
  if (size > static_cast<uint64_t>(kMaxSendBytes)) {
    f.error("file", "x-send-bytes file '" + *rel + "' is larger than 256 MiB");
    return;
  }
  std::ifstream in(path, std::ios::binary);
  w.bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  w.has_bytes = true;
}

void expand_fill(const MapReader& f, const ParseContext& ctx, WireAction& w) {
  f.check_keys(kFillKeys);
  std::string fill, prefix, suffix;
  f.require("fill");
  bool ok = bytes_field(f, "fill", ctx, fill);
  if (ok && fill.empty()) {
    f.error("fill", "'fill' must not be empty");
    ok = false;
  }
  auto count = f.integer("count", 0, kMaxSendBytes, true);
  if (f.has("prefix")) ok = bytes_field(f, "prefix", ctx, prefix) && ok;
  if (f.has("suffix")) ok = bytes_field(f, "suffix", ctx, suffix) && ok;
  if (!ok || !count) return;
  if (static_cast<uint64_t>(*count) * fill.size() > static_cast<uint64_t>(kMaxSendBytes)) {
    f.error("count", "x-send-bytes fill of " + std::to_string(*count) + " x " +
                         std::to_string(fill.size()) + " bytes exceeds the 256 MiB limit");
    return;
  }
  w.bytes.reserve(prefix.size() + fill.size() * static_cast<size_t>(*count) + suffix.size());
  w.bytes = prefix;
  for (int64_t i = 0; i < *count; ++i) w.bytes += fill;
  w.bytes += suffix;
  w.has_bytes = true;
}

void parse_send_bytes(const MapReader& m, const ParseContext& ctx, WireAction& w) {
  const YAML::Node v = m.get("x-send-bytes");
  if (v.IsMap()) {
    MapReader f(v, "'x-send-bytes' of " + m.context(), m.diags());
    if (f.has("file")) {
      f.check_keys(kFileKeys);
      read_fixture(f, ctx, w);
    } else {
      expand_fill(f, ctx, w);
    }
    return;
  }
  if (!is_string(v)) {
    m.error("x-send-bytes", "'x-send-bytes' must be a string with escapes, {file: path} or "
                            "{fill: ..., count: N} (got " + describe(v) + ")");
    return;
  }
  w.has_bytes = bytes_field(m, "x-send-bytes", ctx, w.bytes);
}

void parse_handshake(const MapReader& m, const ParseContext& ctx, WireAction& w) {
  const YAML::Node v = m.get("x-handshake");
  if (v.IsMap()) {
    MapReader h(v, "'x-handshake' of " + m.context(), m.diags());
    h.check_keys(kHandshakeMapKeys);
    if (h.keys().size() != 1) {
      m.error("x-handshake", "'x-handshake' map needs exactly one of variant, ack, ack_raw");
    }
    h.string("variant");
    if (h.has("ack_raw")) w.has_bytes = bytes_field(h, "ack_raw", ctx, w.bytes);
    return;
  }
  std::string text = v.IsScalar() ? v.Scalar() : describe(v);
  if (!is_string(v) || (text != "accept" && text != "reject")) {
    m.error("x-handshake", "unknown x-handshake form '" + text +
                               "' (expected accept, reject, {variant: V}, {ack: ...} or {ack_raw: "
                               "\"...\"})",
            did_you_mean(text, kHandshakeForms));
  }
}

// A map value whose keys are `known`; `within_ms` bounded if present.
std::optional<MapReader> spec_map(const MapReader& m, std::string_view key, Keys known) {
  MapReader s(m.get(key), "'" + std::string(key) + "' of " + m.context(), m.diags());
  if (!s.is_map()) return std::nullopt;
  s.check_keys(known);
  s.integer("within_ms", 0, kMaxMillis);
  return s;
}

void exclusive(const MapReader& s, std::string_view a, std::string_view b) {
  if (s.has(a) && s.has(b)) {
    s.error(b, "'" + std::string(a) + "' and '" + std::string(b) + "' are mutually exclusive");
  }
}

// x-expect-webhook: {count, within_ms, until, body, headers, each_body}.
void parse_expect_webhook(const MapReader& m) {
  auto s = spec_map(m, "x-expect-webhook", kWebhookKeys);
  if (!s) return;
  s->integer("count", 0, 1000);
  if (auto until = s->string("until")) {
    auto parsed = parse_until(*until);
    if (!parsed) s->error("until", parsed.error().message);
  }
  s->expect_map("headers");
}

void parse_expect_exit(const MapReader& m) {
  auto s = spec_map(m, "x-expect-exit", kExitKeys);
  if (!s || !s->has("status")) return;
  const YAML::Node status = s->get("status");
  if (is_integer(status)) return;
  const std::string text = status.IsScalar() ? status.Scalar() : describe(status);
  if (!is_string(status) || (text != "nonzero" && text != "any")) {
    s->error("status", "'status' must be an exit code, nonzero or any (got '" + text + "')",
             did_you_mean(text, kExitWords));
  }
}

// x-ws `send`: exactly one payload form; byte forms are decoded here.
void parse_ws_send(const MapReader& s, const ParseContext& ctx, WireAction& w) {
  s.check_keys(kWsSendKeys);
  if (s.keys().size() != 1) {
    s.diags().error(s.where(), s.context() + " needs exactly one of text, binary, json, ping, pong, close, fill");
    return;
  }
  const std::string form = s.keys().front();
  if (form == "json") return;
  if (form == "close") {
    if (!s.get("close").IsMap()) return s.error("close", "'close' is a map {code, reason}");
    MapReader c(s.get("close"), "'close' of " + s.context(), s.diags());
    c.check_keys(kWsCloseKeys);
    c.integer("code", 0, 65535);
    c.string("reason");
    return;
  }
  if (form == "fill") {
    MapReader f(s.get("fill"), "'fill' of " + s.context(), s.diags());
    if (f.is_map()) expand_fill(f, ctx, w);
    else s.error("fill", "'fill' is a map {fill, count, prefix, suffix}");
    return;
  }
  w.has_bytes = bytes_field(s, form, ctx, w.bytes);
}

// x-ws: a map with exactly one action (kWsActions) and that action's keys.
void parse_ws(const MapReader& m, const ParseContext& ctx, WireAction& w) {
  MapReader x(m.get("x-ws"), "'x-ws' of " + m.context(), m.diags());
  if (!x.is_map()) return m.error("x-ws", "'x-ws' is a map with one action (" + join(kWsActions) + ")");
  x.check_keys(kWsActions);
  if (x.keys().size() != 1) {
    x.diags().error(x.where(), x.context() + " needs exactly one action (one of " + join(kWsActions) + ")");
    return;
  }
  const std::string action = x.keys().front();
  if (action == "expect_upgrade") return;  // an assertion map on {status, headers, body, answer}
  if (action == "send") {
    MapReader s(x.get("send"), "'send' of " + x.context(), x.diags());
    if (s.is_map()) parse_ws_send(s, ctx, w);
    else x.error("send", "'send' is a map with one of text, binary, json, ping, pong, close, fill");
    return;
  }
  if (action == "expect_stream") {
    parse_expect_stream(x.get(action), x.context(), x.diags(), kWsStreamExtraKeys, action);
    if (x.get(action).IsMap()) {
      MapReader s(x.get(action), x.context(), x.diags());
      s.integer("within_ms", 0, kMaxMillis);
      s.one_of("end", kWsStreamEnds);
    }
    return;
  }
  if (action == "upgrade") {
    if (auto s = spec_map(x, action, kWsUpgradeKeys)) {
      s->expect_map("headers");
      s->string("path");
      if (s->has("probe")) {
        if (auto p = spec_map(*s, "probe", kWsProbeKeys)) p->string("method", true);
      }
    }
    return;
  }
  if (action == "request") {
    if (auto s = spec_map(x, action, kWsRequestKeys)) {
      s->string("method", true);
      s->integer("count", 1, kMaxWsRequests);
    }
    return;
  }
  if (action == "expect_response") {
    if (auto s = spec_map(x, action, kExpectResponseKeys)) exclusive(*s, "result", "error");
    return;
  }
  if (action == "expect_frame") {
    if (auto s = spec_map(x, action, kWsFrameKeys)) s->boolean("binary");
    return;
  }
  if (action == "expect_silence") {
    if (auto s = spec_map(x, action, kWsSilenceKeys)) {
      s->integer("ms", 1, kMaxMillis, true);
      s->boolean("ignore_completion");
    }
    return;
  }
  if (action == "expect_pong") {
    if (auto s = spec_map(x, action, kWsPongKeys)) {
      if (s->has("payload")) w.has_bytes = bytes_field(*s, "payload", ctx, w.bytes);  // escapes decoded
    }
    return;
  }
  spec_map(x, action, kWsCloseExpectKeys);  // expect_close
}

bool is_true(const YAML::Node& node) { return is_bool(node) && yaml_to_json(node).get<bool>(); }

// Actions that write (or only wait): handshake answers, sends, close, sleep.
void parse_write_action(const MapReader& m, const std::string& key, WireAction& w, ParseContext& ctx) {
  switch (w.type) {
    case WireActionType::kHandshake: parse_handshake(m, ctx, w); break;
    case WireActionType::kSendBytes: parse_send_bytes(m, ctx, w); break;
    case WireActionType::kSendFrame: {
      const YAML::Node v = m.get(key);
      if (v.IsMap() && v.size() == 1 && v["body_raw"]) {
        MapReader f(v, "'x-send-frame' of " + m.context(), m.diags());
        w.has_bytes = bytes_field(f, "body_raw", ctx, w.bytes);
      }
      break;
    }
    case WireActionType::kSendRequest:
      if (auto s = spec_map(m, key, kSendRequestKeys)) s->string("method", true);
      break;
    case WireActionType::kCloseStdin:
      if (!is_true(m.get(key))) m.error(key, "'x-close-stdin' must be true");
      break;
    case WireActionType::kSleep: m.integer(key, 0, kMaxMillis); break;
    case WireActionType::kClientOp: {
      MapReader s(m.get(key), "'x-client-op' of " + m.context(), m.diags());
      if (s.is_map()) s.string("op", true);
      break;
    }
    case WireActionType::kReply:
      if (auto s = spec_map(m, key, kReplyKeys)) {
        exclusive(*s, "result", "error");
        s->one_of("end", kStreamEnds);
        s->integer("delay_ms", 0, kMaxMillis);
        s->integer("status", 100, 599);
        s->integer("stderr_bytes", 0, 64 * 1024 * 1024);
        if (s->has("body_raw")) w.has_bytes = bytes_field(*s, "body_raw", ctx, w.bytes);
      }
      break;
    case WireActionType::kOfferHandshake:
      if (m.get(key).IsMap() && m.get(key).size() == 1 && m.get(key)["body_raw"]) {
        MapReader f(m.get(key), "'x-offer-handshake' of " + m.context(), m.diags());
        w.has_bytes = bytes_field(f, "body_raw", ctx, w.bytes);
      } else if (!m.get(key).IsMap() && !(is_string(m.get(key)) && m.get(key).Scalar() == "default")) {
        m.error(key, "'x-offer-handshake' is 'default', a map of handshake members or {body_raw: ...}");
      }
      break;
    case WireActionType::kWs: parse_ws(m, ctx, w); break;
    case WireActionType::kAgentClose:
      if (!is_true(m.get(key))) {
        if (auto s = spec_map(m, key, kAgentCloseKeys)) s->integer("exit", 0, 255);
      }
      break;
    default: break;
  }
}

// The x-expect-* family.
void parse_expect_action(const MapReader& m, const std::string& key, WireAction& w, ParseContext& ctx) {
  switch (w.type) {
    case WireActionType::kExpectHandshake: m.expect_map(key); break;
    case WireActionType::kExpectResponse:
      if (auto s = spec_map(m, key, kExpectResponseKeys)) exclusive(*s, "result", "error");
      break;
    case WireActionType::kExpectNotification:
      if (auto s = spec_map(m, key, kExpectNotificationKeys)) s->string("method");
      break;
    case WireActionType::kExpectFrame:
      if (auto s = spec_map(m, key, kExpectFrameKeys)) {
        exclusive(*s, "body", "body_raw");
        if (s->has("body_raw")) w.has_bytes = bytes_field(*s, "body_raw", ctx, w.bytes);
      }
      break;
    case WireActionType::kExpectStream:
      parse_expect_stream(m.get(key), m.context(), m.diags(), kStreamExtraKeys, key);
      if (m.get(key).IsMap()) {
        MapReader(m.get(key), m.context(), m.diags()).integer("within_ms", 0, kMaxMillis);
      }
      break;
    case WireActionType::kExpectSilence:
      if (auto s = spec_map(m, key, kSilenceKeys)) {
        s->integer("ms", 1, kMaxMillis, true);
        s->one_of("stream", kStreams);
      }
      break;
    case WireActionType::kExpectEof:
      if (!is_true(m.get(key))) spec_map(m, key, kWithinKeys);
      break;
    case WireActionType::kExpectExit: parse_expect_exit(m); break;
    case WireActionType::kExpectWebhook: parse_expect_webhook(m); break;
    case WireActionType::kExpectOutput:
      if (auto s = spec_map(m, key, kOutputKeys)) s->require("line");
      break;
    case WireActionType::kExpectRequest: spec_map(m, key, kRequestKeys); break;
    default: break;
  }
}

void parse_wire_value(const MapReader& m, WireActionType type, WireAction& w, ParseContext& ctx) {
  const std::string key(to_string(type));
  w.type = type;
  w.spec = m.json(key);
  if (is_expectation(type)) parse_expect_action(m, key, w, ctx);
  else parse_write_action(m, key, w, ctx);
}

std::optional<Grade> parse_grade(const MapReader& a, const Step& parent, ParseContext& ctx) {
  const std::string& step_id = parent.id;
  std::vector<std::string_view> known(std::begin(kGradeKeys), std::end(kGradeKeys));
  known.insert(known.end(), std::begin(kExpectationKeys), std::end(kExpectationKeys));
  a.check_keys(known);
  Grade g;
  g.where = a.where();
  g.grade = grade_from(a.one_of("grade", kGrades, true).value_or("pass")).value();
  g.note = a.string("note").value_or("");
  g.action.id = step_id;
  g.action.where = g.where;
  g.action.description = a.string("description").value_or("");
  std::vector<std::string_view> actions;
  for (auto k : kExpectationKeys) {
    if (a.has(k)) actions.push_back(k);
  }
  // An operation's (or raw step's) expect blocks may come together, as on the
  // step itself; a wire expectation stands alone.
  bool ops_only = !actions.empty() && std::all_of(actions.begin(), actions.end(), [](std::string_view k) {
    return k == "expect" || k == "expect_error" || k == "expect_stream";
  });
  if (actions.size() != 1 && !ops_only) {
    a.diags().error(a.where(), a.context() + " needs exactly one expectation (one of " +
                                   join(kExpectationKeys) + "; expect, expect_error and expect_stream may "
                                   "also come together)");
    return std::nullopt;
  }
  if (a.has("expect") && a.has("expect_error")) {
    a.error("expect_error", "'expect' and 'expect_error' are mutually exclusive");
  }
  Step& act = g.action;
  if (auto type = wire_action_from(actions.front())) {
    act.kind = StepKind::kWire;
    act.wire.emplace();
    parse_wire_value(a, *type, *act.wire, ctx);
    return g;
  }
  const std::string& owner = a.context();
  act.kind = StepKind::kOperation;
  act.expect_where = a.where(actions.front());
  if (a.has("expect")) {
    act.expect = parse_expect(a.get("expect"), owner, a.diags(), parent.kind == StepKind::kRaw);
  }
  if (a.has("expect_error")) act.expect_error = parse_expect_error(a.get("expect_error"), owner, a.diags());
  if (a.has("expect_stream")) {
    act.expect_stream = parse_expect_stream(a.get("expect_stream"), owner, a.diags());
  }
  return g;
}

}  // namespace

void parse_wire_step(const MapReader& m, WireActionType type, Step& step, ParseContext& ctx) {
  std::vector<std::string_view> known(std::begin(kCommon), std::end(kCommon));
  known.push_back(to_string(type));
  known.push_back("x-grades");
  if (is_expectation(type)) known.push_back("capture");
  m.check_keys(known);
  step.kind = StepKind::kWire;
  step.wire.emplace();
  parse_wire_value(m, type, *step.wire, ctx);
  if (is_expectation(type)) step.capture = parse_capture(m);
}

void parse_grades(const MapReader& m, Step& step, ParseContext& ctx) {
  if (!m.expect_list("x-grades", true)) return;
  size_t index = 0;
  for (const auto& node : m.get("x-grades")) {
    MapReader a(node, "'x-grades[" + std::to_string(index++) + "]' of " + m.context(), m.diags());
    if (!a.is_map()) continue;
    if (auto g = parse_grade(a, step, ctx)) step.grades.push_back(std::move(*g));
  }
}

void parse_concurrent(const MapReader& m, Step& step, ParseContext& ctx, StepIds& ids) {
  std::vector<std::string_view> known(std::begin(kCommon), std::end(kCommon));
  known.push_back("x-concurrent");
  m.check_keys(known);
  step.kind = StepKind::kConcurrent;
  const YAML::Node v = m.get("x-concurrent");
  if (v.IsMap()) {
    MapReader f(v, "'x-concurrent' of " + m.context(), m.diags());
    f.check_keys(kFanOutKeys);
    step.fan_out = static_cast<int>(f.integer("repeat", 1, kMaxFanOut, true).value_or(1));
    f.require("steps");
    if (f.expect_list("steps", true)) step.branches.push_back(parse_steps(f.get("steps"), ctx, ids));
    return;
  }
  if (!m.expect_list("x-concurrent", true)) return;
  for (const auto& branch : v) {
    if (!branch.IsSequence() || branch.size() == 0) {
      m.diags().error(branch, "each branch of 'x-concurrent' in " + m.context() +
                                  " must be a non-empty list of steps (got " + describe(branch) + ")");
      continue;
    }
    step.branches.push_back(parse_steps(branch, ctx, ids));
  }
}

}  // namespace a2a::scenario::detail
