// Reading the schema-1 JSON form back (the HTML writer and tools consume it).
// Missing members keep their defaults and unknown members are ignored, so a
// later schema 1 writer may add members; a wrong type is an error.
#include <stdexcept>
#include <type_traits>

#include "runner/result/result.hpp"
#include "runner/result/utf8.hpp"

namespace a2a::result {

using nlohmann::json;

namespace {

// Reads members of one JSON object; keeps the first error with its pointer.
class Reader {
 public:
  Reader(const json& obj, std::string path, std::string* error)
      : obj_(obj), path_(std::move(path)), error_(error) {}

  void text(const std::string& key, std::string& out) {
    if (const json* b64 = member(key + "_b64", json::value_t::string)) {
      if (!base64_decode(b64->get_ref<const std::string&>(), out))
        fail(key + "_b64", "is not valid base64");
      return;
    }
    if (const json* v = member(key, json::value_t::string)) out = v->get<std::string>();
  }
  template <class Int>
  void integer(const std::string& key, Int& out) {
    const json* v = obj_.contains(key) ? &obj_[key] : nullptr;
    if (!v) return;
    if (!v->is_number_integer()) return fail(key, "must be an integer");
    if (std::is_unsigned_v<Int> && v->get<long long>() < 0) return fail(key, "must not be negative");
    out = v->get<Int>();
  }
  void number(const std::string& key, double& out) {
    const json* v = obj_.contains(key) ? &obj_[key] : nullptr;
    if (!v) return;
    if (!v->is_number()) return fail(key, "must be a number");
    out = v->get<double>();
  }
  void strings(const std::string& key, std::vector<std::string>& out) {
    const json* v = member(key, json::value_t::array);
    if (!v) return;
    out.clear();
    for (const auto& item : *v) {
      if (!item.is_string()) return fail(key, "must be an array of strings");
      out.push_back(item.get<std::string>());
    }
  }
  template <class Enum>
  void enumeration(const std::string& key, Enum& out,
                   std::optional<Enum> (*parse)(std::string_view)) {
    std::string s;
    if (!member(key, json::value_t::string)) return;
    text(key, s);
    if (auto e = parse(s)) out = *e;
    else fail(key, "has the unknown value \"" + s + "\"");
  }
  // The member as an object or array to descend into, or null.
  const json* child(const std::string& key, json::value_t type) { return member(key, type); }
  std::string path(const std::string& key) const { return path_ + "/" + key; }
  void fail(const std::string& key, const std::string& what) {
    if (error_->empty()) *error_ = path(key) + " " + what;
  }

 private:
  const json* member(const std::string& key, json::value_t type) {
    auto it = obj_.find(key);
    if (it == obj_.end() || it->is_null()) return nullptr;
    if (it->type() != type) {
      fail(key, type == json::value_t::string   ? "must be a string"
                : type == json::value_t::array  ? "must be an array"
                                                : "must be an object");
      return nullptr;
    }
    return &*it;
  }

