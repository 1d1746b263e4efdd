// The stdio binding (docs/stdio-binding.md): abstract operations as JSON-RPC
// over the --agent process's stdin and stdout, framed by the run's profile
// (p46, stdio-json). The process and its reader belong to the scenario
// runner (Session::conn), which also drives the raw frame steps.
#pragma once

#include "runner/engine/binding_registry.hpp"

namespace a2a::bindings {

// The registry entry: key "stdio", no card name (a card does not list it).
engine::OperationBinding stdio_operation_binding();

}  // namespace a2a::bindings
