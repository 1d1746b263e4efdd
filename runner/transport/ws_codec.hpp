// The WebSocket wire (RFC 6455), bytes only, no I/O: frame encoding (§5.2,
// masking §5.3), an incremental frame parser fed with bytes as they arrive
// (fragmentation §5.4, control frames §5.5, UTF-8 of text §8.1, the size
// limit checked from the header before a payload byte is kept), the close
// frame's payload (§5.5.1, §7.4) and the opening handshake's key (§4.2.2,
// Sec-WebSocket-Accept = base64(SHA-1(key + GUID))). Shared by the runner's
// client (ws_client.cpp) and the reference agent's server. Our own code, so
// the tests that check it against a second implementation use Boost.Beast.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runner/core/expected.hpp"

namespace a2a::transport::ws {

// §5.2 opcodes; others are reserved (a frame with one is a protocol error).
enum class Opcode : uint8_t {
  kContinuation = 0x0,
  kText = 0x1,
  kBinary = 0x2,
  kClose = 0x8,
  kPing = 0x9,
  kPong = 0xA,
};

bool is_control(Opcode op);
std::string_view to_string(Opcode op);

// §7.4.1 status codes used here.
inline constexpr int kCloseNormal = 1000;
inline constexpr int kCloseGoingAway = 1001;
inline constexpr int kCloseProtocolError = 1002;
inline constexpr int kCloseNoStatus = 1005;  // never on the wire: a close frame without a payload
inline constexpr int kCloseInvalidPayload = 1007;
inline constexpr int kCloseTooBig = 1009;

inline constexpr size_t kMaxControlPayload = 125;  // §5.5
inline constexpr std::string_view kAcceptGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";  // §1.3

using MaskKey = std::array<uint8_t, 4>;

// The upgrade's HTTP header values, on both sides (RFC 7230 §3.2.6):
// names and tokens compare case-insensitively; OWS is space and tab.
bool iequals(std::string_view a, std::string_view b);
std::string_view trim(std::string_view v);
// A comma-separated header value that lists `token` (case-insensitive).
bool has_token(std::string_view list, std::string_view token);

// SHA-1 (RFC 3174) of `data`: the 20-byte digest.
std::string sha1(std::string_view data);
// §4.2.2: base64(SHA-1(key + GUID)), the Sec-WebSocket-Accept for `key`.
std::string accept_key(std::string_view key);
// §4.1: a Sec-WebSocket-Key, 16 random bytes in base64.
std::string random_key();
// §5.3: a masking key from a strong source of randomness.
MaskKey random_mask();

// One frame, header and payload (masked with `mask` when given, as a client
// must). `fin` false leaves the message open for continuation frames.
std::string encode_frame(Opcode op, std::string_view payload, bool fin = true, const MaskKey* mask = nullptr);
// A client's frame: masked with a fresh random key.
std::string encode_client_frame(Opcode op, std::string_view payload);

// §5.5.1: a close frame's payload, code then reason (reason cut to fit 125 bytes).
std::string close_payload(int code, std::string_view reason = {});
struct CloseInfo {
  int code = kCloseNoStatus;  // kCloseNoStatus: the frame had no payload
  std::string reason;
};
// Fails (kProtocol) on a 1-byte payload, a code §7.4 does not allow on the
// wire, or a reason that is not UTF-8.
core::Expected<CloseInfo> parse_close_payload(std::string_view payload);
// §7.4.1/§7.4.2: codes a close frame may carry.
bool valid_close_code(int code);

struct ParserOptions {
  bool expect_masked = true;  // a server's parser: client frames must be masked (§5.1); a client's: must not be
  size_t max_message = 16u << 20;  // a data message (all its fragments) larger than this is an error (1009)
};

// A whole data message (continuations reassembled) or one control frame.
struct Message {
  Opcode op = Opcode::kText;
  std::string payload;
};

// Fed with bytes as they come off the socket, in any split (one byte at a
// time works); each complete message or control frame is appended to `out`.
// The first protocol error ends the parser: feed() fails (kProtocol, what is
// wrong and at which byte of the stream) from then on, and close_code() says
// what the closing frame should carry (1002, 1007 or 1009).
class FrameParser {
 public:
  explicit FrameParser(ParserOptions options = {});
  core::Expected<void> feed(std::string_view bytes, std::vector<Message>& out);
  bool failed() const { return !error_.empty(); }
  int close_code() const { return close_code_; }
  // Bytes of the message being received (all fragments so far).
  size_t buffered() const { return message_.size(); }

 private:
  core::Expected<void> fail(int code, std::string what);
  core::Expected<void> on_header();
  core::Expected<void> on_frame_end(std::vector<Message>& out);

  ParserOptions opt_;
  uint64_t offset_ = 0;  // bytes fed so far, for messages
  // the frame being read
  std::array<uint8_t, 14> head_{};
  size_t head_len_ = 0;
  size_t head_need_ = 2;
  bool in_payload_ = false;
  bool fin_ = false;
  Opcode op_ = Opcode::kText;
  bool masked_ = false;
  MaskKey mask_{};
  uint64_t remaining_ = 0;
  size_t mask_pos_ = 0;
  std::string control_;  // a control frame's payload
  // the data message being reassembled
  bool in_message_ = false;
  Opcode message_op_ = Opcode::kText;
  std::string message_;
  std::string error_;
  int close_code_ = 0;
};

}  // namespace a2a::transport::ws
