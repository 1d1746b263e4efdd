#include "runner/transport/http_server.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "runner/transport/http_server_test_util.hpp"

namespace a2a::transport {
namespace {

using core::Deadline;
using core::Millis;
using testing::raw_request;
using testing::RawConn;

Deadline soon() { return Deadline::after(Millis(5000)); }

// Hands exchanges from the handler to the test thread.
struct Inbox {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::shared_ptr<HttpExchange>> items;
  void push(std::shared_ptr<HttpExchange> ex) {
    std::lock_guard<std::mutex> lk(mu);
    items.push_back(std::move(ex));
    cv.notify_all();
  }
  std::shared_ptr<HttpExchange> pop(Deadline d = soon()) {
    std::unique_lock<std::mutex> lk(mu);
    if (!cv.wait_until(lk, d.time(), [&] { return !items.empty(); })) return nullptr;
    auto ex = items.front();
    items.erase(items.begin());
    return ex;
  }
};

std::unique_ptr<HttpServer> start(HttpHandler h, HttpServerOptions o = {}) {
  auto s = HttpServer::start(std::move(o), std::move(h));
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().str());
  return s.ok() ? std::move(*s) : nullptr;
}

HttpHandler echo_handler() {
  return [](std::shared_ptr<HttpExchange> ex) {
    const ServerRequest& r = ex->request();
    ServerReply reply;
    reply.headers = {{"Content-Type", "text/plain"}, {"X-Path", r.path()}, {"X-Query", r.query()}};
    reply.body = r.method + " " + r.body;
    ex->reply(std::move(reply));
  };
}

TEST(HttpServer, RepliesWithStatusHeadersAndBody) {
  auto server = start(echo_handler());
  ASSERT_TRUE(server);
  EXPECT_NE(server->port(), 0);
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("POST", "/a/b?x=1", {{"Content-Type", "text/plain"}}, std::string("hello"))));
  auto r = c.read_response(soon());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "POST hello");
  EXPECT_EQ(r->header("Content-Length"), "10");
  EXPECT_EQ(r->header("X-Path"), "/a/b");
  EXPECT_EQ(r->header("X-Query"), "x=1");
}

TEST(HttpServer, KeepAliveServesTwoRequestsOnOneConnection) {
  auto server = start(echo_handler());
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("GET", "/one")));
  auto r1 = c.read_response(soon());
  ASSERT_TRUE(c.send(raw_request("GET", "/two")));
  auto r2 = c.read_response(soon());
  ASSERT_TRUE(r1 && r2);
  EXPECT_EQ(r1->header("X-Path"), "/one");
  EXPECT_EQ(r2->header("X-Path"), "/two");
  EXPECT_EQ(server->connection_count(), 1u);
}

TEST(HttpServer, PipelinedRequestsAreAnsweredInOrder) {
  auto server = start(echo_handler());
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("GET", "/one") + raw_request("GET", "/two")));
  auto r1 = c.read_response(soon());
  auto r2 = c.read_response(soon());
  ASSERT_TRUE(r1 && r2);
  EXPECT_EQ(r1->header("X-Path"), "/one");
  EXPECT_EQ(r2->header("X-Path"), "/two");
}

TEST(HttpServer, ConnectionCloseRequestClosesAfterTheReply) {
  auto server = start(echo_handler());
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("GET", "/", {{"Connection", "close"}})));
  auto r = c.read_response(soon());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->header("Connection"), "close");
  EXPECT_TRUE(c.wait_eof(soon()));
}

