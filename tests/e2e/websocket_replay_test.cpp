// Interop on the WebSocket binding without a WebSocket A2A SDK: a2a-rust's
// own test exchanges, written down as literal frames in
// fixtures/interop/a2a-rust-websocket-replay.acts.yaml (the file cites the
// a2a-rust files and commits), go through our runner's frame parser to our
// agent's server; every one must get what a2a-rust's test asserts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/e2e/http_peer.hpp"
#include "tests/e2e/run_command.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_websocket_replay {

namespace fs = std::filesystem;
using Json = nlohmann::json;

TEST(WebSocketReplay, ARustTestExchangesGetWhatTheirTestsAssertFromOurAgent) {
  a2a::testing::HttpPeer agent({A2A_REF_AGENT, "--http", "0", "--websocket", "0", "-q"});
  ASSERT_TRUE(agent.ok()) << agent.error();
  fs::path dir = fs::path(A2A_BINARY_DIR) / "test-artifacts";
  fs::create_directories(dir);
  fs::path json = dir / "websocket-replay.json";
  fs::remove(json);
  auto r = a2a::testing::run_command({A2A_CONFORM, "run", "--url", agent.url(), "--binding", "websocket", "-q",
                                      "--color", "never", "--json", json.string(),
                                      std::string(A2A_SOURCE_DIR) + "/fixtures/interop/a2a-rust-websocket-replay.acts.yaml"},
                                     120000);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  std::ifstream in(json);
  Json report = Json::parse(in, nullptr, false);
  ASSERT_TRUE(report.is_object()) << r.out << r.err;
  int passed = 0;
  for (const auto& s : report.value("scenarios", Json::array())) {
    EXPECT_EQ(s["outcome"], "PASS") << s["id"] << ": " << s.value("reason", "");
    passed += s["outcome"] == "PASS";
  }
  EXPECT_EQ(passed, 14);
}

}  // namespace e2e_websocket_replay
