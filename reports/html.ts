/**
 * The page a person reads first: one self-contained file (inline CSS, no script, no external asset)
 * so it opens from a CI artifact store or an email attachment alike. Order follows the questions a
 * reader asks: did it pass, what broke and how do I reproduce it (in the first screen), which checks
 * ran and how long, then coverage and every clause (filterable without script, an anchor per row),
 * then what the run cost the target.
 */
import type { ClauseResult, RunResult } from '../runner/results.ts';
import { shownStatus, type ShownStatus } from './aggregate.ts';
import { notSelectedLines, otherGapGroups } from './gaps.ts';
import { isNotSelected } from '../harness/case/index.ts';
import { targetText } from './run-identity.ts';
import { groupByArea, isRegression, type Area, type FamilyOf } from './areas.ts';
import { html } from './escape.ts';
import { FAILURE_PAGE_DIR, counterexampleFiles } from './counterexample-files.ts';
import { restCells, verdictText } from './scorecard.ts';
import { verdictHeadline } from './verdict-line.ts';
import { capabilityLine, capabilityMapHtml } from './capability-map.ts';
import { anchor, checkRef, failurePageLinks, failuresSection, knownFailuresSection, notes } from './html-failures.ts';

const STATUS_LABEL: Record<ShownStatus, string> = {
  passed: 'passed',
  failed: 'failed',
  known: 'known failure',
  unspecified: 'unspecified',
  inconclusive: 'inconclusive',
  skipped: 'skipped',
  notChecked: 'not checked',
  informative: 'informative',
  error: 'error',
  notServed: 'not served',
  blocked: 'blocked',
};

