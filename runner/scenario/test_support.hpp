// Helpers for the scenario tests only: YAML written inline by each test into a
// fresh temporary folder, so every test is self-contained.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "runner/core/error.hpp"

namespace a2a::scenario::testing {

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "x";
    for (char& c : name) {
      if (c == '/') c = '_';
    }
    path_ = std::filesystem::temp_directory_path() /
            ("a2a-scn-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" + name);
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // Writes `text` (bytes as given) to a file under the folder; returns its path.
  std::filesystem::path write(const std::string& name, std::string_view text) const {
    auto p = path_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary);
    out << text;
    return p;
  }

 private:
  std::filesystem::path path_;
};

// A document header plus one suite whose tests the caller writes.
inline std::string doc_with_tests(std::string_view tests) {
  return std::string("acts_version: \"1.0\"\nspec_version: \"1.0\"\nsuites:\n  - id: s\n    name: S\n"
                     "    tests:\n") + std::string(tests);
}

}  // namespace a2a::scenario::testing
