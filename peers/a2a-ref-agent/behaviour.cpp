#include "peers/a2a-ref-agent/behaviour.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

#include "peers/a2a-ref-agent/base64.hpp"
#include "runner/core/escape.hpp"

namespace a2a::agent {
namespace {

using model::TaskState;

constexpr std::array<BehaviourInfo, 18> kBehaviours{{
    {Behaviour::kEcho, "", "no prefix: completes the task, echoing the text in a reply and an artifact"},
    {Behaviour::kCompleteTask, "tck-complete-task",
     "completes the task: reply message in status and history, one text artifact"},
    {Behaviour::kMessageResponse, "tck-message-response", "answers with a direct Message, no task"},
    {Behaviour::kInputRequired, "tck-input-required",
     "INPUT_REQUIRED with a status message asking for input; any follow-up completes it"},
    {Behaviour::kMultiTurn, "tck-multi-turn",
     "INPUT_REQUIRED on every turn until a follow-up whose first word is 'done' completes it"},
    {Behaviour::kCancel, "tck-cancel", "stays WORKING until canceled"},
    {Behaviour::kLongRunning, "tck-long-running",
     "WORKING, completes with a text artifact after --long-running-ms (or delay=NNN in the text)"},
    {Behaviour::kStreamBasic, "tck-stream-basic",
     "task, statusUpdate WORKING, artifactUpdate \"Streamed content\", statusUpdate COMPLETED"},
    {Behaviour::kStreamChunked, "tck-stream-chunked",
     "one artifact in 3 chunks (append false/true/true, lastChunk on the last), then COMPLETED"},
    {Behaviour::kArtifactText, "tck-artifact-text", "completes with a text artifact"},
    {Behaviour::kArtifactFile, "tck-artifact-file",
     "completes with an inline file artifact (raw base64, filename, mediaType)"},
    {Behaviour::kArtifactFileUrl, "tck-artifact-file-url",
     "completes with a file URL artifact (url, filename, mediaType)"},
    {Behaviour::kArtifactData, "tck-artifact-data", "completes with a structured data artifact"},
    {Behaviour::kTaskFailure, "tck-task-failure", "FAILED with a status message"},
    {Behaviour::kRejectTask, "tck-reject-task", "REJECTED with a status message"},
    {Behaviour::kAuthRequired, "tck-auth-required",
     "AUTH_REQUIRED with a status message; any follow-up completes it"},
    {Behaviour::kStreamError, "tck-stream-error",
     "a text chunk, then a mid-stream error event (-32603), then FAILED"},
    {Behaviour::kStreamMany, "tck-stream-many",
     "count=N chunks (default 10, max 10000) of one artifact, texts \"chunk 0\"..; then COMPLETED"},
}};

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
}

Json text_artifact(std::string_view name, std::string_view text) {
  return Json{{"artifactId", core::uuid_v7()},
              {"name", std::string(name)},
              {"parts", Json::array({model::text_part(text)})}};
}

Json single_part_artifact(std::string_view name, Json part) {
  return Json{{"artifactId", core::uuid_v7()}, {"name", std::string(name)}, {"parts", Json::array({part})}};
}

// First word of the text, lower-cased, trailing punctuation dropped.
std::string first_word(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  std::string w;
  for (; i < text.size() && std::isalnum(static_cast<unsigned char>(text[i])); ++i) {
    w += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
  }
  return w;
}

// `NAME=NNN` anywhere in the text ("delay=250", "count=100").
std::optional<long long> int_setting(std::string_view text, std::string_view name) {
  auto pos = text.find(name);
  if (pos == std::string_view::npos) return std::nullopt;
  std::string_view digits = text.substr(pos + name.size());
  long long v = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || ptr == digits.data() || v < 0) return std::nullopt;
  return v;
}

TurnPlan complete_with(Json artifact, std::string reply) {
  TurnPlan p;
  p.chunks.push_back({std::move(artifact), false, true});
  p.final_state = TaskState::kCompleted;
  p.status_text = std::move(reply);
  p.reply_in_history = true;
  return p;
}

