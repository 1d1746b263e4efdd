// Push notification delivery (a2a-protocol.md §5): POSTs each StreamResponse
// the core hands to AgentConfig::push_sink to the config's webhook, in every
// serving mode (webhooks are always plain HTTP). A few delivery threads, each
// owning the configs that hash to it, so one config's notifications keep
// their order while a slow webhook delays only its own shard. Queues are
// bounded (overflow is logged and dropped); each POST has a timeout and one
// retry; failures are logged, never raised.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "peers/a2a-ref-agent/call_result.hpp"
#include "peers/a2a-ref-agent/faults.hpp"
#include "runner/core/deadline.hpp"

namespace a2a::transport {
class HttpClient;
}

namespace a2a::agent {

struct PushOptions {
  Faults faults;                    // push-no-auth-header, push-no-token-header
  int log_fd = 2;                   // -1 = silent
  core::Millis timeout{5000};       // per POST
  core::Millis retry_delay{100};    // before the one retry (it holds the shard)
  size_t max_queue = 4096;          // per shard
  int shards = 4;
};

struct PushStats {
  size_t delivered = 0;  // answered 2xx
  size_t failed = 0;     // no 2xx after the retry
  size_t dropped = 0;    // queue full, bad URL, or stopped before sending
};

class PushDelivery {
 public:
  explicit PushDelivery(PushOptions options);
  ~PushDelivery();  // stop(0)
  PushDelivery(const PushDelivery&) = delete;
  PushDelivery& operator=(const PushDelivery&) = delete;

  // Thread-safe and never blocks (the core calls it with its store locked).
  void enqueue(const Json& config, const Json& body);
  // Lets queued notifications go out for up to `grace`, then interrupts what
  // is in flight and joins. Idempotent; later enqueues are dropped.
  void stop(core::Millis grace);
  PushStats stats() const;

  // The sink to put in AgentConfig::push_sink (valid while this object lives).
  std::function<void(const Json&, const Json&)> sink();

 private:
  struct Job {
    Json config;
    Json body;
  };
  struct Shard {
    std::mutex mu;
    std::condition_variable cv;
    std::deque<Job> queue;
    bool busy = false;
    transport::HttpClient* current = nullptr;  // in flight, for interrupt()
    std::thread thread;
  };

  void loop(Shard& s);
  void deliver(Shard& s, const Job& job);
  // One POST; "" on a 2xx, else why it failed.
  std::string attempt(Shard& s, const Job& job);
  void log(const std::string& msg) const;

  PushOptions options_;
  std::vector<std::unique_ptr<Shard>> shards_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> hard_stop_{false};
  std::atomic<size_t> delivered_{0}, failed_{0}, dropped_{0};
  std::mutex stop_mu_;
  bool stopped_ = false;
};

}  // namespace a2a::agent
