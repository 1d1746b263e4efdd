// Unit tests without subprocesses: the transcript, command-line splitting
// and exit-status text.
#include <gtest/gtest.h>

#include <signal.h>

#include <thread>

#include "runner/transport/stdio_process.hpp"
#include "runner/transport/transcript.hpp"

using namespace a2a::transport;
using a2a::core::ErrorKind;

TEST(Transcript, RecordsEntriesInOrderWithDirections) {
  Transcript t;
  t.note("spawned");
  t.add(Direction::kToPeer, "ping");
  t.add(Direction::kFromPeer, "pong");
  t.add(Direction::kStderr, "log");
  auto e = t.entries();
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].dir, Direction::kNote);
  EXPECT_EQ(e[1].dir, Direction::kToPeer);
  EXPECT_EQ(e[1].bytes, "ping");
  EXPECT_EQ(e[2].dir, Direction::kFromPeer);
  EXPECT_EQ(e[3].dir, Direction::kStderr);
  for (size_t i = 1; i < e.size(); ++i) EXPECT_LE(e[i - 1].at, e[i].at);
  EXPECT_GE(e[0].at, t.start());
  EXPECT_EQ(to_string(Direction::kFromPeer), "from-peer");
}

TEST(Transcript, CapsStoredPayloadAndCountsTheRest) {
  Transcript t(10);
  t.add(Direction::kToPeer, "abcdef");
  t.add(Direction::kFromPeer, "ghijkl");
  t.add(Direction::kFromPeer, "mn");
  EXPECT_EQ(t.total_bytes(Direction::kToPeer), 6u);
  EXPECT_EQ(t.total_bytes(Direction::kFromPeer), 8u);
  EXPECT_EQ(t.dropped_bytes(), 4u);
  size_t stored = 0;
  int cap_notes = 0;
  for (const auto& e : t.entries()) {
    if (e.dir == Direction::kNote) {
      ++cap_notes;
      EXPECT_NE(e.bytes.find("cap reached for from-peer"), std::string::npos) << e.bytes;
    } else {
      stored += e.bytes.size();
    }
  }
  EXPECT_EQ(stored, 10u);
  EXPECT_EQ(cap_notes, 1);  // once per direction, not once per dropped chunk
}

TEST(Transcript, TakeEntriesMovesThemOutAndRestartsTheCap) {
  Transcript t(10);
  t.add(Direction::kToPeer, "abcdefghijkl");  // 2 bytes over the cap
  auto first = t.take_entries();
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first.front().bytes, "abcdefghij");
  EXPECT_TRUE(t.entries().empty());
  EXPECT_EQ(t.dropped_bytes(), 0u);
  t.add(Direction::kFromPeer, "0123456789");  // a whole cap again, nothing dropped
  auto second = t.take_entries();
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].bytes, "0123456789");
  EXPECT_EQ(t.total_bytes(Direction::kToPeer), 12u);  // totals keep counting
}

TEST(Transcript, StderrFillsAtMostAQuarterOfTheCap) {
  Transcript t(100);
  t.add(Direction::kStderr, std::string(60, 'e'));
  t.add(Direction::kToPeer, std::string(75, 't'));
  EXPECT_EQ(t.total_bytes(Direction::kStderr), 60u);
  EXPECT_EQ(t.dropped_bytes(), 35u);
  auto e = t.entries();
  ASSERT_EQ(e.size(), 3u);  // stderr head, cap note, to-peer in full
  EXPECT_EQ(e[0].bytes.size(), 25u);
  EXPECT_EQ(e[2].bytes.size(), 75u);
}

TEST(Transcript, NotesAreKeptPastTheCap) {
  Transcript t(4);
  t.add(Direction::kFromPeer, "12345678");
  t.note("exit 0");
  auto e = t.entries();
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e.back().dir, Direction::kNote);
  EXPECT_EQ(e.back().bytes, "exit 0");
}

