#include "peers/a2a-ref-client/fault.hpp"

#include <cstdlib>

namespace a2a::client {

namespace {
std::string& active() {
  static std::string name;
  return name;
}
}  // namespace

const std::vector<FaultInfo>& known_faults() {
  static const std::vector<FaultInfo> kFaults = {
      {"client-skip-session-check", "accept a handshake whose sessionId differs from A2A_SESSION_ID (H13)"},
      {"client-reject-extra-members", "fail a handshake that carries members beyond type, sessionId, supportedVariants (H9)"},
      {"client-accept-unknown-variant", "accept a handshake that does not offer a2a/v1 (H7)"},
      {"client-match-wrong-id", "take a response with an unknown id as the answer of the oldest call (C3; over HTTP: any id)"},
      {"client-end-stream-on-any-id", "end the open stream on a final response with another id (C10)"},
      {"client-ignore-stream-error", "drop event/streamError notifications (C8) and SSE error events"},
      {"client-eof-mid-stream-ok", "treat EOF before the final response (HTTP: a broken SSE body) as a normal stream end (C11)"},
      {"client-crash-on-notification", "exit 70 on an unsolicited notification (C4)"},
      {"client-no-version-header", "send no A2A-Version header over HTTP (spec 3.6)"},
      {"client-hang-on-framing-error", "on a framing error, stop reading but leave the pending call to its deadline (F6, F10, F19)"},
      {"client-ignore-timeout", "wait 120 s for an answer whatever --timeout-ms says"},
      {"client-stream-error-as-end", "end a stream normally when its final response is an error (C7)"},
      {"client-http-status-only", "over HTTP, report a non-2xx status without reading the JSON-RPC error in its body"},
      {"client-sse-comment-as-data", "read SSE comment lines (': ...') as data"},
      {"client-sse-last-data-line", "keep only the last data line of a multi-line SSE event"},
      {"client-sse-lf-only", "end SSE lines at LF only (CRLF still works), as a naive line splitter does"},
      {"client-sse-dispatch-at-eof", "dispatch an SSE event the body ended before its blank line"},
      {"client-first-interface", "use the card's first interface of the binding whatever its protocolVersion"},
      {"client-assume-in-order", "take every response as the answer of the oldest call in flight, whatever its id (C2)"},
      {"client-short-handshake-wait", "give up on the handshake after 1 s instead of 10 s (H11)"},
      {"client-leave-stderr-unread", "never read the agent's stderr pipe, so an agent that writes much there blocks (L6)"},
      {"client-accept-any-protocol", "stdio-json: accept any handshake protocol and protocolVersion (spec 4)"},
      {"client-no-session-echo", "stdio-json: leave sessionId out of the handshakeAck (spec 4)"},
      {"client-ignore-stream-end", "stdio-json: do not recognise {id, streamEnd: true} as the end of a stream (spec 4)"},
      {"client-crash-on-heartbeat", "stdio-json: exit 70 on a heartbeat frame (spec 4)"},
      {"client-exact-protocol-version", "stdio-json: reject a handshake protocolVersion other than exactly 1.0 (a newer minor must be accepted, spec 4)"},
      {"client-grpc-first-message-only", "over gRPC, end a stream after its first message (the rest is dropped)"},
      {"client-ws-ignore-completion", "over WebSocket, print the completion frame {\"status\":\"stream_complete\"} as an event and wait on"},
      {"client-no-cancel-stream", "stdio-json: abandon a stream at its deadline without sending cancelStream (spec 4)"},
  };
  return kFaults;
}

bool set_fault(std::string_view name) {
  for (const auto& f : known_faults())
    if (f.name == name) {
      active() = std::string(name);
      return true;
    }
  return false;
}

bool fault_on(std::string_view name) { return active() == name; }

}  // namespace a2a::client
