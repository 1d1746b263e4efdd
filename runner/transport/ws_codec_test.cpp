// The WebSocket codec (ws_codec.hpp) on the examples of RFC 6455 and on
// hand-written bytes for every protocol error the parser reports.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runner/transport/ws_codec.hpp"

namespace {

using namespace a2a::transport::ws;

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int c : b) s += static_cast<char>(c);
  return s;
}

ParserOptions from_server(size_t max = 16u << 20) { return {false, max}; }
ParserOptions from_client(size_t max = 16u << 20) { return {true, max}; }

// Feeds `wire` whole, then one byte at a time: both must give `out`.
std::vector<Message> parse_both_ways(const std::string& wire, ParserOptions o) {
  FrameParser whole(o);
  std::vector<Message> a;
  EXPECT_TRUE(whole.feed(wire, a).ok());
  FrameParser bytewise(o);
  std::vector<Message> b;
  for (char c : wire) EXPECT_TRUE(bytewise.feed(std::string_view(&c, 1), b).ok());
  EXPECT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    EXPECT_EQ(a[i].op, b[i].op);
    EXPECT_EQ(a[i].payload, b[i].payload);
  }
  return a;
}

// The parser's error for `wire`, fed whole and byte by byte (same close code).
std::string error_of(const std::string& wire, ParserOptions o, int expect_code) {
  FrameParser whole(o);
  std::vector<Message> out;
  auto r = whole.feed(wire, out);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(whole.close_code(), expect_code);
  FrameParser bytewise(o);
  bool failed = false;
  for (char c : wire) {
    if (!bytewise.feed(std::string_view(&c, 1), out)) {
      failed = true;
      break;
    }
  }
  EXPECT_TRUE(failed);
  EXPECT_EQ(bytewise.close_code(), expect_code);
  return r.ok() ? std::string() : r.error().message;
}

