// AgentConnection against small real processes (sh) on pipes.
#include <gtest/gtest.h>

#include "runner/engine/agent_connection.hpp"

namespace {

using a2a::core::Deadline;
using a2a::core::Millis;
using a2a::engine::AgentConnection;
using a2a::engine::ConnectionOptions;

std::unique_ptr<AgentConnection> start(const std::string& script) {
  ConnectionOptions o;
  o.spawn.argv = {"sh", "-c", script};
  auto c = AgentConnection::start(o);
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message);
  return c.ok() ? std::move(c.value()) : nullptr;
}

TEST(AgentConnection, SilenceIsProvenAsSoonAsStdoutEnds) {
  auto c = start("exit 0");
  ASSERT_TRUE(c);
  // The window is far longer than the deadline: only the end of stdout can
  // end the wait before the deadline.
  Deadline deadline = Deadline::after(Millis(20000));
  EXPECT_TRUE(c->quiet_for(Millis(600000), deadline));
  EXPECT_FALSE(deadline.expired()) << "quiet_for waited past the end of stdout";
  c->shutdown(Millis(1000), Millis(1000));
}

TEST(AgentConnection, OutputBeforeTheEndStillBreaksTheSilence) {
  auto c = start("sleep 0.5; printf 'Content-Length: 2\\r\\n\\r\\n{}'; exit 0");
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->quiet_for(Millis(10000), Deadline::after(Millis(20000))));
  c->shutdown(Millis(1000), Millis(1000));
}

}  // namespace
