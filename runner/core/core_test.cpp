#include <gtest/gtest.h>

#include <regex>
#include <thread>

#include "runner/core/deadline.hpp"
#include "runner/core/escape.hpp"
#include "runner/core/expected.hpp"

using namespace a2a::core;

TEST(Expected, CarriesValueOrErrorWithLocation) {
  Expected<int> good = 42;
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 42);
  Expected<int> bad = fail(ErrorKind::kSchema, "unknown key 'exepct'", {"a.yaml", 3, 5});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::kSchema);
  EXPECT_EQ(bad.error().str(), "a.yaml:3:5: error[schema]: unknown key 'exepct'");
}

TEST(Deadline, ExpiresAndClampsRemaining) {
  auto d = Deadline::after(Millis(20));
  EXPECT_FALSE(d.expired());
  std::this_thread::sleep_for(Millis(30));
  EXPECT_TRUE(d.expired());
  EXPECT_EQ(d.remaining().count(), 0);
  EXPECT_EQ(d.poll_timeout_ms(), 0);
  EXPECT_EQ(Deadline::never().poll_timeout_ms(), -1);
  EXPECT_FALSE(Deadline::never().expired());
}

TEST(Escape, RoundTripsControlAndHighBytes) {
  std::string raw("Content-Length: 2\r\n\r\n{}\x01\xff", 25);
  std::string shown = escape_bytes(raw);
  EXPECT_EQ(shown, "Content-Length: 2\\r\\n\\r\\n{}\\x01\\xff");
  std::string back;
  ASSERT_TRUE(unescape_bytes(shown, back));
  EXPECT_EQ(back, raw);
}

TEST(Escape, RejectsMalformedEscapeWithOffset) {
  std::string out, err;
  EXPECT_FALSE(unescape_bytes("ab\\xZ1", out, &err));
  EXPECT_NE(err.find("offset 2"), std::string::npos);
  EXPECT_FALSE(unescape_bytes("ab\\q", out, &err));
  EXPECT_FALSE(unescape_bytes("ab\\", out, &err));
}

TEST(Uuid, V7HasVersionSevenAndVariantBits) {
  std::regex re("^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(std::regex_match(uuid_v7(), re));
  EXPECT_NE(uuid_v7(), uuid_v7());
}
