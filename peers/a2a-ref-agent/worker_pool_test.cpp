#include "peers/a2a-ref-agent/worker_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>

namespace a2a::agent {
namespace {

TEST(Unit, PoolGrowsSoBlockedJobsDoNotStarveAQuickOne) {
  WorkerPool pool(2, 8, 100);
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(pool.submit([gate] { gate.wait_for(std::chrono::seconds(5)); }));
  std::promise<void> quick;
  ASSERT_TRUE(pool.submit([&] { quick.set_value(); }));
  EXPECT_EQ(quick.get_future().wait_for(std::chrono::seconds(2)), std::future_status::ready);
  release.set_value();
  EXPECT_TRUE(pool.wait_idle(core::Deadline::after(core::Millis(2000))));
}

TEST(Unit, PoolRefusesJobsBeyondItsQueueAndAfterStop) {
  WorkerPool pool(1, 1, 1);
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  std::atomic<bool> started{false};
  ASSERT_TRUE(pool.submit([&, gate] {
    started = true;
    gate.wait_for(std::chrono::seconds(5));
  }));
  for (int i = 0; i < 200 && !started; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_TRUE(pool.submit([] {}));   // queued
  EXPECT_FALSE(pool.submit([] {}));  // queue full
  release.set_value();
  pool.stop();
  EXPECT_FALSE(pool.submit([] {}));
}

}  // namespace
}  // namespace a2a::agent
