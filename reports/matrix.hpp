// The support matrix: requirement × binding, the short table SDK users ask
// for ("which requirements does this agent meet, on which binding?"). One
// model, two writers: the table at the top of the HTML report and the
// Markdown summary (`--markdown FILE`, reports/markdown.hpp). docs/reports.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runner/result/result.hpp"

namespace a2a::reports {

// One column: a binding key as the results carry it ("stdio", "jsonrpc",
// "rest@0.3") and, on stdio, the wire profile ("p46").
struct MatrixColumn {
  std::string binding;
  std::string profile;
  std::string label() const;  // "jsonrpc", "stdio (p46)"
};

struct MatrixCell {
  result::Outcome outcome = result::Outcome::kPass;
  std::string reason;  // the scenario's reason or failure message (agent bytes: escape)
  size_t index = 0;    // the result's position in RunResult::scenarios
};

struct MatrixRow {
  std::string id;
  std::string title;  // the scenario's name
  result::Level level = result::Level::kMust;
  std::vector<std::optional<MatrixCell>> cells;  // one per column; nullopt: not run there
  bool failing = false;                           // some cell is_failing_cell
  // The reason of the first failing cell ("" when the row is not failing).
  std::string reason() const;
};

struct SupportMatrix {
  std::vector<MatrixColumn> columns;
  std::vector<MatrixRow> rows;  // failing rows first, each group in report order
  size_t failing_rows() const;
};

// FAIL, ERROR, TIMEOUT, XPASS and NON_STRICT: the outcomes that put a row
// among the failing ones (a NON_STRICT does not fail the run, but it is a
// SHOULD not met, which is what a reader of the table looks for).
bool is_failing_cell(result::Outcome o);

// Columns: the run's bindings in RunResult::bindings order (then any other
// binding a result carries), one per profile seen on it. Rows: one per
// scenario id in report order. A scenario id run twice on one column keeps
// the failing result (else the first).
SupportMatrix support_matrix(const result::RunResult& r);

}  // namespace a2a::reports
