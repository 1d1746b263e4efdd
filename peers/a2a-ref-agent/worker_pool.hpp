// The threads that serve unary requests: `threads` from the start, growing
// up to `max_threads` while every thread is busy (a blocking SendMessage of
// tck-cancel holds its thread up to --max-block-ms, and must not starve quick
// requests). The queue is bounded so a client that pipelines without limit
// gets errors, not unbounded memory.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "runner/core/deadline.hpp"

namespace a2a::agent {

class WorkerPool {
 public:
  WorkerPool(int threads, int max_threads, size_t max_queue);
  ~WorkerPool();  // stop()
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // False when the queue is full or the pool is stopping.
  bool submit(std::function<void()> job);
  // True once no job is queued or running; false at the deadline.
  bool wait_idle(core::Deadline deadline);
  // Drops queued jobs, waits for running ones and joins. Running jobs must
  // end by themselves (the agent core's shutdown() ends every blocking call).
  void stop();

 private:
  void loop();

  std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable idle_cv_;
  std::deque<std::function<void()>> queue_;
  size_t max_queue_;
  size_t max_threads_;
  int running_ = 0;
  int idle_ = 0;  // threads waiting for work
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace a2a::agent
