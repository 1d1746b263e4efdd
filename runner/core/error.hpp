#pragma once

#include <string>
#include <string_view>

namespace a2a::core {

// Where a config or scenario problem was found. line/column are 1-based; 0 = unknown.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;

  bool known() const { return !file.empty(); }
  std::string str() const;  // "file:line:column", "file:line", "file" or ""
};

enum class ErrorKind {
  kInvalidArgument,   // bad flag, bad value in a config
  kParse,             // a document (YAML, JSON) could not be read
  kSchema,            // a document was read but has unknown keys / wrong types
  kNotFound,          // file, program, profile not found
  kIo,                // read/write failure
  kTimeout,           // a deadline expired
  kBrokenPipe,        // the peer closed its end (EPIPE)
  kEof,               // the peer's output ended
  kSpawn,             // a child could not be started
  kProtocol,          // the peer violated the wire protocol
  kInternal,          // a bug of ours
};

std::string_view to_string(ErrorKind kind);

struct Error {
  ErrorKind kind = ErrorKind::kInternal;
  std::string message;
  SourceLocation where;

  // "file:line:col: error[kind]: message" (location omitted when unknown).
  std::string str() const;
};

}  // namespace a2a::core
