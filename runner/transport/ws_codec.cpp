#include "runner/transport/ws_codec.hpp"

#include <cctype>

#include <sys/random.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "runner/core/escape.hpp"
#include "runner/result/utf8.hpp"

namespace a2a::transport::ws {

bool is_control(Opcode op) { return (static_cast<uint8_t>(op) & 0x8) != 0; }

std::string_view to_string(Opcode op) {
  switch (op) {
    case Opcode::kContinuation: return "continuation";
    case Opcode::kText: return "text";
    case Opcode::kBinary: return "binary";
    case Opcode::kClose: return "close";
    case Opcode::kPing: return "ping";
    case Opcode::kPong: return "pong";
  }
  return "reserved";
}

namespace {

uint32_t rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

// RFC 3174 §6.1 on one 64-byte block.
void sha1_block(uint32_t h[5], const uint8_t* block) {
  uint32_t w[80];
  for (int t = 0; t < 16; ++t)
    w[t] = (uint32_t{block[4 * t]} << 24) | (uint32_t{block[4 * t + 1]} << 16) | (uint32_t{block[4 * t + 2]} << 8) |
           uint32_t{block[4 * t + 3]};
  for (int t = 16; t < 80; ++t) w[t] = rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
  for (int t = 0; t < 80; ++t) {
    uint32_t f, k;
    if (t < 20) {
      f = (b & c) | (~b & d);
      k = 0x5A827999;
    } else if (t < 40) {
      f = b ^ c ^ d;
      k = 0x6ED9EBA1;
    } else if (t < 60) {
      f = (b & c) | (b & d) | (c & d);
      k = 0x8F1BBCDC;
    } else {
      f = b ^ c ^ d;
      k = 0xCA62C1D6;
    }
    uint32_t temp = rotl(a, 5) + f + e + w[t] + k;
    e = d;
    d = c;
    c = rotl(b, 30);
    b = a;
    a = temp;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
}

void fill_random(uint8_t* out, size_t n) {
  size_t got = 0;
  for (int tries = 0; got < n && tries < 8; ++tries) {
    ssize_t r = ::getrandom(out + got, n - got, 0);
    if (r > 0) got += static_cast<size_t>(r);
  }
  if (got < n) {  // getrandom unavailable: the library's source
    std::random_device rd;
    for (; got < n; ++got) out[got] = static_cast<uint8_t>(rd());
  }
}

}  // namespace

std::string sha1(std::string_view data) {
  uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
  size_t full = data.size() / 64;
  for (size_t i = 0; i < full; ++i) sha1_block(h, reinterpret_cast<const uint8_t*>(data.data()) + 64 * i);
  // The padding (§4): 0x80, zeros, then the length in bits, big-endian.
  uint8_t tail[128] = {};
  size_t rest = data.size() - 64 * full;
  if (rest) std::memcpy(tail, data.data() + 64 * full, rest);
  tail[rest] = 0x80;
  size_t tail_len = rest + 1 + 8 <= 64 ? 64 : 128;
  uint64_t bits = static_cast<uint64_t>(data.size()) * 8;
  for (int i = 0; i < 8; ++i) tail[tail_len - 1 - i] = static_cast<uint8_t>(bits >> (8 * i));
  for (size_t off = 0; off < tail_len; off += 64) sha1_block(h, tail + off);
  std::string out(20, '\0');
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<char>(h[i] >> (24 - 8 * j));
  return out;
}

std::string accept_key(std::string_view key) {
  std::string s(key);
  s += kAcceptGuid;
  return result::base64_encode(sha1(s));
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

std::string_view trim(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

bool has_token(std::string_view list, std::string_view token) {
  while (!list.empty()) {
    size_t comma = list.find(',');
    if (iequals(trim(list.substr(0, comma)), token)) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

std::string random_key() {
  uint8_t b[16];
  fill_random(b, sizeof b);
  return result::base64_encode(std::string_view(reinterpret_cast<const char*>(b), sizeof b));
}

MaskKey random_mask() {
  MaskKey k;
  fill_random(k.data(), k.size());
  return k;
}

std::string encode_frame(Opcode op, std::string_view payload, bool fin, const MaskKey* mask) {
  std::string out;
  out.reserve(payload.size() + 14);
  out += static_cast<char>((fin ? 0x80 : 0x00) | static_cast<uint8_t>(op));
  uint8_t mask_bit = mask ? 0x80 : 0x00;
  uint64_t n = payload.size();
  if (n <= 125) {
    out += static_cast<char>(mask_bit | n);
  } else if (n <= 0xFFFF) {
    out += static_cast<char>(mask_bit | 126);
    out += static_cast<char>(n >> 8);
    out += static_cast<char>(n & 0xFF);
  } else {
    out += static_cast<char>(mask_bit | 127);
    for (int i = 7; i >= 0; --i) out += static_cast<char>((n >> (8 * i)) & 0xFF);
  }
  if (!mask) {
    out.append(payload);
    return out;
  }
  for (uint8_t b : *mask) out += static_cast<char>(b);
  size_t start = out.size();
  out.append(payload);
  for (size_t i = 0; i < payload.size(); ++i) out[start + i] = static_cast<char>(out[start + i] ^ (*mask)[i & 3]);
  return out;
}

std::string encode_client_frame(Opcode op, std::string_view payload) {
  MaskKey k = random_mask();
  return encode_frame(op, payload, true, &k);
}

bool valid_close_code(int code) {
  if (code >= 3000 && code <= 4999) return true;  // registered (3xxx) and private (4xxx) use
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014);
}

std::string close_payload(int code, std::string_view reason) {
  std::string out;
  out += static_cast<char>((code >> 8) & 0xFF);
  out += static_cast<char>(code & 0xFF);
  out.append(reason.substr(0, kMaxControlPayload - 2));
  return out;
}

core::Expected<CloseInfo> parse_close_payload(std::string_view payload) {
  CloseInfo c;
  if (payload.empty()) return c;
  if (payload.size() == 1)
    return core::fail(core::ErrorKind::kProtocol, "a close frame with a 1-byte payload (a status code takes 2, §5.5.1)");
  c.code = (static_cast<uint8_t>(payload[0]) << 8) | static_cast<uint8_t>(payload[1]);
  if (!valid_close_code(c.code))
    return core::fail(core::ErrorKind::kProtocol,
                      "a close frame with status code " + std::to_string(c.code) + ", which §7.4 does not allow on the wire");
  c.reason.assign(payload.substr(2));
  if (!result::valid_utf8(c.reason))
    return core::fail(core::ErrorKind::kProtocol,
                      "a close frame whose reason is not UTF-8 (§5.5.1): " + core::escape_bytes(c.reason, 60));
  return c;
}

FrameParser::FrameParser(ParserOptions options) : opt_(options) {}

core::Expected<void> FrameParser::fail(int code, std::string what) {
  close_code_ = code;
  error_ = std::move(what);
  return core::fail(core::ErrorKind::kProtocol, error_);
}

core::Expected<void> FrameParser::on_header() {
  uint8_t b0 = head_[0], b1 = head_[1];
  fin_ = (b0 & 0x80) != 0;
  op_ = static_cast<Opcode>(b0 & 0x0F);
  masked_ = (b1 & 0x80) != 0;
  uint64_t len = b1 & 0x7F;
  size_t pos = 2;
  if (len == 126) {
    len = (uint64_t{head_[2]} << 8) | head_[3];
    pos = 4;
    if (len < 126)
      return fail(kCloseProtocolError, "a 16-bit length of " + std::to_string(len) +
                                           " (the minimal length form is required, §5.2)");
  } else if (len == 127) {
    len = 0;
    for (int i = 0; i < 8; ++i) len = (len << 8) | head_[2 + i];
    pos = 10;
    if (len >> 63) return fail(kCloseProtocolError, "a 64-bit length with its most significant bit set (§5.2)");
    if (len <= 0xFFFF)
      return fail(kCloseProtocolError, "a 64-bit length of " + std::to_string(len) +
                                           " (the minimal length form is required, §5.2)");
  }
  if (masked_) {
    for (int i = 0; i < 4; ++i) mask_[i] = head_[pos + i];
  }
  mask_pos_ = 0;
  remaining_ = len;
  bool control = is_control(op_);
  if (control) {
    if (!fin_) return fail(kCloseProtocolError, "a fragmented " + std::string(to_string(op_)) + " frame (§5.5)");
    if (len > kMaxControlPayload)
      return fail(kCloseProtocolError, "a " + std::string(to_string(op_)) + " frame with a " + std::to_string(len) +
                                           "-byte payload (control frames carry at most 125, §5.5)");
    control_.clear();
  } else if (op_ == Opcode::kContinuation) {
    if (!in_message_) return fail(kCloseProtocolError, "a continuation frame with no message to continue (§5.4)");
  } else {
    if (in_message_)
      return fail(kCloseProtocolError, "a new " + std::string(to_string(op_)) +
                                           " frame inside a fragmented message (a continuation was due, §5.4)");
  }
  if (!control && len > opt_.max_message - std::min(opt_.max_message, message_.size()))
    return fail(kCloseTooBig, "a message of at least " + std::to_string(message_.size() + len) +
                                  " bytes, over the limit of " + std::to_string(opt_.max_message));
  if (!control && op_ != Opcode::kContinuation) {
    in_message_ = true;
    message_op_ = op_;
    message_.clear();
  }
  if (!control) message_.reserve(message_.size() + static_cast<size_t>(len));
  return {};
}

core::Expected<void> FrameParser::on_frame_end(std::vector<Message>& out) {
  if (is_control(op_)) {
    if (op_ == Opcode::kClose) {
      auto c = parse_close_payload(control_);
      if (!c) return fail(c.error().message.find("UTF-8") != std::string::npos ? kCloseInvalidPayload : kCloseProtocolError,
                          c.error().message);
    }
    out.push_back({op_, std::move(control_)});
    control_.clear();
    return {};
  }
  if (!fin_) return {};
  in_message_ = false;
  if (message_op_ == Opcode::kText && !result::valid_utf8(message_))
    return fail(kCloseInvalidPayload, "a text message that is not valid UTF-8 (§8.1)");
  out.push_back({message_op_, std::move(message_)});
  message_.clear();
  return {};
}

core::Expected<void> FrameParser::feed(std::string_view bytes, std::vector<Message>& out) {
  if (failed()) return core::fail(core::ErrorKind::kProtocol, error_);
  size_t i = 0;
  while (i < bytes.size()) {  // every pass consumes at least one byte
    if (!in_payload_) {
      uint8_t b = static_cast<uint8_t>(bytes[i++]);
      ++offset_;
      head_[head_len_++] = b;
      if (head_len_ == 1) {
        if (b & 0x70)
          return fail(kCloseProtocolError, "a frame with reserved bits set (no extension was negotiated, §5.2) at byte " +
                                               std::to_string(offset_ - 1));
        uint8_t op = b & 0x0F;
        if ((op > 0x2 && op < 0x8) || op > 0xA)
          return fail(kCloseProtocolError, "a frame with the reserved opcode " + std::to_string(op) + " (§5.2) at byte " +
                                               std::to_string(offset_ - 1));
        continue;
      }
      if (head_len_ == 2) {
        bool masked = (b & 0x80) != 0;
        if (masked != opt_.expect_masked)
          return fail(kCloseProtocolError, opt_.expect_masked
                                               ? "an unmasked frame from a client (§5.1: a client masks every frame)"
                                               : "a masked frame from a server (§5.1: a server never masks)");
        uint8_t len7 = b & 0x7F;
        head_need_ = 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + (masked ? 4 : 0);
      }
      if (head_len_ < head_need_) continue;
      if (auto h = on_header(); !h) return h;
      head_len_ = 0;
      head_need_ = 2;
      in_payload_ = true;
    } else {
      size_t n = static_cast<size_t>(std::min<uint64_t>(remaining_, bytes.size() - i));
      std::string& dst = is_control(op_) ? control_ : message_;
      size_t start = dst.size();
      dst.append(bytes.substr(i, n));
      if (masked_) {
        for (size_t k = 0; k < n; ++k) dst[start + k] = static_cast<char>(dst[start + k] ^ mask_[(mask_pos_ + k) & 3]);
        mask_pos_ = (mask_pos_ + n) & 3;
      }
      i += n;
      offset_ += n;
      remaining_ -= n;
    }
    if (in_payload_ && remaining_ == 0) {
      in_payload_ = false;
      if (auto e = on_frame_end(out); !e) return e;
    }
  }
  // A zero-length frame whose header ended this chunk is done already (above).
  return {};
}

}  // namespace a2a::transport::ws
