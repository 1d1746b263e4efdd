#include <gtest/gtest.h>

#include "runner/bindings/grpc/grpc_binding.hpp"

namespace a2a::bindings {
namespace {

TEST(GrpcTarget, CardAndUrlForms) {
  auto a = grpc_target("127.0.0.1:50051");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->authority, "127.0.0.1:50051");
  EXPECT_FALSE(a->tls);
  auto b = grpc_target("http://localhost:8081/");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->authority, "localhost:8081");
  EXPECT_FALSE(b->tls);
  auto c = grpc_target("https://agent.example:443");
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->tls);
  auto d = grpc_target("grpcs://[::1]:9");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->authority, "[::1]:9");
  EXPECT_TRUE(d->tls);
}

TEST(GrpcTarget, UnusableFormsSayWhy) {
  for (const char* bad : {"", "host", "host:", ":80", "ftp://h:1", "http://h:1/a2a", "h:port"}) {
    auto t = grpc_target(bad);
    EXPECT_FALSE(t) << bad;
  }
  auto p = grpc_target("http://h:1/a2a");
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("has a path"), std::string::npos) << p.error().message;
}

TEST(GrpcBinding, RegistryEntryNamesTheCardBinding) {
  auto b = grpc_operation_binding();
  EXPECT_EQ(b.key, "grpc");
  EXPECT_EQ(b.card_name, "GRPC");
  EXPECT_EQ(b.check_url("127.0.0.1:1"), "");
  EXPECT_NE(b.check_url("http://h/x"), "");
  ASSERT_TRUE(b.call);
  ASSERT_TRUE(b.match_error);
}

}  // namespace
}  // namespace a2a::bindings
