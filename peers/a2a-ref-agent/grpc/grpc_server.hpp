// The reference agent on gRPC: lf.a2a.v1.A2AService (spec §10) served over
// an AgentCore another binding owns (the HttpAgent's, so one task store and
// one push delivery serve every binding). One generic service takes every
// method, known or not, down one path: method -> operation, request bytes
// -> ProtoJSON (proto_tree.hpp, else runner/grpc), core.call() /
// open_stream() (on the connection's I/O thread when the call cannot wait,
// else on a worker), the result back to bytes, errors to a status with
// google.rpc details. The gRPC faults are decorators on that path
// (grpc_faults.hpp). Underneath is our own HTTP/2 server on nghttp2
// (h2_server.hpp), not grpc++'s. docs/grpc.md, "Our own HTTP/2 server".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "peers/a2a-ref-agent/agent_core.hpp"
#include "runner/core/expected.hpp"

namespace a2a::agent {

struct GrpcAgentOptions {
  std::string bind = "127.0.0.1";
  uint16_t port = 0;  // 0 = the system picks
  // Bearer tokens GetExtendedAgentCard accepts (`authorization` metadata).
  std::vector<std::string> auth_tokens = {"a2a-conform"};
  Faults faults;  // the grpc-* faults act here; the core's own faults act in the core
  int workers = 8;         // at start; grows while all are busy (calls that may wait)
  int max_workers = 2048;  // bounds blocking calls + open streams together
  size_t max_queue = 4096;
  core::Millis max_stream{600000};  // a stream open this long ends (subscribe again)
  int log_fd = 2;                   // -1 = silent
};

class GrpcService;

class GrpcAgent {
 public:
  // Listens before returning (port() is final). Calls are answered
  // UNAVAILABLE until attach(): the card that names this port is built
  // before the core that serves it.
  static core::Expected<std::unique_ptr<GrpcAgent>> start(GrpcAgentOptions options);
  ~GrpcAgent();  // stop()
  GrpcAgent(const GrpcAgent&) = delete;
  GrpcAgent& operator=(const GrpcAgent&) = delete;

  uint16_t port() const;
  // "127.0.0.1:PORT": the AgentInterface url of a gRPC interface (host:port, spec §10 examples).
  std::string address() const;
  // The card's entry for this server: {url, protocolBinding GRPC, protocolVersion 1.0}.
  Json interface() const;
  // Serves `core` from now on; it must outlive stop().
  void attach(AgentCore& core);
  // Ends every call (open streams end CANCELLED, blocked calls return at
  // once: the attached core is shut down, as the whole agent is stopping),
  // then joins the workers. Idempotent.
  void stop();

 private:
  GrpcAgent() = default;
  std::unique_ptr<GrpcService> service_;
  uint16_t port_ = 0;
  std::string address_;
  bool stopped_ = false;
};

}  // namespace a2a::agent
