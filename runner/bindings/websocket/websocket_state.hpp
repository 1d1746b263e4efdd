// What one scenario keeps on the WebSocket binding (Session::binding_state):
// its connection, shared by the abstract operations (websocket_binding.cpp)
// and the raw x-ws steps (websocket_steps.cpp), and the last upgrade a raw
// step made. Branches of x-concurrent share it.
#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/engine/binding_registry.hpp"
#include "runner/engine/session.hpp"
#include "runner/transport/ws_client.hpp"

namespace a2a::bindings::wsb {

struct WsState : engine::BindingState {
  std::mutex mu;
  // Shared: a step holds its own reference, so an x-ws upgrade (which
  // replaces it) in one x-concurrent branch cannot pull it from under another.
  std::shared_ptr<transport::WsConnection> conn;
  std::string failed;  // why the connection could not be opened (it is not retried)
  // Ids of requests already answered (the last kMaxFinished): a frame with
  // one of them is a late frame, after the request's final frame.
  std::mutex finished_mu;
  std::deque<nlohmann::json> finished;
  // x-ws upgrade: {status, body, answer} of the last upgrade it made.
  nlohmann::json last_upgrade;
};

// The scenario's state, made on first use.
std::shared_ptr<WsState> state_of(engine::Session& s);

// The upgrade's headers: A2A-Version (the test's version) and every --header.
std::vector<std::pair<std::string, std::string>> default_headers(const engine::Session& s);

// The scenario's connection, opened at its first use with default_headers();
// nullptr when it cannot be opened (`why` says why; not retried). An x-ws
// upgrade replaces it; a step keeps using the one it got.
std::shared_ptr<transport::WsConnection> connection(engine::Session& s, core::Deadline d, std::string& why);

}  // namespace a2a::bindings::wsb
