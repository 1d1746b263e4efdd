// Test-only: a scripted HTTP agent on 127.0.0.1 (our HttpServer with a
// handler per test) and a Session wired to it, so abstract operations, raw
// steps and webhooks are tested over real sockets in-process.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "runner/engine/session.hpp"
#include "runner/transport/http_server.hpp"

namespace a2a::engine::testing {

// Answers every request with `script`; remembers the requests.
class ScriptedAgent {
 public:
  using Script = std::function<void(const std::shared_ptr<transport::HttpExchange>&)>;

  explicit ScriptedAgent(Script script) : script_(std::move(script)) {
    transport::HttpServerOptions o;
    o.threads = 1;
    auto s = transport::HttpServer::start(o, [this](std::shared_ptr<transport::HttpExchange> ex) {
      {
        std::lock_guard lk(mu_);
        requests_.push_back(ex->request());
      }
      script_(ex);
    });
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
    if (s) server_ = std::move(*s);
  }
  ~ScriptedAgent() {
    if (server_) server_->stop(core::Millis(500));
  }

  std::string url(const std::string& path = "") const {
    return "http://127.0.0.1:" + std::to_string(server_ ? server_->port() : 0) + path;
  }
  std::vector<transport::ServerRequest> requests() const {
    std::lock_guard lk(mu_);
    return requests_;
  }

 private:
  Script script_;
  std::unique_ptr<transport::HttpServer> server_;
  mutable std::mutex mu_;
  std::vector<transport::ServerRequest> requests_;
};

inline transport::ServerReply json_reply(int status, const std::string& body,
                                         const std::string& type = "application/json") {
  return transport::ServerReply{status, {{"Content-Type", type}}, body, false};
}

// A Session on one binding of a ScriptedAgent (config, target and pool are
// owned here, so the Session's pointers stay valid).
struct HttpSessionFixture {
  HttpSessionFixture(const std::string& binding, const std::string& url, const std::string& tenant = "")
      : pool(&transcript, false) {
    config.target_url = url;
    target = BindingTarget{binding, url, tenant, "1.0"};
    test.spec_version = "1.0";
    test.id = "T-1";
    s.config = &config;
    s.test = &test;
    s.target = &target;
    s.http = &pool;
    s.transcript = &transcript;
    s.deadline = core::Deadline::after(core::Millis(10000));
  }
  RunConfig config;
  scenario::Test test;
  BindingTarget target;
  transport::Transcript transcript;
  HttpPool pool;
  Session s;
};

inline core::Deadline soon(int ms = 5000) { return core::Deadline::after(core::Millis(ms)); }

}  // namespace a2a::engine::testing
