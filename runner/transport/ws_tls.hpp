// TLS under the WebSocket client (wss://): OpenSSL on the client's own
// non-blocking POSIX socket, so the connection keeps its one reader thread
// and its deadline-bounded writes. One SSL object is shared by the reader
// and the writers; every OpenSSL call on it is made under one mutex, and no
// wait (poll) is made while holding it. Certificates are checked against the
// system trust store and the URL's host, as the https:// client does, unless
// `insecure` (--insecure). docs/websocket.md, "wss://".
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"

namespace a2a::transport {

class WsTls {
 public:
  // The TLS handshake on the connected socket `fd` (not owned), bounded by
  // `deadline`. A refused certificate is kIo naming the reason.
  static core::Expected<std::unique_ptr<WsTls>> handshake(int fd, const std::string& host, bool insecure,
                                                           core::Deadline deadline);
  ~WsTls();
  WsTls(const WsTls&) = delete;
  WsTls& operator=(const WsTls&) = delete;

  // All of `data`, each wait for the socket bounded by `deadline`.
  core::Expected<void> write_all(std::string_view data, core::Deadline deadline);
  // Some bytes appended to `out` (at most `max`), waiting until `deadline`; 0 at EOF.
  core::Expected<size_t> read_some(std::string& out, size_t max, core::Deadline deadline);
  // For the reader thread: some bytes into `buf`; 0 at EOF (a close_notify
  // or the TCP end); an error when the socket failed or was shut down. Waits
  // without a deadline: the socket's shutdown() wakes it.
  core::Expected<size_t> read_blocking(char* buf, size_t len);
  // The negotiated protocol version ("TLSv1.3").
  std::string version() const;

 private:
  struct Impl;
  explicit WsTls(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace a2a::transport
