// The shard a scenario id belongs to, shared by the runner (--shard) and
// `merge` (which names a missing shard's scenarios). FNV-1a, 64 bits: stable
// across platforms and releases (never std::hash), so a scenario keeps its
// shard on every machine. docs/sharding.md.
#pragma once

#include <cstdint>
#include <string_view>

namespace a2a::core {

constexpr std::uint64_t fnv1a64(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

// 1-based shard of `id` among `total` (1 when total <= 1).
constexpr int shard_of(std::string_view id, int total) {
  if (total <= 1) return 1;
  return static_cast<int>(fnv1a64(id) % static_cast<std::uint64_t>(total)) + 1;
}

}  // namespace a2a::core
