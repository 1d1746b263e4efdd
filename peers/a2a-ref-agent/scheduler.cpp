#include "peers/a2a-ref-agent/scheduler.hpp"

namespace a2a::agent {

Scheduler::Scheduler() : thread_([this] { loop(); }) {}

Scheduler::~Scheduler() { stop(); }

void Scheduler::post_after(core::Millis delay, std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (stopping_) return;
    jobs_.emplace(std::make_pair(core::Clock::now() + delay, ++seq_), std::move(job));
  }
  cv_.notify_one();
}

void Scheduler::stop() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stopping_ = true;
    jobs_.clear();
  }
  cv_.notify_one();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void Scheduler::loop() {
  std::unique_lock<std::mutex> lk(mu_);
  while (!stopping_) {
    if (jobs_.empty()) {
      // Idle wait bounded so the thread re-checks its state at least hourly.
      cv_.wait_for(lk, std::chrono::hours(1));
      continue;
    }
    auto due = jobs_.begin()->first.first;
    if (core::Clock::now() < due) {
      cv_.wait_until(lk, due);
      continue;
    }
    auto job = std::move(jobs_.begin()->second);
    jobs_.erase(jobs_.begin());
    lk.unlock();
    job();  // runs without our lock: jobs take the task store's lock
    lk.lock();
  }
}

}  // namespace a2a::agent
