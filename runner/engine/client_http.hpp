// The scripted agent of HTTP client scenarios: a server on 127.0.0.1:0 that
// serves its own agent card (one interface: this server, the run's binding)
// and queues every other request for the scenario's steps to judge and
// answer (x-expect-request, x-reply, client_response).
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"
#include "runner/transport/http_server.hpp"
#include "runner/transport/transcript.hpp"

namespace a2a::engine {

class ScriptedServer {
 public:
  // binding: "jsonrpc" or "rest".
  static core::Expected<std::unique_ptr<ScriptedServer>> start(const std::string& binding,
                                                               transport::Transcript* tr);
  ~ScriptedServer();
  std::string base_url() const;
  // The card's one interface is another server (a registered binding's
  // scripted agent, e.g. gRPC at "127.0.0.1:PORT"), not this one.
  void set_interface(std::string url, std::string protocol_binding);
  // x-card: these members replace the default card's (before the client starts).
  void set_card_members(nlohmann::json members);
  // The next request the client sent (card fetches excepted); nullptr at the deadline.
  std::shared_ptr<transport::HttpExchange> take(core::Deadline d);
  size_t pending() const;
  void interrupt();

 private:
  ScriptedServer() = default;
  void on_request(std::shared_ptr<transport::HttpExchange> ex);
  nlohmann::json card() const;

  std::string binding_;
  transport::Transcript* tr_ = nullptr;
  std::unique_ptr<transport::HttpServer> server_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<transport::HttpExchange>> inbox_;
  bool stop_ = false;
  nlohmann::json card_members_ = nlohmann::json::object();
  std::string iface_url_, iface_binding_;  // set_interface()
};

}  // namespace a2a::engine
