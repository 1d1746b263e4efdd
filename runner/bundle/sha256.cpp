#include "runner/bundle/sha256.hpp"

#include <array>
#include <fstream>
#include <memory>

#include <openssl/evp.h>

namespace a2a::bundle {

namespace {

using Ctx = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

std::string hex(const unsigned char* d, unsigned n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (unsigned i = 0; i < n; ++i) {
    out.push_back(kDigits[d[i] >> 4]);
    out.push_back(kDigits[d[i] & 15]);
  }
  return out;
}

Ctx start() {
  Ctx c(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (c) EVP_DigestInit_ex(c.get(), EVP_sha256(), nullptr);
  return c;
}

std::string finish(EVP_MD_CTX* c) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> d{};
  unsigned n = 0;
  EVP_DigestFinal_ex(c, d.data(), &n);
  return hex(d.data(), n);
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  Ctx c = start();
  EVP_DigestUpdate(c.get(), bytes.data(), bytes.size());
  return finish(c.get());
}

core::Expected<std::string> sha256_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return core::fail(core::ErrorKind::kNotFound, "cannot open " + file.string());
  Ctx c = start();
  std::array<char, 64 * 1024> buf{};
  while (in) {
    in.read(buf.data(), buf.size());
    if (in.gcount() > 0) EVP_DigestUpdate(c.get(), buf.data(), static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) return core::fail(core::ErrorKind::kIo, "cannot read " + file.string());
  return finish(c.get());
}

}  // namespace a2a::bundle
