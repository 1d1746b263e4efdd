// The one place a network binding is registered (docs/bindings.md).
#include "runner/engine/binding_registry.hpp"

#include "runner/bindings/loopback/loopback_binding.hpp"

#ifdef A2A_WITH_GRPC
#include "runner/bindings/grpc/grpc_binding.hpp"
#endif

namespace a2a::engine {

void register_bindings() {
  static const bool once = [] {
#ifdef A2A_WITH_GRPC
    register_binding(bindings::grpc_operation_binding());
#endif
    register_binding(bindings::loopback_operation_binding());
    return true;
  }();
  (void)once;
}

}  // namespace a2a::engine
