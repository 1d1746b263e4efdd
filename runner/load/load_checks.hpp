// The operations `a2a-conform load` sends and how each answer is judged
// (docs/load.md "What is checked"). Only what the ACTS contract promises
// (§11.2 prefixes, which our agent and the JS SDK agent implement):
//   send    SendMessage "tck-complete-task", blocking: a Message from the
//           agent, or the task in TASK_STATE_COMPLETED;
//   stream  SendStreamingMessage "tck-stream-basic": the Task (or a Message)
//           first, states in a legal order, the last event COMPLETED, and
//           the stream ends;
//   get     GetTask of the task this connection created last: that task
//           (its id), in the terminal state it was seen in.
// The judging reuses the engine's pieces, as a suite step would be judged:
// the binding's own violations (ids echoed, content types, envelopes,
// framing), the ProtoJSON payload validator (engine::payload_violations)
// and the assertion matchers (match::match, match::match_stream with
// ACTS §7.1 ordering). Every non-conformance quotes its normative sentence.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/engine/op_result.hpp"
#include "runner/engine/session.hpp"
#include "runner/result/result.hpp"

namespace a2a::load {

using Json = nlohmann::json;

enum class LoadOp { kSend, kStream, kGet };
inline constexpr LoadOp kAllLoadOps[] = {LoadOp::kSend, LoadOp::kStream, LoadOp::kGet};
const char* load_op_name(LoadOp op);          // "send", "stream", "get"
const char* load_op_operation(LoadOp op);     // "send_message", "send_streaming_message", "get_task"

// A task the load created, as its answer showed it.
struct LoadTaskRef {
  std::string id;
  std::string state;  // the last state seen ("" when none)
};

// The params of one request (a fresh messageId each); get needs `task`.
Json load_request_params(LoadOp op, const LoadTaskRef* task);

struct LoadVerdict {
  // kShed: the agent declined the request for now, legally
  // (engine::shed_signal): counted apart, not a verdict.
  enum class Kind { kConformant, kNonConformant, kShed, kTransport };
  Kind kind = Kind::kConformant;
  std::string reason;                 // non-conformant: every problem; shed: the answer; transport: the problem
  std::string signal;                 // shed: "HTTP 503", "JSON-RPC -32000", ...
  std::vector<result::Quote> quotes;  // non-conformant: what it breaks
  LoadTaskRef created;                // send / stream: the task the answer names (id "" when none)
};

// stdio: the call got no response with its id within its deadline, yet the
// agent wrote frames no request of this connection matches (one request is
// in flight at a time): the id was not echoed. `first` is the first such
// frame's body. A non-conformance (JSON-RPC 2.0 §5).
LoadVerdict stray_frames_verdict(size_t count, const std::string& first, const std::string& problem);

// stdio: the call got no response because the agent's output is not valid
// framing (a truncated frame, a bad header): the agent answered, wrongly.
LoadVerdict framing_verdict(const std::string& framing_error, const std::string& problem);

// stdio (Session::single_flight): the agent answered with an id no request
// in flight on the connection has (r.stray_answer); found at once, not at
// --timeout. A non-conformance (JSON-RPC 2.0 §5).
LoadVerdict stray_answer_verdict(const engine::OpResult& r);

// Judges one answer. `asked`: the task a get asked for (nullptr otherwise).
LoadVerdict judge_answer(const engine::Session& s, LoadOp op, const engine::OpResult& r, const LoadTaskRef* asked);

}  // namespace a2a::load
