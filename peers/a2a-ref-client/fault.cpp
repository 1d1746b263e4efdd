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
      {"client-match-wrong-id", "take a response with an unknown id as the answer of the oldest call (C3)"},
      {"client-end-stream-on-any-id", "end the open stream on a final response with another id (C10)"},
      {"client-ignore-stream-error", "drop event/streamError notifications (C8)"},
      {"client-eof-mid-stream-ok", "treat EOF before the final response as a normal stream end (C11)"},
      {"client-crash-on-notification", "exit 70 on an unsolicited notification (C4)"},
      {"client-no-version-header", "send no A2A-Version header over HTTP (spec 3.6)"},
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
