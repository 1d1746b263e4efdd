// A test double for `a2a-conform load` on the gRPC and WebSocket bindings
// (tests/e2e/load_mode_test.cpp): the binding's scripted agent
// (engine::ScriptedAgent, the one client scenarios use), answering by MODE.
// `a2a-load-double grpc|websocket MODE` prints "listening on URL" (the base
// URL whose card names the interface) and then answers every call:
//
//   shed-resource-exhausted  every 2nd call: gRPC RESOURCE_EXHAUSTED; the rest: a completed task
//   shed-unavailable         every 2nd call: gRPC UNAVAILABLE (the connection stays up)
//   shed-32000               every 2nd call: the JSON-RPC error -32000 "server busy"
//   shed-close-1013          every 2nd call (WebSocket): the connection closed with 1013 "Try Again Later"
//   never-answer             takes every call and never answers it
//
// It ends when its stdin closes, at SIGTERM, or after kLifetime.
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "runner/engine/binding_registry.hpp"

namespace {

using Json = nlohmann::json;

constexpr auto kLifetime = std::chrono::seconds(300);

bool stdin_closed() {
  pollfd p{0, POLLIN, 0};
  if (::poll(&p, 1, 0) <= 0) return false;
  char c;
  return ::read(0, &c, 1) <= 0;
}

Json completed_task(int n) {
  return {{"task",
           {{"id", "task-" + std::to_string(n)},
            {"contextId", "ctx-load-double"},
            {"status", {{"state", "TASK_STATE_COMPLETED"}}}}}};
}

Json reply_for(const std::string& mode, int n) {
  bool shed = n % 2 == 1;
  if (shed && mode == "shed-resource-exhausted") return {{"error", {{"status", "RESOURCE_EXHAUSTED"}, {"message", "server busy"}}}};
  if (shed && mode == "shed-unavailable") return {{"error", {{"status", "UNAVAILABLE"}, {"message", "server busy"}}}};
  if (shed && mode == "shed-32000") return {{"error", {{"code", -32000}, {"message", "server busy"}}}};
  if (shed && mode == "shed-close-1013") return {{"close", 1013}};
  return {{"result", completed_task(n)}};
}

}  // namespace

int main(int argc, char** argv) {
  std::string binding = argc > 2 ? argv[1] : "", mode = argc > 2 ? argv[2] : "";
  if ((binding != "grpc" && binding != "websocket") ||
      (mode != "shed-resource-exhausted" && mode != "shed-unavailable" && mode != "shed-32000" &&
       mode != "shed-close-1013" && mode != "never-answer")) {
    std::fprintf(stderr,
                 "usage: a2a-load-double grpc|websocket "
                 "shed-resource-exhausted|shed-unavailable|shed-32000|shed-close-1013|never-answer\n");
    return 2;
  }
  a2a::engine::register_bindings();
  const auto* b = a2a::engine::find_binding(binding);
  if (!b || !b->scripted_agent) {
    std::fprintf(stderr, "a2a-load-double: this build has no %s binding\n", binding.c_str());
    return 2;
  }
  auto agent = b->scripted_agent(nullptr);
  if (!agent) {
    std::fprintf(stderr, "a2a-load-double: %s\n", agent.error().message.c_str());
    return 1;
  }
  std::printf("listening on %s\n", (*agent)->target().c_str());
  std::fflush(stdout);
  auto end = std::chrono::steady_clock::now() + kLifetime;
  int n = 0;
  while (std::chrono::steady_clock::now() < end && !stdin_closed()) {
    auto call = (*agent)->take(a2a::core::Deadline::after(a2a::core::Millis(200)));
    if (!call || mode == "never-answer") continue;
    (void)(*agent)->reply(reply_for(mode, n++), [](int) {}, a2a::core::Deadline::after(a2a::core::Millis(5000)));
  }
  return 0;
}
