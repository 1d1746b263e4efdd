// Where the A2A spec leaves the agent a choice, the core asks a Choices
// policy rather than deciding inline. The base class holds the reference
// agent's own choices (UUIDv7 ids, every optional field, ListTasks pages of
// 50, ...); legal_variation_choices() returns the other legal answer at every
// choice point (`--legal-variation`, docs/legal-variation.md), so the suite
// can be run against an agent that is correct but unlike ours. Like Faults,
// a Choices object is passed to whoever consults it: no global state.
#pragma once

#include <memory>
#include <string>

#include "peers/a2a-ref-agent/behaviour.hpp"
#include "peers/a2a-ref-agent/event_stream.hpp"
#include "runner/core/deadline.hpp"

namespace a2a::agent {

enum class IdKind { kTask, kContext, kMessage, kArtifact, kPushConfig };

class Choices {
 public:
  virtual ~Choices() = default;
  // A new server-generated id (§3.2: ids are opaque strings). Thread-safe.
  virtual std::string new_id(IdKind kind) const;
  // The settings behaviours plan with, from the command line's.
  virtual PlanSettings plan_settings(PlanSettings from_cli) const { return from_cli; }
  // A turn's plan as the behaviour made it; may drop optional parts.
  virtual void shape_plan(Behaviour, TurnPlan&) const {}
  // ListTasks page size when the request has none (proto: at most 50).
  virtual long long default_page_size() const { return 50; }
  // The agent card (public and extended) after the core built it.
  virtual void shape_card(Json&) const {}
  // Every result of a unary operation and every stream event, before the
  // binding encodes it (after the output faults).
  virtual void shape_output(Json&) const {}
  // False only when shape_output() leaves every result as it is: then the
  // core may write a result as text without building it as a tree
  // (AgentCore::call_text). True unless a policy says otherwise, so a
  // policy that reshapes (or wraps one that does) is never bypassed.
  virtual bool shapes_output() const { return true; }
  // Every stream the core opens.
  virtual std::unique_ptr<EventStream> shape_stream(std::unique_ptr<EventStream> s) const { return s; }
};

// The reference agent's own choices (the default).
std::shared_ptr<const Choices> reference_choices();
// The other legal choice everywhere (docs/legal-variation.md).
std::shared_ptr<const Choices> legal_variation_choices();

}  // namespace a2a::agent
