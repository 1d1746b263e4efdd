#include "runner/load/latency_histogram.hpp"

#include <gtest/gtest.h>

#include "runner/load/load_options.hpp"

namespace a2a::load {
namespace {

TEST(LatencyHistogram, SmallValuesAreExact) {
  LatencyHistogram h;
  for (uint64_t v = 1; v <= 100; ++v) h.record(v);
  EXPECT_EQ(h.count(), 100u);
  EXPECT_EQ(h.min(), 1u);
  EXPECT_EQ(h.max(), 100u);
  EXPECT_EQ(h.percentile(0.50), 50u);  // nearest rank: the 50th of 100
  EXPECT_EQ(h.percentile(0.90), 90u);
  EXPECT_EQ(h.percentile(0.99), 99u);
  EXPECT_EQ(h.percentile(1.0), 100u);
  EXPECT_EQ(h.percentile(0.0), 1u);
  EXPECT_DOUBLE_EQ(h.mean(), 50.5);
}

TEST(LatencyHistogram, LargeValuesAreWithinOneSixtyFourth) {
  LatencyHistogram h;
  for (uint64_t v = 1000; v <= 1'000'000; v += 1000) h.record(v);  // 1000 samples
  for (double q : {0.5, 0.9, 0.99}) {
    auto truth = static_cast<double>(static_cast<uint64_t>(q * 1000) * 1000);
    auto got = static_cast<double>(h.percentile(q));
    EXPECT_GE(got, truth) << q;
    EXPECT_LE(got, truth * (1 + 1.0 / 64)) << q;
  }
  EXPECT_EQ(h.max(), 1'000'000u);
}

TEST(LatencyHistogram, PercentilesAreOrderedAndNeverAboveMax) {
  LatencyHistogram h;
  uint64_t x = 12345;
  for (int i = 0; i < 5000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    h.record((x >> 33) % 3'000'000);
  }
  auto p50 = h.percentile(0.5), p90 = h.percentile(0.9), p99 = h.percentile(0.99);
  EXPECT_LE(h.min(), p50);
  EXPECT_LE(p50, p90);
  EXPECT_LE(p90, p99);
  EXPECT_LE(p99, h.max());
}

TEST(LatencyHistogram, OneOutlierShowsAtTheTopOnly) {
  LatencyHistogram h;
  for (int i = 0; i < 99; ++i) h.record(1000);
  h.record(5'000'000);  // one stall of 5 s
  EXPECT_LE(h.percentile(0.99), 1000u * 65 / 64);
  EXPECT_EQ(h.percentile(1.0), 5'000'000u);
  EXPECT_EQ(h.max(), 5'000'000u);
}

TEST(LatencyHistogram, BucketsTileTheRange) {
  for (int b = 0; b + 1 < LatencyHistogram::kBuckets; ++b) {
    ASSERT_EQ(LatencyHistogram::bucket_upper(b) + 1, LatencyHistogram::bucket_lower(b + 1)) << b;
    ASSERT_EQ(LatencyHistogram::bucket_of(LatencyHistogram::bucket_lower(b)), b);
    ASSERT_EQ(LatencyHistogram::bucket_of(LatencyHistogram::bucket_upper(b)), b);
  }
  EXPECT_EQ(LatencyHistogram::bucket_of(UINT64_MAX), LatencyHistogram::kBuckets - 1);
}

TEST(LatencyHistogram, MergeEqualsRecordingEverythingInOne) {
  LatencyHistogram a, b, all;
  for (uint64_t v = 0; v < 3000; v += 7) {
    (v % 2 ? a : b).record(v * 13);
    all.record(v * 13);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
  for (double q : {0.1, 0.5, 0.9, 0.99}) EXPECT_EQ(a.percentile(q), all.percentile(q));
}

TEST(LatencyHistogram, BarsHoldEverySampleBetweenMinAndMax) {
  LatencyHistogram h;
  for (uint64_t v = 100; v < 200'000; v = v * 11 / 10 + 1) h.record(v);
  auto bars = h.bars(40);
  ASSERT_EQ(bars.size(), 40u);
  uint64_t sum = 0;
  for (size_t i = 0; i < bars.size(); ++i) {
    sum += bars[i].count;
    EXPECT_LT(bars[i].lo_us, bars[i].hi_us);
    if (i) EXPECT_DOUBLE_EQ(bars[i].lo_us, bars[i - 1].hi_us);
  }
  EXPECT_EQ(sum, h.count());
  EXPECT_DOUBLE_EQ(bars.front().lo_us, static_cast<double>(h.min()));
  EXPECT_DOUBLE_EQ(bars.back().hi_us, static_cast<double>(h.max()) + 1);
}

TEST(LatencyHistogram, EmptyHasNoPercentilesAndNoBars) {
  LatencyHistogram h;
  EXPECT_EQ(h.percentile(0.5), 0u);
  EXPECT_TRUE(h.bars(40).empty());
  EXPECT_EQ(h.summary().count, 0u);
}

TEST(LoadOptions, DurationsTakeAUnit) {
  EXPECT_EQ(parse_load_duration("10s", kLoadMaxDurationMs)->count(), 10000);
  EXPECT_EQ(parse_load_duration("250ms", kLoadMaxDurationMs)->count(), 250);
  EXPECT_EQ(parse_load_duration("1.5s", kLoadMaxDurationMs)->count(), 1500);
  EXPECT_EQ(parse_load_duration("2m", kLoadMaxDurationMs)->count(), 120000);
  EXPECT_EQ(parse_load_duration("0", kLoadMaxDurationMs)->count(), 0);
  EXPECT_FALSE(parse_load_duration("10", kLoadMaxDurationMs));
  EXPECT_FALSE(parse_load_duration("s", kLoadMaxDurationMs));
  EXPECT_FALSE(parse_load_duration("-1s", kLoadMaxDurationMs));
  EXPECT_FALSE(parse_load_duration("1.2.3s", kLoadMaxDurationMs));
  EXPECT_FALSE(parse_load_duration("2h", kLoadMaxDurationMs));
  EXPECT_FALSE(parse_load_duration("61m", kLoadMaxDurationMs));
}

TEST(LoadOptions, OpsAreNamedWithWeights) {
  auto o = parse_load_ops("send=3,stream=1,get=1");
  ASSERT_TRUE(o);
  EXPECT_EQ((*o)["send"], 3);
  EXPECT_EQ((*o)["stream"], 1);
  EXPECT_EQ((*o)["get"], 1);
  EXPECT_EQ(parse_load_ops("stream")->at("stream"), 1);
  EXPECT_FALSE(parse_load_ops("cancel=1"));
  EXPECT_FALSE(parse_load_ops("send=1,send=2"));
  EXPECT_FALSE(parse_load_ops("send=0"));
  EXPECT_FALSE(parse_load_ops("send=x"));
  EXPECT_FALSE(parse_load_ops("send=1001"));
  EXPECT_FALSE(parse_load_ops(""));
  EXPECT_FALSE(parse_load_ops("send,"));
}

}  // namespace
}  // namespace a2a::load
