// The link between the runner and `a2a-agent-double` (docs/client-conformance.md):
// the double is the "agent" a client under test spawns; it relays its stdin to
// the runner and the runner's bytes to its stdout over one loopback TCP
// connection. Messages are [type: 1 byte][length: 4 bytes big-endian][payload].
// Bytes only, no I/O, so both ends share one codec and the double stays dumb.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace a2a::wire {

enum class LinkType : char {
  kHello = 'H',       // double -> runner: JSON {token, argv, env (A2A_* only)}
  kInput = 'I',       // double -> runner: bytes the client wrote to the double's stdin
  kInputEof = 'E',    // double -> runner: the double's stdin ended
  kOutput = 'O',      // runner -> double: bytes to write to the double's stdout
  kCloseOutput = 'C', // runner -> double: close stdout (the client sees EOF)
  kExit = 'X',        // runner -> double: exit now with the decimal code in the payload
  kStderr = 'S',      // runner -> double: write that many (decimal) bytes to stderr, blocking
};

struct LinkMessage {
  LinkType type = LinkType::kInput;
  std::string payload;
};

// A relay chunk is at most 64 KiB, so 16 MiB is far beyond any honest
// message; a larger length means the stream is corrupt.
inline constexpr uint32_t kMaxLinkPayload = 16u * 1024 * 1024;

std::string encode_link(LinkType type, std::string_view payload);

class LinkDecoder {
 public:
  void feed(std::string_view bytes);
  // The next whole message; nullopt when more bytes are needed or after an error.
  std::optional<LinkMessage> next();
  bool broken() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  std::string buf_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace a2a::wire
