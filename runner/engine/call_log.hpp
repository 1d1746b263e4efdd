// What every abstract operation of a run was asked and answered, per
// (scenario, binding): the binding layer's half of a certification bundle's
// transcripts (docs/bundle.md). `verify --regrade` answers the same requests
// from it through the replay binding (runner/bindings/replay/), so the
// verdicts can be re-derived without the agent.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/engine/op_result.hpp"

namespace a2a::engine {

struct RecordedCall {
  std::string operation;  // ACTS name
  Json params;            // as the binding got them (templates resolved)
  Json answer;            // op_result_to_json of what the binding returned
};

// Thread-safe: -j workers and x-concurrent branches add at once. Calls of
// one scenario are kept in the order they returned.
class CallLog {
 public:
  void add(const std::string& scenario_id, const std::string& binding, RecordedCall call);
  // The calls of one (scenario, binding), in order; empty when none.
  std::vector<RecordedCall> calls(const std::string& scenario_id, const std::string& binding) const;

 private:
  mutable std::mutex mu_;
  std::map<std::pair<std::string, std::string>, std::vector<RecordedCall>> calls_;
};

// Every member of an OpResult, so a replayed answer is the recorded one
// (headers as [name, value] pairs, in order).
Json op_result_to_json(const OpResult& r);
// The inverse; a member of the wrong type is an error naming it (a bundle is
// input from disk).
core::Expected<OpResult> op_result_from_json(const Json& j);

}  // namespace a2a::engine
