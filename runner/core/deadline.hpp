// Every wait in the product has a deadline (DESIGN.md). Deadline is a point on
// the steady clock; Deadline::never() exists for the few waits whose bound is
// enforced by an outer deadline, and says so at the call site.
#pragma once

#include <chrono>
#include <algorithm>

namespace a2a::core {

using Clock = std::chrono::steady_clock;
using Millis = std::chrono::milliseconds;

class Deadline {
 public:
  static Deadline after(Millis d) { return Deadline(Clock::now() + d); }
  static Deadline at(Clock::time_point t) { return Deadline(t); }
  static Deadline never() { return Deadline(Clock::time_point::max()); }

  bool is_never() const { return at_ == Clock::time_point::max(); }
  bool expired() const { return !is_never() && Clock::now() >= at_; }
  Clock::time_point time() const { return at_; }

  // Time left, clamped at zero; a large value for never().
  Millis remaining() const {
    if (is_never()) return Millis(24LL * 3600 * 1000);
    auto left = std::chrono::duration_cast<Millis>(at_ - Clock::now());
    return std::max(left, Millis(0));
  }
  // poll(2)-style timeout: -1 for never, else remaining milliseconds (rounded up).
  int poll_timeout_ms() const {
    if (is_never()) return -1;
    auto left = at_ - Clock::now();
    if (left <= Clock::duration::zero()) return 0;
    auto ms = std::chrono::ceil<Millis>(left).count();
    return ms > 0x7fffffff ? 0x7fffffff : static_cast<int>(ms);
  }
  // The earlier of two deadlines.
  Deadline min(const Deadline& o) const { return at_ <= o.at_ ? *this : o; }

 private:
  explicit Deadline(Clock::time_point t) : at_(t) {}
  Clock::time_point at_;
};

}  // namespace a2a::core
