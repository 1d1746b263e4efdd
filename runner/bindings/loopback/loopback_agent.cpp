#include "runner/bindings/loopback/loopback_agent.hpp"

#include <exception>

namespace a2a::bindings::loopback {

LoopbackAgent::LoopbackAgent(agent::AgentConfig config) : core_(std::move(config)) {}

LoopbackAgent::~LoopbackAgent() {
  core_.shutdown();  // every blocked call returns
  pool_.stop();      // and its worker is joined
}

Outcome LoopbackAgent::run(agent::AgentCore& core, model::Operation op, const nlohmann::json& params) {
  // The binding never throws (binding_registry.hpp): a bug of the core costs
  // the step, as a 500 costs one request over HTTP.
  try {
    return Outcome{core.call(op, params), ""};
  } catch (const std::exception& e) {
    return Outcome{std::nullopt, e.what()};
  }
}

std::optional<Outcome> LoopbackAgent::call(model::Operation op, const nlohmann::json& params, core::Deadline d) {
  if (!core_.may_block(op, params)) return run(core_, op, params);
  auto pending = std::make_shared<Pending>();
  bool queued = pool_.submit([this, pending, op, params] {
    Outcome o = run(core_, op, params);
    std::lock_guard<std::mutex> l(pending->mu);
    pending->outcome = std::move(o);
    pending->done = true;
    pending->cv.notify_all();
  });
  if (!queued)
    return Outcome{std::nullopt, "the loopback agent is busy: " + std::to_string(kMaxBlocked) +
                                     " blocking calls are running and as many wait"};
  std::unique_lock<std::mutex> lock(pending->mu);
  auto finished = [&] { return pending->done; };
  // A never-deadline's time_point::max() would overflow inside wait_until.
  if (d.is_never()) pending->cv.wait(lock, finished);
  else if (!pending->cv.wait_until(lock, d.time(), finished)) return std::nullopt;
  return std::move(pending->outcome);
}

}  // namespace a2a::bindings::loopback
