// The reference agent's choices (Choices' defaults) and the legal variation:
// at every point where the A2A spec leaves a choice open, the other legal
// answer. Each choice and the spec sentence that allows it: docs/legal-variation.md.
#include "peers/a2a-ref-agent/choices.hpp"

#include <array>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <random>

#include "runner/core/escape.hpp"

namespace a2a::agent {

std::string Choices::new_id(IdKind) const { return core::uuid_v7(); }

namespace {

// An unknown member added to every object the agent sends (spec §5.7:
// "Implementations SHOULD ignore unrecognized fields in messages").
constexpr std::string_view kUnknownMember = "x-variation-note";
constexpr std::string_view kUnknownValue = "unknown member: ignore it";
// Members whose value is a map with keys chosen by someone else (Struct,
// map<string, ...>): an extra key there would be data, not an unknown field.
constexpr std::array<std::string_view, 7> kMapMembers = {"metadata", "data",   "securitySchemes", "scopes",
                                                         "params",   "schemes", "headers"};
// Between two stream events (the agent works at its own pace).
constexpr core::Millis kEventGap{100};
// tck-long-running: ACTS §11's example delay_ms.
constexpr core::Millis kLongRunning{5000};

bool is_map_member(std::string_view key) {
  for (auto m : kMapMembers)
    if (m == key) return true;
  return false;
}

// Explicit default values (ProtoJSON readers treat a default as absent).
void add_explicit_defaults(Json& o) {
  if (o.contains("artifact") && o.contains("taskId")) {  // TaskArtifactUpdateEvent
    if (!o.contains("append")) o["append"] = false;
    if (!o.contains("lastChunk")) o["lastChunk"] = false;
  }
  if (o.contains("messageId") && o.contains("parts") && o.contains("role")) {  // Message
    if (!o.contains("referenceTaskIds")) o["referenceTaskIds"] = Json::array();
    if (!o.contains("extensions")) o["extensions"] = Json::array();
  }
}

void vary_objects(Json& v) {
  if (v.is_array()) {
    for (auto& e : v) vary_objects(e);
    return;
  }
  if (!v.is_object()) return;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!is_map_member(it.key())) vary_objects(*it);
  }
  add_explicit_defaults(v);
  v[std::string(kUnknownMember)] = kUnknownValue;
}

// A result or event: every object gets the unknown member except a
// StreamResponse / SendMessageResponse wrapper itself ({"task": ...}), whose
// single member the agent's own 0.3 translation (--serve-0.3) reads as the
// payload's kind.
void vary_result(Json& v) {
  if (v.is_object() && v.size() == 1) {
    const std::string& key = v.begin().key();
    if (key == "task" || key == "message" || key == "statusUpdate" || key == "artifactUpdate") {
      vary_objects(v.begin().value());
      return;
    }
  }
  vary_objects(v);
}

bool is_state(const Json& status_holder, std::string_view state) {
  const Json* s = &status_holder;
  if (!s->is_object() || !s->contains("status")) return false;
  const Json& st = (*s)["status"];
  return st.is_object() && st.value("state", "") == state;
}

// The variation's streams: events at most every kEventGap; a new task's
// first snapshot is already WORKING (our default says SUBMITTED), and the
// WORKING status update behind it still follows (ACTS §11.2 tck-stream-basic:
// "status(working) → artifact → status(completed)"); every event shaped like
// a unary result.
class VariedStream : public EventStream {
 public:
  VariedStream(std::unique_ptr<EventStream> inner, const Choices& choices)
      : inner_(std::move(inner)), choices_(choices) {}

  StreamItem next(core::Deadline deadline) override {
    if (!pace(deadline)) return StreamItem{StreamItem::Kind::kTimeout, nullptr, {}};
    StreamItem item;
    bool canceled;
    {
      std::lock_guard<std::mutex> lk(mu_);
      canceled = canceled_;
    }
    if (canceled) held_.reset();  // a canceled stream ends at once, held event or not
    if (held_) {
      item = std::move(*held_);
      held_.reset();
    } else {
      item = inner_->next(deadline);
    }
    if (item.kind != StreamItem::Kind::kEvent) return item;
    if (sent_ == 0) fold_working(item);
    choices_.shape_output(item.event);
    ++sent_;
    last_ = core::Clock::now();
    return item;
  }

