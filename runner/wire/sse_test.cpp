// SSE parser and encoder on literal bytes written by hand. Every table row is
// fed whole, one byte at a time and in 3-byte chunks, and must give the same
// events: chunk boundaries (a CR at the end of a chunk included) never matter.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runner/wire/sse.hpp"

namespace a2a::wire::test {
extern std::size_t g_allocation_count;  // codec_test.cpp's operator new
}

namespace {

using namespace a2a::wire;
using namespace std::string_literals;

struct Ev {
  std::string event, data, id;
  std::optional<long long> retry;
};

struct SseCase {
  const char* name;
  std::string bytes;
  std::vector<Ev> events;
  bool partial = false;  // has_partial_event() after the last byte
  size_t comments = 0;
};

std::vector<SseEvent> feed_in_chunks(SseParser& p, const std::string& bytes, size_t chunk) {
  std::vector<SseEvent> out;
  for (size_t i = 0; i < bytes.size(); i += chunk) {
    EXPECT_EQ(p.feed(std::string_view(bytes).substr(i, chunk), out), SseError::kNone);
  }
  return out;
}

class SseTable : public ::testing::TestWithParam<SseCase> {};

TEST_P(SseTable, SameEventsWhateverTheChunking) {
  const auto& c = GetParam();
  for (size_t chunk : {c.bytes.size() + 1, size_t{1}, size_t{3}}) {
    SCOPED_TRACE("chunk size " + std::to_string(chunk));
    SseParser p;
    auto got = feed_in_chunks(p, c.bytes, chunk);
    ASSERT_EQ(got.size(), c.events.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].event, c.events[i].event) << "event " << i;
      EXPECT_EQ(got[i].data, c.events[i].data) << "event " << i;
      EXPECT_EQ(got[i].id, c.events[i].id) << "event " << i;
      EXPECT_EQ(got[i].retry, c.events[i].retry) << "event " << i;
    }
    EXPECT_EQ(p.has_partial_event(), c.partial);
    EXPECT_EQ(p.comment_count(), c.comments);
  }
}

std::vector<SseCase> sse_cases() {
  return {
      {"SingleData", "data: {\"a\":1}\n\n", {{"", "{\"a\":1}", "", {}}}},
      {"MultiLineDataJoinedWithLf", "data: one\ndata: two\ndata:three\n\n", {{"", "one\ntwo\nthree", "", {}}}},
      {"CrlfLineEnds", "data: x\r\ndata: y\r\n\r\n", {{"", "x\ny", "", {}}}},
      {"CrLineEnds", "data: x\rdata: y\r\r", {{"", "x\ny", "", {}}}},
      {"MixedLineEnds", "data: a\r\n\rdata: b\n\r\ndata: c\r\r\n", {{"", "a", "", {}}, {"", "b", "", {}}, {"", "c", "", {}}}},
      {"CrThenCrlfIsTwoLines", "data: x\r\r\ndata: y\n\n", {{"", "x", "", {}}, {"", "y", "", {}}}},
      {"NoSpaceAfterColon", "data:x\n\n", {{"", "x", "", {}}}},
      {"OnlyOneLeadingSpaceRemoved", "data:  x \n\n", {{"", " x ", "", {}}}},
      {"EmptyDataLineGivesEmptyEvent", "data:\n\n", {{"", "", "", {}}}},
      {"FieldWithoutColonIsEmptyValue", "data\ndata\n\n", {{"", "\n", "", {}}}},
      {"CommentsCountedNotDispatched", ": keep-alive\n\n:\ndata: x\n\n", {{"", "x", "", {}}}, false, 2},
      {"EventField", "event: status\ndata: {}\n\n", {{"status", "{}", "", {}}}},
      {"EventTypeResetAfterDispatch", "event: a\ndata: 1\n\ndata: 2\n\n", {{"a", "1", "", {}}, {"", "2", "", {}}}},
      {"IdIsSticky", "id: 7\ndata: a\n\ndata: b\n\nid:\ndata: c\n\n",
       {{"", "a", "7", {}}, {"", "b", "7", {}}, {"", "c", "", {}}}},
      {"IdWithNulIgnored", "id: 1\ndata: a\n\nid: 2\0x\ndata: b\n\n"s, {{"", "a", "1", {}}, {"", "b", "1", {}}}},
      {"RetryDigitsOnly", "retry: 1500\ndata: a\n\nretry: 15x\ndata: b\n\n",
       {{"", "a", "", 1500}, {"", "b", "", {}}}},
      {"UnknownFieldIgnored", "foo: bar\ndata: a\n\n", {{"", "a", "", {}}}},
      {"EventWithoutDataNotDispatched", "event: x\n\nid: 3\n\ndata: a\n\n", {{"", "a", "3", {}}}},
      {"LeadingBomDropped", "\xEF\xBB\xBF" "data: a\n\n", {{"", "a", "", {}}}},
      {"BomOnlyDroppedAtStreamStart", "data: a\n\n\xEF\xBB\xBF" "data: b\n\n", {{"", "a", "", {}}}},
      {"BomPrefixThatIsNotBomKept", "\xEF" "data: a\n\n", {}},
      {"UnterminatedEventIsPartial", "data: a\n\ndata: b\n", {{"", "a", "", {}}}, true},
      {"UnterminatedLineIsPartial", "data: a\n\nda", {{"", "a", "", {}}}, true},
      {"GoStyleStream", "event: message\nid: 1\ndata: {\"x\":1}\n\n: keep-alive\n\n",
       {{"message", "{\"x\":1}", "1", {}}}, false, 1},
  };
}

