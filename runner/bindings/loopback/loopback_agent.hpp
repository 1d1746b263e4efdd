// The agent of one loopback run: an AgentCore and the threads its blocking
// calls run on. Internal to the loopback binding.
#pragma once

#include <condition_variable>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "peers/a2a-ref-agent/agent_core.hpp"
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
  // Wakes every blocked call (AgentCore::shutdown) and joins its thread, so
  // nothing outlives the run that started the agent.
  ~LoopbackAgent() override;

  agent::AgentCore& core() { return core_; }
  const agent::Faults& faults() const { return core_.config().faults; }

  // AgentCore::call, waiting at most until `d`. A call that may block (a
  // blocking SendMessage) runs on a thread of its own, since the core only
  // returns at the task's end, its max_block, or shutdown; nullopt when `d`
  // came first (the thread goes on, and is joined at the latest by ~LoopbackAgent).
  std::optional<Outcome> call(model::Operation op, const nlohmann::json& params, core::Deadline d);

 private:
  struct Pending {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    Outcome outcome;
  };
  struct Worker {
    std::thread thread;
    std::shared_ptr<Pending> pending;
  };
  static Outcome run(agent::AgentCore& core, model::Operation op, const nlohmann::json& params);
  void reap_finished();  // joins the workers whose call returned (caller holds mu_)

  agent::AgentCore core_;
  std::mutex mu_;
  std::list<Worker> workers_;
};

}  // namespace a2a::bindings::loopback
