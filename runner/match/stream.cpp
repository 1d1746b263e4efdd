#include "runner/match/stream.hpp"

#include <array>
#include <limits>

#include "runner/match/event_view.hpp"
#include "runner/match/path.hpp"

namespace a2a::match {
namespace {

using Events = std::vector<Json>;

bool is_count(const Json& v) { return v.is_number_unsigned() || (v.is_number_integer() && v.get<long long>() >= 0); }

std::string plural(std::size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

void check_counts(const Events& events, const Json& spec, MatchResult& out) {
  for (const char* key : {"min_count", "max_count"}) {
    auto it = spec.find(key);
    if (it == spec.end()) continue;
    if (!is_count(*it)) {
      out.add_error("expect_stream", std::string(key) + " must be a non-negative integer, got " + compact(*it));
      continue;
    }
    auto n = it->get<std::size_t>();
    bool min = key == std::string_view("min_count");
    if (min ? events.size() >= n : events.size() <= n) continue;
    std::string want = (min ? "at least " : "at most ") + plural(n, "event");
    out.add("events", want, plural(events.size(), "event"),
            "expected " + want + ", got " + std::to_string(events.size()));
  }
}

// Appends " (description)" so a report line says which entry failed.
void describe(MatchResult& r, const Json& entry) {
  auto d = entry.find("description");
  if (d == entry.end() || !d->is_string()) return;
  for (auto& m : r.mismatches) m.message += " (" + d->get<std::string>() + ")";
}

Json body_of(const Json& entry) {
  Json body = entry;
  for (const char* k : {"description", "match", "index"}) body.erase(k);
  return body;
}

void match_any_position(const Events& events, const Json& entry, MatchResult& out) {
  Json body = body_of(entry);
  MatchResult best;
  std::size_t best_at = 0, best_score = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    MatchResult r = match_event(events[i], body, append_index("events", i));
    out.take_error(r);
    if (r.malformed() || r.ok) return;
    // The closest event is of the asked-for kind with the fewest mismatches.
    auto kind = acts_key(view_event(events[i]).kind);
    std::size_t score = r.mismatches.size() + (body.contains(std::string(kind)) ? 0 : 1000);
    if (i == 0 || score < best_score) best = std::move(r), best_at = i, best_score = score;
  }
  std::string what = "no event matched " + compact(body);
  if (!events.empty()) {
    what += "; closest was events[" + std::to_string(best_at) + "]: " + best.mismatches.front().message;
  }
  MatchResult r;
  r.add("events[*]", compact(body), plural(events.size(), "event"), what);
  describe(r, entry);
  out.merge(std::move(r));
}

void match_entry(const Events& events, const Json& entry, std::size_t position, MatchResult& out) {
  std::string at = append_index("events", position);
  if (!entry.is_object()) return out.add_error(at, "an event assertion must be a map");
  Json mode = entry.contains("match") ? entry["match"] : Json("exact_position");
  if (mode == "any_position") return match_any_position(events, entry, out);
  if (mode != "exact_position") {
    return out.add_error(at, "match must be exact_position or any_position, got " + compact(mode));
  }
  std::size_t index = position;
  if (auto it = entry.find("index"); it != entry.end()) {
    if (!is_count(*it)) return out.add_error(at, "index must be a non-negative integer, got " + compact(*it));
    index = it->get<std::size_t>();
  }
  MatchResult r;
  std::string where = append_index("events", index);
  if (index >= events.size()) {
    r.add(where, compact(body_of(entry)), "<missing>",
          "missing: the stream has " + plural(events.size(), "event"));
  } else {
    r = match_event(events[index], body_of(entry), where);
  }
  describe(r, entry);
  out.merge(std::move(r));
}

void check_events(const Events& events, const Json& list, MatchResult& out) {
  if (!list.is_array()) return out.add_error("expect_stream.events", "must be a list of event assertions");
  for (std::size_t i = 0; i < list.size(); ++i) match_entry(events, list[i], i, out);
}

void check_final(const Events& events, const Json& body, MatchResult& out) {
  if (events.empty()) {
    return out.add("events", "a final event", "no events", "expected a final event, got no events");
  }
  out.merge(match_event(events.back(), body, append_index("events", events.size() - 1)));
}

void check_each(const Events& events, const Json& body, MatchResult& out) {
  for (std::size_t i = 0; i < events.size(); ++i) {
    MatchResult r = match_event(events[i], body, append_index("events", i));
    bool malformed = r.malformed();
    out.merge(std::move(r));
    if (malformed) return;  // the same error for every event
  }
}

constexpr std::array kStreamKeys{"min_count", "max_count", "timeout_ms", "ordering",
                                 "events",    "final_event", "each_event"};

bool known_stream_key(const std::string& key) {
  if (key.starts_with("x-")) return true;
  for (std::string_view k : kStreamKeys) {
    if (k == key) return true;
  }
  return false;
}

bool is_terminal(std::string_view s) {
  return s == "TASK_STATE_COMPLETED" || s == "TASK_STATE_FAILED" || s == "TASK_STATE_CANCELED" ||
         s == "TASK_STATE_REJECTED";
}

bool is_known_state(std::string_view s) {
  return is_terminal(s) || s == "TASK_STATE_SUBMITTED" || s == "TASK_STATE_WORKING" ||
         s == "TASK_STATE_INPUT_REQUIRED" || s == "TASK_STATE_AUTH_REQUIRED";
}

// "" when prev -> next is legal (ACTS §7.1).
std::string illegal_transition(const std::string& prev, const std::string& next) {
  if (prev == next) return "";  // a state may repeat
  if (is_terminal(prev)) return "a terminal state is final";
  if (next == "TASK_STATE_SUBMITTED") return "SUBMITTED is only the initial state";
  return "";
}

}  // namespace

MatchResult check_monotonic_state(const Events& events) {
  MatchResult out;
  std::string prev;
  std::size_t prev_at = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    EventView v = view_event(events[i]);
    auto state = event_task_state(v);
    if (!state) continue;
    std::string path = join_path(append_index("events", i), v.payload_path) + ".status.state";
    if (!is_known_state(*state)) {
      out.add(path, "a task state", compact(v.payload->at("status").at("state")),
              "unknown task state " + compact(v.payload->at("status").at("state")));
      continue;
    }
    if (!prev.empty()) {
      if (std::string why = illegal_transition(prev, *state); !why.empty()) {
        out.add(path, "a legal transition from " + prev, *state,
                "illegal state transition " + prev + " (events[" + std::to_string(prev_at) + "]) -> " + *state +
                    ": " + why);
      }
    }
    prev = *state;
    prev_at = i;
  }
  return out;
}

MatchResult match_stream(const Events& events, const Json& spec) {
  MatchResult out;
  if (!spec.is_object()) {
    out.add_error("expect_stream", "must be a map");
    return out;
  }
  for (const auto& [key, value] : spec.items()) {
    if (!known_stream_key(key)) out.add_error("expect_stream", "unknown key '" + key + "'");
  }
  check_counts(events, spec, out);
  if (auto it = spec.find("events"); it != spec.end()) check_events(events, *it, out);
  if (auto it = spec.find("final_event"); it != spec.end()) check_final(events, *it, out);
  if (auto it = spec.find("each_event"); it != spec.end()) check_each(events, *it, out);
  if (auto it = spec.find("ordering"); it != spec.end()) {
    if (*it == "monotonic_state") out.merge(check_monotonic_state(events));
    else out.add_error("expect_stream.ordering", "unknown ordering " + compact(*it) + " (monotonic_state)");
  }
  return out;
}

}  // namespace a2a::match
