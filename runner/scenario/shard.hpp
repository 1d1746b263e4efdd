// Splitting a selection into N stable, disjoint shards (a2a-conform run
// --shard K/N, Bazel's TEST_TOTAL_SHARDS/TEST_SHARD_INDEX, GoogleTest's
// GTEST_TOTAL_SHARDS/GTEST_SHARD_INDEX). docs/sharding.md.
//
// A test's shard depends on its id alone (core::shard_of: a 64-bit FNV-1a
// hash modulo N), so
// the same scenario lands in the same shard whatever else is selected, in
// any order, on any machine; the N shards of one selection cover it exactly
// once. A hash does not balance a small selection perfectly; that is the
// price of "the same scenario always lands in the same shard".
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/core/expected.hpp"
#include "runner/scenario/model.hpp"

namespace a2a::scenario {

struct Shard {
  int index = 1;  // 1-based, 1..total
  int total = 1;
  // Where the choice came from: "--shard", "TEST_TOTAL_SHARDS" (Bazel),
  // "GTEST_TOTAL_SHARDS" (GoogleTest), or "" (not sharded).
  std::string source;
  // Bazel asks a test that shards to touch this file (TEST_SHARD_STATUS_FILE).
  std::string status_file;

  bool sharded() const { return total > 1; }
  std::string str() const { return std::to_string(index) + "/" + std::to_string(total); }
};

// "K/N" with 1 <= K <= N <= 10000; the error says what is wrong with it.
core::Expected<Shard> parse_shard(std::string_view text);

// The shard to run: --shard when given (its text, "" when not), else Bazel's
// variables, else GoogleTest's; unsharded (1/1) when none is set. `getenv`
// reads one variable (nullopt: unset), so tests need not touch the process
// environment. A variable pair that is half set, not a number, or out of
// range is an error that names the variable.
using EnvFn = std::function<std::optional<std::string>(const char*)>;
core::Expected<Shard> resolve_shard(std::string_view flag, const EnvFn& getenv);
EnvFn process_env();

// The tests of `tests` that fall in `shard`, in their order.
std::vector<const Test*> apply_shard(const std::vector<const Test*>& tests, const Shard& shard);

}  // namespace a2a::scenario
