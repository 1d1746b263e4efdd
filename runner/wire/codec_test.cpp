// Framing codecs on literal bytes written by hand. The table covers every
// framing case F1..F27 of stdio-binding.md §8.2 under both reader profiles;
// every table row is also fed one byte at a time and in 3-byte chunks, and
// must decode identically. Cases that need generated or huge input are TESTs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "runner/wire/codec.hpp"

// Allocation probe: records the largest single allocation while armed, so
// tests can show a declared length was never reserved.
namespace {
std::size_t g_largest_allocation = 0;
bool g_probe_armed = false;
}  // namespace

// Every allocation of this test binary, counted (codec_take_test.cpp shows
// that take() allocates nothing per frame).
namespace a2a::wire::test {
std::size_t g_allocation_count = 0;
}

void* operator new(std::size_t n) {
  ++a2a::wire::test::g_allocation_count;
  if (g_probe_armed && n > g_largest_allocation) g_largest_allocation = n;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

using namespace a2a::wire;
using namespace std::string_literals;
using Status = DecodeResult::Status;

struct AllocationProbe {
  AllocationProbe() { g_largest_allocation = 0, g_probe_armed = true; }
  ~AllocationProbe() { g_probe_armed = false; }
  std::size_t largest() const { return g_largest_allocation; }
};

enum class Profile { kLenient, kP46, kLenientSkipEmpty };

ContentLengthRules rules_for(Profile p) {
  if (p == Profile::kP46) return ContentLengthRules::p46();
  ContentLengthRules r = ContentLengthRules::lenient_strict();
  r.skip_empty_lines_before_headers = p == Profile::kLenientSkipEmpty;
  return r;
}

struct Outcome {
  std::vector<Frame> frames;
  Status status = Status::kNeedMore;
  FrameError error = FrameError::kNone;
  std::string detail;

  std::vector<std::string> bodies() const {
    std::vector<std::string> out;
    for (const Frame& f : frames) out.push_back(f.body);
    return out;
  }
};

// Feeds `input` in chunks of `chunk` bytes, draining frames after each feed;
// calls finish() at the end when `eof`. Stops at the first terminal result.
Outcome run(Decoder& d, std::string_view input, size_t chunk, bool eof) {
  Outcome out;
  auto drain = [&] {
    for (;;) {
      DecodeResult r = d.next();
      if (r.status == Status::kFrame) {
        out.frames.push_back(std::move(r.frame));
        continue;
      }
      out.status = r.status, out.error = r.error, out.detail = r.detail;
      return r.status != Status::kNeedMore;
    }
  };
  for (size_t i = 0; i < input.size(); i += chunk) {
    d.feed(input.substr(i, chunk));
    if (drain()) return out;
  }
  if (eof) d.finish();
  drain();
  return out;
}

Outcome decode(Profile p, std::string_view input, bool eof = true, size_t chunk = SIZE_MAX) {
  auto d = make_content_length_decoder(rules_for(p));
  return run(*d, input, chunk == SIZE_MAX ? std::max<size_t>(input.size(), 1) : chunk, eof);
}

struct Expect {
  Status status;
  FrameError error = FrameError::kNone;
};
const Expect kEnds{Status::kEnd};
const Expect kNeedsMore{Status::kNeedMore};
Expect fails(FrameError e) { return {Status::kError, e}; }

constexpr bool kEof = true;
constexpr bool kOpen = false;

struct FramingCase {
  std::string name;
  Profile profile;
  std::string input;
  bool eof;
  std::vector<std::string> bodies;
  Expect expect;
};

void PrintTo(const FramingCase& c, std::ostream* os) { *os << c.name; }

std::vector<FramingCase> framing_cases() {
  using FE = FrameError;
  std::vector<FramingCase> c;
  auto add = [&](std::string name, Profile p, std::string in, bool eof, std::vector<std::string> bodies,
                 Expect e) { c.push_back({std::move(name), p, std::move(in), eof, std::move(bodies), e}); };
  auto lenient = [&](std::string name, std::string in, bool eof, std::vector<std::string> bodies, Expect e) {
    add(name + "_Lenient", Profile::kLenient, in, eof, bodies, e);
  };
  auto p46 = [&](std::string name, std::string in, bool eof, std::vector<std::string> bodies, Expect e) {
    add(name + "_P46", Profile::kP46, in, eof, bodies, e);
  };
  auto both = [&](std::string name, std::string in, bool eof, std::vector<std::string> bodies, Expect e) {
    lenient(name, in, eof, bodies, e);
    p46(name, in, eof, bodies, e);
  };

  both("F01_ContentTypeJsonAccepted", "Content-Length: 2\r\nContent-Type: application/json\r\n\r\n{}", kEof, {"{}"}, kEnds);
  both("F02_NoContentTypeAccepted", "Content-Length: 2\r\n\r\n{}", kEof, {"{}"}, kEnds);
  both("F03_UnknownHeaderIgnored", "X-Trace: 1\r\nContent-Length: 2\r\nX-Foo: bar\r\n\r\n{}", kEof, {"{}"}, kEnds);
  lenient("F04_LowerCaseNameAccepted", "content-length: 2\r\n\r\n{}", kEof, {"{}"}, kEnds);
  lenient("F04_MixedCaseNameAccepted", "CONTENT-length: 2\r\n\r\n{}", kEof, {"{}"}, kEnds);
  p46("F04_LowerCaseNameIsMissingLength", "content-length: 2\r\n\r\n{}", kEof, {}, fails(FE::kMissingContentLength));
  lenient("F05_NoSpaceAfterColonAccepted", "Content-Length:2\r\n\r\n{}", kEof, {"{}"}, kEnds);
  lenient("F05_SpacesAndTabsAroundValueAccepted", "Content-Length: \t 2 \t\r\n\r\n{}", kEof, {"{}"}, kEnds);
  p46("F05_NoSpaceAfterColonIsIgnoredLine", "Content-Length:2\r\n\r\n{}", kEof, {}, fails(FE::kMissingContentLength));
  p46("F05_TwoSpacesBeforeValueInvalid", "Content-Length:  2\r\n\r\n{}", kEof, {}, fails(FE::kInvalidContentLength));
  p46("F05_TrailingSpaceInvalid", "Content-Length: 2 \r\n\r\n{}", kEof, {}, fails(FE::kInvalidContentLength));
  p46("F05_TrailingTabInvalid", "Content-Length: 2\t\r\n\r\n{}", kEof, {}, fails(FE::kInvalidContentLength));
  both("F06_MissingLengthFatal", "Content-Type: application/json\r\n\r\n{}", kEof, {}, fails(FE::kMissingContentLength));
  both("F07_LettersInvalid", "Content-Length: abc\r\n\r\n{}", kEof, {}, fails(FE::kInvalidContentLength));
  both("F07_DigitsThenLettersInvalid", "Content-Length: 12abc\r\n\r\n{}", kEof, {}, fails(FE::kInvalidContentLength));
  both("F07_HexInvalid", "Content-Length: 0x10\r\n\r\n{}", kEof, {}, fails(FE::kInvalidContentLength));
  both("F07_ExponentInvalid", "Content-Length: 1e3\r\n\r\n{}", kEof, {}, fails(FE::kInvalidContentLength));
  both("F07_EmptyValueInvalid", "Content-Length: \r\n\r\n{}", kEof, {}, fails(FE::kInvalidContentLength));
  both("F07_PlusAloneInvalid", "Content-Length: +\r\n\r\n{}", kEof, {}, fails(FE::kInvalidContentLength));
  both("F08_NegativeInvalid", "Content-Length: -1\r\n\r\n{}", kEof, {}, fails(FE::kInvalidContentLength));
  both("F08_NegativeZeroInvalid", "Content-Length: -0\r\n\r\n", kEof, {}, fails(FE::kInvalidContentLength));
  both("F09_PlusSignAccepted", "Content-Length: +2\r\n\r\n{}", kEof, {"{}"}, kEnds);
  both("F09_LeadingZerosAccepted", "Content-Length: 0002\r\n\r\n{}", kEof, {"{}"}, kEnds);
  both("F10_OneByteOverCapTooLarge", "Content-Length: 67108865\r\n\r\n{}", kEof, {}, fails(FE::kBodyTooLarge));
  both("F10_OneGibTooLarge", "Content-Length: 1073741824\r\n\r\n", kOpen, {}, fails(FE::kBodyTooLarge));
  both("F12_TwoToThe64Invalid", "Content-Length: 18446744073709551616\r\n\r\n", kOpen, {}, fails(FE::kInvalidContentLength));
  both("F12_TwentyNinesInvalid", "Content-Length: 99999999999999999999\r\n\r\n", kOpen, {}, fails(FE::kInvalidContentLength));
  both("F12_Uint64MaxTooLarge", "Content-Length: 18446744073709551615\r\n\r\n", kOpen, {}, fails(FE::kBodyTooLarge));
  both("F13_ZeroLengthYieldsEmptyBody", "Content-Length: 0\r\n\r\nContent-Length: 2\r\n\r\n{}", kEof, {"", "{}"}, kEnds);
  both("F14_EqualDuplicatesAccepted", "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", kEof, {"{}"}, kEnds);
  lenient("F14_DifferentDuplicatesConflict", "Content-Length: 5\r\nContent-Length: 2\r\n\r\n{}", kEof, {}, fails(FE::kConflictingContentLength));
  p46("F14_DifferentDuplicatesLastWins", "Content-Length: 5\r\nContent-Length: 2\r\n\r\n{}", kEof, {"{}"}, kEnds);
  p46("F14_HugeThenSmallLastWins", "Content-Length: 99999999999\r\nContent-Length: 2\r\n\r\n{}", kEof, {"{}"}, kEnds);
  lenient("F15_LineWithoutColonFatal", "starting up\nContent-Length: 2\r\n\r\n{}", kEof, {}, fails(FE::kMalformedHeaderLine));
  lenient("F15_SpaceBeforeColonFatal", "Content-Length : 2\r\n\r\n{}", kEof, {}, fails(FE::kMalformedHeaderLine));
  p46("F15_LineWithoutColonIgnored", "starting up\nContent-Length: 2\r\n\r\n{}", kEof, {"{}"}, kEnds);
  both("F16_BareLfAccepted", "Content-Length: 2\nContent-Type: application/json\n\n{}", kEof, {"{}"}, kEnds);
  both("F16_MixedLineEndingsAccepted", "Content-Length: 2\r\nX-A: 1\n\r\n{}", kEof, {"{}"}, kEnds);
  lenient("F16_DoubleCrBeforeLfInvalid", "Content-Length: 2\r\r\n\r\n{}", kEof, {}, fails(FE::kInvalidContentLength));
  p46("F16_DoubleCrBeforeLfStripped", "Content-Length: 2\r\r\n\r\r\n{}", kEof, {"{}"}, kEnds);
  both("F17_Utf8InHeaderValueFatal", "X-Name: caf\xc3\xa9\r\nContent-Length: 2\r\n\r\n{}", kEof, {}, fails(FE::kNonAsciiHeader));
  both("F17_NoBreakSpaceAfterValueFatal", "Content-Length: 2\xc2\xa0\r\n\r\n{}", kEof, {}, fails(FE::kNonAsciiHeader));
  both("F17_ControlByteFatal", "X-A: \x01\r\nContent-Length: 2\r\n\r\n{}", kEof, {}, fails(FE::kNonAsciiHeader));
  both("F17_NulByteFatal", "X-A: a\0b\r\nContent-Length: 2\r\n\r\n{}"s, kEof, {}, fails(FE::kNonAsciiHeader));
  both("F17_DelByteFatal", "X-A: \x7f\r\nContent-Length: 2\r\n\r\n{}", kEof, {}, fails(FE::kNonAsciiHeader));
  p46("F17_Utf8InIgnoredLogLineFatal", "caf\xc3\xa9 ready\nContent-Length: 2\r\n\r\n{}", kEof, {}, fails(FE::kNonAsciiHeader));
  both("F19_BodyShortThenEofTruncated", "Content-Length: 5\r\n\r\n{}", kEof, {}, fails(FE::kTruncatedBody));
  both("F19_SecondBodyShortThenEofTruncated", "Content-Length: 2\r\n\r\n{}Content-Length: 5\r\n\r\n{", kEof, {"{}"}, fails(FE::kTruncatedBody));
  both("F20_BodyShortPipeOpenNeedsMore", "Content-Length: 5\r\n\r\n{}", kOpen, {}, kNeedsMore);
  lenient("F21_EofInPartialLineTruncated", "Content-Length: 2\r\nContent-Ty", kEof, {}, fails(FE::kTruncatedHeader));
  lenient("F21_EofAfterLinesWithoutBlankTruncated", "Content-Length: 2\r\n", kEof, {}, fails(FE::kTruncatedHeader));
  lenient("F21_EofAfterFrameThenPartialHeaderTruncated", "Content-Length: 2\r\n\r\n{}Content-Le", kEof, {"{}"}, fails(FE::kTruncatedHeader));
  p46("F21_EofInPartialLineCleanEnd", "Content-Length: 2\r\nContent-Ty", kEof, {}, kEnds);
  p46("F21_EofAfterLinesWithoutBlankCleanEnd", "Content-Length: 2\r\n", kEof, {}, kEnds);
  p46("F21_EofAfterFrameThenPartialHeaderCleanEnd", "Content-Length: 2\r\n\r\n{}Content-Le", kEof, {"{}"}, kEnds);
  p46("F21_EofOnUnterminatedBadValueInvalid", "Content-Length: abc", kEof, {}, fails(FE::kInvalidContentLength));
  p46("F21_EofOnUnterminatedCrEndsBlock", "Content-Length: 2\r\n\r", kEof, {}, fails(FE::kTruncatedBody));
  both("F22_EofBetweenFramesCleanEnd", "Content-Length: 2\r\n\r\n{}Content-Length: 2\r\n\r\n[]", kEof, {"{}", "[]"}, kEnds);
  both("F22_EofBeforeAnyByteCleanEnd", "", kEof, {}, kEnds);
  lenient("F23_ExtraBodyByteIsMalformedLine", "Content-Length: 2\r\n\r\n{}}\r\nContent-Length: 2\r\n\r\n[]", kEof, {"{}"}, fails(FE::kMalformedHeaderLine));
  p46("F23_ExtraBodyByteIgnoredAsHeader", "Content-Length: 2\r\n\r\n{}}\r\nContent-Length: 2\r\n\r\n[]", kEof, {"{}", "[]"}, kEnds);
  both("F24_StrayEmptyLineIsMissingLength", "Content-Length: 2\r\n\r\n{}\r\nContent-Length: 2\r\n\r\n[]", kEof, {"{}"}, fails(FE::kMissingContentLength));
  add("F24_StrayEmptyLinesSkipped_LenientSkipEmpty", Profile::kLenientSkipEmpty,
      "\r\n\nContent-Length: 2\r\n\r\n{}\r\nContent-Length: 2\r\n\r\n[]\r\n", kEof, {"{}", "[]"}, kEnds);
  both("F25_TwoFramesInOneChunk", "Content-Length: 1\r\n\r\n1Content-Length: 3\r\nContent-Type: application/json\r\n\r\n[2]", kEof, {"1", "[2]"}, kEnds);
  both("F26_BodyWithBlankLinesInside", "Content-Length: 16\r\n\r\n{\r\n\r\n  \"a\": 1\r\n}Content-Length: 2\r\n\r\n{}", kEof, {"{\r\n\r\n  \"a\": 1\r\n}", "{}"}, kEnds);
  both("F26_BodyWithHeaderTextInside", "Content-Length: 29\r\n\r\n{\"h\":\"Content-Length: 9\r\n\r\n\"}", kEof, {"{\"h\":\"Content-Length: 9\r\n\r\n\"}"}, kEnds);
  both("F27_MultiByteUtf8CountsBytes", "Content-Length: 18\r\n\r\n{\"t\":\"h\xc3\xa9llo \xe2\x82\xac\"}", kEof, {"{\"t\":\"h\xc3\xa9llo \xe2\x82\xac\"}"}, kEnds);
  both("F27_CharacterCountIsShortOfBytes", "Content-Length: 15\r\n\r\n{\"t\":\"h\xc3\xa9llo \xe2\x82\xac\"}", kEof, {"{\"t\":\"h\xc3\xa9llo \xe2\x82"}, fails(FE::kNonAsciiHeader));
  return c;
}

class FramingCaseTest : public ::testing::TestWithParam<FramingCase> {};

TEST_P(FramingCaseTest, DecodesAsSpecifiedInEveryChunking) {
  const FramingCase& c = GetParam();
  Outcome whole = decode(c.profile, c.input, c.eof);
  EXPECT_EQ(whole.bodies(), c.bodies);
  EXPECT_EQ(whole.status, c.expect.status) << whole.detail;
  EXPECT_EQ(to_string(whole.error), to_string(c.expect.error)) << whole.detail;
  if (c.expect.status == Status::kError) {
    EXPECT_EQ(whole.detail.rfind("byte ", 0), 0u) << whole.detail;
  }
  for (size_t chunk : {1, 3}) {
    Outcome split = decode(c.profile, c.input, c.eof, chunk);
    EXPECT_EQ(split.bodies(), whole.bodies()) << "chunk " << chunk;
    EXPECT_EQ(split.status, whole.status) << "chunk " << chunk;
    EXPECT_EQ(split.error, whole.error) << "chunk " << chunk;
    EXPECT_EQ(split.detail, whole.detail) << "chunk " << chunk;
  }
}

// take() hands out views one frame at a time: the same frames, end and
// error (detail included) as feed()/next(), in every chunking.
Outcome run_take(Decoder& d, std::string_view input, size_t chunk, bool eof) {
  Outcome out;
  auto drain = [&](std::string_view& in) {
    for (;;) {
      FrameView v = d.take(in);
      if (v.status == Status::kFrame) {
        out.frames.push_back(Frame{{}, std::string(v.body)});
        continue;
      }
      out.status = v.status, out.error = v.error, out.detail = std::string(v.detail);
      return v.status != Status::kNeedMore;
    }
  };
  for (size_t i = 0; i < input.size(); i += chunk) {
    std::string_view in = input.substr(i, chunk);
    if (drain(in)) return out;
  }
  if (eof) d.finish();
  std::string_view none;
  drain(none);
  return out;
}

TEST_P(FramingCaseTest, TakeDecodesLikeFeedInEveryChunking) {
  const FramingCase& c = GetParam();
  for (size_t chunk : {size_t{1}, size_t{3}, std::max<size_t>(c.input.size(), 1)}) {
    Outcome fed = decode(c.profile, c.input, c.eof, chunk);
    auto d = make_content_length_decoder(rules_for(c.profile));
    Outcome taken = run_take(*d, c.input, chunk, c.eof);
    EXPECT_EQ(taken.bodies(), fed.bodies()) << "chunk " << chunk;
    EXPECT_EQ(taken.status, fed.status) << "chunk " << chunk;
    EXPECT_EQ(taken.error, fed.error) << "chunk " << chunk;
    EXPECT_EQ(taken.detail, fed.detail) << "chunk " << chunk;
  }
}

INSTANTIATE_TEST_SUITE_P(StdioBinding82, FramingCaseTest, ::testing::ValuesIn(framing_cases()),
                         [](const auto& info) { return info.param.name; });

TEST(ContentLengthDecoder, F01_RecordsHeadersAsWrittenWithValuesTrimmedPerProfile) {
  Outcome lenient = decode(Profile::kLenient, "content-length:  2 \r\nContent-Type: application/json\r\nX-Trace:1\r\n\r\n{}");
  ASSERT_EQ(lenient.frames.size(), 1u);
  const auto& h = lenient.frames[0].headers;
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0].name, "content-length");
  EXPECT_EQ(h[0].value, "2");
  EXPECT_EQ(h[1].name, "Content-Type");
  EXPECT_EQ(h[1].value, "application/json");
  EXPECT_EQ(h[2].value, "1");
  Outcome p46 = decode(Profile::kP46, "Content-Length: 2\r\nX-Trace:1\r\n\r\n{}");
  ASSERT_EQ(p46.frames.size(), 1u);
  EXPECT_EQ(p46.frames[0].headers[0].value, "2");
  EXPECT_EQ(p46.frames[0].headers[1].value, "1");
}

