// The runner's side of `a2a-conform client` (docs/client-conformance.md): the
// client under test as a process (its stdin gets script lines, its stdout is
// read as result lines), and on stdio the loopback link to the agent double
// that the client spawns as its agent. The client's misbehaviour is data
// (lines, EOFs, exit statuses), never an exception; every wait has a deadline.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/core/deadline.hpp"
#include "runner/core/expected.hpp"
#include "runner/engine/agent_connection.hpp"
#include "runner/transport/stdio_process.hpp"

namespace a2a::engine {

// The client under test: one process per scenario, stdout split into lines.
class ClientProcess {
 public:
  static core::Expected<std::unique_ptr<ClientProcess>> spawn(const std::vector<std::string>& argv);
  ~ClientProcess();

  core::Expected<void> write_line(const std::string& line, core::Deadline d);
  void close_input() { proc_->close_stdin(); }
  // The next stdout line (without its newline); nullopt at the deadline or
  // when stdout ended with nothing left (ended() then says so).
  std::optional<std::string> next_line(core::Deadline d);
  bool ended() const;
  std::vector<std::string> unread_lines() const;
  transport::StdioProcess& process() { return *proc_; }
  void interrupt();

 private:
  ClientProcess() = default;
  void reader_loop();

  std::unique_ptr<transport::StdioProcess> proc_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::string> lines_;
  std::string partial_;
  size_t kept_bytes_ = 0;
  bool eof_ = false;
  bool stop_ = false;
  std::thread reader_;
};

// A listening loopback socket for one agent double. The double proves it is
// ours with a one-time token; a second double of the same scenario (a client
// that spawned its agent twice) is noted and turned away.
class DoubleLink {
 public:
  static core::Expected<std::unique_ptr<DoubleLink>> listen(transport::Transcript* tr);
  ~DoubleLink();

  // The command line the client must run as its agent (its {target}).
  std::string command_line(const std::string& double_path) const;
  // Waits until the double connected and said hello (false at the deadline).
  bool wait_linked(core::Deadline d);
  nlohmann::json hello() const;  // {argv, env} once linked

  core::Expected<void> send_output(std::string_view bytes, core::Deadline d);
  void close_output();
  void exit_double(int code);
  // The double writes `bytes` filler bytes to its stderr before it relays
  // anything sent after this (the stderr flood of L6).
  void write_stderr(long long bytes);
  transport::ReadResult read_input(core::Deadline d);
  void interrupt();

 private:
  DoubleLink() = default;
  void accept_loop();
  bool read_hello(int fd);
  void reader_loop(int fd);
  core::Expected<void> send(std::string_view bytes, core::Deadline d);

  int listen_fd_ = -1;
  int port_ = 0;
  std::string token_;
  transport::Transcript* tr_ = nullptr;
  mutable std::mutex mu_;
  std::mutex write_mu_;
  std::condition_variable cv_;
  int fd_ = -1;
  nlohmann::json hello_;
  std::string input_;     // relayed stdin bytes not yet read
  bool input_eof_ = false;
  std::string link_error_;
  bool stop_ = false;
  std::thread acceptor_;
  std::thread reader_;
};

// The frames a client writes to its agent, as an AgentConnection sees them:
// reads come from the double's stdin, writes go to its stdout, and the
// "process" that exits is the client.
std::unique_ptr<PeerChannel> make_double_channel(DoubleLink& link, ClientProcess& client);

}  // namespace a2a::engine
