// HttpClient against scripted peers on real 127.0.0.1 sockets: keep-alive,
// the stale-connection retry, chunked and streamed bodies, and every way a
// hostile server can try to hang or flood the client.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "runner/transport/http_client.hpp"
#include "runner/transport/http_test_server.hpp"

namespace {

using namespace a2a::transport;
using namespace a2a::transport::testing;
using a2a::core::ErrorKind;

constexpr std::string_view kOk = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok";
constexpr std::string_view kChunkedHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                                          "Transfer-Encoding: chunked\r\n\r\n";

bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

HttpRequest get(std::string target = "/") {
  HttpRequest r;
  r.target = std::move(target);
  return r;
}

TEST(HttpClient, KeepAliveCarriesTwoRequestsOnOneConnection) {
  ScriptedServer srv([](int, Peer& p) {
    for (int i = 0; i < 2; ++i) {
      if (p.read_request().empty()) return;
      p.send(i == 0 ? "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst"
                    : "HTTP/1.1 201 Created\r\nContent-Length: 6\r\n\r\nsecond");
    }
  });
  HttpClient client(srv.url());
  auto a = client.request(get("/a"), soon());
  ASSERT_TRUE(a.ok()) << a.error().message;
  auto b = client.request(get("/b"), soon());
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(a->body, "first");
  EXPECT_EQ(b->status, 201);
  EXPECT_EQ(b->reason, "Created");
  EXPECT_EQ(b->body, "second");
  EXPECT_EQ(srv.accepted(), 1);
}

TEST(HttpClient, RetriesOnceWhenThePeerClosedTheIdleConnection) {
  ScriptedServer srv([](int, Peer& p) {
    if (!p.read_request().empty()) p.send(kOk);  // then closes: keep-alive ended by the peer
  });
  Transcript t;
  HttpClientOptions o;
  o.transcript = &t;
  HttpClient client(srv.url(), o);
  ASSERT_TRUE(client.request(get(), soon()).ok());
  ASSERT_TRUE(srv.wait_finished(1));
  auto again = client.request(get(), soon());
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->body, "ok");
  EXPECT_EQ(srv.accepted(), 2);
  bool noted = false;
  for (const auto& e : t.entries()) noted |= e.dir == Direction::kNote && contains(e.bytes, "reconnect");
  EXPECT_TRUE(noted);
}

TEST(HttpClient, PostSendsBodyWithContentLengthHostAndUserAgent) {
  std::string seen;
  ScriptedServer srv([&](int, Peer& p) {
    seen = p.read_request();
    p.send(kOk);
  });
  HttpRequest req;
  req.method = "POST";
  req.target = "/rpc?x=1";
  req.headers = {{"Content-Type", "application/json"}};
  req.body = "{\"a\":1}";
  auto r = HttpClient(srv.url()).request(req, soon());
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(srv.wait_finished(1));
  EXPECT_EQ(seen.substr(0, 23), "POST /rpc?x=1 HTTP/1.1\r");
  EXPECT_TRUE(contains(seen, "\r\nHost: 127.0.0.1:" + std::to_string(srv.port()) + "\r\n")) << seen;
  EXPECT_TRUE(contains(seen, "\r\nContent-Length: 7\r\n")) << seen;
  EXPECT_TRUE(contains(seen, "\r\nUser-Agent: a2a-conform\r\n")) << seen;
  EXPECT_FALSE(contains(seen, "Accept")) << seen;
  EXPECT_TRUE(contains(seen, "\r\n\r\n{\"a\":1}")) << seen;
  EXPECT_EQ(r->content_type(), "text/plain");
}

TEST(HttpClient, DecodesAChunkedResponse) {
  ScriptedServer srv([](int, Peer& p) {
    p.read_request();
    p.send(std::string(kChunkedHead) + "3\r\nabc\r\n0A;ext=1\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n");
  });
  auto r = HttpClient(srv.url()).request(get(), soon());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->body, "abc0123456789");
  EXPECT_FALSE(r->truncated);
}

