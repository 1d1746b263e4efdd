#include "runner/scenario/shard.hpp"

#include <charconv>
#include <cstdlib>

#include "runner/core/shard_of.hpp"

namespace a2a::scenario {

namespace {

constexpr int kMaxShards = 10000;

std::optional<int> to_int(std::string_view s) {
  int v = 0;
  if (s.empty()) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// A (total, 0-based index) variable pair of a test engine.
core::Expected<std::optional<Shard>> from_env_pair(const EnvFn& getenv, const char* total_var,
                                                   const char* index_var) {
  auto total = getenv(total_var);
  auto index = getenv(index_var);
  if (!total && !index) return std::optional<Shard>{};
  if (!total || !index)
    return core::fail(core::ErrorKind::kInvalidArgument, std::string(total ? index_var : total_var) + " is not set but " +
                                                   (total ? total_var : index_var) + " is: set both or neither");
  auto n = to_int(*total);
  if (!n || *n < 1 || *n > kMaxShards)
    return core::fail(core::ErrorKind::kInvalidArgument, std::string(total_var) + "=" + *total +
                                                   ": expected a whole number from 1 to " +
                                                   std::to_string(kMaxShards));
  auto i = to_int(*index);
  if (!i || *i < 0 || *i >= *n)
    return core::fail(core::ErrorKind::kInvalidArgument, std::string(index_var) + "=" + *index +
                                                   ": expected a whole number from 0 to " + std::to_string(*n - 1) +
                                                   " (0-based, " + total_var + "=" + *total + ")");
  Shard s;
  s.index = *i + 1;
  s.total = *n;
  s.source = total_var;
  return std::optional<Shard>{s};
}

}  // namespace

core::Expected<Shard> parse_shard(std::string_view text) {
  auto bad = [&](const std::string& why) {
    return core::fail(core::ErrorKind::kInvalidArgument, "--shard " + std::string(text) + ": " + why);
  };
  auto slash = text.find('/');
  if (slash == std::string_view::npos) return bad("expected K/N, e.g. 2/3 (the second of three shards)");
  auto k = to_int(text.substr(0, slash));
  auto n = to_int(text.substr(slash + 1));
  if (!n || *n < 1 || *n > kMaxShards) return bad("N must be a whole number from 1 to " + std::to_string(kMaxShards));
  if (!k || *k < 1 || *k > *n) return bad("K must be a whole number from 1 to N (" + std::to_string(*n) + ")");
  Shard s;
  s.index = *k;
  s.total = *n;
  s.source = "--shard";
  return s;
}

core::Expected<Shard> resolve_shard(std::string_view flag, const EnvFn& getenv) {
  Shard out;
  if (!flag.empty()) {
    auto s = parse_shard(flag);
    if (!s) return s;
    out = *s;
  } else {
    auto bazel = from_env_pair(getenv, "TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX");
    if (!bazel) return core::fail(bazel.error());
    if (*bazel) {
      out = **bazel;
    } else {
      auto gtest = from_env_pair(getenv, "GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX");
      if (!gtest) return core::fail(gtest.error());
      if (*gtest) out = **gtest;
    }
  }
  // Bazel's protocol: a test that honours sharding touches this file, under
  // --shard too (the run is sharded either way).
  if (auto f = getenv("TEST_SHARD_STATUS_FILE")) out.status_file = *f;
  return out;
}

EnvFn process_env() {
  return [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    if (!v) return std::nullopt;
    return std::string(v);
  };
}

std::vector<const Test*> apply_shard(const std::vector<const Test*>& tests, const Shard& shard) {
  if (!shard.sharded()) return tests;
  std::vector<const Test*> out;
  for (const auto* t : tests)
    if (core::shard_of(t->id, shard.total) == shard.index) out.push_back(t);
  return out;
}

}  // namespace a2a::scenario
