// match_event: one streaming event against one ACTS event assertion.
#include "runner/match/assert.hpp"
#include "runner/match/event_view.hpp"
#include "runner/match/path.hpp"
#include "runner/match/stream.hpp"

namespace a2a::match {
namespace {

void match_body(const Json& event, const EventView& v, const Json& body, const std::string& path,
                MatchResult& out);

void match_payload(const EventView& v, EventKind want, const Json& assertion, const std::string& path,
                   MatchResult& out) {
  if (v.kind != want) {
    std::string got = v.kind == EventKind::kUnknown ? "an event of unknown kind" : std::string(acts_key(v.kind));
    std::string name(acts_key(want));
    std::string article = name.front() == 'a' ? "an " : "a ";
    out.add(path, name + " event", compact(*v.response), "expected " + article + name + " event, got " + got);
    return;
  }
  out.merge(match(*v.payload, assertion, join_path(path, v.payload_path)));
}

// A field named in an event assertion: payload, then StreamResponse, then envelope.
void match_field(const EventView& v, const std::string& key, const Json& assertion, const std::string& path,
                 MatchResult& out) {
  std::pair<const Json*, const std::string*> layers[] = {
      {v.payload, &v.payload_path}, {v.response, &v.response_path}, {v.envelope, nullptr}};
  static const std::string kRoot;
  for (auto [layer, where] : layers) {
    if (!layer || !layer->is_object()) continue;
    auto it = layer->find(key);
    if (it == layer->end()) continue;
    out.merge(match(*it, assertion, append_key(join_path(path, where ? *where : kRoot), key)));
    return;
  }
  const std::string& where = v.payload ? v.payload_path : v.response_path;
  out.merge(match_optional(nullptr, assertion, append_key(join_path(path, where), key)));
}

// one_of / any_of / all_of / not over event assertions.
void match_combinator(const Json& event, const EventView& v, const std::string& op, const Json& operand,
                      const std::string& path, MatchResult& out) {
  if (op == "not") {
    MatchResult inner;
    match_body(event, v, operand, path, inner);
    out.take_error(inner);
    if (!inner.malformed() && inner.ok) {
      out.add(path, "not " + compact(operand), compact(event), "expected the event not to match " + compact(operand));
    }
    return;
  }
  if (!operand.is_array() || operand.empty()) {
    return out.add_error(path, op + ": operand must be a non-empty list of event assertions");
  }
  bool any = false;
  std::string reasons;
  for (std::size_t i = 0; i < operand.size(); ++i) {
    MatchResult alt;
    match_body(event, v, operand[i], path, alt);
    out.take_error(alt);
    any = any || alt.ok;
    if (op == "all_of") out.merge(std::move(alt));
    else if (!alt.mismatches.empty()) {
      reasons += (reasons.empty() ? "" : "; ") + ("[" + std::to_string(i + 1) + "] ") + alt.mismatches.front().message;
    }
  }
  if (op != "all_of" && !any) {
    out.add(path, op + " " + compact(operand), compact(event),
            "the event matched none of the " + std::to_string(operand.size()) + " alternatives of " + op + ": " +
                reasons);
  }
}

void match_body(const Json& event, const EventView& v, const Json& body, const std::string& path,
                MatchResult& out) {
  if (!body.is_object()) return out.add_error(path, "an event assertion must be a map, got " + compact(body));
  for (const auto& [key, assertion] : body.items()) {
    if (auto kind = kind_from_acts_key(key)) {
      match_payload(v, *kind, assertion, path, out);
    } else if (key == "one_of" || key == "any_of" || key == "all_of" || key == "not") {
      match_combinator(event, v, key, assertion, path, out);
    } else if (is_operator(key)) {
      out.merge(match(event, Json{{key, assertion}}, path));
    } else {
      match_field(v, key, assertion, path, out);
    }
  }
}

}  // namespace

MatchResult match_event(const Json& event, const Json& event_assertion, std::string_view base_path) {
  MatchResult out;
  match_body(event, view_event(event), event_assertion, std::string(base_path), out);
  return out;
}

}  // namespace a2a::match