TEST(Transcript, CountsEveryByteUnderConcurrentAppends) {
  Transcript t(1000);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&t] {
      for (int j = 0; j < 1000; ++j) t.add(Direction::kFromPeer, "abc");
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(t.total_bytes(Direction::kFromPeer), 12000u);
  EXPECT_EQ(t.dropped_bytes(), 11000u);
}

struct SplitCase {
  const char* name;
  const char* input;
  std::vector<std::string> words;
};

class SplitCommand : public ::testing::TestWithParam<SplitCase> {};

TEST_P(SplitCommand, SplitsLikeAPosixShellWithoutExpansion) {
  auto got = StdioProcess::split_command(GetParam().input);
  ASSERT_TRUE(got.ok()) << got.error().str();
  EXPECT_EQ(*got, GetParam().words);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SplitCommand,
    ::testing::Values(
        SplitCase{"Plain", "agent --stdio  -v", {"agent", "--stdio", "-v"}},
        SplitCase{"TabsAndNewlines", "a\tb\nc", {"a", "b", "c"}},
        SplitCase{"Empty", "", {}},
        SplitCase{"OnlyBlanks", "  \t ", {}},
        SplitCase{"SingleQuotes", "echo 'a  b' c", {"echo", "a  b", "c"}},
        SplitCase{"SingleQuotesKeepBackslash", R"('a\b')", {R"(a\b)"}},
        SplitCase{"DoubleQuotesEscapes", R"(say "a \"b\" \$x \n \\")", {"say", R"(a "b" $x \n \)"}},
        SplitCase{"ApostropheInDoubleQuotes", R"("it's")", {"it's"}},
        SplitCase{"BackslashSpace", R"(my\ agent)", {"my agent"}},
        SplitCase{"LineContinuation", "a\\\nb", {"ab"}},
        SplitCase{"TrailingBackslashIsLiteral", R"(a\)", {R"(a\)"}},
        SplitCase{"EmptyQuotesMakeEmptyWords", R"(a '' "")", {"a", "", ""}},
        SplitCase{"AdjacentPartsJoin", R"(pre'mid'"post"end)", {"premidpostend"}},
        SplitCase{"NoExpansion", "echo $HOME ~ * `x`", {"echo", "$HOME", "~", "*", "`x`"}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(SplitCommandErrors, UnclosedQuotesAreInvalidArgument) {
  for (const char* bad : {"echo 'abc", "echo \"abc", R"(a "b\")"}) {
    auto got = StdioProcess::split_command(bad);
    ASSERT_FALSE(got.ok()) << bad;
    EXPECT_EQ(got.error().kind, ErrorKind::kInvalidArgument) << bad;
    EXPECT_NE(got.error().message.find("unclosed"), std::string::npos) << got.error().message;
  }
}

TEST(JoinCommand, RoundTripsThroughSplitCommand) {
  std::vector<std::string> argv = {"agent", "a b", "it's", "", "$x", "plain-arg=1", "tab\there"};
  std::string joined = StdioProcess::join_command(argv);
  EXPECT_EQ(joined.substr(0, 13), "agent 'a b' '");
  auto back = StdioProcess::split_command(joined);
  ASSERT_TRUE(back.ok()) << back.error().str();
  EXPECT_EQ(*back, argv);
}

TEST(ExitStatus, RendersExitCodesAndSignalNames) {
  ExitStatus ok;
  ok.exited = true;
  ok.code = 0;
  EXPECT_EQ(ok.str(), "exit 0");
  ExitStatus killed;
  killed.signaled = true;
  killed.signal = SIGKILL;
  EXPECT_EQ(killed.str(), "signal 9 (SIGKILL)");
  killed.signal = SIGTERM;
  EXPECT_EQ(killed.str(), "signal 15 (SIGTERM)");
  EXPECT_EQ(ExitStatus{}.str(), "unknown");
}
