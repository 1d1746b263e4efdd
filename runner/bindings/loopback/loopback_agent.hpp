// The agent of one loopback run: an AgentCore and the worker pool its
// blocking calls run on (the reference agent's own WorkerPool, as its stdio
// and HTTP servers use). Internal to the loopback binding.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>

#include "peers/a2a-ref-agent/agent_core.hpp"
#include "peers/a2a-ref-agent/worker_pool.hpp"
#include "runner/engine/binding_registry.hpp"

namespace a2a::bindings::loopback {

// What a call on a worker came back with: the core's result, or what it threw.
struct Outcome {
  std::optional<agent::CallResult> result;
  std::string thrown;
};

class LoopbackAgent : public engine::BindingState {
 public:
  explicit LoopbackAgent(agent::AgentConfig config);
  // Wakes every blocked call (AgentCore::shutdown) and joins the pool, so
  // nothing outlives the run that started the agent.
  ~LoopbackAgent() override;

  agent::AgentCore& core() { return core_; }
  const agent::Faults& faults() const { return core_.config().faults; }

  // AgentCore::call, waiting at most until `d`. A call that may block (a
  // blocking SendMessage) runs on the pool, since the core only returns at
  // the task's end, its max_block, or shutdown; nullopt when `d` came first
  // (the call goes on, and ends at the latest at ~LoopbackAgent's shutdown).
  // A full pool (kMaxBlocked calls running and as many queued) is an Outcome
  // with `thrown` saying so, as a busy agent answers an error.
  std::optional<Outcome> call(model::Operation op, const nlohmann::json& params, core::Deadline d);

 private:
  struct Pending {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    Outcome outcome;
  };
  static Outcome run(agent::AgentCore& core, model::Operation op, const nlohmann::json& params);

  static constexpr int kMaxBlocked = 64;
  agent::AgentCore core_;
  agent::WorkerPool pool_{0, kMaxBlocked, kMaxBlocked};  // after core_: stopped before it is destroyed
};

}  // namespace a2a::bindings::loopback
