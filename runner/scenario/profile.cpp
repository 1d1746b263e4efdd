#include "runner/scenario/profile.hpp"

#include <charconv>

#include "runner/scenario/parse_support.hpp"
#include "runner/scenario/parser.hpp"
#include "runner/scenario/yaml_json.hpp"

namespace a2a::scenario {

namespace {

using detail::Diagnostics;
using detail::MapReader;

constexpr std::string_view kTopKeys[] = {"profile", "description", "framing",    "handshake",
                                         "methods", "stream",      "errors",     "timeouts",
                                         "control", "exit_codes",  "service_params"};
// Optional sections a scenario reads as {{profile.<section>.<key>}}; the
// runner itself does not act on them (stdio-json, stdio-binding.md §4).
constexpr std::string_view kFreeSections[] = {"control", "exit_codes", "service_params"};
constexpr std::string_view kFramingKeys[] = {"kind", "content_type", "max_body", "max_header_block",
                                             "header_case"};
constexpr std::string_view kFramingKinds[] = {"content-length", "newline", "http", "websocket"};
constexpr std::string_view kHeaderCases[] = {"sensitive", "insensitive"};
constexpr std::string_view kHandshakeKeys[] = {"from",          "type",        "ack_type", "variant",
                                               "variant_field", "session_env", "fields",   "protocol",
                                               "protocol_version", "ack_session"};
constexpr std::string_view kSpeakers[] = {"agent", "client"};
constexpr std::string_view kStreamKeys[] = {"event_method", "error_method", "final", "end_member",
                                            "cancel_member"};
// completion: a final result {"status": "stream_complete"} (the WebSocket binding, docs/websocket.md).
constexpr std::string_view kStreamFinals[] = {"result-null", "stream-end", "completion"};
constexpr std::string_view kRequiredErrors[] = {"parse", "invalid_request", "method_not_found",
                                                "invalid_params"};
constexpr std::string_view kTimeoutKeys[] = {"handshake_ms", "step_ms", "exit_ms"};
constexpr int64_t kMaxBody = 1LL << 30;

// A required section: present and a map, else an error; the reader otherwise.
std::optional<MapReader> section(const MapReader& top, std::string_view key) {
  top.require(key);
  if (!top.expect_map(key)) return std::nullopt;
  return MapReader(top.get(key), "'" + std::string(key) + "' of " + top.context(), top.diags());
}

void parse_framing(const MapReader& top, Profile::Framing& f) {
  auto m = section(top, "framing");
  if (!m) return;
  m->check_keys(kFramingKeys, true);
  f.kind = m->one_of("kind", kFramingKinds, true).value_or("");
  f.content_type = m->string("content_type").value_or("");
  f.max_body = m->integer("max_body", 1, kMaxBody).value_or(f.max_body);
  f.max_header_block = m->integer("max_header_block", 1, kMaxBody).value_or(f.max_header_block);
  f.header_case_insensitive = m->one_of("header_case", kHeaderCases).value_or("") == "insensitive";
}

void parse_handshake(const MapReader& top, Profile::Handshake& h) {
  const YAML::Node node = top.get("handshake");
  if (is_string(node) && node.Scalar() == "none") {
    h.enabled = false;
    return;
  }
  auto m = section(top, "handshake");
  if (!m) return;
  m->check_keys(kHandshakeKeys, true);
  h.from = m->one_of("from", kSpeakers).value_or("agent");
  h.type = m->string("type", true).value_or("");
  h.ack_type = m->string("ack_type", true).value_or("");
  h.variant = m->string("variant", true).value_or("");
  h.variant_field = m->string("variant_field", true).value_or("");
  h.session_env = m->string("session_env").value_or("");
  h.fields = m->string_list("fields");
  h.protocol = m->string("protocol").value_or("");
  h.protocol_version = m->string("protocol_version").value_or("");
  h.ack_session = m->boolean("ack_session").value_or(false);
}

void parse_methods(const MapReader& top, std::map<std::string, std::string>& methods) {
  auto m = section(top, "methods");
  if (!m) return;
  m->check_keys(kProfileOperations, true);
  for (auto op : kProfileOperations) {
    if (auto name = m->string(op, true)) methods.emplace(std::string(op), *name);
  }
}

void parse_stream(const MapReader& top, Profile::Stream& s) {
  auto m = section(top, "stream");
  if (!m) return;
  m->check_keys(kStreamKeys, true);
  s.event_method = m->string("event_method").value_or("");
  s.error_method = m->string("error_method").value_or("");
  s.final = m->one_of("final", kStreamFinals, true).value_or("");
  s.end_member = m->string("end_member").value_or(s.final == "stream-end" ? "streamEnd" : "");
  s.cancel_member = m->string("cancel_member").value_or("");
}

void check_free_sections(const MapReader& top) {
  for (auto key : kFreeSections) top.expect_map(key);  // absent is fine; present must be a map
}

void parse_errors(const MapReader& top, std::map<std::string, int64_t>& errors) {
  auto m = section(top, "errors");
  if (!m) return;
  m->check_duplicates();
  for (auto name : kRequiredErrors) m->require(name);
  for (const auto& name : m->keys()) {
    if (auto code = m->integer(name, INT32_MIN, INT32_MAX)) errors.emplace(name, *code);
  }
}

void parse_timeouts(const MapReader& top, Profile::Timeouts& t) {
  auto m = section(top, "timeouts");
  if (!m) return;
  m->check_keys(kTimeoutKeys, true);
  auto ms = [&](std::string_view key, int fallback) {
    return static_cast<int>(m->integer(key, 1, detail::kMaxMillis).value_or(fallback));
  };
  t.handshake_ms = ms("handshake_ms", t.handshake_ms);
  t.step_ms = ms("step_ms", t.step_ms);
  t.exit_ms = ms("exit_ms", t.exit_ms);
}

}  // namespace

core::Expected<Profile> parse_profile_text(std::string_view text, const std::string& name) {
  auto root = detail::parse_yaml_text(text, name);
  if (!root) return core::fail(root.error());
  Diagnostics diags(name);
  Profile p;
  p.file = name;
  MapReader top(*root, "profile", diags);
  if (!top.is_map()) return core::fail(diags.to_error());
  top.check_keys(kTopKeys, true);
  p.name = top.string("profile", true).value_or("");
  p.description = top.string("description").value_or("");
  parse_framing(top, p.framing);
  parse_handshake(top, p.handshake);
  parse_methods(top, p.methods);
  parse_stream(top, p.stream);
  parse_errors(top, p.errors);
  parse_timeouts(top, p.timeouts);
  check_free_sections(top);
  if (!diags.empty()) return core::fail(diags.to_error());
  p.doc = yaml_to_json(*root);
  return p;
}

core::Expected<Profile> load_profile(const std::filesystem::path& path) {
  auto text = detail::read_text_file(path);
  if (!text) return core::fail(text.error());
  return parse_profile_text(*text, path.generic_string());
}

std::optional<nlohmann::json> Profile::lookup(std::string_view path) const {
  const nlohmann::json* at = &doc;
  size_t start = 0;
  while (start <= path.size()) {
    size_t dot = path.find('.', start);
    if (dot == std::string_view::npos) dot = path.size();
    const std::string part(path.substr(start, dot - start));
    size_t index = 0;
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), index);
    const bool is_index = !part.empty() && ec == std::errc() && end == part.data() + part.size();
    if (at->is_object() && at->contains(part)) {
      at = &(*at)[part];
    } else if (at->is_array() && is_index && index < at->size()) {
      at = &(*at)[index];
    } else {
      return std::nullopt;
    }
    start = dot + 1;
  }
  return *at;
}

std::string Profile::method(std::string_view operation) const {
  auto it = methods.find(std::string(operation));
  return it == methods.end() ? std::string() : it->second;
}

core::Expected<std::filesystem::path> find_profile(
    std::string_view name, const std::vector<std::filesystem::path>& search_dirs) {
  std::error_code ec;
  const std::filesystem::path direct(name);
  if (std::filesystem::is_regular_file(direct, ec)) return direct;
  std::string looked;
  for (const auto& dir : search_dirs) {
    for (const char* ext : {".yaml", ".yml"}) {
      auto candidate = dir / (std::string(name) + ext);
      if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
      looked += (looked.empty() ? "" : ", ") + candidate.generic_string();
    }
  }
  if (looked.empty()) looked = "no search directories";
  return core::fail(core::ErrorKind::kNotFound,
                    "profile '" + std::string(name) + "' not found (looked for " + looked + ")");
}

}  // namespace a2a::scenario