TEST(ContentLengthDecoder, F09_PlusAndLeadingZerosRejectedWhenRuleIsOff) {
  ContentLengthRules rules;
  rules.allow_plus_and_leading_zeros = false;
  for (const char* in : {"Content-Length: +2\r\n\r\n{}", "Content-Length: 02\r\n\r\n{}"}) {
    auto d = make_content_length_decoder(rules);
    EXPECT_EQ(run(*d, in, 64, kEof).error, FrameError::kInvalidContentLength) << in;
  }
  auto d = make_content_length_decoder(rules);
  EXPECT_EQ(run(*d, "Content-Length: 0\r\n\r\n", 64, kEof).bodies(), std::vector<std::string>{""});
}

TEST(ContentLengthDecoder, F16_BareLfIsMalformedWhenRuleIsOff) {
  ContentLengthRules rules;
  rules.allow_bare_lf = false;
  auto d = make_content_length_decoder(rules);
  Outcome o = run(*d, "Content-Length: 2\r\nX-A: 1\n\r\n{}", 1, kEof);
  EXPECT_EQ(o.error, FrameError::kMalformedHeaderLine);
  EXPECT_EQ(o.detail, "byte 19: header line ends in a bare LF 'X-A: 1\\n'");
}

TEST(ContentLengthDecoder, F10_HugeLengthRejectedWithoutAllocating) {
  for (Profile p : {Profile::kLenient, Profile::kP46}) {
    for (const char* in : {"Content-Length: 1073741824\r\n\r\n", "Content-Length: 18446744073709551616\r\n\r\n",
                           "Content-Length: 67108865\r\n\r\n"}) {
      auto d = make_content_length_decoder(rules_for(p));
      AllocationProbe probe;
      d->feed(in);
      DecodeResult r = d->next();
      EXPECT_EQ(r.status, Status::kError) << in;
      EXPECT_LT(probe.largest(), 4096u) << in;
    }
  }
}