// Bar segments and table columns in one order, so colours line up with the legend.
const ORDER: readonly ShownStatus[] = [
  'passed',
  'failed',
  'known',
  'error',
  'notServed',
  'blocked',
  'unspecified',
  'inconclusive',
  'skipped',
  'informative',
  'notChecked',
];

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:1300px;padding:16px 24px;color:#1b1f24}
td{overflow-wrap:break-word}th,.tag,td.n{white-space:nowrap}td code{overflow-wrap:anywhere}nav.toc a{margin-right:14px}
.filters input{margin-left:10px}
#f-failed:checked~table.clauses tr.row:not(.r-failed),#f-known:checked~table.clauses tr.row:not(.r-known),#f-failed:checked~table.clauses tr.area,#f-known:checked~table.clauses tr.area,#f-unspecified:checked~table.clauses tr.area,#f-inconclusive:checked~table.clauses tr.area,#f-notChecked:checked~table.clauses tr.area,#f-informative:checked~table.clauses tr.area,#f-unspecified:checked~table.clauses tr.row:not(.r-unspecified),#f-inconclusive:checked~table.clauses tr.row:not(.r-inconclusive),#f-notChecked:checked~table.clauses tr.row:not(.r-notChecked),#f-informative:checked~table.clauses tr.row:not(.r-informative){display:none}
tr.row:target{background:#fff8c5}table.clauses tr.row td:first-child{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}td.st{font-weight:600;white-space:nowrap}
.r-passed .st{color:#1a7f37}.r-failed .st{color:#cf222e}.r-known .st{color:#0969da}.r-error .st{color:#9a6700}.r-unspecified .st{color:#8250df}.r-inconclusive .st{color:#9a6700}.r-skipped .st,.r-notChecked .st,.r-informative .st{color:#57606a}
h1{font-size:20px;margin:0 0 8px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
.banner{padding:14px 18px;border-radius:6px;font-size:18px;font-weight:600;margin:8px 0 12px}
.v-conformant{background:#dafbe1;border:1px solid #4ac26b}.v-nonconformant{background:#ffebe9;border:1px solid #ff8182}.v-error,.v-notTested,.v-interrupted{background:#fff8c5;border:1px solid #d4a72c}
.meta{color:#57606a}.meta code{color:#1b1f24}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eaeef2;vertical-align:top}table.cov th,table.cov td{padding:4px 5px}
th{background:#f6f8fa}td.n{text-align:right;font-variant-numeric:tabular-nums}
.bar{display:flex;height:12px;min-width:100px;background:#eaeef2;border-radius:3px;overflow:hidden}
.s-passed{background:#2da44e}.s-failed{background:#cf222e}.s-known{background:#0969da}.s-error{background:#bf8700}.s-unspecified{background:#8250df}.s-inconclusive{background:#d4a72c}.s-skipped{background:#8c959f}.s-notChecked{background:#d0d7de}.s-informative{background:#9ec5fe}.s-notServed{background:#e16f24}.s-blocked{background:#afb8c1}table.caps tr.cap-notServed td.n{color:#cf222e;font-weight:600}table.caps tr.cap-servedWrongly td.n{color:#bf8700;font-weight:600}
.tag{display:inline-block;padding:0 6px;border-radius:10px;font-size:12px;color:#fff}.tag.s-notChecked,.tag.s-skipped,.tag.s-informative{color:#1b1f24}
.failure{border:1px solid #d0d7de;border-left:4px solid #cf222e;border-radius:4px;padding:8px 12px;margin:10px 0}
.failure.known{border-left-color:#0969da}tr.area th{background:#fff;padding-top:10px}
pre{background:#f6f8fa;padding:8px;overflow:auto;white-space:pre-wrap;word-break:break-all;margin:4px 0}
dt{font-weight:600;margin-top:6px}dd{margin:0 0 0 12px}
.diff td:first-child{width:1em;font-weight:600}.d-added td:first-child{color:#1a7f37}.d-removed td:first-child{color:#cf222e}.d-modified td:first-child{color:#9a6700}
.totals span{margin-right:14px}ul.notes{margin:2px 0;padding-left:18px;color:#57606a}
`;

export function toHtml(run: RunResult, familyOf: FamilyOf): string {
  const areas = groupByArea(run.clauses, familyOf);
  const regressions = run.clauses.filter(isRegression);
  const known = run.clauses.filter((c) => shownStatus(c) === 'known');
  // Each failure's own page (reports/failure-page.ts), one click from the first screen.
  const pages = new Map(counterexampleFiles(run).map((f) => [f.cx, `${FAILURE_PAGE_DIR}/${f.page}`]));
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${html(`svc-conformance: ${verdictText(run.verdict)}`)}</title>`,
    `<style>${CSS}</style></head><body>`,
    header(run),
    capabilityMapHtml(run.capabilities ?? []),
    failurePageLinks(regressions, pages),
    `<nav class="toc">${run.errors.length > 0 || run.clauses.some((c) => c.status === 'error') ? '<a href="#errors">errors</a>' : ''}<a href="#failures">failures</a>${known.length > 0 ? '<a href="#known-failures">known failures</a>' : ''}<a href="#checks">checks</a><a href="#coverage">coverage</a><a href="#clauses">all clauses</a><a href="#exercised">exercised</a><a href="#footprint">footprint</a></nav>`,
    notTestedSection(run),
    errorsSection(run),
    failuresSection('Failures beyond expectations', regressions, pages),
    knownFailuresSection(known, pages),
    expectationsSection(run),
    checksSection(run),
    coverageSection(run, areas),
    clauseTable(areas),
    exercisedSection(run),
    footprintSection(run),
    '</body></html>',
    '',
  ]
    .filter((s) => s !== '')
    .join('\n');
}

/**
 * Every expectations entry of the run and what became of it: excused, no longer occurring (the run sent
 * its input and the answers conformed: remove it), or not exercised (keep it).
 */
function expectationsSection(run: RunResult): string {
  const listed = run.clauses.filter((c) => c.expectation !== undefined);
  if (listed.length === 0) return '';
  const label = {
    excused: 'known failure',
    noLongerOccurs: 'no longer occurs: remove the entry',
    notExercised: 'not exercised in this run',
  } as const;
  const rows = listed.flatMap((c) =>
    c.expectation!.entries.map(
      (e) =>
        `<tr><td><code>${html(c.id)}</code></td><td>${html(e.excuses)}${e.at !== undefined ? `<br><small>${html(e.at)}</small>` : ''}</td><td>${html(label[e.outcome])}${c.expectation!.regression ? ' <span class="tag s-failed">regression beside it</span>' : ''}</td><td>${html(e.detail)}</td></tr>`,
    ),
  );
  return [
    '<h2 id="expectations">Expectations file</h2>',
    '<details><summary>show every entry and what this run made of it</summary>',
    `<table><thead><tr><th>clause</th><th>excuses</th><th>outcome</th><th>why</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`,
    '</details>',
  ].join('\n');
}

function notTestedSection(run: RunResult): string {
  const incomplete =
    run.incomplete === undefined
      ? ''
      : `<h2>Incomplete (${html(run.incomplete.because.join(', '))})</h2>\n<ul>${run.incomplete.lines.map((l) => `<li>${html(l)}</li>`).join('')}</ul>`;
  if (run.notTested === undefined) return incomplete;
  return `<h2>Not tested</h2>\n<ul>${run.notTested.map((l) => `<li>${html(l)}</li>`).join('')}</ul>${incomplete}`;
}

/** The scorecard: what the run reached on the target, beside what it judged. */
function exercisedSection(run: RunResult): string {
  const s = run.scorecard;
  if (s === undefined) return '';
  const cells = restCells(s);
  const row = (what: string, value: string) => `<tr><td>${html(what)}</td><td>${value}</td></tr>`;
  const answers = Object.entries(s.answers)
    .map(([k, n]) => `${html(k === 'none' ? 'no answer' : k)} ${n}`)
    .join(', ');
  const rows = [
    row('answers', answers),
    row(
      'rest:4.5 table cells hit',
      `${cells.hit} of ${cells.of} (get ${cells.get}, list ${cells.list}, watch ${cells.watch})${cells.missed.length > 0 ? `<details><summary>${cells.missed.length} not hit</summary>${cells.missed.map((c) => `<code>${html(c)}</code>`).join(' ')}</details>` : ''}`,
    ),
    row('pages walked', `${s.pages.walked}; longest continue chain ${s.pages.longestChain}`),
    row(
      'watches',
      `opened ${s.watches.opened} (${s.watches.delivering ?? 0} delivered an event), resumed ${s.watches.resumed}, expired (410) ${s.watches.expired}`,
    ),
    row('compactions / restarts crossed', `${s.compactions} / ${s.restarts}`),
    row('apply conflicts met', String(s.applyConflicts)),
    row('largest', `list of ${s.largest.objects} objects; object of ${s.largest.bytes} bytes`),
    ...(s.exercised !== undefined ? [row('selection', html(s.exercised.line))] : []),
    ...(s.require ?? []).map((q) =>
      row(
        `--require ${q.key}>=${q.min}`,
        `${q.actual} ${q.met ? '<span class="tag s-passed">met</span>' : '<span class="tag s-failed">below</span>'}`,
      ),
    ),
  ];
  return ['<h2 id="exercised">Exercised</h2>', `<table><tbody>${rows.join('\n')}</tbody></table>`].join('\n');
}

/** What the run cost the target, and the checks that took longest. */
function footprintSection(run: RunResult): string {
  const f = run.footprint;
  if (!f) return '';
  const verbs = Object.entries(f.requests)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([v, n]) => `${html(v)} ${n}`)
    .join(', ');
  const rows = f.checks
    .slice(0, 10)
    .map(
      (c) =>
        `<tr><td><code>${html(c.check)}</code></td><td>${(c.wallMs / 1000).toFixed(1)} s</td><td>${Object.values(c.requests).reduce((a, b) => a + b, 0)}</td><td>${c.namespaces}</td></tr>`,
    )
    .join('');
  return [
    '<h2 id="footprint">Footprint</h2>',
    `<p>${f.namespaces} namespaces and ${f.clusterObjects} cluster-scoped objects created; requests: ${verbs || 'none'}; ${(f.bytesSent / 1024).toFixed(0)} KiB sent, ${(f.bytesReceived / 1024).toFixed(0)} KiB received${f.parallel !== undefined ? `; ${f.parallel} checks at once` : ''}.</p>`,
    ...(f.perVerdict?.requestsPerVerdict !== undefined
      ? [
          `<p>Per verdict: ${f.perVerdict.requestsPerVerdict} requests and ${(f.perVerdict.bytesPerVerdict! / 1024).toFixed(1)} KiB (${f.perVerdict.requests} requests for ${f.perVerdict.verdicts} decided clauses).</p>`,
        ]
      : []),
    ...(f.slowdown !== undefined ? [`<p><strong>${html(f.slowdown.line)}</strong>.</p>`] : []),
    `<table><thead><tr><th>slowest checks</th><th>wall time</th><th>requests</th><th>namespaces</th></tr></thead><tbody>${rows}</tbody></table>`,
  ].join('\n');
}

/** The verdict and what it is about: the target (embedded or the user's), the version it reported, how the run was asked for. */
function header(run: RunResult): string {
  const t = run.totals;
  const tg = run.target;
  const target = [
    tg.server === null || tg.kind === 'external' ? '' : `server <code>${html(tg.server)}</code>`,
    tg.reportedVersion !== undefined
      ? `reported version <code>${html(tg.reportedVersion)}</code>`
      : tg.kind !== undefined
        ? 'version not reported'
        : '',
    tg.nodeagentLoader === null ? '' : `node-agent loader <code>${html(tg.nodeagentLoader)}</code>`,
  ].filter((s) => s !== '');
  const i = run.invocation;
  return [
    '<h1>svc-conformance report</h1>',
    `<div class="banner v-${html(run.verdict)}">Verdict: ${html(verdictHeadline(run))} · <span class="target t-${html(tg.kind ?? 'unknown')}">${html(targetText(tg))}</span></div>`,
    `<p class="meta">target <b>${html(targetText(tg))}</b>${target.length > 0 ? ` · ${target.join(' · ')}` : ''}</p>`,
    `<p class="meta">suite <code>${html(run.version)}</code> · profile <code>${html(run.profile)}</code> · seed <code>${run.seed}</code> · started <code>${html(run.startedAt)}</code> · ${(run.durationMs / 1000).toFixed(1)} s</p>`,
    i === undefined
      ? ''
      : `<p class="meta">command <code>${html(i.command)}</code> · selection ${html(i.selection)} · expectations ${i.expectations.length > 0 ? i.expectations.map((f) => `<code>${html(f)}</code>`).join(', ') : 'none'}</p>`,
    `<p class="totals">${ORDER.map((s) => `<span><span class="tag s-${s}">${t[s]}</span> ${STATUS_LABEL[s]}</span>`).join('')}</p>`,
  ]
    .filter((s) => s !== '')
    .join('\n');
}

/**
 * Errors: the suite or the transport broke, so these clauses got no verdict (never a pass). Each with
 * its reason: the run's own errors, then every clause whose checks errored with the checks' notes.
 */
function errorsSection(run: RunResult): string {
  const clauses = run.clauses.filter((c) => c.status === 'error');
  if (run.errors.length === 0 && clauses.length === 0) return '';
  const rows = clauses.map(
    (c) =>
      `<tr><td><a href="#row-${html(anchor(c.id))}"><code>${html(c.id)}</code></a></td><td>${(c.errorChecks ?? []).map((k) => `<code>${html(k)}</code>`).join(', ')}</td><td>${c.notes.length > 0 ? c.notes.map((n) => html(n)).join('<br>') : 'no reason recorded'}</td></tr>`,
  );
  return [
    `<h2 id="errors">Errors (${run.errors.length + clauses.length})</h2>`,
    '<p>The suite or the transport broke: these got no verdict, which is not a pass.</p>',
    run.errors.length > 0 ? `<ul>${run.errors.map((e) => `<li><pre>${html(e)}</pre></li>`).join('')}</ul>` : '',
    clauses.length > 0
      ? `<table><thead><tr><th>clause</th><th>check</th><th>reason</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`
      : '',
  ].join('\n');
}

function coverageSection(run: RunResult, areas: readonly Area[]): string {
  const rows = areas.map((a) => {
    const total = a.clauses.length;
    const bar = ORDER.filter((s) => a.counts[s] > 0)
      .map((s) => `<span class="s-${s}" style="width:${pct(a.counts[s], total)}%" title="${a.counts[s]} ${STATUS_LABEL[s]}"></span>`)
      .join('');
    return `<tr><td>${html(a.name)}</td>${ORDER.map((s) => `<td class="n">${a.counts[s]}</td>`).join('')}<td class="n">${total}</td><td><div class="bar">${bar}</div></td></tr>`;
  });
  return [
    '<h2 id="coverage">Coverage by area</h2>',
    // Eleven counts beside the area's name: narrow cells, so the page still fits 1400 px without scrolling sideways.
    `<table class="cov"><thead><tr><th>area</th>${ORDER.map((s) => `<th>${STATUS_LABEL[s]}</th>`).join('')}<th>clauses</th><th></th></tr></thead>`,
    `<tbody>${rows.join('\n')}</tbody></table>`,
    '<p class="meta">Informative clauses are ones no black-box test can judge (descriptive text, terminology, obligations of clients or of the release process); each says why in its notes. Not checked is a gap of this run or of the suite.</p>',
    gapsList(run, areas),
  ].join('\n');
}

/**
 * Every clause left without a verdict, with the reason: a gap is never silent. One line per
 * component the run was not given, then the other gaps by reason.
 */
function gapsList(run: RunResult, areas: readonly Area[]): string {
  const clauses = areas.flatMap((a) => a.clauses);
  const absent = notSelectedLines(run).map((l) => `<p class="not-selected"><b>${html(l)}</b></p>`);
  const groups = otherGapGroups(clauses);
  if (groups.length === 0) return absent.join('\n');
  const n = groups.reduce((k, g) => k + g.clauses.length, 0);
  const items = groups.map(
    (g) =>
      `<li>${g.clauses.map((id) => `<a href="#row-${html(anchor(id))}"><code>${html(id)}</code></a>`).join(', ')}: ${html(g.reason)}</li>`,
  );
  return [...absent, `<details id="not-checked"><summary>Not checked (${n}), by reason</summary><ul>${items.join('')}</ul></details>`].join(
    '\n',
  );
}

/** One row per check that ran: its wall time and requests (from the footprint) and whether it failed. */
function checksSection(run: RunResult): string {
  const f = run.footprint;
  if (!f || f.checks.length === 0) return '';
  const failedBy = new Map<string, string[]>();
  for (const c of run.clauses.filter(isRegression))
    for (const cx of c.counterexamples) failedBy.set(cx.check, [...(failedBy.get(cx.check) ?? []), c.id]);
  const knownBy = new Map<string, string[]>();
  for (const c of run.clauses.filter((x) => shownStatus(x) === 'known'))
    for (const cx of c.counterexamples) knownBy.set(cx.check, [...(knownBy.get(cx.check) ?? []), c.id]);
  const erroredBy = new Map<string, string[]>();
  for (const c of run.clauses.filter((x) => x.status === 'error'))
    for (const k of c.errorChecks ?? []) erroredBy.set(k, [...(erroredBy.get(k) ?? []), c.id]);
  // A check named by a run error (its test broke before it recorded anything) errored too.
  for (const e of run.errors) {
    const k = /^(\S+) \[/.exec(e)?.[1];
    if (k !== undefined && !erroredBy.has(k)) erroredBy.set(k, []);
  }
  // A component not given is one line, not a row per check of it.
  const absent = new Set((run.notSelected ?? []).flatMap((n) => n.checks));
  const rows = [...f.checks]
    .filter((c) => !absent.has(c.check))
    .sort((a, b) => a.check.localeCompare(b.check))
    .map((c) => {
      const failed = failedBy.get(c.check);
      const errored = erroredBy.get(c.check);
      const known = knownBy.get(c.check);
      const verdict = failed
        ? `<span class="tag s-failed">failed</span> ${failed.map((id) => `<a href="#${html(anchor(id))}">${html(id)}</a>`).join(', ')}`
        : errored
          ? `<span class="tag s-error">error</span> ${errored.map((id) => `<a href="#row-${html(anchor(id))}">${html(id)}</a>`).join(', ')} <a href="#errors">why</a>`
          : known
            ? `<span class="tag s-known">known failure</span> ${known.map((id) => `<a href="#${html(anchor(id))}">${html(id)}</a>`).join(', ')}`
            : 'no failure';
      return `<tr><td>${checkRef(c.check, false)}</td><td class="n">${(c.wallMs / 1000).toFixed(1)} s</td><td class="n">${Object.values(c.requests).reduce((a, b) => a + b, 0)}</td><td>${verdict}</td></tr>`;
    });
  return [
    `<h2 id="checks">Checks (${f.checks.length})</h2>`,
    ...(run.notSelected ?? []).map(
      (n) => `<p class="not-selected">${n.checks.length} check${n.checks.length === 1 ? '' : 's'} ${html(n.reason)}</p>`,
    ),
    '<details><summary>show the checks, their time and requests</summary>',
    `<table><thead><tr><th>check</th><th>wall time</th><th>requests</th><th>verdict</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`,
    '</details>',
  ].join('\n');
}

/**
 * Every clause, under a row naming its area. Rows stay lean (the page of a clean run is mostly this
 * table): every row is a target (#row-<clause>); only a failed one links on, to its failure.
 */
function clauseTable(areas: readonly Area[]): string {
  const rows = areas.flatMap((a) => [
    `<tr class="area"><th colspan="4">${html(a.name)}</th></tr>`,
    ...a.clauses.map((c) => {
      const shown = shownStatus(c);
      const id = c.status === 'failed' ? `<a href="#${html(anchor(c.id))}">${html(c.id)}</a>` : html(c.id);
      // A listed clause that did not fail this time is still shown as listed.
      const listed = c.expectedFailure === true && shown !== 'known' ? ' (listed as known)' : '';
      // A component not given is said once, above the table, not in each of its rows.
      const absent = shown === 'notChecked' && isNotSelected(c.notes[0]);
      // The id cell is monospace and the status coloured by the row's class (CSS), not by markup per row.
      return `<tr class="row r-${shown}" id="row-${html(anchor(c.id))}"><td>${id}</td><td>${html(c.summary)}${absent ? '' : notes(c.notes)}</td><td class="st">${absent ? 'not selected' : STATUS_LABEL[shown]}${listed}</td><td class="n">${c.checks}</td></tr>`;
    }),
  ]);
  return [
    '<h2 id="clauses">All clauses</h2>',
    '<div class="filters">',
    '<input type="radio" name="clause-filter" id="f-all" checked><label for="f-all">all</label>',
    ...(['failed', 'known', 'unspecified', 'inconclusive', 'informative', 'notChecked'] as const).map(
      (s) => `<input type="radio" name="clause-filter" id="f-${s}"><label for="f-${s}">${STATUS_LABEL[s]}</label>`,
    ),
    '<table class="clauses"><thead><tr><th>clause</th><th>summary</th><th>status</th><th>checks</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody></table>`,
    '</div>',
  ].join('\n');
}

function pct(n: number, total: number): string {
  return total === 0 ? '0' : ((100 * n) / total).toFixed(2);
}
