// Latency statistics of a load run in bounded memory (docs/load.md
// "Percentiles"): a log-linear histogram of microseconds, HdrHistogram's
// idea in its simplest form. Values below 128 us get a bucket each (exact);
// above, each power of two is cut into 64 equal buckets, so a bucket is at
// most 1/64 (1.6 %) wide relative to its values. 1728 buckets cover up to
// 2^32 us (71 minutes); longer values land in the last bucket (the exact max
// is kept apart). Not thread-safe: one per worker, merged at the end.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "runner/result/load_result.hpp"

namespace a2a::load {

class LatencyHistogram {
 public:
  static constexpr int kExactBelow = 128;
  static constexpr int kSubBuckets = 64;
  static constexpr int kBuckets = kExactBelow + (32 - 7) * kSubBuckets;

  void record(uint64_t us);
  void merge(const LatencyHistogram& other);

  uint64_t count() const { return count_; }
  uint64_t min() const { return count_ ? min_ : 0; }
  uint64_t max() const { return max_; }
  double mean() const { return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0; }
  // Nearest rank: the smallest recorded bucket's upper edge (capped at max)
  // such that at least q of the samples are at or below it; q in [0, 1].
  // 0 with no sample. Ordered in q, never above max(), never below min().
  uint64_t percentile(double q) const;
  // The samples in `bars` log-spaced bars from min to max (one bar when
  // they are equal), for the report's histogram.
  std::vector<result::LoadBin> bars(int bars) const;
  // All of the above as the report's model.
  result::LoadLatency summary(int bars = 40) const;

  // The bucket of a value and the values a bucket holds: [lower, upper].
  static int bucket_of(uint64_t us);
  static uint64_t bucket_lower(int bucket);
  static uint64_t bucket_upper(int bucket);

 private:
  std::array<uint64_t, kBuckets> counts_{};
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t min_ = UINT64_MAX;
  uint64_t max_ = 0;
};

}  // namespace a2a::load