TEST_P(SseTable, FeedViewsGivesTheSameEventsWhateverTheChunking) {
  const auto& c = GetParam();
  for (size_t chunk : {c.bytes.size() + 1, size_t{1}, size_t{3}}) {
    SCOPED_TRACE("chunk size " + std::to_string(chunk));
    SseParser p;
    std::vector<Ev> got;
    for (size_t i = 0; i < c.bytes.size(); i += chunk) {
      std::string piece = c.bytes.substr(i, chunk);  // gone after the call, as a reused read buffer would be
      EXPECT_EQ(p.feed_views(piece, [&](const SseEventView& e) {
        got.push_back(Ev{std::string(e.event), std::string(e.data), std::string(e.id), e.retry});
      }), SseError::kNone);
    }
    ASSERT_EQ(got.size(), c.events.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].event, c.events[i].event) << "event " << i;
      EXPECT_EQ(got[i].data, c.events[i].data) << "event " << i;
      EXPECT_EQ(got[i].id, c.events[i].id) << "event " << i;
      EXPECT_EQ(got[i].retry, c.events[i].retry) << "event " << i;
    }
    EXPECT_EQ(p.has_partial_event(), c.partial);
    EXPECT_EQ(p.comment_count(), c.comments);
  }
}

INSTANTIATE_TEST_SUITE_P(Sse, SseTable, ::testing::ValuesIn(sse_cases()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(SseParser, FeedViewsHandsOutSingleLineDataWithoutCopying) {
  const std::string bytes = "event: status\nid: 9\ndata: {\"a\":1}\n\ndata: x\ndata: y\n\n";
  SseParser p;
  std::vector<bool> in_input;
  std::vector<std::string> datas;
  auto sink = [&](const SseEventView& e) {
    in_input.push_back(e.data.data() >= bytes.data() && e.data.data() + e.data.size() <= bytes.data() + bytes.size());
    datas.emplace_back(e.data);
  };
  ASSERT_EQ(p.feed_views(bytes, sink), SseError::kNone);
  EXPECT_EQ(datas, (std::vector<std::string>{"{\"a\":1}", "x\ny"}));
  EXPECT_EQ(in_input, (std::vector<bool>{true, false}));  // two data lines are joined in the parser's buffer
}

TEST(SseParser, FeedViewsAllocatesNothingPerEventOnceWarm) {
  std::string bytes;
  for (int i = 0; i < 100; ++i) bytes += "id: " + std::to_string(i) + "\ndata: {\"seq\":" + std::to_string(i) + ",\"pad\":\"0123456789abcdef\"}\n\n";
  SseParser p;
  size_t events = 0;
  auto sink = [&](const SseEventView&) { ++events; };
  const std::string_view all = bytes;
  const size_t half = all.find("id: 50");
  ASSERT_EQ(p.feed_views(all.substr(0, half), sink), SseError::kNone);
  const std::size_t before = a2a::wire::test::g_allocation_count;
  ASSERT_EQ(p.feed_views(all.substr(half), sink), SseError::kNone);
  EXPECT_EQ(a2a::wire::test::g_allocation_count - before, 0u);
  EXPECT_EQ(events, 100u);
}

TEST(SseParser, EventWhoseBlankLineComesInTheNextChunkKeepsItsData) {
  SseParser p;
  std::vector<std::string> datas;
  auto sink = [&](const SseEventView& e) { datas.emplace_back(e.data); };
  std::string first = "data: kept\n";
  ASSERT_EQ(p.feed_views(first, sink), SseError::kNone);
  first.assign(first.size(), '#');  // the caller reuses its buffer
  ASSERT_EQ(p.feed_views("\n", sink), SseError::kNone);
  EXPECT_EQ(datas, std::vector<std::string>{"kept"});
}

TEST(SseParser, ManyCrEndedLinesInOneChunkAreAllRead) {
  std::string bytes;
  for (int i = 0; i < 5000; ++i) bytes += "data: " + std::to_string(i) + "\r\r";
  SseParser p;
  std::vector<SseEvent> out;
  ASSERT_EQ(p.feed(bytes, out), SseError::kNone);
  ASSERT_EQ(out.size(), 5000u);
  EXPECT_EQ(out.back().data, "4999");
}

TEST(SseParser, CrAtChunkEndDispatchesAtOnceAndSkipsTheLfThatFollows) {
  SseParser p;
  std::vector<SseEvent> out;
  EXPECT_EQ(p.feed("data: a\r\r", out), SseError::kNone);
  ASSERT_EQ(out.size(), 1u);  // not held back waiting for a possible LF
  EXPECT_EQ(p.feed("\ndata: b\n\n", out), SseError::kNone);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].data, "b");
}

