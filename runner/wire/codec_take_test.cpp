// Decoder::take(), the low-allocation read path: views instead of copies,
// and the canonical-header shortcut shared with feed(). That take() yields
// exactly what feed()/next() yield is shown on the whole §8.2 table in
// codec_test.cpp; these tests pin what only take() promises.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runner/wire/codec.hpp"

namespace a2a::wire::test {
extern std::size_t g_allocation_count;  // codec_test.cpp's operator new
}

namespace {

using namespace a2a::wire;
using Status = DecodeResult::Status;

bool points_into(std::string_view part, std::string_view whole) {
  return part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size();
}

TEST(ContentLengthTake, FrameWhollyInTheInputIsAViewIntoIt) {
  const std::string input =
      "Content-Length: 2\r\nContent-Type: application/json\r\n\r\n{}Content-Length: 3\r\n\r\n[1]";
  auto d = make_content_length_decoder();
  std::string_view in = input;
  FrameView a = d->take(in);
  ASSERT_EQ(a.status, Status::kFrame);
  EXPECT_EQ(a.body, "{}");
  EXPECT_TRUE(points_into(a.body, input));
  EXPECT_EQ(in.size(), 24u);  // stopped right after the first frame
  FrameView b = d->take(in);
  ASSERT_EQ(b.status, Status::kFrame);
  EXPECT_EQ(b.body, "[1]");
  EXPECT_TRUE(points_into(b.body, input));
  EXPECT_TRUE(in.empty());
  EXPECT_EQ(d->take(in).status, Status::kNeedMore);
  EXPECT_EQ(d->buffered(), 0u);
}

TEST(ContentLengthTake, FrameSplitAcrossInputsIsAssembledInTheDecodersBuffer) {
  const std::string input = "Content-Length: 10\r\n\r\n0123456789";
  auto d = make_content_length_decoder();
  std::string_view first = std::string_view(input).substr(0, 25);
  EXPECT_EQ(d->take(first).status, Status::kNeedMore);
  EXPECT_EQ(d->buffered(), 25u);
  std::string rest = input.substr(25);  // the first chunk's bytes may be gone now
  std::string_view in = rest;
  FrameView v = d->take(in);
  ASSERT_EQ(v.status, Status::kFrame);
  EXPECT_EQ(v.body, "0123456789");
  EXPECT_FALSE(points_into(v.body, rest));
}

TEST(ContentLengthTake, AllocatesNothingPerFrameOnceWarm) {
  std::string stream;
  for (int i = 0; i < 200; ++i) stream += encode_content_length("{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(i) + "}");
  auto d = make_content_length_decoder(ContentLengthRules::p46());
  std::string_view in = stream;
  int frames = 0;
  ASSERT_EQ(d->take(in).status, Status::kFrame);
  const std::size_t before = a2a::wire::test::g_allocation_count;
  while (d->take(in).status == Status::kFrame) ++frames;
  EXPECT_EQ(a2a::wire::test::g_allocation_count - before, 0u);
  EXPECT_EQ(frames, 199);
}

TEST(ContentLengthTake, SmallHeaderCapStillAppliesToTheCanonicalBlock) {
  ContentLengthRules rules;
  rules.max_header_block = 21;  // "Content-Length: 2\r\n\r\n" is exactly 21 bytes
  for (bool view : {false, true}) {
    auto d = make_content_length_decoder(rules);
    std::string_view in = "Content-Length: 2\r\n\r\n{}Content-Length: 2\r\nContent-Type: application/json\r\n\r\n{}";
    FrameView first, second;
    if (view) {
      first = d->take(in);
      second = d->take(in);
    } else {
      d->feed(in);
      DecodeResult a = d->next(), b = d->next();
      first.status = a.status, second.status = b.status, second.error = b.error;
    }
    EXPECT_EQ(first.status, Status::kFrame) << view;
    EXPECT_EQ(second.status, Status::kError) << view;
    EXPECT_EQ(second.error, FrameError::kHeaderTooLarge) << view;
  }
}

TEST(ContentLengthDecoder, CanonicalBlockRecordsItsHeadersAsWritten) {
  auto d = make_content_length_decoder(ContentLengthRules::p46());
  d->feed("Content-Length: 2\r\nContent-Type: application/json\r\n\r\n{}Content-Length: 0\r\n\r\n");
  DecodeResult a = d->next();
  ASSERT_EQ(a.status, Status::kFrame);
  ASSERT_EQ(a.frame.headers.size(), 2u);
  EXPECT_EQ(a.frame.headers[0].name, "Content-Length");
  EXPECT_EQ(a.frame.headers[0].value, "2");
  EXPECT_EQ(a.frame.headers[1].name, "Content-Type");
  EXPECT_EQ(a.frame.headers[1].value, "application/json");
  DecodeResult b = d->next();
  ASSERT_EQ(b.status, Status::kFrame);
  EXPECT_EQ(b.frame.body, "");
  ASSERT_EQ(b.frame.headers.size(), 1u);
  EXPECT_EQ(b.frame.headers[0].value, "0");
}

TEST(ContentLengthTake, FrameCompletedByFinishIsReturnedBeforeTheEnd) {
  // P46 reads an unterminated "\r" at EOF as the blank line ending the block.
  auto d = make_content_length_decoder(ContentLengthRules::p46());
  std::string_view in = "Content-Length: 0\r\n\r";
  EXPECT_EQ(d->take(in).status, Status::kNeedMore);
  d->finish();
  std::string_view none;
  FrameView v = d->take(none);
  EXPECT_EQ(v.status, Status::kFrame);
  EXPECT_EQ(v.body, "");
  EXPECT_EQ(d->take(none).status, Status::kEnd);
}

TEST(ContentLengthTake, ErrorDetailStaysReadableAfterTheCall) {
  auto d = make_content_length_decoder();
  std::string_view in = "Content-Length: 1x\r\n\r\n";
  FrameView v = d->take(in);
  ASSERT_EQ(v.status, Status::kError);
  EXPECT_EQ(v.error, FrameError::kInvalidContentLength);
  EXPECT_EQ(v.detail.rfind("byte 0: Content-Length value '1x'", 0), 0u) << v.detail;
  std::string_view more = "Content-Length: 2\r\n\r\n{}";
  EXPECT_EQ(d->take(more).detail, v.detail);
}

TEST(NdjsonTake, YieldsLinesOneAtATimeThenTheEnd) {
  auto d = make_ndjson_decoder(16);
  std::string_view in = "{\"a\":1}\r\n\n[2]\n{";
  FrameView a = d->take(in);
  ASSERT_EQ(a.status, Status::kFrame);
  EXPECT_EQ(a.body, "{\"a\":1}");
  FrameView b = d->take(in);
  ASSERT_EQ(b.status, Status::kFrame);
  EXPECT_EQ(b.body, "[2]");
  EXPECT_EQ(d->take(in).status, Status::kNeedMore);
  d->finish();
  std::string_view none;
  FrameView end = d->take(none);
  EXPECT_EQ(end.error, FrameError::kTruncatedBody);
  EXPECT_FALSE(end.detail.empty());
}

}  // namespace