TurnPlan status_only(TaskState s, std::string text) {
  TurnPlan p;
  p.final_state = s;
  p.status_text = std::move(text);
  return p;
}

TurnPlan plan_artifact(Behaviour b) {
  switch (b) {
    case Behaviour::kArtifactFile: {
      Json part = {{"raw", base64_encode("Hello from a2a-ref-agent.\n")},
                   {"filename", "hello.txt"},
                   {"mediaType", "text/plain"}};
      return complete_with(single_part_artifact("file", part), "Here is the file.");
    }
    case Behaviour::kArtifactFileUrl: {
      Json part = {{"url", "https://example.com/a2a-ref-agent/report.pdf"},
                   {"filename", "report.pdf"},
                   {"mediaType", "application/pdf"}};
      return complete_with(single_part_artifact("file-url", part), "Here is the file URL.");
    }
    case Behaviour::kArtifactData: {
      Json part = {{"data", {{"kind", "tck-artifact-data"}, {"values", {1, 2, 3}}, {"ok", true}}},
                   {"mediaType", "application/json"}};
      return complete_with(single_part_artifact("data", part), "Here is the data.");
    }
    default:
      return complete_with(text_artifact("text", "Generated text content"), "Here is the text.");
  }
}

TurnPlan plan_chunked() {
  TurnPlan p;
  std::string id = core::uuid_v7();
  const std::array<std::string_view, 3> texts = {"Chunk one. ", "Chunk two. ", "Chunk three."};
  for (size_t i = 0; i < texts.size(); ++i) {
    Json a = {{"artifactId", id}, {"name", "chunked"}, {"parts", Json::array({model::text_part(texts[i])})}};
    p.chunks.push_back({std::move(a), i > 0, i + 1 == texts.size()});
  }
  p.final_state = TaskState::kCompleted;
  return p;
}

TurnPlan plan_multi_turn(int turn, std::string_view text) {
  if (turn > 0 && first_word(text) == "done") {
    std::string summary = "Conversation completed after " + std::to_string(turn + 1) + " turns.";
    return complete_with(text_artifact("summary", summary), summary);
  }
  return status_only(TaskState::kInputRequired,
                     "Turn " + std::to_string(turn + 1) + " received. Send more input, or 'done' to finish.");
}

TurnPlan plan_long_running(std::string_view text, const PlanSettings& settings) {
  long long ms = settings.long_running.count();
  if (settings.delay_from_text) ms = int_setting(text, "delay=").value_or(ms);
  ms = std::clamp<long long>(ms, 0, settings.max_delay.count());
  TurnPlan p = complete_with(text_artifact("result", "Long-running work finished after " + std::to_string(ms) + " ms."),
                             "Long-running work finished.");
  p.delay = core::Millis(ms);
  return p;
}

TurnPlan plan_stream_error() {
  TurnPlan p;
  p.chunks.push_back({text_artifact("partial", "Partial output before the failure."), false, true});
  p.stream_error = internal_error("Simulated mid-stream failure (tck-stream-error)");
  p.final_state = TaskState::kFailed;
  p.status_text = "Task failed after a mid-stream error.";
  return p;
}

// One artifact streamed in N chunks whose texts carry their index, so a load
// test can tell a lost or reordered event from the event itself.
TurnPlan plan_stream_many(std::string_view text) {
  long long n = std::clamp(int_setting(text, "count=").value_or(kStreamManyDefault), 1LL, kStreamManyMax);
  TurnPlan p;
  std::string id = core::uuid_v7();
  p.chunks.reserve(static_cast<size_t>(n));
  for (long long i = 0; i < n; ++i) {
    Json part = model::text_part("chunk " + std::to_string(i));
    Json a = {{"artifactId", id}, {"name", "many"}, {"parts", Json::array({std::move(part)})}};
    p.chunks.push_back({std::move(a), i > 0, i + 1 == n});
  }
  p.final_state = TaskState::kCompleted;
  return p;
}

}  // namespace

