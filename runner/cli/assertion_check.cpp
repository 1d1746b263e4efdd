#include "runner/cli/assertion_check.hpp"

#include <algorithm>

#include "runner/match/assert.hpp"
#include "runner/match/path.hpp"

namespace a2a::cli {

using Json = nlohmann::json;

namespace {

void check_step_assertions(const scenario::Step& st, std::string& problems) {
  auto check = [&](const Json& a, const std::string& what) {
    std::string why = match::check_assertion(a);
    if (!why.empty())
      problems += (problems.empty() ? "" : "\n") + st.where.str() + ": error[schema]: malformed " +
                  what + " in step '" + st.id + "': " + why;
  };
  if (st.expect && st.expect->contains("body")) check((*st.expect)["body"], "expect.body");
  if (st.expect && st.expect->contains("headers")) check((*st.expect)["headers"], "expect.headers");
  if (!st.wire) return;
  const Json& spec = st.wire->spec;
  switch (st.wire->type) {
    case scenario::WireActionType::kExpectHandshake: check(spec, "x-expect-handshake"); break;
    case scenario::WireActionType::kExpectResponse:
      for (const char* k : {"result", "error"})
        if (spec.contains(k)) check(spec[k], std::string("x-expect-response.") + k);
      break;
    case scenario::WireActionType::kExpectFrame:
      if (spec.contains("body")) check(spec["body"], "x-expect-frame.body");
      break;
    case scenario::WireActionType::kExpectNotification:
      if (spec.contains("params")) check(spec["params"], "x-expect-notification.params");
      break;
    case scenario::WireActionType::kExpectWebhook:
      for (const char* k : {"body", "headers", "each_body"})
        if (spec.contains(k)) check(spec[k], std::string("x-expect-webhook.") + k);
      break;
    default: break;
  }
}

}  // namespace

std::string check_assertions(const std::vector<scenario::Document>& docs) {
  std::string problems;
  for (const auto& d : docs)
    for (const auto& su : d.suites)
      for (const auto& t : su.tests) {
        scenario::for_each_step(t.steps, [&](const scenario::Step& st) { check_step_assertions(st, problems); });
        for (const auto& g : t.steps)
          for (const auto& alt : g.grades) check_step_assertions(alt.action, problems);
      }
  return problems;
}

std::string check_profile_references(const std::vector<scenario::Document>& docs,
                                     const std::vector<scenario::Profile>& profiles) {
  std::string problems;
  for (const auto& d : docs)
    for (const auto& su : d.suites)
      for (const auto& t : su.tests)
        for (const auto& ref : t.references) {
          if (!ref.expr.starts_with("profile.")) continue;
          const std::string path = ref.expr.substr(8);
          std::string missing;
          for (const auto& p : profiles) {
            if (p.describes_url_binding()) continue;  // never a run's --profile
            bool applies = t.profiles.empty() ||
                           std::find(t.profiles.begin(), t.profiles.end(), p.name) != t.profiles.end();
            if (applies && !match::resolve(p.doc, path)) missing += (missing.empty() ? "" : ", ") + p.name;
          }
          if (!missing.empty())
            problems += (problems.empty() ? "" : "\n") + ref.where.str() + ": error[schema]: {{" + ref.expr +
                        "}} in test '" + t.id + "': " +
                        (missing.find(',') == std::string::npos ? "profile " + missing + " has" : "profiles " + missing + " have") +
                        " no '" + path +
                        "' (the test runs under it: x-profiles restricts a test to profiles)";
        }
  return problems;
}

}  // namespace a2a::cli