TEST(HttpServer, StreamsChunksWrittenFromAnotherThread) {
  Inbox inbox;
  auto server = start([&](std::shared_ptr<HttpExchange> ex) { inbox.push(ex); });
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("GET", "/events")));
  auto ex = inbox.pop();
  ASSERT_TRUE(ex);
  std::thread writer([ex] {
    EXPECT_TRUE(ex->start_stream(200, {{"Content-Type", "text/event-stream"}}));
    EXPECT_TRUE(ex->write("data: 1\n\n"));
    EXPECT_TRUE(ex->write(""));  // no chunk: an empty one would end the body
    EXPECT_TRUE(ex->write("data: 2\n\n"));
    ex->end();
    EXPECT_FALSE(ex->write("late")) << "no write after end()";
  });
  ASSERT_TRUE(c.read_head(soon()));
  EXPECT_TRUE(c.read_body_until(soon(), [](const std::string& b) { return b.find("data: 2") != std::string::npos; }));
  writer.join();
  EXPECT_TRUE(c.read_body_until(soon(), [&](const std::string&) { return c.done(); }));
  auto r = c.response();
  EXPECT_EQ(r.header("Transfer-Encoding"), "chunked");
  EXPECT_EQ(r.body, "data: 1\n\ndata: 2\n\n");
  EXPECT_TRUE(r.complete);
  // The connection stays usable after the stream.
  ASSERT_TRUE(c.send(raw_request("GET", "/next")));
  auto next = inbox.pop();
  ASSERT_TRUE(next);
  next->reply(ServerReply{204, {}, "", false});
  auto r2 = c.read_response(soon());
  ASSERT_TRUE(r2);
  EXPECT_EQ(r2->status, 204);
  EXPECT_FALSE(r2->header("Content-Length")) << "RFC 9110: no Content-Length on 204";
}

TEST(HttpServer, ClientClosingMidStreamFiresOnCloseAndClosed) {
  Inbox inbox;
  auto server = start([&](std::shared_ptr<HttpExchange> ex) { inbox.push(ex); });
  auto c = std::make_unique<RawConn>(server->port());
  ASSERT_TRUE(c->send(raw_request("GET", "/events")));
  auto ex = inbox.pop();
  ASSERT_TRUE(ex);
  std::promise<void> fired;
  ex->on_close([&] { fired.set_value(); });
  ASSERT_TRUE(ex->start_stream(200, {{"Content-Type", "text/event-stream"}}));
  ASSERT_TRUE(c->read_head(soon()));
  c.reset();  // the client goes away
  EXPECT_EQ(fired.get_future().wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_TRUE(ex->closed());
  EXPECT_FALSE(ex->write("data: x\n\n"));
  bool ran = false;
  ex->on_close([&] { ran = true; });
  EXPECT_TRUE(ran) << "on_close after the close runs at once";
}

TEST(HttpServer, OnCloseDoesNotFireAfterACompleteReply) {
  Inbox inbox;
  auto server = start([&](std::shared_ptr<HttpExchange> ex) { inbox.push(ex); });
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("GET", "/")));
  auto ex = inbox.pop();
  std::atomic<bool> fired{false};
  ex->on_close([&] { fired = true; });
  ex->reply(ServerReply{200, {}, "ok", true});
  ASSERT_TRUE(c.read_response(soon()));
  EXPECT_TRUE(c.wait_eof(soon()));
  server->stop();
  EXPECT_FALSE(fired);
}

TEST(HttpServer, BodyAboveMaxBodyIs413) {
  HttpServerOptions o;
  o.max_body = 1000;
  std::atomic<int> handled{0};
  auto server = start([&](std::shared_ptr<HttpExchange> ex) {
    ++handled;
    ex->reply({});
  }, o);
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("POST", "/", {}, std::string(5000, 'x'))));
  auto r = c.read_response(soon());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(handled, 0);
  EXPECT_TRUE(c.wait_eof(soon()));
}

TEST(HttpServer, ProtocolErrorCallbackWritesTheBody) {
  HttpServerOptions o;
  o.max_body = 10;
  o.protocol_error = [](int status, std::string_view why) {
    return ServerReply{status, {{"Content-Type", "application/json"}}, "{\"why\":\"" + std::string(why) + "\"}", true};
  };
  auto server = start(echo_handler(), o);
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("POST", "/", {}, std::string(11, 'x'))));
  auto r = c.read_response(soon());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(r->header("Content-Type"), "application/json");
  EXPECT_EQ(r->body, "{\"why\":\"request body too large\"}");
}

