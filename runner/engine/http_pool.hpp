// The HTTP connections of one scenario: keep-alive clients per origin, lent
// to one call at a time (HttpClient is not thread-safe, x-concurrent branches
// call at once), all writing to the scenario's transcript. The watchdog's
// interrupt_all() wakes every current and later call.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runner/transport/http_client.hpp"
#include "runner/transport/transcript.hpp"

namespace a2a::engine {

class HttpPool {
 public:
  HttpPool(transport::Transcript* transcript, bool insecure_tls) : transcript_(transcript), insecure_(insecure_tls) {}
  HttpPool(const HttpPool&) = delete;
  HttpPool& operator=(const HttpPool&) = delete;

  class Lease {
   public:
    Lease(HttpPool& pool, size_t index) : pool_(&pool), index_(index) {}
    Lease(Lease&& o) noexcept : pool_(o.pool_), index_(o.index_) { o.pool_ = nullptr; }
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    transport::HttpClient& operator*() const;
    transport::HttpClient* operator->() const { return &**this; }

   private:
    HttpPool* pool_;
    size_t index_;
  };

  // A client for `url`'s origin that no other call is using (a new one when
  // all are busy).
  Lease acquire(const transport::Url& url);
  void interrupt_all();
  transport::Transcript* transcript() const { return transcript_; }
  bool insecure_tls() const { return insecure_; }

 private:
  struct Slot {
    std::string origin;
    std::unique_ptr<transport::HttpClient> client;
    bool busy = false;
  };
  transport::Transcript* transcript_;
  bool insecure_;
  std::mutex mu_;
  std::vector<Slot> slots_;  // grows only: a Lease keeps its index
  bool interrupted_ = false;
};

}  // namespace a2a::engine
