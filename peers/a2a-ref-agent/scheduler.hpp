// One timer thread that runs the behaviours' plans at their due time, so a
// send is accepted at once and the task's work happens asynchronously (as in
// a real agent: blocking sends then really wait, returnImmediately returns
// before the work is done). Jobs due at the same time run in posting order.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "runner/core/deadline.hpp"

namespace a2a::agent {

class Scheduler {
 public:
  Scheduler();
  ~Scheduler();  // stop(): pending jobs are dropped
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  void post_after(core::Millis delay, std::function<void()> job);
  // Drops pending jobs and joins the thread. Idempotent.
  void stop();

 private:
  void loop();

  std::mutex mu_;
  std::condition_variable cv_;
  // Keyed by (due time, posting sequence) so equal due times keep FIFO order.
  std::map<std::pair<core::Clock::time_point, uint64_t>, std::function<void()>> jobs_;
  uint64_t seq_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace a2a::agent
