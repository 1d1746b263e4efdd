// The network bindings the runner can test, by name (docs/bindings.md). A
// binding is one folder (runner/bindings/<name>/) that fills in an
// OperationBinding and one registration call (register_bindings(), in the
// CLI). The engine dispatches abstract operations, card discovery, --binding
// and error matching through this table; the stdio binding and the two HTTP
// bindings (jsonrpc, rest) are still wired into the engine directly.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/core/deadline.hpp"
#include "runner/engine/op_result.hpp"
#include "runner/match/match_result.hpp"

namespace a2a::engine {

struct Session;

// Per-scenario state a binding keeps in Session::binding_state (a channel,
// a connection); branches of x-concurrent share it.
struct BindingState {
  virtual ~BindingState() = default;
};

struct OperationBinding {
  std::string key;        // "grpc": --binding, BindingTarget::binding, results' binding
  std::string card_name;  // "GRPC": AgentInterface.protocolBinding
  std::string title;      // "gRPC": for people
  // Why an interface URL (from the card, or --url) is not usable; "" when it is.
  std::function<std::string(const std::string& url)> check_url;
  // One abstract operation (ACTS name, params final): never throws, bounded by the deadline.
  std::function<OpResult(Session& s, const std::string& operation, const nlohmann::json& params,
                         core::Deadline deadline)>
      call;
  // expect_error against one of this binding's errors (OpResult::error, error_status).
  std::function<match::MatchResult(const OpResult& r, const nlohmann::json& expect_error)> match_error;
};

// Adds (or replaces, by key) a binding. Call before any run starts.
void register_binding(OperationBinding b);
const OperationBinding* find_binding(std::string_view key);
const OperationBinding* find_binding_by_card_name(std::string_view card_name);
// Registered keys, in registration order.
std::vector<std::string> registered_bindings();

// Every binding this build has (runner/cli/bindings.cpp): the one place a
// new binding is registered.
void register_bindings();

}  // namespace a2a::engine
