#include "reports/matrix.hpp"

#include <algorithm>
#include <unordered_map>

namespace a2a::reports {

using result::Outcome;

std::string MatrixColumn::label() const {
  std::string b = binding.empty() ? "unspecified" : binding;
  return profile.empty() ? b : b + " (" + profile + ")";
}

std::string MatrixRow::reason() const {
  for (const auto& c : cells)
    if (c && is_failing_cell(c->outcome)) return c->reason;
  return "";
}

size_t SupportMatrix::failing_rows() const {
  return static_cast<size_t>(std::count_if(rows.begin(), rows.end(), [](const MatrixRow& r) { return r.failing; }));
}

bool is_failing_cell(Outcome o) { return result::fails_run(o) || o == Outcome::kNonStrict; }

namespace {

std::string cell_reason(const result::ScenarioResult& s) {
  if (s.failure && !s.failure->message.empty()) return s.failure->message;
  return s.reason;
}

std::vector<MatrixColumn> columns_of(const result::RunResult& r) {
  std::vector<MatrixColumn> cols;
  auto add = [&](const std::string& binding, const std::string& profile) {
    auto same = [&](const MatrixColumn& c) { return c.binding == binding && c.profile == profile; };
    if (std::none_of(cols.begin(), cols.end(), same)) cols.push_back({binding, profile});
  };
  for (const auto& b : r.bindings)
    for (const auto& s : r.scenarios)
      if (s.binding == b) add(b, s.profile);
  for (const auto& s : r.scenarios) add(s.binding, s.profile);
  return cols;
}

}  // namespace

SupportMatrix support_matrix(const result::RunResult& r) {
  SupportMatrix m;
  m.columns = columns_of(r);
  std::unordered_map<std::string, size_t> row_of;
  for (size_t i = 0; i < r.scenarios.size(); ++i) {
    const auto& s = r.scenarios[i];
    auto [it, fresh] = row_of.emplace(s.id, m.rows.size());
    if (fresh) {
      MatrixRow row{s.id, s.name, s.level, {}, false};
      row.cells.resize(m.columns.size());
      m.rows.push_back(std::move(row));
    }
    MatrixRow& row = m.rows[it->second];
    size_t col = 0;
    while (col < m.columns.size() && !(m.columns[col].binding == s.binding && m.columns[col].profile == s.profile))
      ++col;
    auto& cell = row.cells[col];
    if (!cell || (is_failing_cell(s.outcome) && !is_failing_cell(cell->outcome)))
      cell = MatrixCell{s.outcome, cell_reason(s), i};
    row.failing = row.failing || is_failing_cell(s.outcome);
  }
  std::stable_partition(m.rows.begin(), m.rows.end(), [](const MatrixRow& row) { return row.failing; });
  return m;
}

}  // namespace a2a::reports
