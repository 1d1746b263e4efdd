// A scripted HTTP agent for the client's tests: an in-process HttpServer on
// 127.0.0.1 that serves a literal Agent Card and answers every other request
// with the next queued answer (bytes written by hand), recording what came.
#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "runner/transport/http_server.hpp"

namespace a2a::client::fake {

struct HttpAnswer {
  int status = 200;
  transport::HeaderList headers;
  std::string body;                  // a whole reply
  std::vector<std::string> chunks;   // non-empty: a chunked stream written piece by piece
};

inline HttpAnswer json_answer(int status, std::string body) {
  return {status, {{"Content-Type", "application/json"}}, std::move(body), {}};
}
inline HttpAnswer sse_answer(std::vector<std::string> chunks) {
  return {200, {{"Content-Type", "text/event-stream"}}, "", std::move(chunks)};
}

class HttpAgent {
 public:
  // `card`: the card JSON; "{BASE}" in it becomes http://127.0.0.1:PORT.
  explicit HttpAgent(std::string card, int card_status = 200) : card_status_(card_status) {
    auto started = transport::HttpServer::start({}, [this](std::shared_ptr<transport::HttpExchange> ex) { serve(ex); });
    EXPECT_TRUE(started.ok()) << (started.ok() ? "" : started.error().str());
    if (!started.ok()) return;
    server_ = std::move(*started);
    std::lock_guard lock(mu_);
    for (size_t at; (at = card.find("{BASE}")) != std::string::npos;) card.replace(at, 6, base());
    card_ = std::move(card);
  }
  ~HttpAgent() {
    if (server_) server_->stop();
  }

  std::string base() const { return "http://127.0.0.1:" + std::to_string(server_ ? server_->port() : 0); }
  void queue(HttpAnswer a) {
    std::lock_guard lock(mu_);
    answers_.push_back(std::move(a));
  }
  std::vector<transport::ServerRequest> requests() const {  // card fetches excluded
    std::lock_guard lock(mu_);
    return requests_;
  }
  int card_fetches() const {
    std::lock_guard lock(mu_);
    return card_fetches_;
  }

 private:
  void serve(const std::shared_ptr<transport::HttpExchange>& ex) {
    std::unique_lock lock(mu_);
    if (ex->request().path() == "/.well-known/agent-card.json") {
      ++card_fetches_;
      ex->reply({card_status_, {{"Content-Type", "application/json"}}, card_, false});
      return;
    }
    requests_.push_back(ex->request());
    HttpAnswer a = json_answer(500, "no answer queued");
    if (!answers_.empty()) {
      a = std::move(answers_.front());
      answers_.pop_front();
    }
    lock.unlock();
    if (a.chunks.empty()) {
      ex->reply({a.status, a.headers, a.body, false});
      return;
    }
    if (!ex->start_stream(a.status, a.headers)) return;
    for (std::string& c : a.chunks) ex->write(std::move(c));
    ex->end();
  }

  int card_status_;
  std::unique_ptr<transport::HttpServer> server_;
  mutable std::mutex mu_;
  std::string card_;
  std::deque<HttpAnswer> answers_;
  std::vector<transport::ServerRequest> requests_;
  int card_fetches_ = 0;
};

// A card with one interface at {BASE}{path}.
inline std::string one_interface_card(std::string_view binding, std::string_view path, std::string_view tenant = "") {
  std::string iface = R"({"url":"{BASE})" + std::string(path) + R"(","protocolBinding":")" + std::string(binding) +
                      R"(","protocolVersion":"1.0")";
  if (!tenant.empty()) iface += R"(,"tenant":")" + std::string(tenant) + "\"";
  return R"({"name":"fake","supportedInterfaces":[)" + iface + "}]}";
}

}  // namespace a2a::client::fake
