#include "runner/engine/call_interrupt.hpp"

namespace a2a::engine {

CallInterrupter::Registration& CallInterrupter::Registration::operator=(Registration&& o) noexcept {
  if (this != &o) {
    if (owner_) owner_->remove(id_);
    owner_ = o.owner_;
    id_ = o.id_;
    o.owner_ = nullptr;
  }
  return *this;
}

CallInterrupter::Registration::~Registration() {
  if (owner_) owner_->remove(id_);
}

CallInterrupter::Registration CallInterrupter::on_interrupt(std::function<void()> end_call) {
  std::lock_guard lk(mu_);
  if (interrupted_) {
    end_call();
    return {};
  }
  int id = next_id_++;
  calls_.emplace(id, std::move(end_call));
  return {this, id};
}

void CallInterrupter::interrupt() {
  std::lock_guard lk(mu_);
  interrupted_ = true;
  for (auto& [id, end_call] : calls_) end_call();
}

bool CallInterrupter::interrupted() const {
  std::lock_guard lk(mu_);
  return interrupted_;
}

void CallInterrupter::remove(int id) {
  std::lock_guard lk(mu_);
  calls_.erase(id);
}

}  // namespace a2a::engine