TEST(WsCodec, Sha1OfRfc3174Examples) {
  auto hex = [](const std::string& d) {
    static const char* k = "0123456789abcdef";
    std::string s;
    for (unsigned char c : d) {
      s += k[c >> 4];
      s += k[c & 15];
    }
    return s;
  };
  EXPECT_EQ(hex(sha1("abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(hex(sha1("")), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(hex(sha1("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");  // 56 bytes: the padding spills into a second block
}

TEST(WsCodec, Sha1OfAMillionA) {
  std::string a(1000000, 'a');
  std::string d = sha1(a);
  ASSERT_EQ(d.size(), 20u);
  EXPECT_EQ(static_cast<unsigned char>(d[0]), 0x34);
  EXPECT_EQ(static_cast<unsigned char>(d[1]), 0xaa);
  EXPECT_EQ(static_cast<unsigned char>(d[18]), 0x01);
  EXPECT_EQ(static_cast<unsigned char>(d[19]), 0x6f);
}

TEST(WsCodec, AcceptKeyOfRfc6455Section1_3) {
  EXPECT_EQ(accept_key("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
}

TEST(WsCodec, RandomKeyIs16BytesOfBase64) {
  std::string a = random_key(), b = random_key();
  EXPECT_EQ(a.size(), 24u);
  EXPECT_EQ(a.substr(22), "==");
  EXPECT_NE(a, b);
}

TEST(WsCodec, EncodesRfcSection5_7Frames) {
  EXPECT_EQ(encode_frame(Opcode::kText, "Hello"), bytes({0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f}));
  MaskKey k{0x37, 0xfa, 0x21, 0x3d};
  EXPECT_EQ(encode_frame(Opcode::kText, "Hello", true, &k),
            bytes({0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58}));
  EXPECT_EQ(encode_frame(Opcode::kText, "Hel", false), bytes({0x01, 0x03, 0x48, 0x65, 0x6c}));
  EXPECT_EQ(encode_frame(Opcode::kContinuation, "lo"), bytes({0x80, 0x02, 0x6c, 0x6f}));
  EXPECT_EQ(encode_frame(Opcode::kPing, "Hello"), bytes({0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f}));
  EXPECT_EQ(encode_frame(Opcode::kPong, "Hello", true, &k),
            bytes({0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58}));
  std::string f256 = encode_frame(Opcode::kBinary, std::string(256, 'x'));
  EXPECT_EQ(f256.substr(0, 4), bytes({0x82, 0x7E, 0x01, 0x00}));
  EXPECT_EQ(f256.size(), 4u + 256);
  std::string f64k = encode_frame(Opcode::kBinary, std::string(65536, 'x'));
  EXPECT_EQ(f64k.substr(0, 10), bytes({0x82, 0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00}));
  EXPECT_EQ(f64k.size(), 10u + 65536);
  // the boundaries of the length forms
  EXPECT_EQ(encode_frame(Opcode::kBinary, std::string(125, 'x'))[1], 125);
  EXPECT_EQ(static_cast<uint8_t>(encode_frame(Opcode::kBinary, std::string(126, 'x'))[1]), 126);
  EXPECT_EQ(static_cast<uint8_t>(encode_frame(Opcode::kBinary, std::string(65535, 'x'))[1]), 126);
}

TEST(WsCodec, ClientFramesAreMaskedWithAFreshKey) {
  std::string a = encode_client_frame(Opcode::kText, "Hello");
  ASSERT_EQ(a.size(), 11u);
  EXPECT_EQ(static_cast<uint8_t>(a[1]), 0x85);
  auto m = parse_both_ways(a, from_client());
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].payload, "Hello");
}

TEST(WsCodec, ParsesRfcSection5_7Frames) {
  auto m = parse_both_ways(bytes({0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f}), from_server());
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].op, Opcode::kText);
  EXPECT_EQ(m[0].payload, "Hello");

  m = parse_both_ways(bytes({0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58}), from_client());
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].payload, "Hello");

  // fragmented "Hel" + "lo", with a ping between the fragments (§5.4: control frames may be interjected)
  m = parse_both_ways(bytes({0x01, 0x03, 0x48, 0x65, 0x6c, 0x89, 0x00, 0x80, 0x02, 0x6c, 0x6f}), from_server());
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].op, Opcode::kPing);
  EXPECT_EQ(m[1].op, Opcode::kText);
  EXPECT_EQ(m[1].payload, "Hello");

  m = parse_both_ways(bytes({0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f}), from_server());
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].op, Opcode::kPing);
  EXPECT_EQ(m[0].payload, "Hello");

  m = parse_both_ways(bytes({0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58}), from_client());
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].op, Opcode::kPong);
  EXPECT_EQ(m[0].payload, "Hello");

  std::string p256(256, '\0');
  for (size_t i = 0; i < p256.size(); ++i) p256[i] = static_cast<char>(i);
  m = parse_both_ways(bytes({0x82, 0x7E, 0x01, 0x00}) + p256, from_server());
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].op, Opcode::kBinary);
  EXPECT_EQ(m[0].payload, p256);

  std::string p64k(65536, '\0');
  for (size_t i = 0; i < p64k.size(); ++i) p64k[i] = static_cast<char>(i * 7);
  m = parse_both_ways(bytes({0x82, 0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00}) + p64k, from_server());
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].payload, p64k);
}

TEST(WsCodec, RoundTripsMaskedFramesOfEveryLengthForm) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{125}, size_t{126}, size_t{65535}, size_t{65536}, size_t{70000}}) {
    std::string p(n, 'a');
    for (size_t i = 0; i < n; ++i) p[i] = static_cast<char>('a' + i % 26);
    MaskKey k{1, 2, 3, 4};
    FrameParser parser(from_client());
    std::vector<Message> out;
    ASSERT_TRUE(parser.feed(encode_frame(Opcode::kText, p, true, &k), out).ok()) << n;
    ASSERT_EQ(out.size(), 1u) << n;
    EXPECT_EQ(out[0].payload, p) << n;
  }
}

