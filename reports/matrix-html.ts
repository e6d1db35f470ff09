/**
 * matrix.html: one self-contained page (inline CSS and a few lines of inline JS, no fetch): clauses as
 * rows, runs as columns, rows where the runs differ first, filters by area and by status, and a
 * link per cell to that run's report at the clause (its counterexample when it failed).
 */
import { html } from './escape.ts';
import { marksLine, type Matrix } from './matrix.ts';

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:1500px;padding:16px 24px;color:#1b1f24}
h1{font-size:20px;margin:0 0 8px}.meta{color:#57606a}.mark{background:#fff8c5;border:1px solid #d4a72c;padding:8px 12px;border-radius:6px;margin:8px 0}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{text-align:left;padding:3px 8px;border-bottom:1px solid #eaeef2;vertical-align:top}th{background:#f6f8fa;position:sticky;top:0}
tr.differs td.id{border-left:4px solid #bc4c00;font-weight:600}
td.c a,td.c span{display:inline-block;padding:0 6px;border-radius:10px;font-size:12px;color:#fff;text-decoration:none}
.s-passed{background:#2da44e}.s-failed{background:#cf222e}.s-known{background:#0969da}.s-error{background:#bf8700}.s-unspecified{background:#8250df}.s-inconclusive{background:#d4a72c}.s-skipped{background:#8c959f}.s-notChecked{background:#d0d7de;color:#1b1f24!important}.s-absent{background:#fff;color:#57606a!important;border:1px dashed #8c959f}
.filters{margin:10px 0}.filters label{margin-right:14px}
`;

const SCRIPT = `
(function(){
  var area=document.getElementById('f-area'),status=document.getElementById('f-status'),diff=document.getElementById('f-differs');
  function apply(){
    var rows=document.querySelectorAll('tr.row'),shown=0;
    for(var i=0;i<rows.length;i++){var r=rows[i];
      var ok=(!area.value||r.getAttribute('data-area')===area.value)&&(!status.value||(' '+r.getAttribute('data-statuses')+' ').indexOf(' '+status.value+' ')>=0)&&(!diff.checked||r.classList.contains('differs'));
      r.style.display=ok?'':'none';if(ok)shown++;}
    document.getElementById('shown').textContent=String(shown);
  }
  area.onchange=apply;status.onchange=apply;diff.onchange=apply;apply();
})();
`;

export function toMatrixHtml(m: Matrix): string {
  const areas = [...new Set(m.rows.map((r) => r.area))].sort();
  const statuses = [...new Set(m.rows.flatMap((r) => r.cells.map((c) => c.status)))].sort();
  const marks = marksLine(m);
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>svc-conformance matrix</title>',
    `<style>${CSS}</style></head><body>`,
    '<h1>svc-conformance matrix</h1>',
    `<p class="meta">${m.columns.length} runs · ${m.totals.rows} clauses · <b id="n-differing">${m.totals.differing}</b> where the runs differ, listed first</p>`,
    marks ? `<div class="mark" id="marks">${html(marks)}</div>` : '',
    '<div class="filters">',
    `<label>area <select id="f-area"><option value="">all</option>${areas.map((a) => `<option value="${html(a)}">${html(a)}</option>`).join('')}</select></label>`,
    `<label>status <select id="f-status"><option value="">any</option>${statuses.map((s) => `<option value="${html(s)}">${html(s)}</option>`).join('')}</select></label>`,
    '<label><input type="checkbox" id="f-differs"> only where they differ</label>',
    '<span class="meta">showing <span id="shown"></span></span>',
    '</div>',
    '<table id="matrix"><thead><tr><th>clause</th><th>area</th>',
    ...m.columns.map(
      (c) =>
        `<th title="${html(`${c.target ?? c.server ?? ''} · profile ${c.profile} · suite ${c.version} · seed ${c.seed ?? '?'}`)}">${html(c.label)}<br><span class="meta">${html(c.verdict)} · seed ${c.seed ?? '?'}${m.marks.versionsDiffer ? ` · v${html(c.version)}` : ''}</span></th>`,
    ),
    '</tr></thead><tbody>',
    ...m.rows.map(
      (r) =>
        `<tr class="row${r.differs ? ' differs' : ''}" data-area="${html(r.area)}" data-statuses="${html([...new Set(r.cells.map((c) => c.status))].join(' '))}" title="${html(r.summary)}"><td class="id"><code>${html(r.id)}</code></td><td>${html(r.area)}</td>${r.cells.map((c) => `<td class="c">${c.status === 'absent' ? '<span class="s-absent">absent</span>' : `<a class="s-${html(c.status)}" href="${html(c.href)}">${html(c.status)}${c.counterexamples > 0 ? ` (${c.counterexamples})` : ''}</a>`}</td>`).join('')}</tr>`,
    ),
    '</tbody></table>',
    `<script>${SCRIPT}</script>`,
    '</body></html>',
  ].join('\n');
}
