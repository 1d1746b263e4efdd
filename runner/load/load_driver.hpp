// The load driver of `a2a-conform load` (docs/load.md): N workers, each with
// its own engine::Session (one connection: an agent process on stdio, a
// keep-alive HTTP connection, a gRPC channel or a WebSocket), calling
// operations through the binding layer (engine::call_operation, so every
// registered binding works) and judging every answer (load_checks.hpp).
//   closed loop (--connections N): each worker sends its next request when
//     the last answer is whole; latency from send to answer.
//   open loop (--rate R): request i is due at start + i/R; a free worker
//     takes it, waits for its time and sends it; latency is measured from
//     the time it was due, so an agent that stalls the pool shows in the
//     latency instead of hiding it (coordinated omission).
// Bounded: --duration (plus one request timeout to finish the calls in
// flight), --requests, the hard caps of load_options.hpp. A signal
// (SIGINT, SIGTERM, SIGHUP) stops the load, wakes the calls in flight and
// the result is returned with what was measured.
#pragma once

#include <functional>

#include "runner/engine/config.hpp"
#include "runner/load/load_options.hpp"
#include "runner/result/load_result.hpp"

namespace a2a::load {

struct LoadProgress {
  double elapsed_s = 0;
  bool warming_up = false;
  uint64_t requests = 0;       // finished so far (warmup included)
  uint64_t nonconformant = 0;
  uint64_t transport_errors = 0;
  uint64_t shed = 0;
  double recent_rps = 0;       // over the last interval
};

using LoadProgressFn = std::function<void(const LoadProgress&)>;

// `binding`: the interface driven, nullptr for the stdio agent of
// cfg.agent_argv. `progress` is called about once a second from the
// caller's thread. An error when no worker could start at all (the agent
// does not start or handshake).
core::Expected<result::LoadRun> run_load(const LoadOptions& o, const engine::RunConfig& cfg,
                                         const engine::BindingTarget* binding, const LoadProgressFn& progress);

}  // namespace a2a::load
