// What a command line's paths select (commands.cpp expand_paths and
// load_scenarios): a path that selects no scenario file is an error, never
// "ok: 0 tests" (docs/runner.md); limits given on the command line reach the loader.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "runner/cli/options.hpp"

namespace cli_scenario_paths {

namespace fs = std::filesystem;
using a2a::cli::expand_paths;
using a2a::cli::load_scenarios;
using a2a::cli::Options;

struct Folder {
  fs::path path = fs::temp_directory_path() / ("a2a-cli-paths-" + std::to_string(::getpid()) + "-" +
                                               ::testing::UnitTest::GetInstance()->current_test_info()->name());
  Folder() { fs::create_directories(path); }
  ~Folder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  void write(const std::string& name, const std::string& text) const {
    fs::create_directories((path / name).parent_path());
    std::ofstream(path / name) << text;
  }
};

const std::string kDoc = "acts_version: \"1.0\"\nspec_version: \"1.0\"\nsuites:\n  - id: s\n    name: S\n    tests:\n"
                         "      - {id: T-1, name: t, level: may, steps: [{id: g, operation: get_task, params: {id: x}}]}\n";

TEST(ScenarioPaths, AFolderWithoutScenarioFilesIsAnError) {
  Folder f;
  f.write("notes/readme.yaml", "a: 1\n");  // *.yaml, not *.acts.yaml
  auto r = expand_paths({f.path.string()});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, f.path.string() + ": no *.acts.yaml scenario file under this folder "
                                                 "(scenario files are named NAME.acts.yaml)");
}

TEST(ScenarioPaths, EveryEmptyFolderIsNamedEvenBesideAGoodOne) {
  Folder f;
  f.write("good/a.acts.yaml", kDoc);
  fs::create_directories(f.path / "empty1");
  fs::create_directories(f.path / "empty2");
  auto r = expand_paths({(f.path / "good").string(), (f.path / "empty1").string(), (f.path / "empty2").string()});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("empty1: no *.acts.yaml"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("empty2: no *.acts.yaml"), std::string::npos) << r.error().message;
  auto ok = expand_paths({(f.path / "good").string()});
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->size(), 1u);
}

TEST(ScenarioPaths, TheOptionsLimitsReachTheLoader) {
  Folder f;
  f.write("a.acts.yaml", kDoc);
  Options o;
  o.paths = {f.path.string()};
  ASSERT_TRUE(load_scenarios(o).ok());
  o.limits.max_bytes = kDoc.size() - 1;
  auto r = load_scenarios(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("over the limit of " + std::to_string(kDoc.size() - 1) +
                                   " bytes (scenario limit --max-scenario-bytes)"),
            std::string::npos)
      << r.error().message;
}

}  // namespace cli_scenario_paths
