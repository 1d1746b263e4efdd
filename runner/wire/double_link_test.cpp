// The runner <-> a2a-agent-double link codec on literal bytes written by hand:
// [type][u32 big-endian length][payload]. A corrupt or hostile stream is an
// error the decoder reports, never a crash or an allocation of the claimed size.
#include "runner/wire/double_link.hpp"

#include <gtest/gtest.h>

namespace a2a::wire {
namespace {

using namespace std::string_literals;

TEST(DoubleLink, EncodesTypeThenBigEndianLengthThenPayload) {
  EXPECT_EQ(encode_link(LinkType::kOutput, "hi"), "O\x00\x00\x00\x02hi"s);
  EXPECT_EQ(encode_link(LinkType::kInputEof, ""), "E\x00\x00\x00\x00"s);
  std::string big(0x010203, 'x');
  EXPECT_EQ(encode_link(LinkType::kInput, big).substr(0, 5), "I\x00\x01\x02\x03"s);
}

TEST(DoubleLink, DecodesTwoMessagesFedInOneChunk) {
  LinkDecoder d;
  d.feed("H\x00\x00\x00\x02{}X\x00\x00\x00\x01" "3"s);
  auto a = d.next();
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->type, LinkType::kHello);
  EXPECT_EQ(a->payload, "{}");
  auto b = d.next();
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->type, LinkType::kExit);
  EXPECT_EQ(b->payload, "3");
  EXPECT_FALSE(d.next().has_value());
  EXPECT_FALSE(d.broken());
}

TEST(DoubleLink, DecodesAMessageFedOneByteAtATime) {
  const std::string bytes = "I\x00\x00\x00\x05" "ab\x00\r\n"s;
  LinkDecoder d;
  std::optional<LinkMessage> got;
  for (size_t i = 0; i < bytes.size(); ++i) {
    EXPECT_FALSE(got.has_value()) << "a message before its last byte, at " << i;
    d.feed(bytes.substr(i, 1));
    got = d.next();
  }
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->type, LinkType::kInput);
  EXPECT_EQ(got->payload, "ab\x00\r\n"s);
}

TEST(DoubleLink, TruncatedMessageWaitsForMoreBytesWithoutError) {
  LinkDecoder d;
  d.feed("O\x00\x00\x00\x0a" "abc"s);
  EXPECT_FALSE(d.next().has_value());
  EXPECT_FALSE(d.broken());
  d.feed("O\x00"s);  // a header cut short is just as incomplete
  EXPECT_FALSE(d.next().has_value());
  EXPECT_FALSE(d.broken());
}

TEST(DoubleLink, LengthAboveTheCapIsAnErrorBeforeAnyPayloadArrives) {
  LinkDecoder d;
  d.feed("I\x01\x00\x00\x01"s);  // 16 MiB + 1
  EXPECT_FALSE(d.next().has_value());
  ASSERT_TRUE(d.broken());
  EXPECT_NE(d.error().find("exceeds"), std::string::npos) << d.error();
}

TEST(DoubleLink, LengthExactlyAtTheCapIsNotAnError) {
  LinkDecoder d;
  d.feed("I\x01\x00\x00\x00"s);  // 16 MiB, payload not yet here
  EXPECT_FALSE(d.next().has_value());
  EXPECT_FALSE(d.broken()) << d.error();
}

TEST(DoubleLink, MaximalLengthFieldIsAnErrorNotAnAllocation) {
  LinkDecoder d;
  d.feed("O\xff\xff\xff\xff"s);
  EXPECT_FALSE(d.next().has_value());
  EXPECT_TRUE(d.broken());
}

TEST(DoubleLink, UnknownTypeByteIsAnErrorThatSticks) {
  LinkDecoder d;
  d.feed("Z\x00\x00\x00\x00"s);
  EXPECT_FALSE(d.next().has_value());
  ASSERT_TRUE(d.broken());
  EXPECT_NE(d.error().find("unknown link message type 90"), std::string::npos) << d.error();
  d.feed("O\x00\x00\x00\x00"s);  // nothing after a corrupt byte can be trusted
  EXPECT_FALSE(d.next().has_value());
  EXPECT_TRUE(d.broken());
}

TEST(DoubleLink, StderrMessageIsTypeSWithADecimalCount) {
  EXPECT_EQ(encode_link(LinkType::kStderr, "4096"), "S\x00\x00\x00\x04" "4096"s);
  LinkDecoder d;
  d.feed("S\x00\x00\x00\x02" "64"s);
  auto m = d.next();
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->type, LinkType::kStderr);
  EXPECT_EQ(m->payload, "64");
  EXPECT_FALSE(d.broken());
}

TEST(DoubleLink, RoundTripsEveryTypeAndABinaryPayload) {
  std::string payload;
  for (int c = 0; c < 256; ++c) payload.push_back(static_cast<char>(c));
  LinkDecoder d;
  for (auto t : {LinkType::kHello, LinkType::kInput, LinkType::kInputEof, LinkType::kOutput,
                 LinkType::kCloseOutput, LinkType::kExit, LinkType::kStderr})
    d.feed(encode_link(t, payload));
  for (auto t : {LinkType::kHello, LinkType::kInput, LinkType::kInputEof, LinkType::kOutput,
                 LinkType::kCloseOutput, LinkType::kExit, LinkType::kStderr}) {
    auto m = d.next();
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->type, t);
    EXPECT_EQ(m->payload, payload);
  }
  EXPECT_FALSE(d.next().has_value());
}

TEST(DoubleLink, ManySmallMessagesDecodeAfterBufferCompaction) {
  LinkDecoder d;
  int seen = 0;
  for (int i = 0; i < 1000; ++i) {
    d.feed(encode_link(LinkType::kInput, std::to_string(i)));
    auto m = d.next();
    ASSERT_TRUE(m.has_value()) << i;
    EXPECT_EQ(m->payload, std::to_string(i));
    ++seen;
  }
  EXPECT_EQ(seen, 1000);
}

}  // namespace
}  // namespace a2a::wire
