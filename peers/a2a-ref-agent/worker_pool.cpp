#include "peers/a2a-ref-agent/worker_pool.hpp"

#include <algorithm>

namespace a2a::agent {

WorkerPool::WorkerPool(int threads, int max_threads, size_t max_queue)
    : max_queue_(max_queue), max_threads_(static_cast<size_t>(std::max(threads, max_threads))) {
  threads_.reserve(static_cast<size_t>(threads));
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { loop(); });
}

WorkerPool::~WorkerPool() { stop(); }

bool WorkerPool::submit(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (stopping_ || queue_.size() >= max_queue_) return false;
    queue_.push_back(std::move(job));
    if (static_cast<size_t>(idle_) < queue_.size() && threads_.size() < max_threads_) {
      threads_.emplace_back([this] { loop(); });
    }
  }
  work_cv_.notify_one();
  return true;
}

bool WorkerPool::wait_idle(core::Deadline deadline) {
  std::unique_lock<std::mutex> lk(mu_);
  auto until = deadline.is_never() ? core::Clock::now() + std::chrono::hours(24) : deadline.time();
  return idle_cv_.wait_until(lk, until, [&] { return queue_.empty() && running_ == 0; });
}

void WorkerPool::stop() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lk(mu_);
    stopping_ = true;
    queue_.clear();
    threads.swap(threads_);  // submit() no longer adds threads once stopping_
  }
  work_cv_.notify_all();
  for (auto& t : threads) {
    if (t.joinable()) t.join();
  }
}

void WorkerPool::loop() {
  std::unique_lock<std::mutex> lk(mu_);
  for (;;) {
    // Idle wait bounded so a lost wake-up can never park a worker for good.
    ++idle_;
    work_cv_.wait_for(lk, std::chrono::seconds(1), [&] { return stopping_ || !queue_.empty(); });
    --idle_;
    if (stopping_) return;
    if (queue_.empty()) continue;
    auto job = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lk.unlock();
    job();
    lk.lock();
    --running_;
    if (queue_.empty() && running_ == 0) idle_cv_.notify_all();
  }
}

}  // namespace a2a::agent
