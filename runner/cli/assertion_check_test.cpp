// {{profile.PATH}} checked against the profiles a test runs under
// (assertion_check.hpp): what a run under that profile reports as ERROR.
#include <gtest/gtest.h>

#include "runner/cli/assertion_check.hpp"
#include "runner/scenario/loader.hpp"

namespace cli_profile_refs {

using a2a::cli::check_profile_references;
using a2a::scenario::Profile;

Profile profile(const std::string& name, const std::string& doc) {
  Profile p;
  p.name = name;
  p.doc = nlohmann::json::parse(doc);
  return p;
}

std::vector<a2a::scenario::Document> one_test(const std::string& extra, const std::string& method) {
  std::string text = "acts_version: \"1.0\"\nspec_version: \"1.0\"\nsuites:\n  - id: s\n    name: S\n    tests:\n"
                     "      - id: T-1\n        name: t\n        level: may\n" + extra +
                     "        steps:\n          - id: send\n            x-send-request:\n"
                     "              method: \"" + method + "\"\n";
  auto doc = a2a::scenario::parse_document_text(text, "p.acts.yaml");
  EXPECT_TRUE(doc.ok()) << (doc ? "" : doc.error().message);
  return doc ? std::vector<a2a::scenario::Document>{*doc} : std::vector<a2a::scenario::Document>{};
}

TEST(ProfileReferences, APathOneProfileLacksIsNamedWithThatProfile) {
  std::vector<Profile> profiles = {profile("p46", R"({"methods": {"get_task": "tasks/get", "only_p46": "x"}})"),
                                   profile("stdio-json", R"({"methods": {"get_task": "GetTask"}})")};
  EXPECT_EQ(check_profile_references(one_test("", "{{profile.methods.get_task}}"), profiles), "");
  EXPECT_EQ(check_profile_references(one_test("", "{{profile.methods.only_p46}}"), profiles),
            "p.acts.yaml:13:24: error[schema]: {{profile.methods.only_p46}} in test 'T-1': profile stdio-json has no "
            "'methods.only_p46' (the test runs under it: x-profiles restricts a test to profiles)");
  // A URL binding's profile is never a stdio run's --profile: a path it lacks is no problem.
  Profile ws = profile("websocket", R"({"methods": {"get_task": "GetTask"}})");
  ws.framing.kind = "websocket";
  EXPECT_EQ(check_profile_references(one_test("", "{{profile.methods.only_p46}}"), {profiles[0], ws}), "");
  // A test restricted to p46 never runs under stdio-json.
  EXPECT_EQ(check_profile_references(one_test("        x-profiles: [p46]\n", "{{profile.methods.only_p46}}"), profiles),
            "");
}

}  // namespace cli_profile_refs
