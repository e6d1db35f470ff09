/**
 * compare.html: one self-contained page, divergences first (most serious first), each with the two
 * answers side by side, the differing field paths, the model's failures and the replay command.
 * Every target-supplied string is escaped (reports/escape.ts).
 */
import { html } from './escape.ts';
import { classTitle, severityOrder, type CompareResult, type Divergence } from './compare-result.ts';
import type { AnswerView } from '../harness/interpreters/index.ts';

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:1400px;padding:16px 24px;color:#1b1f24}
h1{font-size:20px;margin:0 0 8px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
.banner{padding:14px 18px;border-radius:6px;font-size:18px;font-weight:600;margin:8px 0 12px}
.v-same{background:#dafbe1;border:1px solid #4ac26b}.v-differs{background:#fff8c5;border:1px solid #d4a72c}.v-target-violates{background:#ffebe9;border:1px solid #ff8182}.v-error{background:#eaeef2;border:1px solid #8c959f}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eaeef2;vertical-align:top;overflow-wrap:anywhere}th{background:#f6f8fa}td.n{text-align:right}
.div{border:1px solid #d0d7de;border-left:4px solid #d4a72c;border-radius:4px;padding:8px 12px;margin:10px 0}
.c-target-violates{border-left-color:#cf222e}.c-both-violate-differently{border-left-color:#bc4c00}.c-reference-violates{border-left-color:#8250df}.c-both-violate-alike{border-left-color:#8c959f}.c-error{border-left-color:#57606a}
.side{display:grid;grid-template-columns:1fr 1fr;gap:10px}pre{background:#f6f8fa;padding:8px;overflow:auto;white-space:pre-wrap;word-break:break-all;margin:4px 0;max-height:360px}
.meta{color:#57606a}code{font-size:13px}table.totals{width:auto;min-width:420px}
table.diffs{table-layout:fixed}table.diffs th:nth-child(1){width:24%}table.diffs th:nth-child(2){width:10%}
`;

export function toCompareHtml(r: CompareResult): string {
  const first = r.divergences.filter((d) => d.class !== 'error');
  const errors = r.divergences.filter((d) => d.class === 'error');
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>svc-conformance compare</title>',
    `<style>${CSS}</style></head><body>`,
    `<h1>svc-conformance compare</h1>`,
    `<div class="banner v-${html(r.verdict)}">${html(verdictLine(r))}</div>`,
    `<p class="meta">target <b>${html(r.target.label)}</b> <code>${html(r.target.server)}</code> (profile ${html(r.target.profile)}) · reference <b>${html(r.reference.label)}</b> <code>${html(r.reference.server)}</code> (profile ${html(r.reference.profile)}) · seed ${r.seed} · ${r.runs} cases per check · suites ${html(r.suites.join(', '))} · ${html(r.startedAt)}</p>`,
    '<table class="totals"><tr><th>class</th><th>steps</th></tr>',
    ...severityOrder.map((c) => `<tr><td>${html(classTitle(c))}</td><td class="n">${r.totals[c]}</td></tr>`),
    `<tr><td>not compared (after one side's case stopped)</td><td class="n">${r.totals.notCompared}</td></tr></table>`,
    Object.keys(r.kinds).length
      ? `<p>Open choices taken differently, by kind: ${html(
          Object.entries(r.kinds)
            .sort((a, b) => b[1] - a[1])
            .map(([k, n]) => `${k} ${n}`)
            .join(', '),
        )}</p>`
      : '',
    `<h2 id="divergences">Divergences (${first.length})</h2>`,
    first.length === 0 ? '<p>None: every compared step answered alike.</p>' : first.map(divergence).join('\n'),
    errors.length ? `<h2 id="errors">Errors (${errors.length})</h2>${errors.map(divergence).join('\n')}` : '',
    '<h2 id="checks">Checks</h2><table><tr><th>check</th><th>suite</th><th>cases</th><th>steps</th><th>note</th></tr>',
    ...r.checks.map(
      (c) =>
        `<tr><td><code>${html(c.id)}</code></td><td>${html(c.suite)}</td><td class="n">${c.cases}</td><td class="n">${c.steps}</td><td>${html(c.notApplicable ?? '')}</td></tr>`,
    ),
    '</table></body></html>',
  ].join('\n');
}

function verdictLine(r: CompareResult): string {
  switch (r.verdict) {
    case 'same':
      return 'Same: every compared step answered alike';
    case 'differs':
      return `Differs: ${r.totals['differs-both-conformant']} open choices taken differently, no violation of the target alone`;
    case 'target-violates':
      return `The target violates ${r.totals['target-violates']} time(s) where the reference conforms`;
    case 'error':
      return 'Nothing could be compared';
  }
}

function divergence(d: Divergence): string {
  const failures = [
    ...(d.failures?.target ?? []).map((f) => ['target', f] as const),
    ...(d.failures?.reference ?? []).map((f) => ['reference', f] as const),
  ];
  return [
    `<section class="div c-${html(d.class)}">`,
    `<b>${html(classTitle(d.class))}</b> · <code>${html(d.check)}</code> case ${html(d.path)} step ${d.step}${d.clauses.length ? ` · ${d.clauses.map((c) => `<code>${html(c)}</code>`).join(', ')}` : ''}${d.kinds.length ? ` · ${html(d.kinds.join(', '))}` : ''}`,
    `<div><code>${html(d.request)}</code></div>`,
    d.note ? `<p class="meta">${html(d.note)}</p>` : '',
    failures.length
      ? `<ul>${failures.map(([who, f]) => `<li>${who} fails <code>${html(f.clause)}</code>: expected ${html(f.expected)}; observed ${html(f.observed)}</li>`).join('')}</ul>`
      : '',
    d.target || d.reference
      ? `<div class="side"><div><b>target</b>${answer(d.target)}</div><div><b>reference</b>${answer(d.reference)}</div></div>`
      : '',
    d.differences.length
      ? `<table class="diffs"><tr><th>path</th><th>kind</th><th>target</th><th>reference</th></tr>${d.differences.map((x) => `<tr><td><code>${html(x.path)}</code></td><td>${html(x.kind)}</td><td><code>${html(show(x.target))}</code></td><td><code>${html(show(x.reference))}</code></td></tr>`).join('')}</table>`
      : '',
    d.steps.length
      ? `<details><summary>the case's operations (${d.steps.length})</summary><pre>${html(d.steps.join('\n'))}</pre></details>`
      : '',
    `<div class="meta">replay: <code>${html(d.replay)}</code></div>`,
    '</section>',
  ].join('\n');
}

function answer(a: AnswerView | undefined): string {
  if (a === undefined) return '<pre>(no such request on this side)</pre>';
  if (a.transportError !== undefined) return `<pre>transport error: ${html(a.transportError)}</pre>`;
  const body = typeof a.body === 'string' ? a.body : (JSON.stringify(a.body, null, 2) ?? '');
  return `<pre>${a.status ?? ''}${a.ending ? ` (watch ${a.ending === 'server' ? 'ended by the server' : 'closed by the suite'})` : ''}\n${html(body)}</pre>`;
}

const show = (v: unknown): string => (v === undefined ? '(absent)' : typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