TEST(ContentLengthDecoder, F10_DeclaredLengthIsNotReservedBeforeBytesArrive) {
  auto d = make_content_length_decoder();
  AllocationProbe probe;
  d->feed("Content-Length: 67108864\r\n\r\n0123456789");
  EXPECT_EQ(d->next().status, Status::kNeedMore);
  EXPECT_LE(probe.largest(), 64u * 1024 + 64);
}

TEST(ContentLengthDecoder, F10_BodyCapIsConfigurable) {
  ContentLengthRules rules;
  rules.max_body = 2;
  auto d = make_content_length_decoder(rules);
  Outcome ok = run(*d, "Content-Length: 2\r\n\r\n{}Content-Length: 3\r\n\r\n[1]", 64, kEof);
  EXPECT_EQ(ok.bodies(), std::vector<std::string>{"{}"});
  EXPECT_EQ(ok.error, FrameError::kBodyTooLarge);
  EXPECT_NE(ok.detail.find("byte 23: Content-Length 3 exceeds the body cap of 2 bytes"), std::string::npos) << ok.detail;
}

TEST(ContentLengthDecoder, F11_BodyOfExactlyCapAccepted) {
  const std::string body(64u * 1024 * 1024, 'x');
  for (Profile p : {Profile::kLenient, Profile::kP46}) {
    auto d = make_content_length_decoder(rules_for(p));
    d->feed("Content-Length: 67108864\r\n\r\n");
    for (size_t i = 0; i < body.size(); i += 1 << 20) d->feed(std::string_view(body).substr(i, 1 << 20));
    DecodeResult r = d->next();
    ASSERT_EQ(r.status, Status::kFrame) << r.detail;
    EXPECT_EQ(r.frame.body.size(), body.size());
  }
}

