// Executes the steps of one scenario (ACTS steps and our stdio wire steps) and
// records one StepResult per step, branches and grades included.
#pragma once

#include <mutex>
#include <vector>

#include "runner/engine/session.hpp"
#include "runner/engine/step_outcome.hpp"
#include "runner/result/result.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::engine {

class StepRecorder {
 public:
  void add(result::StepResult r);
  std::vector<result::StepResult> take();

 private:
  std::mutex mu_;
  std::vector<result::StepResult> steps_;
};

// Runs steps in order; stops at the first step that fails, times out or errs
// (later steps would only report consequences). Returns the worst outcome.
StepOutcome run_steps(Session& s, const std::vector<scenario::Step>& steps, StepRecorder& rec,
                      const std::string& prefix = "");

// The automatic handshake (x-agent.handshake: auto): read it and accept.
StepOutcome auto_handshake(Session& s);

// A named-assertion list (ACTS §5.5): sources and match values interpolated.
StepOutcome run_named_assertions(Session& s, const Json& list);

// Test-level `assertions` (ACTS §3.2), after all steps.
StepOutcome run_test_assertions(Session& s, const Json& assertions);

}  // namespace a2a::engine
