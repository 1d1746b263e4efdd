#include "runner/engine/binding_registry.hpp"

#include <algorithm>
#include <mutex>

namespace a2a::engine {
namespace {

struct Registry {
  std::mutex mu;
  std::vector<OperationBinding> bindings;
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

void register_binding(OperationBinding b) {
  auto& r = registry();
  std::lock_guard lock(r.mu);
  auto it = std::find_if(r.bindings.begin(), r.bindings.end(), [&](const auto& x) { return x.key == b.key; });
  if (it != r.bindings.end()) *it = std::move(b);
  else r.bindings.push_back(std::move(b));
}

// Bindings are registered once at start-up, before any thread reads them;
// the entries are never moved after that (lookups return pointers into the vector).
const OperationBinding* find_binding(std::string_view key) {
  auto& r = registry();
  for (const auto& b : r.bindings)
    if (b.key == key) return &b;
  return nullptr;
}

const OperationBinding* find_binding_by_card_name(std::string_view card_name, std::string_view version_family) {
  auto& r = registry();
  for (const auto& b : r.bindings)
    if (!b.card_name.empty() && b.card_name == card_name && b.protocol_version == version_family) return &b;
  return nullptr;
}

std::vector<std::string> registered_bindings() {
  std::vector<std::string> out;
  for (const auto& b : registry().bindings) out.push_back(b.key);
  return out;
}

}  // namespace a2a::engine