std::string padded_header_block(size_t total) {
  const std::string head = "Content-Length: 2\r\nX-Pad: ", tail = "\r\n\r\n";
  return head + std::string(total - head.size() - tail.size(), 'a') + tail;
}

TEST(ContentLengthDecoder, F18_HeaderBlockOfExactlyCapAccepted_Lenient) {
  std::string block = padded_header_block(8192);
  Outcome o = decode(Profile::kLenient, block + "{}");
  EXPECT_EQ(o.bodies(), std::vector<std::string>{"{}"});
  EXPECT_EQ(o.status, Status::kEnd) << o.detail;
}

TEST(ContentLengthDecoder, F18_HeaderBlockOneByteOverCapFatal_Lenient) {
  for (size_t chunk : {size_t{1}, size_t{8200}}) {
    Outcome o = decode(Profile::kLenient, padded_header_block(8193) + "{}", kEof, chunk);
    EXPECT_EQ(o.error, FrameError::kHeaderTooLarge) << o.detail;
    EXPECT_EQ(o.detail.rfind("byte 8192: header block exceeds the cap of 8192 bytes", 0), 0u) << o.detail;
  }
}

TEST(ContentLengthDecoder, F18_LongLineIsFatalBeforeAnyBlankLine_Lenient) {
  auto d = make_content_length_decoder();
  std::string line = "X-Pad: " + std::string(8185, 'a');  // 8192 bytes, no terminator yet
  for (char ch : line) d->feed(std::string_view(&ch, 1));
  EXPECT_EQ(d->next().status, Status::kNeedMore);
  d->feed("a");
  EXPECT_EQ(d->next().error, FrameError::kHeaderTooLarge);
}

