#include "runner/load/latency_histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace a2a::load {

int LatencyHistogram::bucket_of(uint64_t us) {
  if (us < static_cast<uint64_t>(kExactBelow)) return static_cast<int>(us);
  int exp = std::bit_width(us) - 1;  // 2^exp <= us < 2^(exp+1), exp >= 7
  if (exp >= 32) return kBuckets - 1;
  uint64_t sub = (us - (uint64_t{1} << exp)) >> (exp - 6);  // 0..63
  return kExactBelow + (exp - 7) * kSubBuckets + static_cast<int>(sub);
}

uint64_t LatencyHistogram::bucket_lower(int b) {
  if (b < kExactBelow) return static_cast<uint64_t>(b);
  int exp = 7 + (b - kExactBelow) / kSubBuckets;
  uint64_t sub = static_cast<uint64_t>((b - kExactBelow) % kSubBuckets);
  return (uint64_t{1} << exp) + (sub << (exp - 6));
}

uint64_t LatencyHistogram::bucket_upper(int b) {
  if (b < kExactBelow) return static_cast<uint64_t>(b);
  if (b == kBuckets - 1) return UINT64_MAX;
  return bucket_lower(b + 1) - 1;
}

void LatencyHistogram::record(uint64_t us) {
  ++counts_[static_cast<size_t>(bucket_of(us))];
  ++count_;
  sum_ += us;
  min_ = std::min(min_, us);
  max_ = std::max(max_, us);
}

void LatencyHistogram::merge(const LatencyHistogram& o) {
  for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += o.counts_[i];
  count_ += o.count_;
  sum_ += o.sum_;
  min_ = std::min(min_, o.min_);
  max_ = std::max(max_, o.max_);
}

uint64_t LatencyHistogram::percentile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  // Nearest rank: the ceil(q * n)-th smallest sample (at least the first);
  // the epsilon keeps 0.99 * 100 (98.99999... or 99.0000...1 in binary) at 99.
  auto rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_) - 1e-9));
  rank = std::max<uint64_t>(rank, 1);
  uint64_t seen = 0;
  for (int b = 0; b < kBuckets; ++b) {
    seen += counts_[static_cast<size_t>(b)];
    if (seen >= rank) return std::clamp(bucket_upper(b), min_, max_);
  }
  return max_;
}

std::vector<result::LoadBin> LatencyHistogram::bars(int n) const {
  std::vector<result::LoadBin> out;
  if (count_ == 0 || n < 1) return out;
  double lo = static_cast<double>(min_), hi = static_cast<double>(max_) + 1;
  if (max_ == min_ || n == 1) {
    out.push_back({lo, hi, count_});
    return out;
  }
  // Log-spaced edges from min to max + 1 (a floor of 1 us keeps log defined).
  double llo = std::log(std::max(lo, 1.0)), lhi = std::log(hi);
  for (int i = 0; i < n; ++i) {
    double a = i == 0 ? lo : std::exp(llo + (lhi - llo) * i / n);
    double z = i == n - 1 ? hi : std::exp(llo + (lhi - llo) * (i + 1) / n);
    out.push_back({a, z, 0});
  }
  // Each bucket's samples go to the bar holding the bucket's midpoint
  // (clamped to [min, max]): a bucket is narrower than any bar but the
  // first few, so at most one bucket's width is misplaced.
  for (int b = 0; b < kBuckets; ++b) {
    uint64_t c = counts_[static_cast<size_t>(b)];
    if (c == 0) continue;
    uint64_t up = std::min(bucket_upper(b), max_);
    uint64_t low = std::max(bucket_lower(b), min_);
    double mid = (static_cast<double>(low) + static_cast<double>(std::max(up, low))) / 2;
    auto it = std::upper_bound(out.begin(), out.end(), mid, [](double v, const result::LoadBin& x) { return v < x.hi_us; });
    if (it == out.end()) --it;
    it->count += c;
  }
  return out;
}

result::LoadLatency LatencyHistogram::summary(int n) const {
  result::LoadLatency l;
  l.count = count_;
  if (count_ == 0) return l;
  l.min_us = static_cast<double>(min());
  l.max_us = static_cast<double>(max_);
  l.mean_us = mean();
  l.p50_us = static_cast<double>(percentile(0.50));
  l.p90_us = static_cast<double>(percentile(0.90));
  l.p99_us = static_cast<double>(percentile(0.99));
  l.bins = bars(n);
  return l;
}

}  // namespace a2a::load
