#include "peers/a2a-ref-client/agent_status.hpp"

#include "runner/core/escape.hpp"

namespace a2a::client {

std::string describe_exit(transport::StdioProcess& proc, core::Millis wait) {
  auto status = proc.wait_exit(core::Deadline::after(wait));
  if (status) return status->str();
  return "still running after " + std::to_string(wait.count()) + " ms";
}

std::string stderr_excerpt(const transport::StdioProcess& proc, size_t max_bytes) {
  std::string text = proc.stderr_text();
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if (text.empty()) return {};
  if (text.size() > max_bytes) text = "..." + text.substr(text.size() - max_bytes);
  return "; agent stderr: " + core::escape_bytes(text);
}

}  // namespace a2a::client
