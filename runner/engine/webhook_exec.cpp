// x-expect-webhook (docs/scenario-format.md): waits for deliveries to this
// scenario's webhook path, then asserts on them. Steps take deliveries in
// order: each looks from where the previous x-expect-webhook stopped.
#include <cctype>

#include "runner/core/escape.hpp"
#include "runner/engine/webhooks.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/match/assert.hpp"
#include "runner/match/until.hpp"
#include "runner/match/vars.hpp"

namespace a2a::engine {

namespace {

Json body_json(const WebhookDelivery& d) {
  Json j = d.body.empty() ? Json() : jsonrpc::parse_json_or_discarded(d.body);
  return j.is_discarded() ? Json(d.body) : j;
}

Json header_map(const WebhookDelivery& d) {
  Json h = Json::object();
  for (const auto& [k, v] : d.headers) {
    std::string name = k;
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    h[name] = h.contains(name) ? h[name].get<std::string>() + ", " + v : v;
  }
  return h;
}

std::string summary(const std::vector<WebhookDelivery>& got) {
  if (got.empty()) return "none arrived";
  std::string out = std::to_string(got.size()) + " arrived, the last: " + got.back().method + " " +
                    core::escape_bytes(got.back().body, 200);
  return out;
}

struct Wanted {
  int count = 1;
  std::optional<match::UntilExpr> until;
};

// How many deliveries (from the first) the step takes; 0 = not there yet.
size_t taken(const Wanted& w, const std::vector<WebhookDelivery>& got) {
  if (!w.until) return got.size() >= static_cast<size_t>(w.count) ? static_cast<size_t>(w.count) : 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (match::eval_until(*w.until, body_json(got[i])).satisfied) return i + 1;
  return 0;
}

StepOutcome check_deliveries(const Json& spec, const std::vector<WebhookDelivery>& sel) {
  match::MatchResult m;
  const auto& last = sel.back();
  if (spec.contains("body")) m.merge(match::match(body_json(last), spec["body"], "body"));
  if (spec.contains("headers")) {
    Json want = Json::object();
    for (const auto& [k, v] : spec["headers"].items()) {
      std::string name = k;
      for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      want[name] = v;
    }
    m.merge(match::match(header_map(last), want, "headers"));
  }
  if (spec.contains("each_body"))
    for (size_t i = 0; i < sel.size(); ++i)
      m.merge(match::match(body_json(sel[i]), spec["each_body"], "delivery[" + std::to_string(i) + "].body"));
  return from_match(m, "webhook delivery");
}

}  // namespace

StepOutcome expect_webhook(Session& s, const scenario::WireAction& w, const std::string& step_id,
                           const scenario::StringPairs& capture, bool consume, size_t* took) {
  if (!s.hooks) return StepOutcome::error("x-expect-webhook: this run has no webhook receiver");
  auto v = s.interpolate(w.spec);
  if (!v) return StepOutcome::error("x-expect-webhook: " + v.error().message);
  const Json spec = v->is_object() ? *v : Json::object();
  Wanted want;
  want.count = spec.value("count", 1);
  if (spec.contains("until") && spec["until"].is_string()) {
    auto u = match::parse_until(spec["until"].get<std::string>());
    if (!u) return StepOutcome::error("x-expect-webhook.until: " + u.error().message);
    want.until = *u;
  }
  int within = spec.value("within_ms", 0);
  auto deadline = s.step_deadline(within);
  size_t from = s.hooks->cursor;
  std::string window = std::to_string(s.scaled(within > 0 ? within : s.profile().timeouts.step_ms).count()) + " ms";
  if (want.count == 0 && !want.until) {
    // count: 0 watches the whole window: no delivery may arrive in it. It
    // proves a negative, so a --timeout-scale below 1 must not shorten it.
    if (within > 0 && s.scaled(within) < core::Millis(within)) {
      deadline = core::Deadline::after(core::Millis(within)).min(s.deadline);
      window = std::to_string(within) + " ms";
    }
    auto got = s.hooks->wait(from, [](const auto& list) { return !list.empty(); }, deadline);
    if (got.empty()) return StepOutcome::pass();
    return StepOutcome::fail("expected no webhook delivery within " + window + ": " + summary(got));
  }
  auto got = s.hooks->wait(from, [&](const auto& list) { return taken(want, list) > 0; }, deadline);
  size_t n = taken(want, got);
  if (n == 0) {
    std::string what = want.until ? "no webhook delivery with " + want.until->text
                                  : "expected " + std::to_string(want.count) + " webhook deliveries";
    std::string msg = what + " within " + window + ": " + summary(got);
    return s.deadline.expired() ? StepOutcome::timeout(msg) : StepOutcome::fail(msg);
  }
  std::vector<WebhookDelivery> sel(got.begin(), got.begin() + static_cast<long>(n));
  if (consume) s.hooks->cursor = from + n;
  if (took) *took = n;
  auto o = check_deliveries(spec, sel);
  if (!o.ok()) return o;
  std::lock_guard lk(s.vars_mu);
  Json root = body_json(sel.back());
  s.vars.set_capture(step_id, "response", root);
  s.vars.set_capture(step_id, "headers", header_map(sel.back()));
  for (const auto& [name, path] : capture) {
    auto c = match::capture(root, path);
    if (!c) return StepOutcome::fail("capture '" + name + "' (" + path + "): " + c.error().message);
    s.vars.set_capture(step_id, name, *c);
  }
  return o;
}

}  // namespace a2a::engine
