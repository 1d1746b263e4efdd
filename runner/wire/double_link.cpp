#include "runner/wire/double_link.hpp"

namespace a2a::wire {

namespace {
bool known_type(char c) {
  switch (static_cast<LinkType>(c)) {
    case LinkType::kHello: case LinkType::kInput: case LinkType::kInputEof:
    case LinkType::kOutput: case LinkType::kCloseOutput: case LinkType::kExit: case LinkType::kStderr: return true;
  }
  return false;
}
}  // namespace

std::string encode_link(LinkType type, std::string_view payload) {
  std::string out;
  out.reserve(5 + payload.size());
  out.push_back(static_cast<char>(type));
  auto n = static_cast<uint32_t>(payload.size());
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((n >> shift) & 0xff));
  out.append(payload);
  return out;
}

void LinkDecoder::feed(std::string_view bytes) {
  if (broken()) return;
  // Compact lazily: consumed bytes are dropped once they dominate the buffer.
  if (pos_ > 0 && pos_ * 2 > buf_.size()) {
    buf_.erase(0, pos_);
    pos_ = 0;
  }
  buf_.append(bytes);
}

std::optional<LinkMessage> LinkDecoder::next() {
  if (broken() || buf_.size() - pos_ < 5) return std::nullopt;
  char type = buf_[pos_];
  if (!known_type(type)) {
    error_ = "unknown link message type " + std::to_string(static_cast<unsigned char>(type));
    return std::nullopt;
  }
  uint32_t n = 0;
  for (int i = 1; i <= 4; ++i) n = (n << 8) | static_cast<unsigned char>(buf_[pos_ + i]);
  if (n > kMaxLinkPayload) {
    error_ = "link message of " + std::to_string(n) + " bytes exceeds the 16 MiB cap";
    return std::nullopt;
  }
  if (buf_.size() - pos_ - 5 < n) return std::nullopt;
  LinkMessage m{static_cast<LinkType>(type), buf_.substr(pos_ + 5, n)};
  pos_ += 5 + n;
  return m;
}

}  // namespace a2a::wire
