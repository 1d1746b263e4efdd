#include "runner/result/merge.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>
#include <sstream>

#include "runner/core/shard_of.hpp"

namespace a2a::result {

namespace {

// "2026-11-26T08:22:01.123Z" -> ms since the epoch; -1 when unreadable.
long long epoch_ms(const std::string& rfc3339) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, n = 0;
  double s = 0;
  if (std::sscanf(rfc3339.c_str(), "%d-%d-%dT%d:%d:%lf%n", &y, &mo, &d, &h, &mi, &s, &n) < 6) return -1;
  std::tm tm{};
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = 0;
  return static_cast<long long>(timegm(&tm)) * 1000 + static_cast<long long>(s * 1000);
}

void add_unique(std::vector<std::string>& into, const std::vector<std::string>& from) {
  for (const auto& v : from)
    if (std::find(into.begin(), into.end(), v) == into.end()) into.push_back(v);
}

std::string list_ids(const std::vector<std::string>& ids, size_t most = 8) {
  std::string out;
  for (size_t i = 0; i < ids.size() && i < most; ++i) out += (i ? ", " : "") + ids[i];
  if (ids.size() > most) out += ", ... (" + std::to_string(ids.size()) + " in all)";
  return out;
}

std::string key_of(const ScenarioResult& s) { return s.id + "@" + s.binding; }

struct Group {
  std::vector<MergeInput*> parts;
};

// Checks that the sharded parts of one target are the N shards of one
// selection, each once; errors name the target.
void check_shards(const std::string& who, const std::vector<MergeInput*>& parts, std::vector<std::string>& errors) {
  const MergeInput* first = nullptr;
  std::map<int, const MergeInput*> by_index;
  for (const auto* p : parts) {
    if (!p->run.shard) {
      if (parts.size() > 1)
        errors.push_back(who + ": " + p->source + " is a whole run, not a shard, and other reports cover the same target");
      continue;
    }
    const auto& sh = *p->run.shard;
    if (!first) first = p;
    const auto& f = *first->run.shard;
    if (sh.total != f.total) {
      errors.push_back(who + ": " + p->source + " is shard " + std::to_string(sh.index) + "/" +
                       std::to_string(sh.total) + " but " + first->source + " is one of " + std::to_string(f.total));
      continue;
    }
    if (sh.selection != f.selection)
      errors.push_back(who + ": " + p->source + " and " + first->source +
                       " shard different selections (other suites, filters or suite versions)");
    auto [it, fresh] = by_index.emplace(sh.index, p);
    if (!fresh)
      errors.push_back(who + ": shard " + std::to_string(sh.index) + "/" + std::to_string(sh.total) + " is given twice (" +
                       it->second->source + ", " + p->source + ")");
  }
  if (!first) return;
  const auto& f = *first->run.shard;
  for (int k = 1; k <= f.total; ++k) {
    if (by_index.count(k)) continue;
    std::vector<std::string> ids;
    for (const auto& id : f.selection) {
      if (core::shard_of(id, f.total) == k) ids.push_back(id);
    }
    errors.push_back(who + ": shard " + std::to_string(k) + "/" + std::to_string(f.total) + " is missing" +
                     (ids.empty() ? std::string(" (it selects no scenario)") : " (its scenarios: " + list_ids(ids) + ")"));
  }
}

MergedTarget join(const std::vector<MergeInput*>& parts, std::vector<std::string>& errors) {
  MergedTarget out;
  RunResult& m = out.run;
  const RunResult& first = parts.front()->run;
  m.schema_version = kResultSchemaVersion;
  m.tool_version = first.tool_version;
  m.target = first.target;
  m.role = first.role;
  m.profile = first.profile;
  m.command_line = without_shard_flag(first.command_line);
  std::string who = first.role + " " + first.target;
  check_shards(who, parts, errors);

  long long start = -1, end = -1, longest = 0;
  std::map<std::string, std::string> seen;  // key -> source
  std::vector<std::string> selection;
  for (const auto* p : parts) {
    const RunResult& r = p->run;
    out.sources.push_back(p->source);
    if (r.tool_version != m.tool_version)
      errors.push_back(who + ": " + p->source + " was written by a2a-conform " + r.tool_version + ", " +
                       parts.front()->source + " by " + m.tool_version);
    add_unique(m.protocol_versions, r.protocol_versions);
    add_unique(m.profiles, r.profiles);
    add_unique(m.bindings, r.bindings);
    if (r.shard) add_unique(selection, r.shard->selection);
    long long s = epoch_ms(r.started_at);
    if (s >= 0 && (start < 0 || s < start)) {
      start = s;
      m.started_at = r.started_at;
    }
    if (s >= 0) end = std::max(end, s + r.duration_ms);
    longest = std::max(longest, r.duration_ms);
    // A shard's diagnosis or interruption holds for the merged run.
    if (!r.diagnosis.empty() && m.diagnosis.find(r.diagnosis) == std::string::npos)
      m.diagnosis += (m.diagnosis.empty() ? "" : "\n") + r.diagnosis;
    for (const auto& na : r.not_applicable)
      for (const auto& id : na.ids) m.add_not_applicable(na.reason, id);
    if (r.interrupted && !m.interrupted) m.interrupted = r.interrupted;
    else if (r.interrupted) m.interrupted->not_run += r.interrupted->not_run;
    for (const auto& sc : r.scenarios) {
      auto [it, fresh] = seen.emplace(key_of(sc), p->source);
      if (!fresh) {
        errors.push_back(who + ": " + sc.id + (sc.binding.empty() ? "" : " on " + sc.binding) + " is in both " +
                         it->second + " and " + p->source);
        continue;
      }
      if (r.shard && std::find(r.shard->selection.begin(), r.shard->selection.end(), sc.id) ==
                         r.shard->selection.end())
        errors.push_back(who + ": " + sc.id + " in " + p->source + " is not in the selection its shard records");
      m.scenarios.push_back(sc);
    }
  }
  if (m.started_at.empty()) m.started_at = first.started_at;
  m.duration_ms = start >= 0 ? end - start : longest;
  if (m.profile.empty() || m.protocol_versions.size() > 1) {
    // The profile of an HTTP run names its versions ("1.0, 0.3"): of the union.
    if (!m.protocol_versions.empty()) {
      std::string p;
      for (const auto& v : m.protocol_versions) p += (p.empty() ? "" : ", ") + v;
      m.profile = p;
    }
  }

  // Every selected scenario ran somewhere or did not apply (a shard that is
  // present lost none); an interrupted shard did lose some, and says so.
  std::set<std::string> ran;
  for (const auto& sc : m.scenarios) ran.insert(sc.id);
  for (const auto& na : m.not_applicable) ran.insert(na.ids.begin(), na.ids.end());
  std::vector<std::string> lost;
  for (const auto& id : selection)
    if (!ran.count(id)) lost.push_back(id);
  if (!lost.empty() && errors.empty())
    errors.push_back(who + ": no result for " + list_ids(lost));

  // The unsharded order: binding by binding, then selection order.
  std::map<std::string, size_t> id_pos, binding_pos;
  for (size_t i = 0; i < selection.size(); ++i) id_pos.emplace(selection[i], i);
  for (size_t i = 0; i < m.bindings.size(); ++i) binding_pos.emplace(m.bindings[i], i);
  auto pos = [](const std::map<std::string, size_t>& m, const std::string& k) {
    auto it = m.find(k);
    return it == m.end() ? m.size() : it->second;
  };
  std::stable_sort(m.scenarios.begin(), m.scenarios.end(), [&](const ScenarioResult& a, const ScenarioResult& b) {
    auto ka = std::pair(pos(binding_pos, a.binding), pos(id_pos, a.id));
    auto kb = std::pair(pos(binding_pos, b.binding), pos(id_pos, b.id));
    return ka < kb;
  });
  return out;
}

}  // namespace

std::string without_shard_flag(const std::string& command_line) {
  std::istringstream in(command_line);
  std::string word, out;
  bool skip_next = false;
  while (in >> word) {
    if (skip_next) {
      skip_next = false;
      continue;
    }
    if (word == "--shard") {
      skip_next = true;
      continue;
    }
    if (word.rfind("--shard=", 0) == 0) continue;
    out += (out.empty() ? "" : " ") + word;
  }
  return out;
}

MergeOutcome merge_runs(std::vector<MergeInput> inputs) {
  MergeOutcome out;
  std::vector<std::pair<std::string, Group>> groups;  // in order of first appearance
  for (auto& in : inputs) {
    std::string key = in.run.role + '\x1f' + in.run.target;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
    if (it == groups.end()) {
      groups.emplace_back(key, Group{});
      it = std::prev(groups.end());
    }
    it->second.parts.push_back(&in);
  }
  for (auto& [key, g] : groups) out.targets.push_back(join(g.parts, out.errors));
  return out;
}

}  // namespace a2a::result