// A chunk whose size line alone passes the body cap fails at that line, in
// well under the 5 s deadline, saying which cap: the peer sends nothing after.
TEST(HttpClient, ChunkDeclaredOverTheBodyCapFailsAtOnce) {
  ScriptedServer srv([](int, Peer& p) {
    p.read_request();
    p.send(std::string(kChunkedHead) + "3\r\nabc\r\n" + "1000001\r\nxy");  // 16 MiB + 1
    p.wait_closed();
  });
  auto t0 = std::chrono::steady_clock::now();
  auto r = HttpClient(srv.url()).request(get(), soon());
  auto took = std::chrono::steady_clock::now() - t0;
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kProtocol);
  EXPECT_TRUE(contains(r.error().message, "chunk declared larger than the 16 MiB cap")) << r.error().message;
  EXPECT_TRUE(contains(r.error().message, "16777217 bytes declared")) << r.error().message;
  EXPECT_LT(took, std::chrono::seconds(2));
}

TEST(HttpClient, SkipsInterimResponsesAndReadsBodyUntilClose) {
  ScriptedServer srv([](int, Peer& p) {
    p.read_request();
    p.send("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end");
  });
  auto r = HttpClient(srv.url()).request(get(), soon());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "until the end");
}

TEST(HttpClient, HeadResponseHasNoBodyDespiteContentLength) {
  ScriptedServer srv([](int, Peer& p) {
    p.read_request();
    p.send("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n");
    p.wait_closed();
  });
  HttpRequest req;
  req.method = "HEAD";
  auto r = HttpClient(srv.url()).request(req, soon());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->header("content-length"), "1000");
  EXPECT_TRUE(r->body.empty());
}

TEST(HttpClient, StreamDeliversChunksBeforeTheServerEndsTheBody) {
  std::atomic<bool> first_seen{false};
  bool second_sent_after_first_seen = false;
  ScriptedServer srv([&](int, Peer& p) {
    p.read_request();
    p.send(std::string(kChunkedHead) + "b\r\ndata: one\n\n\r\n");
    auto d = soon();
    while (!first_seen && !d.expired()) std::this_thread::sleep_for(Millis(2));
    second_sent_after_first_seen = first_seen;
    p.send("b\r\ndata: two\n\n\r\n0\r\n\r\n");
  });
  std::vector<std::string> pieces;
  int heads = 0;
  HttpClient client(srv.url());
  auto r = client.stream(
      get("/events"), soon(),
      [&](const HttpResponse& h) {
        ++heads;
        return h.content_type() == "text/event-stream";
      },
      [&](std::string_view bytes) {
        pieces.emplace_back(bytes);
        first_seen = true;
        return true;
      });
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(srv.wait_finished(1));
  EXPECT_EQ(heads, 1);
  EXPECT_TRUE(second_sent_after_first_seen);
  ASSERT_GE(pieces.size(), 2u);
  std::string all;
  for (const auto& s : pieces) all += s;
  EXPECT_EQ(all, "data: one\n\ndata: two\n\n");
  EXPECT_TRUE(r->body.empty());
}

TEST(HttpClient, StreamStopsAndClosesWhenOnDataReturnsFalse) {
  bool client_closed = false;
  ScriptedServer srv([&](int, Peer& p) {
    p.read_request();
    p.send(std::string(kChunkedHead) + "5\r\nfirst\r\n");
    client_closed = p.wait_closed();
  });
  int calls = 0;
  auto r = HttpClient(srv.url()).stream(get(), soon(), nullptr, [&](std::string_view) { return ++calls < 1; });
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 200);
  ASSERT_TRUE(srv.wait_finished(1));
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(client_closed);
}

TEST(HttpClient, SilentServerGivesTimeout) {
  ScriptedServer srv([](int, Peer& p) {
    p.read_request();
    p.wait_closed();
  });
  auto r = HttpClient(srv.url()).request(get(), soon(300));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kTimeout);
  EXPECT_TRUE(contains(r.error().message, "response header")) << r.error().message;
}

