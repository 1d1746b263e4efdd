#include "runner/bindings/replay/replay_binding.hpp"

#include "runner/engine/session.hpp"
#include "runner/transport/transcript.hpp"

namespace a2a::bindings {

namespace {

using engine::Json;
using engine::OpResult;

constexpr size_t kUuidLen = 36;

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// 8-4-4-4-12 hex digits at s[i].
bool uuid_at(std::string_view s, size_t i) {
  if (i + kUuidLen > s.size()) return false;
  for (size_t k = 0; k < kUuidLen; ++k) {
    bool dash = k == 8 || k == 13 || k == 18 || k == 23;
    if (dash ? s[i + k] != '-' : !is_hex(s[i + k])) return false;
  }
  return true;
}

// The string split into literal text and UUIDs: {"text", uuid, "text", ...}
// with the UUIDs at odd positions.
std::vector<std::string> split_uuids(std::string_view s) {
  std::vector<std::string> parts{""};
  for (size_t i = 0; i < s.size();) {
    if (uuid_at(s, i)) {
      parts.emplace_back(s.substr(i, kUuidLen));
      parts.emplace_back();
      i += kUuidLen;
    } else {
      parts.back() += s[i++];
    }
  }
  return parts;
}

bool pair_up(const std::string& fresh, const std::string& old, std::map<std::string, std::string>& pairs) {
  auto it = pairs.find(fresh);
  if (it != pairs.end()) return it->second == old;
  for (const auto& [n, o] : pairs)
    if (o == old) return false;  // one-to-one
  pairs.emplace(fresh, old);
  return true;
}

bool same_string(const std::string& rec, const std::string& fresh, std::map<std::string, std::string>& pairs) {
  if (rec == fresh) {
    // Still pair the UUIDs in it, so a later reuse of one stays consistent.
    auto p = split_uuids(rec);
    for (size_t i = 1; i < p.size(); i += 2)
      if (!pair_up(p[i], p[i], pairs)) return false;
    return true;
  }
  auto a = split_uuids(rec), b = split_uuids(fresh);
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (i % 2 == 0 ? a[i] != b[i] : !pair_up(b[i], a[i], pairs)) return false;
  }
  return true;
}

bool same(const Json& rec, const Json& fresh, std::map<std::string, std::string>& pairs) {
  // 1 read back from a file is unsigned, 1 from a YAML scenario signed: equal numbers.
  if (rec.is_number() && fresh.is_number()) return rec == fresh;
  if (rec.type() != fresh.type()) return false;
  if (rec.is_string()) return same_string(rec.get<std::string>(), fresh.get<std::string>(), pairs);
  if (rec.is_array()) {
    if (rec.size() != fresh.size()) return false;
    for (size_t i = 0; i < rec.size(); ++i)
      if (!same(rec[i], fresh[i], pairs)) return false;
    return true;
  }
  if (rec.is_object()) {
    if (rec.size() != fresh.size()) return false;
    for (auto it = rec.begin(); it != rec.end(); ++it) {
      auto f = fresh.find(it.key());
      if (f == fresh.end() || !same(*it, *f, pairs)) return false;
    }
    return true;
  }
  return rec == fresh;
}

std::string replaced(const std::string& s, const std::map<std::string, std::string>& old_to_new) {
  auto p = split_uuids(s);
  if (p.size() == 1) return s;
  std::string out;
  for (size_t i = 0; i < p.size(); ++i) {
    auto it = i % 2 ? old_to_new.find(p[i]) : old_to_new.end();
    out += it == old_to_new.end() ? p[i] : it->second;
  }
  return out;
}

std::string shorten(std::string s) {
  constexpr size_t kMax = 300;
  if (s.size() > kMax) s = s.substr(0, kMax) + "...";
  return s;
}

}  // namespace

bool same_request(const Json& recorded, const Json& fresh, std::map<std::string, std::string>& pairs) {
  auto tentative = pairs;
  if (!same(recorded, fresh, tentative)) return false;
  pairs = std::move(tentative);
  return true;
}

