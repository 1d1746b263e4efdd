#include "runner/engine/http_pool.hpp"

namespace a2a::engine {

HttpPool::Lease::~Lease() {
  if (!pool_) return;
  std::lock_guard lk(pool_->mu_);
  pool_->slots_[index_].busy = false;
}

transport::HttpClient& HttpPool::Lease::operator*() const {
  std::lock_guard lk(pool_->mu_);
  return *pool_->slots_[index_].client;
}

HttpPool::Lease HttpPool::acquire(const transport::Url& url) {
  std::lock_guard lk(mu_);
  std::string origin = url.origin();
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].busy || slots_[i].origin != origin) continue;
    slots_[i].busy = true;
    return Lease(*this, i);
  }
  transport::HttpClientOptions o;
  o.transcript = transcript_;
  o.insecure_tls = insecure_;
  Slot s{origin, std::make_unique<transport::HttpClient>(url, o), true};
  if (interrupted_) s.client->interrupt();
  slots_.push_back(std::move(s));
  return Lease(*this, slots_.size() - 1);
}

void HttpPool::interrupt_all() {
  std::lock_guard lk(mu_);
  interrupted_ = true;
  for (auto& s : slots_) s.client->interrupt();
}

}  // namespace a2a::engine
