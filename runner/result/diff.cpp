// The rules are in docs/reports.md, "Diff"; this file is them, no more.
#include "runner/result/diff.hpp"

#include <algorithm>
#include <map>

namespace a2a::result {

namespace {

using Key = std::pair<std::string, std::string>;  // (scenario id, binding)

std::optional<ChangeKind> classify(Outcome before, Outcome after) {
  if (before == after) return std::nullopt;
  Standing b = standing_of(before), a = standing_of(after);
  if (a == Standing::kNotMet && b != Standing::kNotMet) return ChangeKind::kRegression;
  if (b == Standing::kNotMet && (a == Standing::kMet || a == Standing::kNonStrict)) return ChangeKind::kFix;
  if (b == Standing::kMet && a == Standing::kNonStrict) return ChangeKind::kDegraded;
  if (b == Standing::kNonStrict && a == Standing::kMet) return ChangeKind::kFix;
  return ChangeKind::kChanged;
}

ScenarioChange change_of(ChangeKind kind, size_t target, const ScenarioResult* before, const ScenarioResult* after) {
  const ScenarioResult& s = after ? *after : *before;
  ScenarioChange c;
  c.kind = kind;
  c.target = target;
  c.id = s.id;
  c.name = s.name;
  c.binding = s.binding;
  c.level = s.level;
  if (before) {
    c.old_outcome = before->outcome;
    c.old_reason = why_of(*before);
  }
  if (after) {
    c.new_outcome = after->outcome;
    c.new_reason = why_of(*after);
  }
  return c;
}

core::Expected<std::map<Key, size_t>> index_of(const std::string& file, const RunResult& run) {
  std::map<Key, size_t> index;
  for (size_t i = 0; i < run.scenarios.size(); ++i) {
    const auto& s = run.scenarios[i];
    if (!index.emplace(Key{s.id, s.binding}, i).second)
      return core::fail(core::ErrorKind::kSchema, file + ": scenario " + s.id + " (binding " +
                                                       (s.binding.empty() ? "none" : s.binding) +
                                                       ") is in the report twice");
  }
  return index;
}

core::Expected<void> check_side(const std::string& file, const std::vector<RunResult>& runs) {
  if (runs.empty()) return core::fail(core::ErrorKind::kSchema, file + ": no target in the report");
  for (const auto& r : runs)
    if (r.shard && r.shard->total > 1)
      return core::fail(core::ErrorKind::kInvalidArgument,
                        file + ": shard " + std::to_string(r.shard->index) + "/" + std::to_string(r.shard->total) +
                            " of a run; join the shards with `a2a-conform merge` and diff its report");
  return {};
}

// One pair of targets: the changes in NEW's order, then the removed ones in OLD's.
core::Expected<void> diff_target(size_t target, const std::string& old_file, const RunResult& before,
                                 const std::string& new_file, const RunResult& after, RunDiff& out) {
  auto old_index = index_of(old_file, before);
  if (!old_index) return core::fail(old_index.error());
  auto new_index = index_of(new_file, after);
  if (!new_index) return core::fail(new_index.error());
  for (const auto& s : after.scenarios) {
    auto it = old_index->find(Key{s.id, s.binding});
    if (it == old_index->end()) {
      out.changes.push_back(change_of(ChangeKind::kNew, target, nullptr, &s));
      continue;
    }
    const auto& o = before.scenarios[it->second];
    if (auto kind = classify(o.outcome, s.outcome))
      out.changes.push_back(change_of(*kind, target, &o, &s));
    else if (why_of(o) != why_of(s))
      out.changes.push_back(change_of(ChangeKind::kReason, target, &o, &s));
    else
      ++out.unchanged;
  }
  for (const auto& o : before.scenarios)
    if (!new_index->count(Key{o.id, o.binding}))
      out.changes.push_back(change_of(ChangeKind::kRemoved, target, &o, nullptr));
  return {};
}

void add_counts(RunDiff& out, const std::vector<RunResult>& before, const std::vector<RunResult>& after) {
  auto sum = [](Counts& into, const Counts& c) {
    for (Outcome o : kAllOutcomes)
      for (int i = c.of(o); i > 0; --i) into.add(o);
  };
  for (Level l : kAllLevels) out.counts.push_back({l, {}, {}});
  out.counts.push_back({std::nullopt, {}, {}});
  for (auto& lc : out.counts) {
    for (const auto& r : before) sum(lc.old_counts, lc.level ? r.counts_for(*lc.level) : r.counts());
    for (const auto& r : after) sum(lc.new_counts, lc.level ? r.counts_for(*lc.level) : r.counts());
  }
}

}  // namespace

Standing standing_of(Outcome o) {
  switch (o) {
    case Outcome::kPass:
    case Outcome::kXPass: return Standing::kMet;
    case Outcome::kNonStrict: return Standing::kNonStrict;
    case Outcome::kSkip:
    case Outcome::kInformational: return Standing::kUnjudged;
    case Outcome::kFail:
    case Outcome::kTimeout:
    case Outcome::kError:
    case Outcome::kXFail: return Standing::kNotMet;
  }
  return Standing::kNotMet;
}

std::string_view to_string(ChangeKind k) {
  switch (k) {
    case ChangeKind::kRegression: return "regression";
    case ChangeKind::kDegraded: return "degraded";
    case ChangeKind::kFix: return "fix";
    case ChangeKind::kChanged: return "changed";
    case ChangeKind::kNew: return "new";
    case ChangeKind::kRemoved: return "removed";
    case ChangeKind::kReason: return "reason";
  }
  return "changed";
}

std::string why_of(const ScenarioResult& s) {
  std::string why = s.reason;
  // The engine often states one cause as both (a TIMEOUT's reason is its failure's message).
  if (s.failure && !s.failure->message.empty() && s.failure->message != s.reason)
    why += (why.empty() ? "" : " / ") + s.failure->message;
  return why;
}

size_t RunDiff::count(ChangeKind k) const {
  return static_cast<size_t>(std::count_if(changes.begin(), changes.end(), [&](const auto& c) { return c.kind == k; }));
}

core::Expected<RunDiff> diff_runs(const std::string& old_file, const std::vector<RunResult>& old_runs,
                                  const std::string& new_file, const std::vector<RunResult>& new_runs) {
  if (auto r = check_side(old_file, old_runs); !r) return core::fail(r.error());
  if (auto r = check_side(new_file, new_runs); !r) return core::fail(r.error());
  if (old_runs.size() != new_runs.size())
    return core::fail(core::ErrorKind::kInvalidArgument,
                      old_file + " has " + std::to_string(old_runs.size()) + " target(s), " + new_file + " has " +
                          std::to_string(new_runs.size()) +
                          "; diff pairs target N with target N, so both must test the same targets");
  RunDiff out;
  out.old_side.file = old_file;
  out.new_side.file = new_file;
  for (size_t t = 0; t < old_runs.size(); ++t) {
    out.old_side.targets.push_back(old_runs[t].target);
    out.new_side.targets.push_back(new_runs[t].target);
    if (auto r = diff_target(t, old_file, old_runs[t], new_file, new_runs[t], out); !r) return core::fail(r.error());
    const auto& n = new_runs[t];
    std::string who = new_file + (new_runs.size() > 1 ? " target " + std::to_string(t + 1) : "") + ": ";
    if (n.interrupted) out.new_incomplete.push_back(who + interruption_text(n));
    if (!n.diagnosis.empty()) out.new_incomplete.push_back(who + "the target is broken: " + n.diagnosis);
  }
  std::stable_sort(out.changes.begin(), out.changes.end(),
                   [](const auto& a, const auto& b) { return a.kind < b.kind; });
  add_counts(out, old_runs, new_runs);
  return out;
}

}  // namespace a2a::result