TEST(HttpServer, HeaderAboveMaxHeaderIs431) {
  HttpServerOptions o;
  o.max_header = 2048;
  auto server = start(echo_handler(), o);
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("GET", "/", {{"X-Big", std::string(4096, 'a')}})));
  auto r = c.read_response(soon());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 431);
}

TEST(HttpServer, MalformedRequestIs400) {
  auto server = start(echo_handler());
  RawConn c(server->port());
  ASSERT_TRUE(c.send("GARBAGE\r\n\r\n"));
  auto r = c.read_response(soon());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
}

TEST(HttpServer, HalfARequestIsDroppedAfterTheRequestTimeout) {
  HttpServerOptions o;
  o.request_timeout = Millis(200);
  auto server = start(echo_handler(), o);
  RawConn c(server->port());
  ASSERT_TRUE(c.send("GET / HTTP/1.1\r\nHost: x\r\n"));
  EXPECT_TRUE(c.wait_eof(soon()));
}

TEST(HttpServer, IdleKeepAliveConnectionIsClosed) {
  HttpServerOptions o;
  o.idle_timeout = Millis(200);
  auto server = start(echo_handler(), o);
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("GET", "/")));
  ASSERT_TRUE(c.read_response(soon()));
  EXPECT_TRUE(c.wait_eof(soon()));
  Deadline d = soon();
  while (server->connection_count() > 0 && !d.expired()) std::this_thread::sleep_for(Millis(5));
  EXPECT_EQ(server->connection_count(), 0u);
}

TEST(HttpServer, StopWithAnOpenStreamReturnsAndClosesIt) {
  Inbox inbox;
  auto server = start([&](std::shared_ptr<HttpExchange> ex) { inbox.push(ex); });
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("GET", "/events")));
  auto ex = inbox.pop();
  ASSERT_TRUE(ex);
  ASSERT_TRUE(ex->start_stream(200, {{"Content-Type", "text/event-stream"}}));
  ASSERT_TRUE(ex->write("data: 1\n\n"));
  ASSERT_TRUE(c.read_head(soon()));
  auto t0 = core::Clock::now();
  server->stop(Millis(2000));
  EXPECT_LT(core::Clock::now() - t0, std::chrono::milliseconds(1500)) << "closing a stream needs no grace";
  EXPECT_TRUE(ex->closed());
  EXPECT_FALSE(ex->write("data: 2\n\n"));
  EXPECT_TRUE(c.wait_eof(soon()));
  server.reset();
  EXPECT_FALSE(ex->write("after destruction")) << "an exchange outliving its server is inert";
}

TEST(HttpServer, StopRightAfterAConnectClosesThatConnectionToo) {
  for (int i = 0; i < 20; ++i) {
    auto server = start(echo_handler());
    RawConn c(server->port());
    ASSERT_TRUE(c.send(raw_request("GET", "/")));
    server->stop(Millis(500));
    EXPECT_TRUE(c.wait_eof(soon())) << "round " << i;
  }
}

TEST(HttpServer, AbortClosesMidStreamWithoutTheLastChunk) {
  Inbox inbox;
  auto server = start([&](std::shared_ptr<HttpExchange> ex) { inbox.push(ex); });
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("GET", "/events")));
  auto ex = inbox.pop();
  ASSERT_TRUE(ex->start_stream(200, {}));
  ASSERT_TRUE(ex->write("data: 1\n\n"));
  ex->abort();
  ASSERT_TRUE(c.read_head(soon()));
  c.read_body_until(soon(), [](const std::string&) { return false; });
  auto r = c.response();
  EXPECT_EQ(r.body, "data: 1\n\n");
  EXPECT_FALSE(r.complete) << "the body never ended";
}

