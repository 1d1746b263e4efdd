// In-band behaviour selection (acts-specification.md §11): the text of the
// first text part picks a behaviour by its `tck-*` prefix, else the
// messageId's prefix, else the agent echoes. A behaviour is a pure plan per
// turn; the core applies plans to tasks, so behaviours hold no state.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "peers/a2a-ref-agent/call_result.hpp"
#include "runner/a2a/model.hpp"
#include "runner/core/deadline.hpp"

namespace a2a::agent {

enum class Behaviour {
  kEcho,  // no prefix: complete, echoing the text
  kCompleteTask,
  kMessageResponse,
  kInputRequired,
  kMultiTurn,
  kCancel,
  kLongRunning,
  kStreamBasic,
  kStreamChunked,
  kArtifactText,
  kArtifactFile,
  kArtifactFileUrl,
  kArtifactData,
  kTaskFailure,
  kRejectTask,
  kAuthRequired,
  kStreamError,  // ours, not ACTS: a mid-stream error event, then FAILED
  kStreamMany,   // ours, not ACTS: count=N artifact chunks (load benchmarks)
};

struct BehaviourInfo {
  Behaviour behaviour;
  std::string_view prefix;       // "tck-complete-task"; "" for kEcho
  std::string_view description;  // one line, for --help, the agent card and docs
};

std::span<const BehaviourInfo> all_behaviours();
const BehaviourInfo& behaviour_info(Behaviour b);

struct Selection {
  Behaviour behaviour = Behaviour::kEcho;
  std::string text;  // the first text part ("" when the message has none)
};
Selection select_behaviour(const model::Json& message);

// The longest known prefix `s` starts with, ignoring leading blanks. In text
// the prefix must end the word ("tck-cancellation" is no prefix); a
// messageId may go on ("tck-cancel-0001": ids use '-' as a separator).
std::optional<Behaviour> behaviour_from_prefix(std::string_view s, bool require_word_end = true);

struct Chunk {
  Json artifact;
  bool append = false;
  bool last_chunk = false;
};

// What one turn of a behaviour does, in generation order: artifact chunks,
// then an optional mid-stream error, then the status transition.
struct TurnPlan {
  std::vector<Chunk> chunks;
  std::optional<CallError> stream_error;
  model::TaskState final_state = model::TaskState::kWorking;  // kWorking = no transition
  std::string status_text;        // text of the agent's status message ("" = none)
  bool reply_in_history = false;  // that message is the agent's reply, kept in history
  core::Millis delay{0};          // when the plan runs, after the turn is accepted
};

struct PlanSettings {
  core::Millis long_running{1000};
  core::Millis max_delay{60000};
  bool delay_from_text = true;  // tck-long-running: `delay=NNN` in the text overrides long_running
};

// turn 0 = the message that created the task; 1.. = follow-ups.
TurnPlan plan_turn(Behaviour b, int turn, std::string_view text, const PlanSettings& settings);

// tck-stream-many: chunks when the text has no count=N, and the cap on N.
inline constexpr long long kStreamManyDefault = 10;
inline constexpr long long kStreamManyMax = 10000;

// The direct Message reply text of tck-message-response.
std::string message_reply_text(std::string_view text);

}  // namespace a2a::agent