TEST(WsCodec, SeveralFramesInOneChunkAndAFrameSplitAcrossChunks) {
  std::string wire = encode_frame(Opcode::kText, "one") + encode_frame(Opcode::kText, "two") +
                     encode_frame(Opcode::kBinary, std::string(300, 'z'));
  FrameParser p(from_server());
  std::vector<Message> out;
  ASSERT_TRUE(p.feed(std::string_view(wire).substr(0, 9), out).ok());
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(p.feed(std::string_view(wire).substr(9), out).ok());
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[1].payload, "two");
  EXPECT_EQ(out[2].payload.size(), 300u);
}

TEST(WsCodec, ClosePayloadBuildAndParse) {
  std::string p = close_payload(1000, "bye");
  EXPECT_EQ(p, bytes({0x03, 0xE8, 'b', 'y', 'e'}));
  auto c = parse_close_payload(p);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->code, 1000);
  EXPECT_EQ(c->reason, "bye");
  auto none = parse_close_payload("");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->code, kCloseNoStatus);
  EXPECT_EQ(close_payload(1001, std::string(200, 'r')).size(), 125u);
  EXPECT_FALSE(parse_close_payload(bytes({0x03})).ok());
  EXPECT_FALSE(parse_close_payload(close_payload(1005)).ok());
  EXPECT_FALSE(parse_close_payload(close_payload(999)).ok());
  EXPECT_FALSE(parse_close_payload(close_payload(5000)).ok());
  EXPECT_TRUE(parse_close_payload(close_payload(4000)).ok());
  EXPECT_FALSE(parse_close_payload(close_payload(1000, "\xff")).ok());

  auto m = parse_both_ways(encode_frame(Opcode::kClose, close_payload(1001, "going")), from_server());
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].op, Opcode::kClose);
  EXPECT_EQ(m[0].payload, close_payload(1001, "going"));
}

TEST(WsCodec, ProtocolErrors) {
  auto o = from_server();
  EXPECT_NE(error_of(bytes({0xC1, 0x00}), o, kCloseProtocolError).find("reserved bits"), std::string::npos);
  EXPECT_NE(error_of(bytes({0x91, 0x00}), o, kCloseProtocolError).find("reserved bits"), std::string::npos);
  EXPECT_NE(error_of(bytes({0x83, 0x00}), o, kCloseProtocolError).find("reserved opcode 3"), std::string::npos);
  EXPECT_NE(error_of(bytes({0x8B, 0x00}), o, kCloseProtocolError).find("reserved opcode 11"), std::string::npos);
  EXPECT_NE(error_of(bytes({0x09, 0x00}), o, kCloseProtocolError).find("fragmented ping"), std::string::npos);
  EXPECT_NE(error_of(bytes({0x89, 0x7E, 0x00, 0x7E}) + std::string(126, 'p'), o, kCloseProtocolError)
                .find("126-byte payload"),
            std::string::npos);
  EXPECT_NE(error_of(bytes({0x80, 0x00}), o, kCloseProtocolError).find("no message to continue"), std::string::npos);
  EXPECT_NE(error_of(bytes({0x01, 0x01, 'a', 0x81, 0x01, 'b'}), o, kCloseProtocolError).find("continuation was due"),
            std::string::npos);
  EXPECT_NE(error_of(bytes({0x81, 0x85, 1, 2, 3, 4, 0, 0, 0, 0, 0}), o, kCloseProtocolError).find("masked frame from a server"),
            std::string::npos);
  EXPECT_NE(error_of(bytes({0x81, 0x01, 'a'}), from_client(), kCloseProtocolError).find("unmasked frame from a client"),
            std::string::npos);
  EXPECT_NE(error_of(bytes({0x82, 0x7E, 0x00, 0x05}), o, kCloseProtocolError).find("minimal length"), std::string::npos);
  EXPECT_NE(error_of(bytes({0x82, 0x7F, 0, 0, 0, 0, 0, 0, 0x01, 0x00}), o, kCloseProtocolError).find("minimal length"),
            std::string::npos);
  EXPECT_NE(error_of(bytes({0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0}), o, kCloseProtocolError).find("most significant bit"),
            std::string::npos);
  EXPECT_NE(error_of(bytes({0x81, 0x02, 0xC3, 0x28}), o, kCloseInvalidPayload).find("UTF-8"), std::string::npos);
  // invalid UTF-8 split across fragments is judged on the whole message; valid UTF-8 split is fine
  EXPECT_EQ(parse_both_ways(bytes({0x01, 0x01, 0xC3, 0x80, 0x01, 0xA9}), o).at(0).payload, "\xC3\xA9");
  EXPECT_NE(error_of(bytes({0x88, 0x01, 0x03}), o, kCloseProtocolError).find("1-byte payload"), std::string::npos);
  EXPECT_NE(error_of(bytes({0x88, 0x02, 0x03, 0xED}), o, kCloseProtocolError).find("status code 1005"), std::string::npos);
  EXPECT_NE(error_of(bytes({0x88, 0x03, 0x03, 0xE8, 0xFF}), o, kCloseInvalidPayload).find("not UTF-8"), std::string::npos);
}

