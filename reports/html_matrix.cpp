// The support matrix at the top of the HTML report (reports/matrix.hpp):
// requirement × binding, failing rows first, each cell the outcome's badge
// linking to its scenario block, the reason in its tooltip. Open when it
// has at most kOpenRows rows; a big run's table starts closed so the page
// stays readable.
#include "reports/html_parts.hpp"
#include "reports/matrix.hpp"

namespace a2a::reports::html {

namespace {

constexpr size_t kOpenRows = 60;

std::string matrix_level(result::Level l) {
  std::string name(to_string(l));
  for (auto& ch : name) ch = static_cast<char>(ch - ('a' <= ch && ch <= 'z' ? 'a' - 'A' : 0));
  return name;
}

void write_matrix_row(std::ostream& out, const MatrixRow& row, const HtmlOptions& o) {
  out << "<tr class=\"mrow" << (row.failing ? " failing" : "") << "\"><th scope=\"row\"><code>" << esc(row.id)
      << "</code></th><td>" << matrix_level(row.level) << "</td><td>" << esc(row.title) << "</td>";
  for (const auto& c : row.cells) {
    if (!c) {
      out << "<td class=\"cell none\" title=\"not run on this binding\">\xe2\x80\x94</td>";
      continue;
    }
    std::string outcome(to_string(c->outcome));
    out << "<td class=\"cell\"";
    if (!c->reason.empty()) out << " title=\"" << esc(display_prefix(c->reason, 300, Display::kText)) << "\"";
    out << "><a href=\"#" << anchor(c->index, o.id_prefix) << "\">" << badge(c->outcome) << "</a></td>";
  }
  out << "</tr>\n";
}

}  // namespace

void write_matrix(std::ostream& out, const result::RunResult& r, const HtmlOptions& o) {
  SupportMatrix m = support_matrix(r);
  if (m.rows.empty()) return;
  size_t failing = m.failing_rows();
  out << "<section class=\"matrix-sec\" id=\"" << esc(o.id_prefix) << "matrix\">\n<details class=\"matrix\""
      << (m.rows.size() <= kOpenRows ? " open" : "") << "><summary><h2>Support matrix</h2> <span class=\"note\">"
      << m.rows.size() << " requirements \xc3\x97 " << m.columns.size() << (m.columns.size() == 1 ? " binding" : " bindings")
      << "; " << failing << " failing (listed first)</span></summary>\n"
      << "<div class=\"scroll\"><table class=\"sum matrix\">\n<thead><tr><th>Requirement</th><th>Level</th>"
      << "<th>Title</th>";
  for (const auto& c : m.columns) {
    out << "<th class=\"col\">" << esc(c.binding.empty() ? "unspecified" : c.binding);
    if (!c.profile.empty()) out << "<br><span class=\"note\">" << esc(c.profile) << "</span>";
    out << "</th>";
  }
  out << "</tr></thead>\n<tbody>\n";
  for (const auto& row : m.rows) write_matrix_row(out, row, o);
  out << "</tbody></table></div>\n</details>\n</section>\n";
}

}  // namespace a2a::reports::html
