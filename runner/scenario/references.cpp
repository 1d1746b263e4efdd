#include "runner/scenario/references.hpp"

#include <algorithm>
#include <set>
#include <string_view>

#include "runner/scenario/parse_support.hpp"

namespace a2a::scenario {

namespace {

// Roots the runner always sets (engine/scenario_runner.cpp, client_scenario.cpp).
constexpr std::string_view kRoots[] = {"profile", "agent"};

struct Scope {
  const Document& doc;
  const std::vector<std::string>& given;
  std::vector<std::string> steps;  // ids of the test's steps
  std::vector<std::string> problems;
  std::set<std::string> reported;   // "place expr"
  std::vector<std::string> expanding;  // variables being checked (cycle guard)

  bool given_name(std::string_view name) const {
    return std::find(given.begin(), given.end(), name) != given.end();
  }
  bool variable(std::string_view name) const {
    return std::any_of(doc.variables.begin(), doc.variables.end(), [&](const auto& v) { return v.first == name; });
  }
  bool step(std::string_view id) const { return std::find(steps.begin(), steps.end(), id) != steps.end(); }

  void report(const VarRef& ref, const std::string& test, const std::string& why) {
    if (!reported.insert(ref.where.str() + " " + ref.expr).second) return;
    std::string where = ref.variable.empty() ? "in test '" + test + "'"
                                             : "in variable '" + ref.variable + "' (used by test '" + test + "')";
    problems.push_back(ref.where.str() + ": undefined variable {{" + ref.expr + "}} " + where + ": " + why);
  }

  // A variable's own references, checked where they are written.
  void check_variable(const std::string& name, const std::string& test) {
    if (given_name(name)) return;  // --var replaces its value
    if (std::find(expanding.begin(), expanding.end(), name) != expanding.end()) return;
    expanding.push_back(name);
    for (const auto& ref : doc.variable_references)
      if (ref.variable == name) check(ref, test);
    expanding.pop_back();
  }

  void check(const VarRef& ref, const std::string& test) {
    const std::string& e = ref.expr;
    if (e.empty()) return report(ref, test, "the braces are empty");
    if (e == "$uuid" || given_name(e)) return;
    if (variable(e)) {
      if (std::find(expanding.begin(), expanding.end(), e) != expanding.end())
        return report(ref, test, "the variable refers to itself (a cycle)");
      return check_variable(e, test);
    }
    const size_t cut = e.find_first_of(".[");
    const std::string head = e.substr(0, cut);
    const std::string rest = cut == std::string::npos ? "" : e.substr(cut);
    if (step(head) && rest.starts_with(".") && rest.size() > 1) return;
    if (given_name(head)) return;
    if (variable(head)) {
      if (std::find(expanding.begin(), expanding.end(), head) != expanding.end())
        return report(ref, test, "the variable refers to itself (a cycle)");
      return check_variable(head, test);
    }
    if (std::find(std::begin(kRoots), std::end(kRoots), head) != std::end(kRoots) || head == "webhookUrl") return;
    if (head == "env" && rest.size() > 1 && rest.find_first_of(".[", 1) == std::string::npos) return;
    std::string why;
    if (step(head))
      why = "'" + head + "' is a step of this test: name what it captured ({{" + head + ".response}}, {{" + head +
            ".NAME}})";
    else
      why = "no document variable, --var NAME=VALUE, step of this test, profile.*, agent.*, env.NAME, webhookUrl or "
            "$uuid has this name";
    std::vector<std::string_view> names(steps.begin(), steps.end());
    for (const auto& v : doc.variables) names.push_back(v.first);
    why += detail::did_you_mean(head, names);
    report(ref, test, why);
  }
};

}  // namespace

std::vector<std::string> undefined_references(const Document& doc, const std::vector<std::string>& given) {
  Scope scope{doc, given, {}, {}, {}, {}};
  for (const auto& suite : doc.suites)
    for (const auto& t : suite.tests) {
      scope.steps.clear();
      for_each_step(t.steps, [&](const Step& s) { scope.steps.push_back(s.id); });
      for (const auto& ref : t.references) scope.check(ref, t.id);
    }
  std::vector<std::string> out = std::move(scope.problems);
  return out;
}

}  // namespace a2a::scenario
