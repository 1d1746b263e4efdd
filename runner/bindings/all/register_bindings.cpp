// The one place a binding is registered (docs/bindings.md "Adding a binding").
#include "runner/engine/binding_registry.hpp"

#include "runner/bindings/a2a03/a2a03_bindings.hpp"
#include "runner/bindings/jsonrpc/jsonrpc_binding.hpp"
#include "runner/bindings/loopback/loopback_binding.hpp"
#include "runner/bindings/rest/rest_binding.hpp"
#include "runner/bindings/stdio/stdio_binding.hpp"
#include "runner/bindings/websocket/websocket_binding.hpp"

#ifdef A2A_WITH_GRPC
#include "runner/bindings/grpc/grpc_binding.hpp"
#endif

namespace a2a::engine {

void register_bindings() {
  static const bool once = [] {
    register_binding(bindings::stdio_operation_binding());
    register_binding(bindings::jsonrpc_operation_binding());
    register_binding(bindings::rest_operation_binding());
    register_binding(bindings::jsonrpc_v03_operation_binding());
    register_binding(bindings::rest_v03_operation_binding());
#ifdef A2A_WITH_GRPC
    register_binding(bindings::grpc_operation_binding());
#endif
    register_binding(bindings::websocket_operation_binding());
    register_binding(bindings::loopback_operation_binding());
    return true;
  }();
  (void)once;
}

}  // namespace a2a::engine
