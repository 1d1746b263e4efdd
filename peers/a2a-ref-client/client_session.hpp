// The binding-neutral face of a session, so the CLI and scripts run the same
// over stdio (StdioSession) and the HTTP bindings (HttpSession) and print the
// same lines. Errors are values: an agent's error object is a kAgent
// ClientError, anything that kept the answer from arriving another kind.
#pragma once

#include <functional>
#include <optional>

#include "peers/a2a-ref-client/client_error.hpp"
#include "peers/a2a-ref-client/router.hpp"  // StreamItem
#include "runner/a2a/methods.hpp"
#include "runner/core/deadline.hpp"

namespace a2a::client {

using StreamCallback = std::function<void(const StreamItem&)>;

class Session {
 public:
  virtual ~Session() = default;

  // A unary operation; kUsage for a streaming one.
  virtual CallResult call(model::Operation op, const Json& params, core::Deadline deadline) = 0;
  // A streaming operation: on_event gets every item in order on the calling
  // thread; the result says how the stream ended (success = a normal end).
  virtual CallResult stream(model::Operation op, const Json& params, const StreamCallback& on_event,
                            core::Deadline deadline) = 0;
  // Set once no later call can succeed (stdio: EOF, framing error). HTTP
  // sessions never die: every request stands alone.
  virtual std::optional<ClientError> dead() const = 0;
};

}  // namespace a2a::client
