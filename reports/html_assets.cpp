// The inline stylesheet and script of the HTML report. Nothing here may refer
// to anything outside the file (the CSP forbids it anyway): no fonts, no
// images, no URLs.
#include "reports/html_parts.hpp"

namespace a2a::reports::html {

const std::string_view kCss = R"CSS(
:root { --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --bg:#ffffff; --panel:#f6f8fa;
  --pass:#116329; --pass-bg:#dafbe1; --fail:#82071e; --fail-bg:#ffebe9;
  --err:#5a1a8a; --err-bg:#f3e8ff; --warn:#6f4400; --warn-bg:#fff8c5;
  --info:#0a3069; --info-bg:#ddf4ff; --skip:#424a53; --skip-bg:#eaeef2; }
* { box-sizing: border-box; }
body { margin:0; padding:24px 32px 48px; color:var(--fg); background:var(--bg);
  font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif; }
code, pre, .mono { font-family: ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;
  font-size: 13px; }
pre { margin:0; white-space:pre-wrap; overflow-wrap:anywhere; }
h1 { font-size:24px; margin:0 0 8px; }
h2 { font-size:18px; margin:32px 0 8px; }
h3 { font-size:14px; margin:18px 0 6px; text-transform:uppercase; letter-spacing:.04em; color:var(--muted); }
header.top { border-bottom:1px solid var(--line); padding-bottom:16px; }
.verdict { display:inline-block; font-weight:700; font-size:20px; padding:4px 14px; border-radius:6px; margin:6px 0; }
.verdict.ok { color:var(--pass); background:var(--pass-bg); }
.verdict.bad { color:var(--fail); background:var(--fail-bg); }
.exit { margin-left:12px; color:var(--muted); }
dl.meta, dl.facts { display:grid; grid-template-columns:max-content 1fr; gap:2px 16px; margin:10px 0; }
dl.meta dt, dl.facts dt { color:var(--muted); }
dl.meta dd, dl.facts dd { margin:0; overflow-wrap:anywhere; }
blockquote.rule { margin:0 0 4px; padding:2px 8px; border-left:3px solid var(--muted); font-style:italic; }
blockquote.rule footer { font-style:normal; color:var(--muted); font-size:90%; }
table { border-collapse:collapse; margin:6px 0; }
th, td { border:1px solid var(--line); padding:4px 8px; text-align:left; vertical-align:top; }
th { background:var(--panel); font-weight:600; }
.scroll { overflow-x:auto; }
table.sum th:first-child, table.sum td:nth-child(2) { white-space:nowrap; }
table.sum thead .badge { min-width:0; }
table.sum td.n { text-align:right; font-variant-numeric:tabular-nums; }
table.sum td.zero { color:#8c959f; }
.badge { display:inline-block; min-width:6.5em; text-align:center; font-weight:700; font-size:12px;
  padding:1px 6px; border-radius:4px; border:1px solid transparent; }
.o-PASS { color:var(--pass); background:var(--pass-bg); }
.o-FAIL, .o-XPASS, .o-TIMEOUT { color:var(--fail); background:var(--fail-bg); }
.o-ERROR { color:var(--err); background:var(--err-bg); }
.o-NON_STRICT { color:var(--warn); background:var(--warn-bg); }
.o-INFORMATIONAL { color:var(--info); background:var(--info-bg); }
.o-SKIP, .o-XFAIL { color:var(--skip); background:var(--skip-bg); }
nav.filters { display:none; flex-wrap:wrap; gap:6px; margin:24px 0 12px; position:sticky; top:0;
  background:var(--bg); padding:8px 0; border-bottom:1px solid var(--line); z-index:1; }
.js nav.filters { display:flex; }
nav.filters button, button.copy { font:inherit; font-size:13px; padding:3px 10px; border:1px solid var(--line);
  border-radius:6px; background:var(--panel); color:var(--fg); cursor:pointer; }
nav.filters button[aria-pressed="true"] { background:var(--fg); color:var(--bg); border-color:var(--fg); }
nav.filters .gap { flex:1; }
nav.filters .tools { display:flex; gap:6px; }
details.scn { border:1px solid var(--line); border-left:6px solid var(--line); border-radius:6px; margin:8px 0; }
details.scn.f-bad { border-left-color:#cf222e; }
details.scn.f-err { border-left-color:#8250df; }
details.scn.f-warn { border-left-color:#bf8700; }
details.scn.f-ok { border-left-color:#1a7f37; }
details.scn.f-info { border-left-color:#0969da; }
details.scn > summary { cursor:pointer; padding:8px 12px; display:flex; gap:12px; align-items:baseline; flex-wrap:wrap; }
details.scn[open] > summary { border-bottom:1px solid var(--line); background:var(--panel); }
.sid { font-weight:700; }
.chip { font-size:12px; color:var(--muted); border:1px solid var(--line); border-radius:10px; padding:0 8px; }
.dur { margin-left:auto; color:var(--muted); font-size:13px; }
.body { padding:8px 16px 16px; }
.req { font-size:16px; margin:6px 0; }
.reason, .failure { border-radius:6px; padding:8px 12px; margin:10px 0; }
.reason { background:var(--panel); }
.reason .label { margin:0 0 2px; font-weight:600; font-size:13px; color:var(--muted); }
.failure { background:var(--fail-bg); }
.failure.soft { background:var(--warn-bg); }
.failure .msg { font-weight:600; margin:0 0 4px; }
.cmp { display:grid; grid-template-columns:1fr 1fr; gap:12px; margin-top:8px; }
.cmp > div { background:var(--bg); border:1px solid var(--line); border-radius:6px; padding:6px 10px; min-width:0; }
.cmp h4 { margin:0 0 4px; font-size:12px; color:var(--muted); text-transform:uppercase; }
table.wire { width:100%; table-layout:fixed; }
table.wire col.t { width:7em; } table.wire col.d { width:7em; }
table.wire td.t { text-align:right; font-variant-numeric:tabular-nums; color:var(--muted); }
tr.d-out td.d { color:#0550ae; } tr.d-in td.d { color:#116329; }
tr.d-err td.d { color:#953800; } tr.d-note td { color:var(--muted); font-style:italic; }
details.more { display:inline; } details.more > summary { display:inline; cursor:pointer; color:#0550ae; }
.note { color:var(--muted); font-size:13px; }
.replay { display:flex; gap:8px; align-items:flex-start; }
.replay code { flex:1; background:var(--panel); border:1px solid var(--line); border-radius:6px;
  padding:6px 10px; white-space:pre-wrap; overflow-wrap:anywhere; user-select:all; }
details.matrix > summary { cursor:pointer; margin:24px 0 8px; }
details.matrix > summary h2 { display:inline; margin:0 8px 0 0; }
table.matrix th, table.matrix td { padding:2px 6px; }
table.matrix td.cell, table.matrix th.col { text-align:center; }
table.matrix .badge { min-width:0; }
table.matrix td.none { color:#8c959f; }
table.matrix a { text-decoration:none; }
table.matrix tr.failing th { box-shadow:inset 4px 0 #cf222e; }
section.target { border-top:3px solid var(--line); margin-top:40px; padding-top:8px; }
.verdict-cell { font-weight:700; }
.verdict-cell.ok { color:var(--pass); }
.verdict-cell.bad { color:var(--fail); }
footer { margin-top:40px; color:var(--muted); font-size:13px; }
@media print {
  body { padding:0; font-size:11pt; }
  nav.filters, button.copy { display:none !important; }
  details.scn { break-inside:avoid-page; }
  .cmp { grid-template-columns:1fr; }
  a { color:inherit; text-decoration:none; }
}
)CSS";

// Filtering by outcome, expand/collapse, copy buttons, and opening every
// block before printing (closed <details> would otherwise print empty).
const std::string_view kJs = R"JS(
(function () {
  document.documentElement.classList.add('js');
  // One scope per target in the combined report (section.scope), else the
  // whole page: each filter bar acts on its own scenarios only.
  var scopes = Array.prototype.slice.call(document.querySelectorAll('.scope'));
  if (scopes.length === 0) scopes = [document];
  scopes.forEach(function (scope) {
    var blocks = Array.prototype.slice.call(scope.querySelectorAll('details.scn'));
    var buttons = Array.prototype.slice.call(scope.querySelectorAll('nav.filters [data-filter]'));
    function apply(filter) {
      blocks.forEach(function (d) {
        var o = d.getAttribute('data-outcome');
        d.hidden = !(filter === 'all' || o === filter ||
                     (filter === 'failing' && d.hasAttribute('data-failing')));
      });
      buttons.forEach(function (b) {
        b.setAttribute('aria-pressed', String(b.getAttribute('data-filter') === filter));
      });
    }
    buttons.forEach(function (b) {
      b.addEventListener('click', function () { apply(b.getAttribute('data-filter')); });
    });
    function openAll(open) {
      blocks.forEach(function (d) { if (!d.hidden) d.open = open; });
    }
    var ex = scope.querySelector('.expand-all');
    var co = scope.querySelector('.collapse-all');
    if (ex) ex.addEventListener('click', function () { openAll(true); });
    if (co) co.addEventListener('click', function () { openAll(false); });
  });
  var blocks = Array.prototype.slice.call(document.querySelectorAll('details.scn'));
  window.addEventListener('beforeprint', function () {
    blocks.forEach(function (d) { d.hidden = false; d.open = true; });
    Array.prototype.forEach.call(document.querySelectorAll('details.matrix'), function (d) { d.open = true; });
  });
  Array.prototype.forEach.call(document.querySelectorAll('button.copy'), function (b) {
    b.addEventListener('click', function () {
      var el = document.getElementById(b.getAttribute('data-target'));
      if (!el) return;
      var text = el.textContent;
      function select() {
        var r = document.createRange(); r.selectNodeContents(el);
        var s = window.getSelection(); s.removeAllRanges(); s.addRange(r);
        b.textContent = 'Selected: press Ctrl+C';
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () { b.textContent = 'Copied'; }, select);
      } else { select(); }
    });
  });
})();
)JS";

}  // namespace a2a::reports::html
