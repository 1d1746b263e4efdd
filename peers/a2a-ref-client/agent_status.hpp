// Small facts about the agent process that error messages quote: its exit
// status (waited for briefly, since stdout EOF usually precedes the exit by
// microseconds) and the tail of its stderr.
#pragma once

#include <string>

#include "runner/core/deadline.hpp"
#include "runner/transport/stdio_process.hpp"

namespace a2a::client {

// "exit 3", "signal 9 (SIGKILL)" or "still running after 500 ms".
std::string describe_exit(transport::StdioProcess& proc, core::Millis wait);

// "; agent stderr: <last bytes, escaped>" or "" when stderr was empty.
std::string stderr_excerpt(const transport::StdioProcess& proc, size_t max_bytes = 1024);

}  // namespace a2a::client