std::span<const BehaviourInfo> all_behaviours() { return kBehaviours; }

const BehaviourInfo& behaviour_info(Behaviour b) {
  for (const auto& info : kBehaviours) {
    if (info.behaviour == b) return info;
  }
  return kBehaviours[0];
}

std::optional<Behaviour> behaviour_from_prefix(std::string_view s, bool require_word_end) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  std::optional<Behaviour> best;
  size_t best_len = 0;
  for (const auto& info : kBehaviours) {
    if (info.prefix.empty() || !s.starts_with(info.prefix)) continue;
    if (require_word_end && s.size() > info.prefix.size() && is_name_char(s[info.prefix.size()])) continue;
    if (info.prefix.size() > best_len) {
      best = info.behaviour;
      best_len = info.prefix.size();
    }
  }
  return best;
}

Selection select_behaviour(const model::Json& message) {
  Selection sel;
  auto parts = message.is_object() ? message.find("parts") : message.end();
  if (parts != message.end() && parts->is_array()) {
    for (const auto& p : *parts) {
      if (!p.is_object()) continue;
      auto text = p.find("text");
      if (text != p.end() && text->is_string()) {
        sel.text = text->get_ref<const std::string&>();
        break;
      }
    }
  }
  if (auto b = behaviour_from_prefix(sel.text)) {
    sel.behaviour = *b;
  } else if (message.is_object()) {
    auto id = message.find("messageId");
    if (id != message.end() && id->is_string()) {
      if (auto m = behaviour_from_prefix(id->get_ref<const std::string&>(), false)) sel.behaviour = *m;
    }
  }
  return sel;
}

TurnPlan plan_turn(Behaviour b, int turn, std::string_view text, const PlanSettings& settings) {
  switch (b) {
    case Behaviour::kMessageResponse:  // only reachable for follow-ups: complete like the default
    case Behaviour::kCompleteTask:
      return complete_with(text_artifact("response", "Task completed: " + std::string(text)),
                           "Task completed.");
    case Behaviour::kInputRequired:
    case Behaviour::kAuthRequired:
      if (turn > 0) {
        return complete_with(text_artifact("response", "Received: " + std::string(text)),
                             "Thank you, the task is complete.");
      }
      return b == Behaviour::kInputRequired
                 ? status_only(TaskState::kInputRequired, "Please provide more input to continue.")
                 : status_only(TaskState::kAuthRequired,
                               "Authorization required: send a follow-up message with credentials.");
    case Behaviour::kMultiTurn: return plan_multi_turn(turn, text);
    case Behaviour::kCancel: return TurnPlan{};
    case Behaviour::kLongRunning: return plan_long_running(text, settings);
    case Behaviour::kStreamBasic: {
      TurnPlan p;
      p.chunks.push_back({text_artifact("stream", "Streamed content"), false, true});
      p.final_state = TaskState::kCompleted;
      return p;
    }
    case Behaviour::kStreamChunked: return plan_chunked();
    case Behaviour::kArtifactText:
    case Behaviour::kArtifactFile:
    case Behaviour::kArtifactFileUrl:
    case Behaviour::kArtifactData: return plan_artifact(b);
    case Behaviour::kTaskFailure:
      return status_only(TaskState::kFailed, "Task failed: simulated failure requested by tck-task-failure.");
    case Behaviour::kRejectTask:
      return status_only(TaskState::kRejected, "Task rejected: tck-reject-task asks the agent to refuse it.");
    case Behaviour::kStreamError: return plan_stream_error();
    case Behaviour::kStreamMany: return plan_stream_many(text);
    case Behaviour::kEcho: break;
  }
  return complete_with(text_artifact("echo", "Echo: " + std::string(text)), "Echo: " + std::string(text));
}

std::string message_reply_text(std::string_view text) { return "Direct reply: " + std::string(text); }

}  // namespace a2a::agent