TEST(ContentLengthDecoder, F18_ManyHeaderLinesFatal_Lenient) {
  std::string lines;
  for (int i = 0; i < 1100; ++i) lines += "X-A: 1\r\n";
  EXPECT_EQ(decode(Profile::kLenient, lines, kOpen).error, FrameError::kHeaderTooLarge);
}

TEST(ContentLengthDecoder, F18_HeaderBlockHasNoCap_P46) {
  std::string in = "X-Pad: " + std::string(100000, 'a') + "\r\nContent-Length: 2\r\n\r\n{}";
  Outcome o = decode(Profile::kP46, in);
  EXPECT_EQ(o.bodies(), std::vector<std::string>{"{}"});
  EXPECT_EQ(o.status, Status::kEnd) << o.detail;
}

TEST(ContentLengthDecoder, F20_ClosingAfterStalledBodyYieldsTruncatedBody) {
  auto d = make_content_length_decoder();
  d->feed("Content-Length: 5\r\n\r\n{}");
  EXPECT_EQ(d->next().status, Status::kNeedMore);
  EXPECT_EQ(d->next().status, Status::kNeedMore);
  d->finish();
  DecodeResult r = d->next();
  EXPECT_EQ(r.error, FrameError::kTruncatedBody);
  EXPECT_EQ(r.detail, "byte 23: end of input after 2 of 5 body bytes (frame started at byte 0)");
}

