// The scripted WebSocket agent of `a2a-conform client --binding websocket`
// (docs/client-conformance.md, docs/websocket.md "Clients on WebSocket"): an
// HTTP server for the card (one WEBSOCKET 1.0 interface, "ws://127.0.0.1:PORT":
// this agent) and a WebSocket server on POSIX sockets and ws_codec (no Beast)
// that accepts any upgrade, records every request frame with the upgrade's
// headers for x-expect-request, and answers what x-reply says: result or
// error -> one response frame with the request's id (or x-reply's `id`);
// stream -> a result frame per event, then the completion frame
// {"status":"stream_complete"} (an error item is the stream's last frame);
// frame -> one text frame written as given, the request still unanswered;
// close -> a close frame with that code (the request unanswered).
#pragma once

#include <memory>

#include "runner/core/expected.hpp"
#include "runner/engine/binding_registry.hpp"

namespace a2a::bindings {

core::Expected<std::unique_ptr<engine::ScriptedAgent>> start_ws_scripted_agent(transport::Transcript* tr);

}  // namespace a2a::bindings