TEST(SseParser, LineAboveMaxLineIsAnErrorBeforeItEnds) {
  SseParser p(SseLimits{8, 100});
  std::vector<SseEvent> out;
  EXPECT_EQ(p.feed("data: 12", out), SseError::kNone);  // exactly 8: still fine
  EXPECT_EQ(p.feed("3", out), SseError::kLineTooLong);
  EXPECT_EQ(p.error(), SseError::kLineTooLong);
  // Sticky: later bytes yield nothing and the same error.
  EXPECT_EQ(p.feed("\n\ndata: x\n\n", out), SseError::kLineTooLong);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(to_string(SseError::kLineTooLong), "line too long");
}

TEST(SseParser, EventDataAboveMaxEventIsAnError) {
  SseParser p(SseLimits{100, 5});
  std::vector<SseEvent> out;
  EXPECT_EQ(p.feed("data: ab\ndata: cd\n", out), SseError::kNone);  // "ab\ncd" = 5 bytes
  EXPECT_EQ(p.feed("data: e\n", out), SseError::kEventTooLarge);
  EXPECT_EQ(p.feed("\n", out), SseError::kEventTooLarge);
  EXPECT_TRUE(out.empty());
}

TEST(SseParser, EventsBeforeAnErrorInTheSameChunkAreKept) {
  SseParser p(SseLimits{10, 100});
  std::vector<SseEvent> out;
  EXPECT_EQ(p.feed("data: a\n\ndata: 0123456789\n", out), SseError::kLineTooLong);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data, "a");
}

TEST(SseParser, PartialEventClearedByBlankLineNotByComment) {
  SseParser p;
  std::vector<SseEvent> out;
  EXPECT_FALSE(p.has_partial_event());
  (void)p.feed("data: a\n: note\n", out);
  EXPECT_TRUE(p.has_partial_event());
  (void)p.feed("\n", out);
  EXPECT_FALSE(p.has_partial_event());
  EXPECT_EQ(out.size(), 1u);
}

TEST(SseEncode, WritesFieldsThenDataLinesThenBlankLine) {
  EXPECT_EQ(encode_sse("{}"), "data: {}\n\n");
  EXPECT_EQ(encode_sse("a\nb", "status", "42"), "event: status\nid: 42\ndata: a\ndata: b\n\n");
  EXPECT_EQ(encode_sse(""), "data: \n\n");
  EXPECT_EQ(encode_sse_comment("keep-alive"), ": keep-alive\n");
}

TEST(SseEncode, RoundTripsThroughTheParser) {
  const std::vector<std::string> datas = {"{\"k\":\"v\"}", "line1\nline2\n\nline4", " leading space", "", "\n"};
  for (const auto& d : datas) {
    SseParser p;
    std::vector<SseEvent> out;
    ASSERT_EQ(p.feed(encode_sse(d, "ev", "id-1") + encode_sse_comment("ping"), out), SseError::kNone);
    ASSERT_EQ(out.size(), 1u) << d;
    EXPECT_EQ(out[0].data, d);
    EXPECT_EQ(out[0].event, "ev");
    EXPECT_EQ(out[0].id, "id-1");
    EXPECT_EQ(p.comment_count(), 1u);
    EXPECT_FALSE(p.has_partial_event());
  }
}

TEST(SseEncode, CarriageReturnsInDataCannotBreakFraming) {
  SseParser p;
  std::vector<SseEvent> out;
  ASSERT_EQ(p.feed(encode_sse("a\r\nb\rc", "e\nvil"), out), SseError::kNone);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data, "a\nb\nc");
  EXPECT_EQ(out[0].event, "evil");
}

}  // namespace
