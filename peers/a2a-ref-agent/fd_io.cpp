#include "peers/a2a-ref-agent/fd_io.hpp"

#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <unistd.h>

namespace a2a::agent {

WriteStatus write_all(int fd, std::string_view bytes, core::Deadline deadline, std::string* error) {
  while (!bytes.empty()) {
    pollfd p{fd, POLLOUT, 0};
    int n = ::poll(&p, 1, deadline.poll_timeout_ms());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      if (error) *error = std::string("poll: ") + std::strerror(errno);
      return WriteStatus::kError;
    }
    if (n == 0) {
      if (error) *error = "write timed out: the peer does not read";
      return WriteStatus::kTimeout;
    }
    if (p.revents & (POLLERR | POLLHUP | POLLNVAL) && !(p.revents & POLLOUT)) {
      if (error) *error = "the reading end is closed";
      return WriteStatus::kBrokenPipe;
    }
    ssize_t w = ::write(fd, bytes.data(), std::min<size_t>(bytes.size(), PIPE_BUF));
    if (w < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (w < 0) {
      if (error) *error = std::string("write: ") + std::strerror(errno);
      return errno == EPIPE ? WriteStatus::kBrokenPipe : WriteStatus::kError;
    }
    bytes.remove_prefix(static_cast<size_t>(w));
  }
  return WriteStatus::kOk;
}

WakePipe::WakePipe() {
  if (::pipe(fds_) == 0) {
    for (int fd : fds_) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  }
}

WakePipe::~WakePipe() {
  for (int fd : fds_) {
    if (fd >= 0) ::close(fd);
  }
}

void WakePipe::wake() {
  char c = 1;
  [[maybe_unused]] ssize_t n = ::write(fds_[1], &c, 1);  // EAGAIN: already pending, fine
}

namespace {
constexpr size_t kReadBuffer = 64 * 1024;
}  // namespace

FrameReader::FrameReader(int fd, wire::ContentLengthRules rules, int wake_fd, bool keep_headers)
    : fd_(fd),
      wake_fd_(wake_fd),
      rules_(rules),
      decoder_(wire::make_content_length_decoder(rules)),
      buf_(std::make_unique<char[]>(kReadBuffer)),
      keep_headers_(keep_headers) {}

FrameReader::Result FrameReader::error_result(wire::FrameError e, std::string_view detail) {
  return Result{Result::Kind::kError, {},
                std::string(wire::to_string(e)) + (detail.empty() ? "" : ": " + std::string(detail)), e};
}

FrameReader::Result FrameReader::next_with_headers(core::Deadline deadline) {
  for (;;) {
    if (!unread_.empty()) {
      decoder_->feed(unread_);
      unread_ = {};
    }
    wire::DecodeResult r = decoder_->next();
    switch (r.status) {
      case wire::DecodeResult::Status::kFrame:
        current_ = std::move(r.frame);
        return Result{Result::Kind::kFrame, current_.body, {}, wire::FrameError::kNone, &current_.headers};
      case wire::DecodeResult::Status::kEnd: return Result{Result::Kind::kEnd, {}, {}};
      case wire::DecodeResult::Status::kError: return error_result(r.error, r.detail);
      case wire::DecodeResult::Status::kNeedMore: break;
    }
    if (eof_) return Result{Result::Kind::kEnd, {}, {}};
    if (auto stop = fill(deadline)) return std::move(*stop);
  }
}

void FrameReader::reset_decoder() {
  decoder_ = wire::make_content_length_decoder(rules_);
  unread_ = {};
  if (eof_) decoder_->finish();
}

FrameReader::Result FrameReader::next(core::Deadline deadline) {
  if (keep_headers_) return next_with_headers(deadline);
  for (;;) {
    wire::FrameView v = decoder_->take(unread_);
    switch (v.status) {
      case wire::DecodeResult::Status::kFrame: return Result{Result::Kind::kFrame, v.body, {}};
      case wire::DecodeResult::Status::kEnd: return Result{Result::Kind::kEnd, {}, {}};
      case wire::DecodeResult::Status::kError: return error_result(v.error, v.detail);
      case wire::DecodeResult::Status::kNeedMore: break;
    }
    if (eof_) return Result{Result::Kind::kEnd, {}, {}};  // a decoder that wants more after finish()
    if (auto stop = fill(deadline)) return std::move(*stop);
  }
}

std::optional<FrameReader::Result> FrameReader::fill(core::Deadline deadline) {
  if (before_wait_) before_wait_();
  pollfd p[2] = {{fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
  int n = ::poll(p, wake_fd_ >= 0 ? 2 : 1, deadline.poll_timeout_ms());
  if (n < 0 && errno == EINTR) return std::nullopt;
  if (n < 0) return Result{Result::Kind::kError, {}, std::string("poll: ") + std::strerror(errno)};
  if (n == 0) return Result{Result::Kind::kTimeout, {}, {}};
  if (wake_fd_ >= 0 && (p[1].revents & POLLIN)) {
    char buf[64];
    while (::read(wake_fd_, buf, sizeof buf) > 0) {
    }
    return Result{Result::Kind::kWoken, {}, {}};
  }
  ssize_t got = ::read(fd_, buf_.get(), kReadBuffer);
  if (got < 0 && (errno == EINTR || errno == EAGAIN)) return std::nullopt;
  if (got < 0) return Result{Result::Kind::kError, {}, std::string("read: ") + std::strerror(errno)};
  if (got == 0) {
    eof_ = true;
    decoder_->finish();
  } else {
    unread_ = std::string_view(buf_.get(), static_cast<size_t>(got));
  }
  return std::nullopt;
}

}  // namespace a2a::agent