TEST(WsCodec, AFailedParserStaysFailed) {
  FrameParser p(from_server());
  std::vector<Message> out;
  EXPECT_FALSE(p.feed(bytes({0xC1, 0x00}), out).ok());
  EXPECT_TRUE(p.failed());
  EXPECT_FALSE(p.feed(encode_frame(Opcode::kText, "fine"), out).ok());
  EXPECT_TRUE(out.empty());
}

TEST(WsCodec, SizeLimitIsCheckedFromTheHeaderBeforeBuffering) {
  // 2^62 bytes declared: refused at the header, nothing reserved or kept.
  FrameParser p(from_server(1000));
  std::vector<Message> out;
  auto r = p.feed(bytes({0x82, 0x7F, 0x40, 0, 0, 0, 0, 0, 0, 0}), out);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(p.close_code(), kCloseTooBig);
  EXPECT_EQ(p.buffered(), 0u);
  EXPECT_NE(r.error().message.find("over the limit of 1000"), std::string::npos);
  // exactly the limit passes; one more fails
  EXPECT_EQ(parse_both_ways(encode_frame(Opcode::kBinary, std::string(1000, 'x')), from_server(1000)).size(), 1u);
  error_of(encode_frame(Opcode::kBinary, std::string(1001, 'x')), from_server(1000), kCloseTooBig);
  // the limit covers the fragments together: 600 + 600 > 1000, refused at the second header
  FrameParser f(from_server(1000));
  ASSERT_TRUE(f.feed(encode_frame(Opcode::kText, std::string(600, 'a'), false), out).ok());
  EXPECT_EQ(f.buffered(), 600u);
  std::string second = encode_frame(Opcode::kContinuation, std::string(600, 'a'));
  EXPECT_FALSE(f.feed(std::string_view(second).substr(0, 4), out).ok());
  EXPECT_EQ(f.close_code(), kCloseTooBig);
  // control frames do not count against the message limit
  EXPECT_EQ(parse_both_ways(encode_frame(Opcode::kPing, std::string(125, 'p')), from_server(10)).size(), 1u);
}

TEST(WsCodec, EmptyFramesAndMessages) {
  auto m = parse_both_ways(bytes({0x81, 0x00, 0x82, 0x00, 0x89, 0x00, 0x01, 0x00, 0x80, 0x00}), from_server());
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0].payload, "");
  EXPECT_EQ(m[1].op, Opcode::kBinary);
  EXPECT_EQ(m[2].op, Opcode::kPing);
  EXPECT_EQ(m[3].op, Opcode::kText);
}

}  // namespace
