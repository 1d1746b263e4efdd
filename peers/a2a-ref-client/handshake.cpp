#include "peers/a2a-ref-client/handshake.hpp"
#include "peers/a2a-ref-client/fault.hpp"

#include <algorithm>

#include "peers/a2a-ref-client/agent_status.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::client {
namespace {

using core::ErrorKind;
using nlohmann::json;

std::string excerpt(std::string_view body) { return core::escape_bytes(body, 200); }

core::Expected<std::vector<std::string>> read_variants(const json& doc) {
  auto it = doc.find("supportedVariants");
  if (it == doc.end()) return core::fail(ErrorKind::kProtocol, "handshake has no supportedVariants");
  if (!it->is_array()) {
    return core::fail(ErrorKind::kProtocol,
                      "handshake supportedVariants is " + std::string(it->type_name()) + ", not an array");
  }
  if (it->empty()) return core::fail(ErrorKind::kProtocol, "handshake supportedVariants is empty (H7)");
  std::vector<std::string> out;
  for (size_t i = 0; i < it->size(); ++i) {
    const json& v = (*it)[i];
    if (!v.is_string()) {
      return core::fail(ErrorKind::kProtocol, "handshake supportedVariants[" + std::to_string(i) +
                                                  "] is " + v.type_name() + ", not a string");
    }
    out.push_back(v.get<std::string>());
  }
  return out;
}

}  // namespace

core::Expected<HandshakeInfo> validate_handshake(std::string_view body,
                                                 std::string_view expected_session_id,
                                                 std::string_view variant) {
  json doc = jsonrpc::parse_json_or_discarded(body);
  if (doc.is_discarded()) {
    return core::fail(ErrorKind::kProtocol, "handshake body is not JSON: '" + excerpt(body) + "'");
  }
  if (!doc.is_object()) {
    return core::fail(ErrorKind::kProtocol,
                      "handshake body is a JSON " + std::string(doc.type_name()) + ", not an object");
  }
  auto type = doc.find("type");
  if (type == doc.end() || !type->is_string() || *type != "handshake") {
    std::string seen = type == doc.end() ? "no type member" : "type " + type->dump();
    return core::fail(ErrorKind::kProtocol, "expected type \"handshake\" as the first frame, got " +
                                                seen + ": '" + excerpt(body) + "'");
  }
  auto sid = doc.find("sessionId");
  if (sid == doc.end() || !sid->is_string()) {
    return core::fail(ErrorKind::kProtocol, "handshake sessionId is missing or not a string");
  }
  if (fault_on("client-reject-extra-members"))
    for (auto it = doc.begin(); it != doc.end(); ++it)
      if (it.key() != "type" && it.key() != "sessionId" && it.key() != "supportedVariants" &&
          it.key() != "protocol" && it.key() != "protocolVersion")
        return core::fail(ErrorKind::kProtocol, "handshake has unknown members");
  auto variants = read_variants(doc);
  if (!variants) return core::fail(variants.error());
  if (std::find(variants->begin(), variants->end(), variant) == variants->end() &&
      !fault_on("client-accept-unknown-variant")) {
    return core::fail(ErrorKind::kProtocol, "handshake supportedVariants " +
                                                doc["supportedVariants"].dump() + " lacks \"" +
                                                std::string(variant) + "\"");
  }
  std::string session = sid->get<std::string>();
  if (session != expected_session_id && !fault_on("client-skip-session-check")) {
    return core::fail(ErrorKind::kProtocol, "handshake sessionId \"" + core::escape_bytes(session) +
                                                "\" differs from A2A_SESSION_ID \"" +
                                                std::string(expected_session_id) + "\" (H13)");
  }
  return HandshakeInfo{std::move(session), std::move(*variants), std::move(doc)};
}

std::string make_handshake_ack(std::string_view variant) {
  // Member order as PR #46 writes it (nlohmann would sort the keys).
  return R"({"type":"handshakeAck","selectedVariant":)" + json(variant).dump() + R"(,"accept":true})";
}

core::Expected<void> validate_json_handshake(const json& handshake) {
  auto protocol = handshake.find("protocol");
  if (protocol == handshake.end() || *protocol != "a2a-stdio") {
    std::string seen = protocol == handshake.end() ? "missing" : protocol->dump();
    return core::fail(ErrorKind::kProtocol, "handshake protocol is " + seen + ", expected \"a2a-stdio\"");
  }
  auto version = handshake.find("protocolVersion");
  if (version == handshake.end() || !version->is_string()) {
    return core::fail(ErrorKind::kProtocol, "handshake protocolVersion is missing or not a string");
  }
  const std::string v = version->get<std::string>();
  if (v.substr(0, v.find('.')) != "1" || (fault_on("client-exact-protocol-version") && v != "1.0")) {
    return core::fail(ErrorKind::kProtocol, "handshake protocolVersion \"" + core::escape_bytes(v) +
                                                "\" has another major version than 1 (not supported)");
  }
  return {};
}

std::string make_json_handshake_ack(std::string_view session_id, std::string_view variant, bool accept) {
  if (fault_on("client-no-session-echo"))
    return R"({"type":"handshakeAck","selectVariant":)" + json(variant).dump() + R"(,"accept":)" +
           (accept ? "true" : "false") + "}";
  return R"({"type":"handshakeAck","sessionId":)" + json(session_id).dump() + R"(,"selectVariant":)" +
         json(variant).dump() + R"(,"accept":)" + (accept ? "true" : "false") + "}";
}

core::Expected<std::string> read_first_frame(transport::StdioProcess& proc, wire::Decoder& decoder,
                                             core::Deadline deadline) {
  for (;;) {
    wire::DecodeResult r = decoder.next();
    if (r.status == wire::DecodeResult::Status::kFrame) return std::move(r.frame.body);
    if (r.status == wire::DecodeResult::Status::kError) {
      if (r.error == wire::FrameError::kTruncatedBody || r.error == wire::FrameError::kTruncatedHeader) {
        return core::fail(ErrorKind::kEof, "agent closed stdout inside the handshake frame (" +
                                               describe_exit(proc, core::Millis(1000)) + "): " +
                                               r.detail + stderr_excerpt(proc));
      }
      return core::fail(ErrorKind::kProtocol, "stdout before the handshake is not a valid frame (L7): " +
                                                  std::string(wire::to_string(r.error)) + ": " + r.detail);
    }
    if (r.status == wire::DecodeResult::Status::kEnd) {
      return core::fail(ErrorKind::kEof, "agent closed stdout before the handshake (" +
                                             describe_exit(proc, core::Millis(1000)) + ")" +
                                             stderr_excerpt(proc));
    }
    transport::ReadResult rr = proc.read_some(deadline);
    switch (rr.status) {
      case transport::ReadResult::Status::kData: decoder.feed(rr.data); break;
      case transport::ReadResult::Status::kEof: decoder.finish(); break;
      case transport::ReadResult::Status::kTimeout:
        return core::fail(ErrorKind::kTimeout, "timed out waiting for the handshake (H10); " +
                                                   std::to_string(decoder.buffered()) +
                                                   " bytes of stdout buffered" + stderr_excerpt(proc));
      case transport::ReadResult::Status::kError:
        return core::fail(ErrorKind::kIo, "reading the handshake failed: " + rr.error);
    }
  }
}

}  // namespace a2a::client