TEST(HttpServer, ClientThatDoesNotReadHitsTheQueueCap) {
  Inbox inbox;
  HttpServerOptions o;
  o.max_queued_bytes = 64u << 10;
  auto server = start([&](std::shared_ptr<HttpExchange> ex) { inbox.push(ex); }, o);
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("GET", "/events")));
  auto ex = inbox.pop();
  ASSERT_TRUE(ex->start_stream(200, {}));
  bool refused = false;
  std::string chunk(64u << 10, 'x');
  for (int i = 0; i < 2000 && !refused; ++i) refused = !ex->write(chunk);  // at most ~128 MiB offered
  EXPECT_TRUE(refused);
  Deadline d = soon();
  while (!ex->closed() && !d.expired()) std::this_thread::sleep_for(Millis(5));
  EXPECT_TRUE(ex->closed());
}

TEST(HttpServer, HandlerExceptionIs500) {
  auto server = start([](std::shared_ptr<HttpExchange>) { throw std::runtime_error("boom"); });
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("GET", "/")));
  auto r = c.read_response(soon());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 500);
}

TEST(HttpServer, HeadGetsHeadersWithoutBody) {
  auto server = start(echo_handler());
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("HEAD", "/")));
  auto r = c.read_response(soon(), true);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->header("Content-Length"), "5");  // "HEAD "
  ASSERT_TRUE(c.send(raw_request("GET", "/x")));
  auto r2 = c.read_response(soon());
  ASSERT_TRUE(r2);
  EXPECT_EQ(r2->header("X-Path"), "/x") << "no stray body bytes after the HEAD reply";
}

TEST(HttpServer, ExpectContinueGetsA100) {
  auto server = start(echo_handler());
  RawConn c(server->port());
  ASSERT_TRUE(c.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n"));
  ASSERT_TRUE(c.fill(soon()) > 0);
  EXPECT_EQ(c.pending().rfind("HTTP/1.1 100 Continue\r\n\r\n", 0), 0u);
  c.pending().clear();
  ASSERT_TRUE(c.send("abc"));
  auto r = c.read_response(soon());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "POST abc");
}

TEST(HttpServer, Http10StreamEndsByClosing) {
  Inbox inbox;
  auto server = start([&](std::shared_ptr<HttpExchange> ex) { inbox.push(ex); });
  RawConn c(server->port());
  ASSERT_TRUE(c.send("GET / HTTP/1.0\r\n\r\n"));
  auto ex = inbox.pop();
  EXPECT_EQ(ex->request().version, 10);
  ASSERT_TRUE(ex->start_stream(200, {}));
  ASSERT_TRUE(ex->write("abc"));
  ex->end();
  auto r = c.read_response(soon());
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->header("Transfer-Encoding"));
  EXPECT_EQ(r->body, "abc");
  EXPECT_TRUE(r->complete);
}

TEST(HttpServer, ConnectionsAboveTheCapAreClosed) {
  HttpServerOptions o;
  o.max_connections = 1;
  auto server = start(echo_handler(), o);
  RawConn first(server->port());
  ASSERT_TRUE(first.send(raw_request("GET", "/")));
  ASSERT_TRUE(first.read_response(soon()));
  RawConn second(server->port());
  EXPECT_TRUE(second.wait_eof(soon()));
}

TEST(HttpServer, BindFailureIsAnError) {
  auto first = start(echo_handler());
  HttpServerOptions o;
  o.port = first->port();
  auto second = HttpServer::start(o, echo_handler());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().kind, core::ErrorKind::kIo);
  o.address = "not an address";
  auto third = HttpServer::start(o, echo_handler());
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.error().kind, core::ErrorKind::kInvalidArgument);
}

TEST(HttpServer, RequestCarriesRemoteAndHeaders) {
  Inbox inbox;
  auto server = start([&](std::shared_ptr<HttpExchange> ex) { inbox.push(ex); });
  RawConn c(server->port());
  ASSERT_TRUE(c.send(raw_request("GET", "/p", {{"X-Thing", "v1"}})));
  auto ex = inbox.pop();
  ASSERT_TRUE(ex);
  EXPECT_EQ(ex->request().remote.rfind("127.0.0.1:", 0), 0u);
  EXPECT_EQ(ex->request().header("x-thing"), "v1");
  ex->reply({});
  EXPECT_TRUE(c.read_response(soon()));
}

}  // namespace
}  // namespace a2a::transport