TEST(ContentLengthDecoder, F25_OneByteAtATimeEqualsWholeChunk) {
  const std::string stream =
      "Content-Length: 15\r\nContent-Type: application/json\r\n\r\n{\"jsonrpc\":\"2\"}"
      "X-Trace: 7\nContent-Length: 0\n\nContent-Length: 3\r\n\r\n[1]"
      "content-length: 4\r\n\r\n\r\n\r\n";
  auto whole = decode(Profile::kLenient, stream);
  ASSERT_EQ(whole.status, Status::kEnd) << whole.detail;
  ASSERT_EQ(whole.bodies(), (std::vector<std::string>{"{\"jsonrpc\":\"2\"}", "", "[1]", "\r\n\r\n"}));
  for (size_t chunk : {1, 2, 7, 64}) {
    auto split = decode(Profile::kLenient, stream, kEof, chunk);
    ASSERT_EQ(split.frames.size(), whole.frames.size()) << "chunk " << chunk;
    for (size_t i = 0; i < whole.frames.size(); ++i) {
      EXPECT_EQ(split.frames[i].body, whole.frames[i].body);
      ASSERT_EQ(split.frames[i].headers.size(), whole.frames[i].headers.size());
      for (size_t h = 0; h < whole.frames[i].headers.size(); ++h) {
        EXPECT_EQ(split.frames[i].headers[h].name, whole.frames[i].headers[h].name);
        EXPECT_EQ(split.frames[i].headers[h].value, whole.frames[i].headers[h].value);
      }
    }
    EXPECT_EQ(split.status, Status::kEnd);
  }
}

