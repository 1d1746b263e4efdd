// Fuzzes the stream decoders of runner/wire/codec.hpp: Content-Length framing
// under rule sets picked by the input (P46, lenient-strict and every mix of
// the individual rules, small caps included) and newline-delimited JSON.
// Input: [rules][rules2][seed lo][seed hi][max chunk] then the stream bytes.
// Invariants: the same bytes fed at once, in random chunks with next()
// interleaved, and one byte at a time give the same frames and the same end
// (kind and detail); a body has exactly the declared Content-Length bytes and
// re-encodes to a stream that decodes to the same body; an error is sticky;
// finish() always ends in kEnd or kError. take() (the view API) agrees with
// feed()/next() on every body and end, and keeps no view into a freed chunk.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "runner/wire/codec.hpp"

namespace {

using a2a::fuzz::Input;
using a2a::fuzz::Rng;
using a2a::fuzz::show;
using namespace a2a::wire;
using Status = DecodeResult::Status;

struct Config {
  bool ndjson = false;
  ContentLengthRules rules;
  size_t max_line = 0;  // ndjson
};

Config read_config(Input& in) {
  Config c;
  const uint8_t a = in.byte();
  const uint8_t b = in.byte();
  c.ndjson = (a & 1) != 0;
  ContentLengthRules& r = c.rules;
  r = (a & 2) ? ContentLengthRules::p46() : ContentLengthRules::lenient_strict();
  r.case_insensitive_names ^= (a >> 2) & 1;
  r.allow_whitespace_around_value ^= (a >> 3) & 1;
  r.allow_plus_and_leading_zeros ^= (a >> 4) & 1;
  r.duplicate_lengths_must_agree ^= (a >> 5) & 1;
  r.allow_bare_lf ^= (a >> 6) & 1;
  r.fatal_line_without_colon ^= (a >> 7) & 1;
  r.skip_empty_lines_before_headers ^= b & 1;
  r.eof_in_header_is_error ^= (b >> 1) & 1;
  r.strip_all_trailing_cr ^= (b >> 2) & 1;
  static constexpr size_t kHeaderCaps[] = {0, 1, 24, 8 * 1024};
  static constexpr size_t kBodyCaps[] = {0, 3, 64, 64ull * 1024 * 1024};
  if ((b >> 3) & 1) r.max_header_block = kHeaderCaps[(b >> 4) & 3];
  r.max_body = kBodyCaps[(b >> 6) & 3];
  static constexpr size_t kLineCaps[] = {1, 3, 64, 64ull * 1024 * 1024};
  c.max_line = kLineCaps[(b >> 6) & 3];
  return c;
}

std::unique_ptr<Decoder> make(const Config& c) {
  return c.ndjson ? make_ndjson_decoder(c.max_line) : make_content_length_decoder(c.rules);
}

struct Outcome {
  std::vector<Frame> frames;
  DecodeResult end;  // kEnd or kError
};

// Pulls every queued frame; returns the first non-frame result.
DecodeResult drain(Decoder& d, std::vector<Frame>& frames) {
  for (;;) {
    DecodeResult r = d.next();
    if (r.status != Status::kFrame) return r;
    frames.push_back(std::move(r.frame));
  }
}

DecodeResult finish_and_check(Decoder& d, std::vector<Frame>& frames) {
  d.finish();
  DecodeResult end = drain(d, frames);
  A2A_FUZZ_CHECK(end.status == Status::kEnd || end.status == Status::kError, "after finish(): needs more");
  // Sticky: more bytes, finish() again and next() again change nothing.
  d.feed("Content-Length: 0\r\n\r\n\n");
  d.finish();
  DecodeResult again = d.next();
  A2A_FUZZ_CHECK(again.status == end.status && again.error == end.error && again.detail == end.detail,
                 "terminal result changed: " + again.detail + " vs " + end.detail);
  if (end.status == Status::kEnd) A2A_FUZZ_CHECK(d.buffered() == 0, std::to_string(d.buffered()));
  return end;
}

Outcome decode_whole(const Config& c, std::string_view bytes) {
  auto d = make(c);
  Outcome o;
  d->feed(bytes);
  DecodeResult before = drain(*d, o.frames);
  A2A_FUZZ_CHECK(before.status != Status::kEnd, "kEnd before finish()");
  A2A_FUZZ_CHECK(d->buffered() <= bytes.size(), "buffered() above the bytes fed");
  o.end = finish_and_check(*d, o.frames);
  return o;
}

Outcome decode_chunked(const Config& c, std::string_view bytes, Rng& rng, size_t max_chunk) {
  auto d = make(c);
  Outcome o;
  while (!bytes.empty()) {
    size_t n = std::min(bytes.size(), rng.chunk(max_chunk));
    // A fresh heap copy per chunk, freed after the call: ASan reports any
    // view the decoder kept into the caller's bytes.
    d->feed(std::string(bytes.substr(0, n)));
    bytes.remove_prefix(n);
    for (uint64_t pulls = rng.next() % 3; pulls > 0; --pulls) {
      DecodeResult r = d->next();
      A2A_FUZZ_CHECK(r.status != Status::kEnd, "kEnd before finish()");
      if (r.status == Status::kFrame) o.frames.push_back(std::move(r.frame));
    }
  }
  o.end = finish_and_check(*d, o.frames);
  return o;
}

// The same stream read with take() in random chunks: views are copied at
// once, since they are only valid until the next call.
Outcome decode_take(const Config& c, std::string_view bytes, Rng& rng, size_t max_chunk) {
  auto d = make(c);
  Outcome o;
  bool failed = false;
  while (!bytes.empty() && !failed) {
    size_t n = std::min(bytes.size(), rng.chunk(max_chunk));
    const std::string chunk(bytes.substr(0, n));
    bytes.remove_prefix(n);
    std::string_view in = chunk;
    for (;;) {
      const size_t before = in.size();
      FrameView v = d->take(in);
      A2A_FUZZ_CHECK(v.status != Status::kEnd, "take(): kEnd before finish()");
      A2A_FUZZ_CHECK(in.size() <= before, "take() grew its input");
      if (v.status == Status::kFrame) {
        o.frames.push_back(Frame{{}, std::string(v.body)});
        continue;
      }
      if (v.status == Status::kError) {
        o.end.status = v.status;
        o.end.error = v.error;
        o.end.detail = std::string(v.detail);
        failed = true;
      } else {
        A2A_FUZZ_CHECK(in.empty(), "take(): kNeedMore with " + std::to_string(in.size()) + " bytes left");
      }
      break;
    }
  }
  d->finish();
  for (size_t guard = 0; guard < 1 + o.frames.size() + bytes.size() + 4; ++guard) {
    std::string_view none;
    FrameView v = d->take(none);
    if (v.status == Status::kFrame) {
      A2A_FUZZ_CHECK(!failed, "take(): a frame after an error");
      o.frames.push_back(Frame{{}, std::string(v.body)});
      continue;
    }
    A2A_FUZZ_CHECK(v.status == Status::kEnd || v.status == Status::kError, "take() after finish(): needs more");
    A2A_FUZZ_CHECK(!failed || (v.status == o.end.status && v.error == o.end.error && v.detail == o.end.detail),
                   "take(): error not sticky");
    o.end.status = v.status;
    o.end.error = v.error;
    o.end.detail = std::string(v.detail);
    return o;
  }
  A2A_FUZZ_CHECK(false, "take() after finish() never ended");
  return o;
}

std::string describe(const Outcome& o) {
  std::string s = std::to_string(o.frames.size()) + " frames, end " +
                  (o.end.status == Status::kEnd ? "kEnd" : "kError " + std::string(to_string(o.end.error))) +
                  " '" + o.end.detail + "'";
  for (const Frame& f : o.frames) s += "\n  body '" + show(f.body, 60) + "'";
  return s;
}

void check_same(const Outcome& a, const Outcome& b, bool compare_detail, const char* how, bool headers = true) {
  bool same = a.frames.size() == b.frames.size() && a.end.status == b.end.status && a.end.error == b.end.error &&
              (!compare_detail || a.end.detail == b.end.detail);
  for (size_t i = 0; same && i < a.frames.size(); ++i) {
    same = a.frames[i].body == b.frames[i].body && (!headers || a.frames[i].headers.size() == b.frames[i].headers.size());
    for (size_t h = 0; same && headers && h < a.frames[i].headers.size(); ++h) {
      same = a.frames[i].headers[h].name == b.frames[i].headers[h].name &&
             a.frames[i].headers[h].value == b.frames[i].headers[h].value;
    }
  }
  A2A_FUZZ_CHECK(same, std::string(how) + " differs from whole input:\nwhole:   " + describe(a) + "\n" + how +
                           ": " + describe(b));
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// The value a header line declares, read as loosely as any rule set may.
std::optional<uint64_t> loose_length(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  if (!v.empty() && v.front() == '+') v.remove_prefix(1);
  if (v.empty()) return std::nullopt;
  while (v.size() > 1 && v.front() == '0') v.remove_prefix(1);
  if (v.size() > 20) return std::nullopt;
  uint64_t n = 0;
  for (char ch : v) {
    if (ch < '0' || ch > '9') return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(ch - '0');
  }
  return n;
}

void check_frame(const Config& c, const Frame& f) {
  if (c.ndjson) {
    A2A_FUZZ_CHECK(!f.body.empty() && f.body.find('\n') == std::string::npos && f.body.size() <= c.max_line,
                   "ndjson body '" + show(f.body) + "'");
    return;
  }
  A2A_FUZZ_CHECK(f.body.size() <= c.rules.max_body, "body above the cap: " + std::to_string(f.body.size()));
  // Some Content-Length header declares exactly the body's size; when
  // duplicates must agree (and values are trimmed), every one of them does.
  bool any = false;
  for (const Header& h : f.headers) {
    bool named = c.rules.case_insensitive_names ? iequals(h.name, "Content-Length") : h.name == "Content-Length";
    if (!named) continue;
    auto n = loose_length(h.value);
    bool match = n && *n == f.body.size();
    any = any || match;
    if (c.rules.duplicate_lengths_must_agree && c.rules.allow_whitespace_around_value) {
      A2A_FUZZ_CHECK(match, "Content-Length '" + show(h.value) + "' but body of " + std::to_string(f.body.size()));
    }
  }
  A2A_FUZZ_CHECK(any, "no Content-Length header names the body size " + std::to_string(f.body.size()));
  // What the encoder writes for this body decodes back to it (when its
  // header block fits the fuzzed header cap).
  const std::string encoded = encode_content_length(f.body);
  const size_t cap = c.rules.max_header_block;
  if (cap != 0 && encoded.size() - f.body.size() > cap) return;
  auto d = make(c);
  d->feed(encoded);
  DecodeResult r = d->next();
  A2A_FUZZ_CHECK(r.status == Status::kFrame && r.frame.body == f.body,
                 "re-encoded body did not decode: " + std::string(to_string(r.error)) + " " + r.detail);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  const Config c = read_config(in);
  Rng rng(in.u16());
  const size_t max_chunk = 1 + in.byte();
  const std::string_view bytes = in.rest();

  Outcome whole = decode_whole(c, bytes);
  if (whole.end.status == Status::kError) {
    A2A_FUZZ_CHECK(whole.end.error != FrameError::kNone && whole.end.detail.starts_with("byte "),
                   "error without kind or location: '" + whole.end.detail + "'");
  }
  for (const Frame& f : whole.frames) check_frame(c, f);
  // ndjson details say whether the newline had arrived yet, which depends on
  // chunking by design; the error kind must not.
  check_same(whole, decode_chunked(c, bytes, rng, max_chunk), !c.ndjson, "chunked");
  check_same(whole, decode_chunked(c, bytes, rng, 1), !c.ndjson, "byte-at-a-time");
  // take() returns bodies only (headers are checked, not kept).
  check_same(whole, decode_take(c, bytes, rng, max_chunk), !c.ndjson, "take()", false);
  check_same(whole, decode_take(c, bytes, rng, bytes.size() + 1), !c.ndjson, "take() big chunks", false);
  return 0;
}
