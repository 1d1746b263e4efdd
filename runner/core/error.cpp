#include "runner/core/error.hpp"

namespace a2a::core {

std::string SourceLocation::str() const {
  if (file.empty()) return {};
  std::string out = file;
  if (line > 0) {
    out += ':' + std::to_string(line);
    if (column > 0) out += ':' + std::to_string(column);
  }
  return out;
}

std::string_view to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument: return "invalid-argument";
    case ErrorKind::kParse: return "parse";
    case ErrorKind::kSchema: return "schema";
    case ErrorKind::kNotFound: return "not-found";
    case ErrorKind::kIo: return "io";
    case ErrorKind::kTimeout: return "timeout";
    case ErrorKind::kBrokenPipe: return "broken-pipe";
    case ErrorKind::kEof: return "eof";
    case ErrorKind::kSpawn: return "spawn";
    case ErrorKind::kProtocol: return "protocol";
    case ErrorKind::kInternal: return "internal";
  }
  return "unknown";
}

std::string Error::str() const {
  std::string out;
  if (where.known()) out = where.str() + ": ";
  out += "error[";
  out += to_string(kind);
  out += "]: ";
  out += message;
  return out;
}

}  // namespace a2a::core