TEST(ContentLengthEncoder, F27_WritesExactBytesCountingUtf8Bytes) {
  const std::string body = "{\"t\":\"h\xc3\xa9llo \xe2\x82\xac\"}";  // 15 characters, 18 bytes
  const std::string expected = "Content-Length: 18\r\nContent-Type: application/json\r\n\r\n{\"t\":\"h\xc3\xa9llo \xe2\x82\xac\"}";
  EXPECT_EQ(encode_content_length(body), expected);
  EXPECT_EQ(make_content_length_encoder()->encode(body), expected);
  EXPECT_EQ(encode_content_length(""), "Content-Length: 0\r\nContent-Type: application/json\r\n\r\n");
}

TEST(ContentLengthEncoder, OutputDecodesUnderBothProfiles) {
  std::string stream = encode_content_length("{}") + encode_content_length("") + encode_content_length("[\r\n\r\n]");
  for (Profile p : {Profile::kLenient, Profile::kP46}) {
    Outcome o = decode(p, stream, kEof, 1);
    EXPECT_EQ(o.bodies(), (std::vector<std::string>{"{}", "", "[\r\n\r\n]"}));
    EXPECT_EQ(o.status, Status::kEnd);
  }
}

TEST(ContentLengthDecoder, ErrorDetailNamesStreamOffsetAndEscapedLine) {
  Outcome o = decode(Profile::kLenient, "Content-Length: 2\r\n\r\n{}Content-Length: 12abc\r\n\r\n");
  EXPECT_EQ(o.error, FrameError::kInvalidContentLength);
  EXPECT_EQ(o.detail,
            "byte 23: Content-Length value '12abc' is not a strict decimal number below 2^64 in line "
            "'Content-Length: 12abc\\r\\n'");
  Outcome bad = decode(Profile::kP46, "X-Name: caf\xc3\xa9\r\n");
  EXPECT_EQ(bad.detail, "byte 11: byte 0xc3 is not printable ASCII in header line 'X-Name: caf\\xc3'");
}

TEST(ContentLengthDecoder, ErrorIsStickyAndLaterBytesAreIgnored) {
  auto d = make_content_length_decoder();
  d->feed("Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}");
  DecodeResult first = d->next();
  EXPECT_EQ(first.error, FrameError::kConflictingContentLength);
  d->feed("Content-Length: 2\r\n\r\n{}");
  d->finish();
  for (int i = 0; i < 3; ++i) {
    DecodeResult again = d->next();
    EXPECT_EQ(again.status, Status::kError);
    EXPECT_EQ(again.error, first.error);
    EXPECT_EQ(again.detail, first.detail);
  }
}

TEST(ContentLengthDecoder, BufferedCountsBytesNotYetReturned) {
  auto d = make_content_length_decoder();
  d->feed("Content-Length: 2\r\n\r\n{}Content-Le");
  EXPECT_EQ(d->buffered(), 33u);
  EXPECT_EQ(d->next().status, Status::kFrame);
  EXPECT_EQ(d->buffered(), 10u);
}

TEST(ContentLengthRules, P46ProfileDiffersFromLenientOnlyWhereReadFrameDoes) {
  ContentLengthRules p = ContentLengthRules::p46(), l = ContentLengthRules::lenient_strict();
  EXPECT_FALSE(p.case_insensitive_names || p.allow_whitespace_around_value || p.duplicate_lengths_must_agree ||
               p.fatal_line_without_colon || p.eof_in_header_is_error || p.skip_empty_lines_before_headers);
  EXPECT_TRUE(p.allow_plus_and_leading_zeros && p.allow_bare_lf && p.strip_all_trailing_cr);
  EXPECT_EQ(p.max_header_block, 0u);
  EXPECT_EQ(p.max_body, 67108864u);
  EXPECT_TRUE(l.case_insensitive_names && l.allow_whitespace_around_value && l.duplicate_lengths_must_agree &&
              l.fatal_line_without_colon && l.eof_in_header_is_error && !l.strip_all_trailing_cr);
  EXPECT_EQ(l.max_header_block, 8192u);
  EXPECT_EQ(l.max_body, 67108864u);
}

