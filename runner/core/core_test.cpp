#include <gtest/gtest.h>

#include <regex>
#include <thread>

#include <nlohmann/json.hpp>

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

// JSON for a terminal: the code points a terminal acts on become \u escapes
// and the value is the same.
TEST(TerminalJson, EscapesWhatJsonLeavesRawAndKeepsTheValue) {
  nlohmann::json v = {{"m", "a\x7f" "b\xc2\x9b" "c\xe2\x80\xae" "d\xef\xbf\xbe" "e\xf0\x9f\xbf\xbf" "f\x1b" "g \xc3\xa9"}};
  std::string text = terminal_json(v.dump());
  EXPECT_EQ(text, std::string(R"({"m":"a\u007fb\u009bc\u202ed\ufffee\ud83f\udffff\u001bg )") + "\xc3\xa9\"}");
  EXPECT_EQ(nlohmann::json::parse(text), v);
  EXPECT_EQ(terminal_json(R"({"k":"plain","n":[1,2]})"), R"({"k":"plain","n":[1,2]})");
}

// The terminal escaper (display_text) on each byte class it must neutralise,
// by hand-written bytes: what reaches a terminal can never clear the screen,
// set a title, ring the bell, reorder text or carry invalid UTF-8.
struct TerminalCase {
  const char* name;
  std::string in;
  TextMode mode;
  std::string shown;
};

class TerminalText : public ::testing::TestWithParam<TerminalCase> {};

TEST_P(TerminalText, ShowsControlBytesAsEscapes) {
  const auto& c = GetParam();
  EXPECT_EQ(display_text(c.in, c.mode), c.shown);
}

INSTANTIATE_TEST_SUITE_P(
    Bytes, TerminalText,
    ::testing::Values(
        TerminalCase{"Esc", "a\x1b[2Jb", TextMode::kText, "a\\x1b[2Jb"},
        TerminalCase{"TitleAndBel", "\x1b]0;pwned\x07", TextMode::kLine, "\\x1b]0;pwned\\x07"},
        TerminalCase{"Del", "x\x7fy", TextMode::kLine, "x\\x7fy"},
        TerminalCase{"C1Csi", "x\xc2\x9b" "31m", TextMode::kLine, "x\\xc2\\x9b31m"},
        TerminalCase{"BidiOverride", "a\xe2\x80\xae" "b", TextMode::kLine, "a\\xe2\\x80\\xaeb"},
        TerminalCase{"BidiIsolate", "a\xe2\x81\xa6" "b", TextMode::kLine, "a\\xe2\\x81\\xa6b"},
        TerminalCase{"InvalidUtf8", std::string("a\xff\xc3(", 4), TextMode::kLine, "a\\xff\\xc3("},
        TerminalCase{"OverlongSlash", "\xc0\xaf", TextMode::kLine, "\\xc0\\xaf"},
        TerminalCase{"Nul", std::string("a\0b", 3), TextMode::kLine, "a\\x00b"},
        TerminalCase{"Backslash", "a\\x1b", TextMode::kLine, "a\\\\x1b"},
        TerminalCase{"Utf8Kept", "caf\xc3\xa9 \xe2\x9c\x93", TextMode::kLine, "caf\xc3\xa9 \xe2\x9c\x93"},
        TerminalCase{"TextKeepsBreaks", "a\nb\tc\rd", TextMode::kText, "a\nb\tc\\rd"},
        TerminalCase{"LineShowsBreaks", "a\nb\tc\rd", TextMode::kLine, "a\\nb\\tc\\rd"},
        TerminalCase{"WireBreaksAfterLf", "a\r\nb", TextMode::kWire, "a\\r\\n\nb"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(TerminalText, OutputHasNoControlByteForAnyInputByte) {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  std::string shown = terminal_line(all);
  for (unsigned char c : shown) EXPECT_TRUE(c >= 0x20 && c != 0x7f) << "byte " << int(c);
  EXPECT_EQ(shown.find('\x1b'), std::string::npos);
}