Json with_uuids_replaced(const Json& v, const std::map<std::string, std::string>& old_to_new) {
  if (v.is_string()) return replaced(v.get<std::string>(), old_to_new);
  if (v.is_array()) {
    Json out = Json::array();
    for (const auto& e : v) out.push_back(with_uuids_replaced(e, old_to_new));
    return out;
  }
  if (v.is_object()) {
    Json out = Json::object();
    for (auto it = v.begin(); it != v.end(); ++it) out[it.key()] = with_uuids_replaced(*it, old_to_new);
    return out;
  }
  return v;
}

void ReplayBook::add(const std::string& scenario_id, const std::string& binding,
                     std::vector<engine::RecordedCall> calls) {
  std::lock_guard lk(mu_);
  auto& sc = scenarios_[{scenario_id, binding}];
  sc.used.assign(calls.size(), false);
  sc.calls = std::move(calls);
}

core::Expected<OpResult> ReplayBook::answer(const std::string& scenario_id, const std::string& binding,
                                            const std::string& operation, const Json& params) {
  std::lock_guard lk(mu_);
  auto& sc = scenarios_[{scenario_id, binding}];
  for (size_t i = 0; i < sc.calls.size(); ++i) {
    if (sc.used[i] || sc.calls[i].operation != operation) continue;
    if (!same_request(sc.calls[i].params, params, sc.new_to_old)) continue;
    sc.used[i] = true;
    auto r = engine::op_result_from_json(sc.calls[i].answer);
    if (!r) {
      sc.mismatches.push_back("recorded call #" + std::to_string(i + 1) + " (" + operation +
                              "): " + r.error().message);
      return core::fail(core::ErrorKind::kSchema, sc.mismatches.back());
    }
    std::map<std::string, std::string> old_to_new;
    for (const auto& [n, o] : sc.new_to_old) old_to_new.emplace(o, n);
    r->result = with_uuids_replaced(r->result, old_to_new);
    r->error = with_uuids_replaced(r->error, old_to_new);
    for (auto& e : r->events) e = with_uuids_replaced(e, old_to_new);
    for (auto& e : r->stream_errors) e = with_uuids_replaced(e, old_to_new);
    return r;
  }
  sc.mismatches.push_back("replay mismatch: " + operation + " " + shorten(params.dump()) +
                          " was not recorded in this scenario (or was asked more often than recorded)");
  return core::fail(core::ErrorKind::kNotFound, sc.mismatches.back());
}

std::vector<std::string> ReplayBook::mismatches(const std::string& scenario_id, const std::string& binding) const {
  std::lock_guard lk(mu_);
  auto it = scenarios_.find({scenario_id, binding});
  if (it == scenarios_.end()) return {};
  auto out = it->second.mismatches;
  for (size_t i = 0; i < it->second.calls.size(); ++i)
    if (!it->second.used[i])
      out.push_back("replay mismatch: recorded call #" + std::to_string(i + 1) + " (" +
                    it->second.calls[i].operation + ") was never asked for");
  return out;
}

engine::OperationBinding replay_binding(const engine::OperationBinding& real, std::shared_ptr<ReplayBook> book) {
  engine::OperationBinding b = real;
  b.title = real.title + " (replayed from a bundle)";
  b.start_agent = nullptr;
  b.scripted_agent = nullptr;
  b.call = [book, key = real.key](engine::Session& s, const std::string& operation, const Json& params,
                                  core::Deadline) -> OpResult {
    std::string id = s.test ? s.test->id : std::string();
    auto r = book->answer(id, key, operation, params);
    if (s.transcript)
      s.transcript->note("replay: " + operation + (r ? " answered from the recording" : " NOT recorded"));
    if (r) return std::move(*r);
    OpResult none;
    none.binding = key;
    none.problem = r.error().message;
    return none;
  };
  return b;
}

}  // namespace a2a::bindings
