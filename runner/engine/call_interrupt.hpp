// Ends calls in flight from another thread: `a2a-conform load` at a signal
// (docs/load.md "Exit codes"). A binding whose blocking call its own
// deadline is the only other way to end (gRPC: ClientContext::TryCancel;
// WebSocket: the socket shut down) registers how to end it for as long as
// the call runs. Thread-safe; an interrupt is for good: ways registered
// after it run at once.
#pragma once

#include <functional>
#include <map>
#include <mutex>

namespace a2a::engine {

class CallInterrupter {
 public:
  // Removes its way to end the call when it goes; after that the way is not
  // running and will not run (so it may refer to the call's locals).
  class Registration {
   public:
    Registration() = default;
    Registration(CallInterrupter* owner, int id) : owner_(owner), id_(id) {}
    Registration(Registration&& o) noexcept : owner_(o.owner_), id_(o.id_) { o.owner_ = nullptr; }
    Registration& operator=(Registration&& o) noexcept;
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;
    ~Registration();

   private:
    CallInterrupter* owner_ = nullptr;
    int id_ = 0;
  };

  // `end_call` must not block (it runs on the signal's thread, under a lock).
  [[nodiscard]] Registration on_interrupt(std::function<void()> end_call);
  void interrupt();
  bool interrupted() const;

 private:
  void remove(int id);
  mutable std::mutex mu_;
  bool interrupted_ = false;
  int next_id_ = 1;
  std::map<int, std::function<void()>> calls_;
};

}  // namespace a2a::engine
