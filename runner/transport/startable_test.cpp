// start_problem on programs written by hand into a fresh folder: each way a
// command cannot start is named; a command that can start passes.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "runner/transport/startable.hpp"

namespace fs = std::filesystem;
using a2a::transport::start_problem;

namespace {

class StartProblem : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "a2a-startable-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, const std::string& text, mode_t mode) {
    std::string p = (dir_ / name).string();
    std::ofstream(p, std::ios::binary) << text;
    ::chmod(p.c_str(), mode);
    return p;
  }
  fs::path dir_;
};

TEST_F(StartProblem, AcceptsAnExecutableScriptAndAProgramInPath) {
  EXPECT_EQ(start_problem({write("ok.sh", "#!/bin/sh\nexit 0\n", 0755)}), "");
  EXPECT_EQ(start_problem({"sh", "-c", "true"}), "");
  EXPECT_EQ(start_problem({write("env.sh", "#!/usr/bin/env sh\nexit 0\n", 0755)}), "");
}

TEST_F(StartProblem, NamesAMissingProgram) {
  std::string missing = (dir_ / "no-such-agent").string();
  EXPECT_NE(start_problem({missing}).find("no-such-agent"), std::string::npos);
  EXPECT_NE(start_problem({"a2a-no-such-program-in-path"}).find("not found in PATH"), std::string::npos);
}

TEST_F(StartProblem, NamesAFileThatIsNotExecutable) {
  std::string p = write("plain.sh", "#!/bin/sh\n", 0644);
  EXPECT_NE(start_problem({p}).find("not executable"), std::string::npos) << start_problem({p});
  EXPECT_NE(start_problem({dir_.string()}).find("is a directory"), std::string::npos);
}

TEST_F(StartProblem, NamesAMissingInterpreterOnTheShebangLine) {
  std::string p = write("bad.sh", "#!/no/such/interpreter -x\necho\n", 0755);
  std::string why = start_problem({p});
  EXPECT_NE(why.find("'/no/such/interpreter'"), std::string::npos) << why;
  EXPECT_NE(why.find("does not exist"), std::string::npos) << why;
}

TEST_F(StartProblem, NamesAShebangLineWithACarriageReturn) {
  std::string why = start_problem({write("crlf.sh", "#!/bin/sh\r\necho\r\n", 0755)});
  EXPECT_NE(why.find("'/bin/sh\r'"), std::string::npos) << why;
  EXPECT_NE(why.find("CR LF"), std::string::npos) << why;
}

TEST_F(StartProblem, NamesAProgramThatEnvCannotFind) {
  std::string p = write("py.sh", "#!/usr/bin/env -S A=1 a2a-no-such-python3 -u\n", 0755);
  std::string why = start_problem({p});
  EXPECT_NE(why.find("a2a-no-such-python3"), std::string::npos) << why;
  EXPECT_NE(why.find("not found in PATH"), std::string::npos) << why;
}

}  // namespace
