// ASCII case folding for protocol tokens (header names, schemes, hosts,
// enum spellings): std::tolower byte by byte, independent of any UTF-8.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace a2a::core {

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace a2a::core
