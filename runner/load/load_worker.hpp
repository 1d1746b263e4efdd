// Internal to the load driver (load_driver.cpp): what the workers share
// and what one worker (one connection, one engine::Session) holds, and the
// worker's loop (load_worker.cpp). Not an interface of the module.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runner/engine/agent_connection.hpp"
#include "runner/engine/config.hpp"
#include "runner/engine/http_pool.hpp"
#include "runner/engine/session.hpp"
#include "runner/load/latency_histogram.hpp"
#include "runner/load/load_checks.hpp"
#include "runner/load/load_options.hpp"
#include "runner/result/load_result.hpp"

namespace a2a::load {

using LoadClock = std::chrono::steady_clock;

// A recorded transcript keeps at most this many bytes (the first ones), so
// --max-findings bounds memory: docs/load.md "Bounds".
inline constexpr size_t kLoadFindingBytes = 256 * 1024;
// A worker whose call got no answer, or a shed one, waits this long before
// its next one, so a dead or overloaded target is not hammered in a tight
// loop (and the counts stay sane): docs/load.md "Shed answers".
inline constexpr auto kLoadErrorPause = std::chrono::milliseconds(20);
// stdio: ids of calls that ended without their answer, kept so a late answer
// is dropped rather than judged a stray one (Session::given_up_ids).
inline constexpr size_t kLoadGivenUpIds = 64;
inline constexpr int kLoadMaxRestarts = 3;       // stdio: agent processes a worker may restart
inline constexpr size_t kLoadMaxErrorKinds = 20;

struct LoadShared {
  const LoadOptions* o = nullptr;
  const engine::RunConfig* cfg = nullptr;
  const engine::BindingTarget* binding = nullptr;
  std::vector<LoadOp> pattern;
  LoadClock::time_point t0, measure_from, end;
  std::atomic<uint64_t> next_ticket{0}, measured_issued{0};
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> done{0}, nonconformant{0}, transport{0}, answered{0}, shed{0};
  std::atomic<int> running{0};
  std::atomic<int> given_up{0};  // stdio connections whose agent exited too often
  std::mutex mu;  // everything below
  std::condition_variable changed;
  std::string stopped_by;
  std::vector<result::LoadFinding> findings;
  uint64_t findings_dropped = 0;
  std::map<std::string, uint64_t> error_kinds;
  std::vector<result::LoadTransportError> samples;
  std::map<std::string, uint64_t> shed_kinds;
  std::vector<result::LoadShed> shed_samples;
  LoadClock::time_point last_finish;

  void halt(const std::string& why) {
    {
      std::lock_guard lk(mu);
      if (stopped_by.empty()) stopped_by = why;
    }
    stop = true;
    changed.notify_all();
  }
};

struct LoadWorker {
  int index = 0;
  transport::Transcript net_transcript;
  std::unique_ptr<engine::HttpPool> pool;
  std::mutex conn_mu;  // conn, against the interrupt hook
  std::unique_ptr<engine::AgentConnection> conn;
  engine::Session s;
  LoadTaskRef last_task;
  LatencyHistogram hist[3];
  uint64_t requests[3] = {0, 0, 0}, conformant[3] = {0, 0, 0}, nonconformant[3] = {0, 0, 0}, transport[3] = {0, 0, 0},
           shed[3] = {0, 0, 0};
  uint64_t warmup_requests = 0;
  int restarts = 0;
  std::string start_error;

  transport::Transcript& transcript() { return conn ? conn->process().transcript() : net_transcript; }
  // Set before the worker's thread starts, never replaced: the signal's
  // thread reads it while calls run (gRPC and WebSocket register with it).
  std::shared_ptr<engine::CallInterrupter> interrupter = std::make_shared<engine::CallInterrupter>();

  void interrupt() {
    interrupter->interrupt();
    if (pool) pool->interrupt_all();
    std::lock_guard lk(conn_mu);
    if (conn) conn->interrupt("a2a-conform load: stopped by a signal");
  }
};

inline size_t load_op_index(LoadOp op) { return static_cast<size_t>(op); }


// Smooth weighted round robin over --ops (weights 3,1,1: send stream send get
// send): the operation of request i is pattern[i % size].
std::vector<LoadOp> load_weighted_pattern(const std::map<std::string, int>& weights);
// The worker's session: an HTTP pool for a network binding, else its stdio
// agent started and handshaken (start_error says why not).
void setup_load_worker(LoadWorker& w, const LoadShared& sh, core::Deadline hard_end);
void stop_stdio_agent(LoadWorker& w);
// Requests until the load is over (duration, count, signal, no answers).
void load_worker_loop(LoadShared& sh, LoadWorker& w);

}  // namespace a2a::load
