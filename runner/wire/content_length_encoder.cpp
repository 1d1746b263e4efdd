// Content-Length writing (stdio-binding.md §2.1) and the reader rule sets.
// The decoder is in content_length.cpp.
#include <string>

#include "runner/wire/codec.hpp"

namespace a2a::wire {
namespace {

class ContentLengthEncoder final : public Encoder {
 public:
  std::string encode(std::string_view body) const override { return encode_content_length(body); }
};

}  // namespace

ContentLengthRules ContentLengthRules::p46() {
  ContentLengthRules r;
  r.case_insensitive_names = false;
  r.allow_whitespace_around_value = false;
  r.duplicate_lengths_must_agree = false;
  r.fatal_line_without_colon = false;
  r.eof_in_header_is_error = false;
  r.max_header_block = 0;
  r.strip_all_trailing_cr = true;
  return r;
}

ContentLengthRules ContentLengthRules::lenient_strict() { return ContentLengthRules{}; }

std::unique_ptr<Encoder> make_content_length_encoder() { return std::make_unique<ContentLengthEncoder>(); }

std::string encode_content_length(std::string_view body) {
  constexpr std::string_view kPrefix = "Content-Length: ";
  constexpr std::string_view kRest = "\r\nContent-Type: application/json\r\n\r\n";
  std::string length = std::to_string(body.size());
  std::string out;
  out.reserve(kPrefix.size() + length.size() + kRest.size() + body.size());
  out.append(kPrefix).append(length).append(kRest).append(body);
  return out;
}

}  // namespace a2a::wire