  const json& obj_;
  std::string path_;
  std::string* error_;
};

std::optional<Failure> read_failure(Reader& parent, std::string* error) {
  const json* f = parent.child("failure", json::value_t::object);
  if (!f) return std::nullopt;
  Reader r(*f, parent.path("failure"), error);
  Failure out;
  r.text("message", out.message);
  r.text("step_id", out.step_id);
  r.text("expected", out.expected);
  r.text("actual", out.actual);
  r.text("assertion_path", out.assertion_path);
  return out;
}

template <class T, class Fn>
void read_array(Reader& parent, const std::string& key, std::vector<T>& out, std::string* error,
                Fn read_one) {
  const json* arr = parent.child(key, json::value_t::array);
  if (!arr) return;
  for (size_t i = 0; i < arr->size(); ++i) {
    std::string path = parent.path(key) + "/" + std::to_string(i);
    if (!(*arr)[i].is_object()) {
      if (error->empty()) *error = path + " must be an object";
      return;
    }
    Reader r((*arr)[i], path, error);
    out.push_back(read_one(r));
  }
}

StepResult read_step(Reader& r, std::string* error) {
  StepResult s;
  r.text("id", s.id);
  r.enumeration("outcome", s.outcome, &outcome_from);
  r.integer("duration_ms", s.duration_ms);
  s.failure = read_failure(r, error);
  r.text("note", s.note);
  return s;
}

WireEvent read_event(Reader& r) {
  WireEvent e;
  r.number("t_ms", e.t_ms);
  r.text("dir", e.dir);
  r.text("bytes", e.bytes);
  return e;
}

void read_identity(Reader& r, ScenarioResult& s) {
  for (const auto& [key, value] :
       {std::pair{"id", &s.id}, {"name", &s.name}, {"requirement", &s.requirement},
        {"spec_ref", &s.spec_ref}, {"suite_id", &s.suite_id}, {"suite_name", &s.suite_name},
        {"source", &s.source}, {"binding", &s.binding}, {"profile", &s.profile},
        {"role", &s.role}})
    r.text(key, *value);
  r.enumeration("level", s.level, &level_from);
  r.strings("tags", s.tags);
}

ScenarioResult read_scenario(Reader& r, std::string* error) {
  ScenarioResult s;
  read_identity(r, s);
  read_array(r, "quotes", s.quotes, error, [](Reader& q) {
    Quote out;
    q.text("source", out.source);
    q.text("section", out.section);
    q.text("quote", out.text);
    return out;
  });
  r.enumeration("outcome", s.outcome, &outcome_from);
  r.text("reason", s.reason);
  s.failure = read_failure(r, error);
  read_array(r, "steps", s.steps, error, [&](Reader& sr) { return read_step(sr, error); });
  r.integer("duration_ms", s.duration_ms);
  read_array(r, "transcript", s.transcript, error, [](Reader& er) { return read_event(er); });
  r.integer("transcript_dropped_bytes", s.transcript_dropped_bytes);
  r.text("stderr_excerpt", s.stderr_excerpt);
  r.text("exit_status", s.exit_status);
  r.text("replay_command", s.replay_command);
  return s;
}

std::string check_schema(const json& j) {
  if (!j.is_object()) return "the document must be a JSON object";
  auto schema = j.find("schema");
  if (schema == j.end() || *schema != kResultSchema)
    return "/schema must be \"" + std::string(kResultSchema) + "\"";
  auto version = j.find("schema_version");
  if (version == j.end() || !version->is_number_integer())
    return "/schema_version must be an integer";
  auto v = version->get<long long>();
  if (v < kResultSchemaMinVersion || v > kResultSchemaVersion)
    return "/schema_version " + std::to_string(v) + " is not supported (this build reads versions " +
           std::to_string(kResultSchemaMinVersion) + " to " + std::to_string(kResultSchemaVersion) + ")";
  return "";
}

}  // namespace

core::Expected<RunResult> parse_run_result(const json& j) {
  std::string error = check_schema(j);
  if (!error.empty()) return core::fail(core::ErrorKind::kSchema, error);
  RunResult out;
  Reader r(j, "", &error);
  out.schema_version = kResultSchemaVersion;
  r.text("tool_version", out.tool_version);
  r.text("started_at", out.started_at);
  r.integer("duration_ms", out.duration_ms);
  r.text("target", out.target);
  r.text("role", out.role);
  r.text("profile", out.profile);
  r.strings("protocol_versions", out.protocol_versions);
  r.text("command_line", out.command_line);
  r.text("diagnosis", out.diagnosis);
  if (const json* in = r.child("interrupted", json::value_t::object)) {
    Reader ir(*in, "/interrupted", &error);
    RunResult::Interruption info;
    ir.text("signal", info.signal);
    ir.integer("number", info.number);
    ir.integer("not_run", info.not_run);
    if (info.number < 1 || info.number > 64) ir.fail("number", "must be a signal number (1 to 64)");
    if (info.not_run < 0) ir.fail("not_run", "must not be negative");
    out.interrupted = std::move(info);
  }
  read_array(r, "not_applicable", out.not_applicable, &error, [](Reader& nr) {
    RunResult::NotApplicable na;
    nr.text("reason", na.reason);
    nr.strings("ids", na.ids);
    return na;
  });
  r.strings("profiles", out.profiles);
  r.strings("bindings", out.bindings);
  if (const json* sh = r.child("shard", json::value_t::object)) {
    Reader sr(*sh, "/shard", &error);
    ShardInfo info;
    sr.integer("index", info.index);
    sr.integer("total", info.total);
    sr.strings("selection", info.selection);
    if (info.total < 1 || info.index < 1 || info.index > info.total)
      sr.fail("index", "must be from 1 to /shard/total");
    out.shard = std::move(info);
  }
  read_array(r, "scenarios", out.scenarios, &error,
             [&](Reader& sr) { return read_scenario(sr, &error); });
  if (!error.empty()) return core::fail(core::ErrorKind::kSchema, error);
  return out;
}

RunResult run_result_from_json(const json& j) {
  auto r = parse_run_result(j);
  if (!r) throw std::invalid_argument(r.error().str());
  return std::move(r).value();
}

}  // namespace a2a::result
