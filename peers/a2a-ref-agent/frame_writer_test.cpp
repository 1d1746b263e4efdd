// FrameWriter on a real pipe: batching of the reader thread's frames and
// the order of frames from several threads.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "peers/a2a-ref-agent/frame_writer.hpp"
#include "runner/wire/codec.hpp"

namespace a2a::agent {
namespace {

class Pipe {
 public:
  Pipe() {
    if (::pipe(fds_) != 0) std::abort();
    ::fcntl(fds_[0], F_SETFL, ::fcntl(fds_[0], F_GETFL) | O_NONBLOCK);
    ::fcntl(fds_[1], F_SETPIPE_SZ, 1 << 20);  // room for a whole batch: the test reads only between writes
  }
  ~Pipe() {
    ::close(fds_[0]);
    ::close(fds_[1]);
  }
  int write_fd() const { return fds_[1]; }
  // Everything written so far (the writes under test are synchronous).
  std::string drain() {
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::read(fds_[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
    return out;
  }

 private:
  int fds_[2] = {-1, -1};
};

TEST(Unit, FramesOfTheBatchingThreadWaitForFlush) {
  Pipe p;
  FrameWriter w(p.write_fd(), Faults{}, core::Millis(2000), nullptr);
  w.batch_writes_from_this_thread();
  ASSERT_TRUE(w.write_body("{\"a\":1}"));
  ASSERT_TRUE(w.write_body("{\"b\":2}"));
  EXPECT_EQ(p.drain(), "");
  ASSERT_TRUE(w.flush());
  EXPECT_EQ(p.drain(), wire::encode_content_length("{\"a\":1}") + wire::encode_content_length("{\"b\":2}"));
  EXPECT_TRUE(w.flush());  // nothing left: a no-op
  EXPECT_EQ(p.drain(), "");
}

TEST(Unit, AnotherThreadsFrameGoesOutAfterTheCollectedOnes) {
  Pipe p;
  FrameWriter w(p.write_fd(), Faults{}, core::Millis(2000), nullptr);
  w.batch_writes_from_this_thread();
  ASSERT_TRUE(w.write_body("[1]"));
  std::thread other([&] { EXPECT_TRUE(w.write_body("[2]")); });
  other.join();
  EXPECT_EQ(p.drain(), wire::encode_content_length("[1]") + wire::encode_content_length("[2]"));
}

TEST(Unit, WithoutABatchingThreadEveryFrameIsWrittenAtOnce) {
  Pipe p;
  FrameWriter w(p.write_fd(), Faults{}, core::Millis(2000), nullptr);
  ASSERT_TRUE(w.write_body("{}"));
  EXPECT_EQ(p.drain(), wire::encode_content_length("{}"));
}

TEST(Unit, ALongRunOfCollectedFramesIsWrittenWithoutFlush) {
  Pipe p;
  FrameWriter w(p.write_fd(), Faults{}, core::Millis(2000), nullptr);
  w.batch_writes_from_this_thread();
  const std::string body(1000, 'x');
  size_t written = 0;
  for (int i = 0; i < 200 && written == 0; ++i) {  // bounded: 200 KB of frames
    ASSERT_TRUE(w.write_body("\"" + body + "\""));
    written = p.drain().size();
  }
  EXPECT_GT(written, 0u) << "collected frames must not grow without bound";
}

}  // namespace
}  // namespace a2a::agent