TEST(FrameError, ToStringGivesEveryKindADistinctName) {
  std::set<std::string_view> names;
  for (int e = 0; e <= static_cast<int>(FrameError::kLineTooLong); ++e) {
    names.insert(to_string(static_cast<FrameError>(e)));
  }
  EXPECT_EQ(names.size(), static_cast<size_t>(FrameError::kLineTooLong) + 1);
  EXPECT_EQ(to_string(FrameError::kMissingContentLength), "missing_content_length");
}

// ---- newline-delimited JSON ----

Outcome decode_ndjson(std::string_view input, bool eof, size_t chunk, size_t max_line = 64) {
  auto d = make_ndjson_decoder(max_line);
  return run(*d, input, chunk, eof);
}

TEST(NdjsonDecoder, SplitsLinesAndStripsCrlf) {
  for (size_t chunk : {1, 5, 100}) {
    Outcome o = decode_ndjson("{\"a\":1}\r\n{\"b\":2}\n[3]\n", kEof, chunk);
    EXPECT_EQ(o.bodies(), (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "[3]"}));
    EXPECT_EQ(o.status, Status::kEnd);
    EXPECT_TRUE(o.frames.empty() || o.frames[0].headers.empty());
  }
}

TEST(NdjsonDecoder, SkipsEmptyLines) {
  Outcome o = decode_ndjson("\n\r\n{}\n\n\r\n[]\n", kEof, 1);
  EXPECT_EQ(o.bodies(), (std::vector<std::string>{"{}", "[]"}));
  EXPECT_EQ(o.status, Status::kEnd);
}

TEST(NdjsonDecoder, PartialLineAtEofIsTruncatedBody) {
  for (size_t chunk : {1, 100}) {
    Outcome o = decode_ndjson("{}\n{\"a\"", kEof, chunk);
    EXPECT_EQ(o.bodies(), std::vector<std::string>{"{}"});
    EXPECT_EQ(o.error, FrameError::kTruncatedBody);
    EXPECT_EQ(o.detail, "byte 7: end of input inside a line of 4 bytes that started at byte 3 (no trailing newline)");
  }
}

TEST(NdjsonDecoder, PartialLineWithPipeOpenNeedsMore) {
  EXPECT_EQ(decode_ndjson("{\"a\"", kOpen, 1).status, Status::kNeedMore);
}

TEST(NdjsonDecoder, LineOfExactlyCapAcceptedWithOrWithoutCr) {
  Outcome o = decode_ndjson("01234567\r\n76543210\n", kEof, 1, 8);
  EXPECT_EQ(o.bodies(), (std::vector<std::string>{"01234567", "76543210"}));
  EXPECT_EQ(o.status, Status::kEnd);
}

TEST(NdjsonDecoder, LineOverCapIsLineTooLongEvenWithoutNewline) {
  for (size_t chunk : {1, 3, 100}) {
    EXPECT_EQ(decode_ndjson("{}\n012345678\n", kEof, chunk, 8).error, FrameError::kLineTooLong);
    Outcome open = decode_ndjson("{}\n0123456789", kOpen, chunk, 8);
    EXPECT_EQ(open.bodies(), std::vector<std::string>{"{}"});
    EXPECT_EQ(open.error, FrameError::kLineTooLong);
    EXPECT_EQ(open.detail.rfind("byte 3: line exceeds the cap of 8 bytes", 0), 0u) << open.detail;
  }
}

TEST(NdjsonDecoder, ErrorIsSticky) {
  auto d = make_ndjson_decoder(4);
  d->feed("123456\n{}\n");
  EXPECT_EQ(d->next().error, FrameError::kLineTooLong);
  d->feed("{}\n");
  EXPECT_EQ(d->next().error, FrameError::kLineTooLong);
}

TEST(NdjsonEncoder, AppendsOneNewline) {
  EXPECT_EQ(make_ndjson_encoder()->encode("{\"a\":\"\xc3\xa9\"}"), "{\"a\":\"\xc3\xa9\"}\n");
  Outcome o = decode_ndjson(make_ndjson_encoder()->encode("{}") + make_ndjson_encoder()->encode("[]"), kEof, 1);
  EXPECT_EQ(o.bodies(), (std::vector<std::string>{"{}", "[]"}));
}

}  // namespace
