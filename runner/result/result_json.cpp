// JSON form of the result model, schema "a2a-conform-result" version 2.
// Writing never throws (invalid UTF-8 is stored as base64 beside a readable
// copy); reading records the first problem with its JSON pointer.
#include <stdexcept>

#include "runner/result/result.hpp"
#include "runner/result/utf8.hpp"

namespace a2a::result {

using nlohmann::json;

namespace {

json failure_json(const Failure& f) {
  json j = json::object();
  put_text(j, "message", f.message);
  put_text(j, "step_id", f.step_id);
  put_text(j, "expected", f.expected);
  put_text(j, "actual", f.actual);
  put_text(j, "assertion_path", f.assertion_path);
  return j;
}

json step_json(const StepResult& s) {
  json j = json::object();
  put_text(j, "id", s.id);
  j["outcome"] = to_string(s.outcome);
  j["duration_ms"] = s.duration_ms;
  if (s.failure) j["failure"] = failure_json(*s.failure);
  put_text(j, "note", s.note);
  return j;
}

json transcript_json(const std::vector<WireEvent>& events) {
  json arr = json::array();
  for (const auto& e : events) {
    json j = json::object();
    j["t_ms"] = e.t_ms;
    put_text(j, "dir", e.dir);
    put_text(j, "bytes", e.bytes);
    arr.push_back(std::move(j));
  }
  return arr;
}

json scenario_identity_json(const ScenarioResult& s) {
  json j = json::object();
  for (const auto& [key, value] :
       {std::pair{"id", &s.id}, {"name", &s.name}, {"requirement", &s.requirement},
        {"spec_ref", &s.spec_ref}, {"suite_id", &s.suite_id}, {"suite_name", &s.suite_name},
        {"source", &s.source}, {"binding", &s.binding}, {"profile", &s.profile},
        {"role", &s.role}})
    put_text(j, key, *value);
  j["level"] = to_string(s.level);
  if (!s.quotes.empty()) {
    json qs = json::array();
    for (const auto& q : s.quotes) {
      json e = json::object();
      put_text(e, "source", q.source);
      put_text(e, "section", q.section);
      put_text(e, "quote", q.text);
      qs.push_back(std::move(e));
    }
    j["quotes"] = std::move(qs);
  }
  j["tags"] = json::array();
  for (const auto& t : s.tags) j["tags"].push_back(to_valid_utf8(t));
  return j;
}

json scenario_json(const ScenarioResult& s) {
  json j = scenario_identity_json(s);
  j["outcome"] = to_string(s.outcome);
  put_text(j, "reason", s.reason);
  if (s.failure) j["failure"] = failure_json(*s.failure);
  j["steps"] = json::array();
  for (const auto& st : s.steps) j["steps"].push_back(step_json(st));
  j["duration_ms"] = s.duration_ms;
  j["transcript"] = transcript_json(s.transcript);
  j["transcript_dropped_bytes"] = s.transcript_dropped_bytes;
  put_text(j, "stderr_excerpt", s.stderr_excerpt);
  put_text(j, "exit_status", s.exit_status);
  put_text(j, "replay_command", s.replay_command);
  return j;
}

}  // namespace

void put_text(json& j, const std::string& key, const std::string& s) {
  if (valid_utf8(s)) {
    j[key] = s;
    return;
  }
  j[key] = to_valid_utf8(s);
  j[key + "_b64"] = base64_encode(s);
}

json counts_json(const Counts& c) {
  json j = json::object();
  j["total"] = c.total;
  for (Outcome o : kAllOutcomes) j[std::string(to_string(o))] = c.of(o);
  j["passed"] = c.passed();
  j["failed"] = c.failed();
  j["skipped"] = c.skipped();
  return j;
}

json to_json(const RunResult& r) {
  json j = json::object();
  j["schema"] = kResultSchema;
  j["schema_version"] = kResultSchemaVersion;
  put_text(j, "tool_version", r.tool_version);
  put_text(j, "started_at", r.started_at);
  j["duration_ms"] = r.duration_ms;
  put_text(j, "target", r.target);
  put_text(j, "role", r.role);
  put_text(j, "profile", r.profile);
  j["protocol_versions"] = json::array();
  for (const auto& v : r.protocol_versions) j["protocol_versions"].push_back(to_valid_utf8(v));
  put_text(j, "command_line", r.command_line);
  if (!r.diagnosis.empty()) put_text(j, "diagnosis", r.diagnosis);
  if (r.interrupted)
    j["interrupted"] = {{"signal", to_valid_utf8(r.interrupted->signal)},
                        {"number", r.interrupted->number},
                        {"not_run", r.interrupted->not_run}};
  if (!r.not_applicable.empty()) {
    json na = json::array();
    for (const auto& n : r.not_applicable) {
      json ids = json::array();
      for (const auto& id : n.ids) ids.push_back(to_valid_utf8(id));
      na.push_back({{"reason", to_valid_utf8(n.reason)}, {"count", n.ids.size()}, {"ids", std::move(ids)}});
    }
    j["not_applicable"] = std::move(na);
  }
  j["profiles"] = json::array();
  for (const auto& p : r.profiles) j["profiles"].push_back(to_valid_utf8(p));
  j["bindings"] = json::array();
  for (const auto& b : r.bindings) j["bindings"].push_back(to_valid_utf8(b));
  j["exit_code"] = r.exit_code();
  j["conformant"] = r.conformant();
  j["counts"] = counts_json(r.counts());
  j["by_level"] = json::object();
  for (Level l : kAllLevels) j["by_level"][std::string(to_string(l))] = counts_json(r.counts_for(l));
  if (r.shard) {
    json sh = {{"index", r.shard->index}, {"total", r.shard->total}, {"selection", json::array()}};
    for (const auto& id : r.shard->selection) sh["selection"].push_back(to_valid_utf8(id));
    j["shard"] = std::move(sh);
  }
  j["scenarios"] = json::array();
  for (const auto& s : r.scenarios) j["scenarios"].push_back(scenario_json(s));
  return j;
}

}  // namespace a2a::result
