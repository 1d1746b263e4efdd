// The replay binding (docs/bundle.md "Regrade"): answers the runner's
// abstract operations from a bundle's recorded calls instead of an agent, so
// `a2a-conform verify --regrade` re-derives every verdict from the evidence.
// It wraps the binding the run used (same key, error reading and
// applicability); only `call` is replaced. A request with no recorded
// counterpart is a replay mismatch, which the regrade turns into an ERROR.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runner/core/expected.hpp"
#include "runner/engine/binding_registry.hpp"
#include "runner/engine/call_log.hpp"

namespace a2a::bindings {

// Whether two JSON values are the same request up to runner-made UUIDs
// (a messageId of ACTS §4.3, {{$uuid}}): strings must be equal once each UUID
// in them is paired with the one at the same place, and the pairing must stay
// one-to-one across the scenario. `pairs` (new -> old) is extended on success
// only.
bool same_request(const engine::Json& recorded, const engine::Json& fresh, std::map<std::string, std::string>& pairs);
// `v` with every UUID that `old_to_new` names replaced (inside strings too).
engine::Json with_uuids_replaced(const engine::Json& v, const std::map<std::string, std::string>& old_to_new);

// The recorded calls of a bundle and what the replay has done with them.
// Thread-safe (x-concurrent branches call at once).
class ReplayBook {
 public:
  void add(const std::string& scenario_id, const std::string& binding, std::vector<engine::RecordedCall> calls);
  // The first unused recorded call of this scenario with the same operation
  // and the same params (same_request); its answer, UUIDs mapped back. An
  // error (the mismatch, also kept for mismatches()) when there is none.
  core::Expected<engine::OpResult> answer(const std::string& scenario_id, const std::string& binding,
                                          const std::string& operation, const engine::Json& params);
  // Every mismatch of the scenario so far, and the recorded calls the
  // replay never asked for (the run made a call the regrade did not).
  std::vector<std::string> mismatches(const std::string& scenario_id, const std::string& binding) const;

 private:
  struct Scenario {
    std::vector<engine::RecordedCall> calls;
    std::vector<bool> used;
    std::map<std::string, std::string> new_to_old;
    std::vector<std::string> mismatches;
  };
  mutable std::mutex mu_;
  std::map<std::pair<std::string, std::string>, Scenario> scenarios_;
};

// `real` with its call answered from `book`.
engine::OperationBinding replay_binding(const engine::OperationBinding& real, std::shared_ptr<ReplayBook> book);

}  // namespace a2a::bindings