TEST(HttpClient, TricklingHeaderStillEndsAtTheDeadline) {
  ScriptedServer srv([](int, Peer& p) {
    p.read_request();
    p.send("HTTP/1.1 200 OK\r\nX-Slow: ");
    auto bound = soon();
    while (!bound.expired() && p.send("a")) std::this_thread::sleep_for(Millis(20));
  });
  auto r = HttpClient(srv.url()).request(get(), soon(300));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kTimeout);
}

TEST(HttpClient, EndlessChunkedStreamEndsAtTheDeadlineSayingHowMuchArrived) {
  ScriptedServer srv([](int, Peer& p) {
    p.read_request();
    p.send(kChunkedHead);
    auto bound = soon();
    while (!bound.expired() && p.send("5\r\nhello\r\n")) std::this_thread::sleep_for(Millis(10));
  });
  size_t got = 0;
  auto r = HttpClient(srv.url()).stream(get(), soon(300), nullptr, [&](std::string_view b) {
    got += b.size();
    return true;
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kTimeout);
  EXPECT_GT(got, 0u);
  EXPECT_TRUE(contains(r.error().message, std::to_string(got) + " body bytes received")) << r.error().message;
}

TEST(HttpClient, CloseMidChunkIsEofSayingHowManyBytes) {
  ScriptedServer srv([](int, Peer& p) {
    p.read_request();
    p.send(std::string(kChunkedHead) + "10\r\nabc");
  });
  auto r = HttpClient(srv.url()).stream(get(), soon(), nullptr, [](std::string_view) { return true; });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kEof);
  EXPECT_TRUE(contains(r.error().message, "connection closed mid-body after 3 bytes")) << r.error().message;
}

TEST(HttpClient, BodyAboveMaxBodyIsTruncatedNotAnError) {
  ScriptedServer srv([](int, Peer& p) {
    p.read_request();
    p.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + std::string(100, 'x'));
  });
  Transcript t;
  HttpClientOptions o;
  o.limits.max_body = 10;
  o.transcript = &t;
  auto r = HttpClient(srv.url(), o).request(get(), soon());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->truncated);
  EXPECT_EQ(r->body, std::string(10, 'x'));
  bool noted = false;
  for (const auto& e : t.entries()) noted |= contains(e.bytes, "Content-Length declared 100");
  EXPECT_TRUE(noted);
}

TEST(HttpClient, HeaderAboveMaxHeaderIsAProtocolError) {
  ScriptedServer srv([](int, Peer& p) {
    p.read_request();
    p.send("HTTP/1.1 200 OK\r\nX-Big: " + std::string(4096, 'b') + "\r\nContent-Length: 0\r\n\r\n");
  });
  HttpClientOptions o;
  o.limits.max_header = 1024;
  auto r = HttpClient(srv.url(), o).request(get(), soon());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kProtocol);
  EXPECT_TRUE(contains(r.error().message, "max_header")) << r.error().message;
}

TEST(HttpClient, InterruptFromAnotherThreadWakesABlockedCall) {
  ScriptedServer srv([](int, Peer& p) {
    p.read_request();
    p.wait_closed(soon(30000));
  });
  HttpClient client(srv.url());
  std::thread other([&] {
    std::this_thread::sleep_for(Millis(100));
    client.interrupt();
  });
  auto r = client.request(get(), soon(30000));
  other.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kTimeout);
  EXPECT_TRUE(contains(r.error().message, "interrupted")) << r.error().message;
  auto later = client.request(get(), soon(30000));
  ASSERT_FALSE(later.ok());
  EXPECT_EQ(later.error().kind, ErrorKind::kTimeout);
}

TEST(HttpClient, RawSendsBytesVerbatim) {
  const std::string bytes = "GET  /odd HTTP/1.1\r\nx-dup: 1\r\nX-Dup:  2 \r\n\r\n";
  std::string seen;
  ScriptedServer srv([&](int, Peer& p) {
    seen = p.read_until("\r\n\r\n");
    p.send("HTTP/1.1 400 Bad Request\r\nContent-Length: 3\r\n\r\nbad");
  });
  auto r = HttpClient(srv.url()).raw(bytes, soon());
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(srv.wait_finished(1));
  EXPECT_EQ(seen, bytes);
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(r->body, "bad");
}

