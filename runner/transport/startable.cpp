#include "runner/transport/startable.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "runner/transport/process_launch.hpp"

namespace a2a::transport {

namespace {

// The kernel reads at most this much of a "#!" line (BINPRM_BUF_SIZE).
constexpr size_t kShebangBytes = 256;

bool executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// The words of the "#!" line of `path` (interpreter first), or none.
std::vector<std::string> shebang_words(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char buf[kShebangBytes] = {};
  in.read(buf, sizeof buf);
  std::string head(buf, static_cast<size_t>(in.gcount()));
  if (!head.starts_with("#!")) return {};
  std::string line = head.substr(2, head.find('\n') == std::string::npos ? std::string::npos : head.find('\n') - 2);
  std::vector<std::string> words;
  size_t i = 0;
  while (i < line.size()) {
    // A CR is part of the word, as for the kernel: "#!/bin/sh\r\n" names "/bin/sh\r".
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

// "#!/usr/bin/env [-S] [NAME=VALUE...] PROGRAM": PROGRAM must be in PATH.
std::string env_program_problem(const std::string& script, const std::vector<std::string>& words,
                                const std::string& cwd) {
  for (size_t k = 1; k < words.size(); ++k) {
    const std::string& w = words[k];
    if (w.starts_with("-") || w.find('=') != std::string::npos) continue;
    SpawnOptions o;
    o.argv = {w};
    o.cwd = cwd;
    if (auto p = detail::resolve_program(o); !p)
      return "'" + script + "' runs '" + w + "' through " + words[0] + " on its #! line: " + p.error().message;
    return "";
  }
  return "";
}

}  // namespace

std::string start_problem(const std::vector<std::string>& argv, const std::string& cwd) {
  SpawnOptions o;
  o.argv = argv;
  o.cwd = cwd;
  auto exe = detail::resolve_program(o);
  if (!exe) return exe.error().message;
  auto words = shebang_words(*exe);
  if (words.empty()) return "";
  const std::string& interp = words[0];
  struct stat st {};
  if (::stat(interp.c_str(), &st) != 0)
    return "'" + argv[0] + "' names the interpreter '" + interp + "' on its #! line, which does not exist" +
           (interp.ends_with('\r') ? " (the line ends in CR LF: Windows line ends?)" : "");
  if (!executable_file(interp))
    return "'" + argv[0] + "' names the interpreter '" + interp + "' on its #! line, which is not an executable file";
  if (interp == "/usr/bin/env" || interp == "/bin/env") return env_program_problem(argv[0], words, cwd);
  return "";
}

}  // namespace a2a::transport