  void cancel() override {
    {
      std::lock_guard<std::mutex> lk(mu_);
      canceled_ = true;
    }
    cv_.notify_all();
    inner_->cancel();
  }

 private:
  // Waits until the gap since the last event passed; false when the deadline comes first.
  bool pace(core::Deadline deadline) {
    if (sent_ == 0) return true;
    auto due = last_ + kEventGap;
    std::unique_lock<std::mutex> lk(mu_);
    auto until = deadline.is_never() ? due : std::min(due, deadline.time());
    cv_.wait_until(lk, until, [&] { return canceled_; });
    return canceled_ || core::Clock::now() >= due;
  }

  void fold_working(StreamItem& first) {
    if (!first.event.contains("task") || !is_state(first.event["task"], "TASK_STATE_SUBMITTED")) return;
    StreamItem next = inner_->next(core::Deadline::after(core::Millis(0)));
    if (next.kind == StreamItem::Kind::kEvent && next.event.contains("statusUpdate") &&
        is_state(next.event["statusUpdate"], "TASK_STATE_WORKING")) {
      first.event["task"]["status"] = next.event["statusUpdate"]["status"];
    }
    if (next.kind != StreamItem::Kind::kTimeout) held_ = std::move(next);
  }

  std::unique_ptr<EventStream> inner_;
  const Choices& choices_;
  std::optional<StreamItem> held_;
  size_t sent_ = 0;
  core::Clock::time_point last_{};
  std::mutex mu_;
  std::condition_variable cv_;
  bool canceled_ = false;
};

class LegalVariation : public Choices {
 public:
  // Opaque, non-UUID ids: "task-7f3a09c2d1e4b856-1" (§3.2.x: ids are strings).
  std::string new_id(IdKind kind) const override {
    static constexpr std::array<std::string_view, 5> kPrefix = {"task-", "ctx-", "msg-", "artifact-", "push-"};
    std::lock_guard<std::mutex> lk(mu_);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(rng_()));
    return std::string(kPrefix[static_cast<size_t>(kind)]) + hex + "-" + std::to_string(++counter_);
  }

  PlanSettings plan_settings(PlanSettings s) const override {
    s.long_running = kLongRunning;
    s.delay_from_text = false;
    return s;
  }

  // TaskStatus.message is optional: interrupted tasks go without a prompt.
  void shape_plan(Behaviour, TurnPlan& plan) const override {
    if (plan.final_state == model::TaskState::kInputRequired || plan.final_state == model::TaskState::kAuthRequired)
      plan.status_text.clear();
  }

  long long default_page_size() const override { return 2; }

  void shape_card(Json& card) const override {
    card.erase("provider");  // AgentCard.provider is optional
    if (card.contains("capabilities") && card["capabilities"].is_object()) {
      card["capabilities"]["pushNotifications"] = false;
      card["capabilities"]["extendedAgentCard"] = false;
    }
    if (card.contains("skills") && card["skills"].is_array()) {
      for (auto& s : card["skills"]) s.erase("examples");  // AgentSkill.examples is optional
    }
    vary_objects(card);
  }

  void shape_output(Json& value) const override { vary_result(value); }

  std::unique_ptr<EventStream> shape_stream(std::unique_ptr<EventStream> s) const override {
    return std::make_unique<VariedStream>(std::move(s), *this);
  }

 private:
  mutable std::mutex mu_;
  mutable std::mt19937_64 rng_{std::random_device{}()};
  mutable unsigned long long counter_ = 0;
};

}  // namespace

namespace {

// The base class's choices, declared as leaving results alone.
class ReferenceChoices : public Choices {
 public:
  bool shapes_output() const override { return false; }
};

}  // namespace

std::shared_ptr<const Choices> reference_choices() {
  static const std::shared_ptr<const Choices> kChoices = std::make_shared<const ReferenceChoices>();
  return kChoices;
}

std::shared_ptr<const Choices> legal_variation_choices() { return std::make_shared<const LegalVariation>(); }

}  // namespace a2a::agent
