// URL parsing, rendering and joining on literal strings.
#include <gtest/gtest.h>

#include <string>

#include "runner/transport/url.hpp"

namespace {

using a2a::core::ErrorKind;
using namespace a2a::transport;

struct GoodUrl {
  const char* name;
  const char* text;
  const char* scheme;
  const char* host;
  uint16_t port;
  const char* path;
  const char* query;
  const char* str;  // how it renders back
};

class UrlParses : public ::testing::TestWithParam<GoodUrl> {};

TEST_P(UrlParses, IntoItsPartsAndRendersBack) {
  const auto& c = GetParam();
  auto u = Url::parse(c.text);
  ASSERT_TRUE(u.ok()) << u.error().message;
  EXPECT_EQ(u->scheme, c.scheme);
  EXPECT_EQ(u->host, c.host);
  EXPECT_EQ(u->port, c.port);
  EXPECT_EQ(u->path, c.path);
  EXPECT_EQ(u->query, c.query);
  EXPECT_EQ(u->str(), c.str);
}

INSTANTIATE_TEST_SUITE_P(
    Url, UrlParses,
    ::testing::Values(
        GoodUrl{"HttpDefaultPort", "http://example.com", "http", "example.com", 80, "/", "", "http://example.com/"},
        GoodUrl{"HttpsDefaultPort", "https://agent.example/a2a", "https", "agent.example", 443, "/a2a", "",
                "https://agent.example/a2a"},
        GoodUrl{"ExplicitPort", "http://127.0.0.1:8080/rpc", "http", "127.0.0.1", 8080, "/rpc", "",
                "http://127.0.0.1:8080/rpc"},
        GoodUrl{"ExplicitDefaultPortDropped", "https://h:443/", "https", "h", 443, "/", "", "https://h/"},
        GoodUrl{"EmptyPortIsDefault", "http://h:/x", "http", "h", 80, "/x", "", "http://h/x"},
        GoodUrl{"SchemeAndHostLowerCased", "HTTP://Example.COM/Path", "http", "example.com", 80, "/Path", "",
                "http://example.com/Path"},
        GoodUrl{"Ipv6Bracketed", "http://[::1]:9000/a", "http", "::1", 9000, "/a", "", "http://[::1]:9000/a"},
        GoodUrl{"QueryKept", "http://h/p?a=1&b=%20", "http", "h", 80, "/p", "a=1&b=%20", "http://h/p?a=1&b=%20"},
        GoodUrl{"QueryWithoutPath", "http://h?x", "http", "h", 80, "/", "x", "http://h/?x"},
        GoodUrl{"PercentEncodingKept", "http://h/a%2Fb", "http", "h", 80, "/a%2Fb", "", "http://h/a%2Fb"}),
    [](const auto& info) { return std::string(info.param.name); });

struct BadUrl {
  const char* name;
  const char* text;
  const char* says;  // part of the message
};

class UrlRejects : public ::testing::TestWithParam<BadUrl> {};

TEST_P(UrlRejects, WithAMessageSayingWhatIsWrong) {
  const auto& c = GetParam();
  auto u = Url::parse(c.text);
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(u.error().message.find(c.says), std::string::npos) << u.error().message;
  EXPECT_NE(u.error().message.find(std::string("URL '") + c.text + "'"), std::string::npos) << u.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Url, UrlRejects,
    ::testing::Values(BadUrl{"FtpScheme", "ftp://x", "scheme must be http or https"},
                      BadUrl{"NoScheme", "example.com/a2a", "missing scheme"},
                      BadUrl{"NoHost", "http:///path", "missing host"},
                      BadUrl{"EmptyHostWithPort", "http://:80/", "missing host"},
                      BadUrl{"Userinfo", "http://user:pw@h/", "userinfo"},
                      BadUrl{"Fragment", "http://h/p#frag", "fragment"},
                      BadUrl{"PortNotNumber", "http://h:8o/", "port '8o' is not a decimal number"},
                      BadUrl{"PortZero", "http://h:0/", "out of range"},
                      BadUrl{"PortTooLarge", "http://h:65536/", "out of range"},
                      BadUrl{"Ipv6WithoutBrackets", "http://::1/", "brackets"},
                      BadUrl{"Ipv6Unclosed", "http://[::1/", "without ']'"},
                      BadUrl{"Ipv6Invalid", "http://[zz]/", "not an IPv6 address"},
                      BadUrl{"SpaceInside", "http://h/a b", "whitespace"},
                      BadUrl{"BadHostChar", "http://h$t/", "contains '$'"}),
    [](const auto& info) { return std::string(info.param.name); });

Url must_parse(const char* text) {
  auto u = Url::parse(text);
  EXPECT_TRUE(u.ok()) << text;
  return u.ok() ? *u : Url{};
}

TEST(Url, JoinPutsExactlyOneSlashAtTheSeam) {
  EXPECT_EQ(must_parse("http://h/a2a").join("/tasks/1").target(), "/a2a/tasks/1");
  EXPECT_EQ(must_parse("http://h/a2a/").join("/tasks/1").target(), "/a2a/tasks/1");
  EXPECT_EQ(must_parse("http://h/a2a/").join("tasks/1").target(), "/a2a/tasks/1");
  EXPECT_EQ(must_parse("http://h").join("/.well-known/agent-card.json").target(), "/.well-known/agent-card.json");
}

TEST(Url, JoinQueryReplacesTheBaseQuery) {
  EXPECT_EQ(must_parse("http://h/a?k=1").join("/t?x=2").target(), "/a/t?x=2");
  EXPECT_EQ(must_parse("http://h/a?k=1").join("/t").target(), "/a/t?k=1");
  EXPECT_EQ(must_parse("http://h/a").join("?only").target(), "/a?only");
}

TEST(Url, HostHeaderBracketsIpv6AndOmitsDefaultPort) {
  EXPECT_EQ(must_parse("http://[::1]:8080/").host_header(), "[::1]:8080");
  EXPECT_EQ(must_parse("https://h:443/").host_header(), "h");
  EXPECT_EQ(must_parse("http://h:8443/").host_header(), "h:8443");
  EXPECT_TRUE(must_parse("https://h/").tls());
  EXPECT_FALSE(must_parse("http://h/").tls());
}

TEST(Url, LoopbackCoversIpv4RangeIpv6AndLocalhost) {
  EXPECT_TRUE(must_parse("http://127.0.0.1/").is_loopback());
  EXPECT_TRUE(must_parse("http://127.3.2.1/").is_loopback());
  EXPECT_TRUE(must_parse("http://[::1]/").is_loopback());
  EXPECT_TRUE(must_parse("http://LocalHost/").is_loopback());
  EXPECT_FALSE(must_parse("http://128.0.0.1/").is_loopback());
  EXPECT_FALSE(must_parse("http://example.com/").is_loopback());
  EXPECT_FALSE(must_parse("http://[::2]/").is_loopback());
}

TEST(PercentEncoding, KeepsUnreservedAndRoundTrips) {
  EXPECT_EQ(percent_encode("a-b_c.d~e"), "a-b_c.d~e");
  EXPECT_EQ(percent_encode("a b/c?\xC3\xA9"), "a%20b%2Fc%3F%C3%A9");
  EXPECT_EQ(percent_decode("a%20b%2fc%3F%C3%A9"), "a b/c?\xC3\xA9");
  EXPECT_EQ(percent_decode("100%"), "100%");
  EXPECT_EQ(percent_decode("%zz%4"), "%zz%4");
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  EXPECT_EQ(percent_decode(percent_encode(all)), all);
}

}  // namespace