TEST(HttpClient, RawReportsANonHttpAnswerAsProtocolError) {
  ScriptedServer srv([](int, Peer& p) {
    p.read_until("\r\n\r\n");
    p.send("SSH-2.0-nope\r\n\r\n");
  });
  auto r = HttpClient(srv.url()).raw("GET / HTTP/1.1\r\n\r\n", soon());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kProtocol);
}

TEST(HttpClient, ConnectionRefusedNamesHostAndPort) {
  uint16_t port;
  {
    ScriptedServer srv([](int, Peer&) {}, 0);  // a port that was just free, now closed
    port = srv.port();
  }
  auto url = Url::parse("http://127.0.0.1:" + std::to_string(port) + "/");
  ASSERT_TRUE(url.ok());
  auto r = HttpClient(*url).request(get(), soon());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kIo);
  EXPECT_TRUE(contains(r.error().message, "127.0.0.1:" + std::to_string(port))) << r.error().message;
  EXPECT_TRUE(contains(r.error().message, "refused")) << r.error().message;
}

TEST(HttpClient, ResolvesAHostName) {
  ScriptedServer srv([](int, Peer& p) {
    p.read_request();
    p.send(kOk);
  });
  auto url = Url::parse("http://localhost:" + std::to_string(srv.port()) + "/");
  ASSERT_TRUE(url.ok());
  auto r = HttpClient(*url).request(get(), soon());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->body, "ok");
}

TEST(HttpClient, TranscriptRecordsBothDirectionsAndTheConnect) {
  ScriptedServer srv([](int, Peer& p) {
    p.read_request();
    p.send(kOk);
  });
  Transcript t;
  HttpClientOptions o;
  o.transcript = &t;
  HttpClient client(srv.url(), o);
  ASSERT_TRUE(client.request(get("/x"), soon()).ok());
  client.close();
  std::string to, from, notes;
  for (const auto& e : t.entries()) {
    if (e.dir == Direction::kToPeer) to += e.bytes;
    if (e.dir == Direction::kFromPeer) from += e.bytes;
    if (e.dir == Direction::kNote) notes += e.bytes + "\n";
  }
  EXPECT_EQ(to.substr(0, 17), "GET /x HTTP/1.1\r\n");
  EXPECT_EQ(from, kOk);
  EXPECT_TRUE(contains(notes, "connect 127.0.0.1:" + std::to_string(srv.port()) + "\n")) << notes;
  EXPECT_TRUE(contains(notes, "close: closed by the caller")) << notes;
}

TEST(HttpFetch, UsesTheUrlTargetAndClosesAfterwards) {
  std::string seen;
  bool closed = false;
  ScriptedServer srv([&](int, Peer& p) {
    seen = p.read_request();
    p.send(kOk);
    closed = p.wait_closed();
  });
  auto r = http_fetch(srv.url("/.well-known/agent-card.json?v=1"), HttpRequest{}, soon());
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(srv.wait_finished(1));
  EXPECT_EQ(seen.substr(0, 46), "GET /.well-known/agent-card.json?v=1 HTTP/1.1\r");
  EXPECT_TRUE(closed);
}

TEST(HttpHeaders, LookupIsCaseInsensitiveAndContentTypeDropsParameters) {
  HttpResponse r;
  r.headers = {{"content-TYPE", "Application/JSON ; charset=utf-8"}, {"X-A", "1"}, {"x-a", "2"}};
  EXPECT_EQ(r.header("Content-Type"), "Application/JSON ; charset=utf-8");
  EXPECT_EQ(find_header(r.headers, "X-a"), "1");
  EXPECT_FALSE(find_header(r.headers, "X-B").has_value());
  EXPECT_EQ(r.content_type(), "application/json");
  EXPECT_EQ(HttpResponse{}.content_type(), "");
}

}  // namespace
