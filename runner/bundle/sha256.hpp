// SHA-256 over bytes and files, in lowercase hex (OpenSSL's libcrypto, which
// the HTTPS transport already links).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "runner/core/expected.hpp"

namespace a2a::bundle {

std::string sha256_hex(std::string_view bytes);
// Read in 64 KiB blocks: memory stays bounded whatever the file's size.
core::Expected<std::string> sha256_file(const std::filesystem::path& file);

}  // namespace a2a::bundle
