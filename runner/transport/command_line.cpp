// Command-line words: POSIX-shell word splitting (no expansion) and its
// inverse for display, plus the printable form of an exit status.
#include <signal.h>
#include <string.h>

#include "runner/transport/stdio_process.hpp"

namespace a2a::transport {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n'; }

// Inside double quotes a backslash only escapes these (POSIX 2.2.3).
bool escapable_in_double_quotes(char c) {
  return c == '\\' || c == '"' || c == '$' || c == '`' || c == '\n';
}

bool needs_quoting(const std::string& word) {
  if (word.empty()) return true;
  for (char c : word) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '-' || c == '_' || c == '.' || c == '/' || c == ':' || c == '=' ||
                 c == ',' || c == '+' || c == '@' || c == '%';
    if (!plain) return true;
  }
  return false;
}

}  // namespace

core::Expected<std::vector<std::string>> StdioProcess::split_command(std::string_view cmd) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;  // distinguishes "" (an empty word) from no word
  size_t i = 0;
  while (i < cmd.size()) {
    char c = cmd[i];
    if (is_blank(c)) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      ++i;
      continue;
    }
    in_word = true;
    if (c == '\\') {
      if (i + 1 >= cmd.size()) {  // a trailing backslash stays literal, as in sh -c
        word += '\\';
        ++i;
      } else if (cmd[i + 1] == '\n') {  // line continuation
        i += 2;
      } else {
        word += cmd[i + 1];
        i += 2;
      }
      continue;
    }
    if (c == '\'') {
      size_t close = cmd.find('\'', i + 1);
      if (close == std::string_view::npos) {
        return core::fail(core::ErrorKind::kInvalidArgument,
                          "unclosed single quote at offset " + std::to_string(i) + " in command");
      }
      word.append(cmd.substr(i + 1, close - i - 1));
      i = close + 1;
      continue;
    }
    if (c == '"') {
      size_t j = i + 1;
      for (; j < cmd.size() && cmd[j] != '"'; ++j) {
        if (cmd[j] == '\\' && j + 1 < cmd.size() && escapable_in_double_quotes(cmd[j + 1])) {
          if (cmd[j + 1] != '\n') word += cmd[j + 1];
          ++j;
        } else {
          word += cmd[j];
        }
      }
      if (j >= cmd.size()) {
        return core::fail(core::ErrorKind::kInvalidArgument,
                          "unclosed double quote at offset " + std::to_string(i) + " in command");
      }
      i = j + 1;
      continue;
    }
    word += c;
    ++i;
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

std::string StdioProcess::join_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& word : argv) {
    if (!out.empty()) out += ' ';
    if (!needs_quoting(word)) {
      out += word;
      continue;
    }
    // Single quotes take everything literally; an embedded ' is closed,
    // escaped and reopened.
    out += '\'';
    for (char c : word) {
      if (c == '\'') {
        out += "'\\''";
      } else {
        out += c;
      }
    }
    out += '\'';
  }
  return out;
}

std::string ExitStatus::str() const {
  if (exited) return "exit " + std::to_string(code);
  if (signaled) {
    std::string out = "signal " + std::to_string(signal);
    if (const char* abbrev = ::sigabbrev_np(signal)) out += std::string(" (SIG") + abbrev + ")";
    return out;
  }
  return "unknown";
}

}  // namespace a2a::transport
