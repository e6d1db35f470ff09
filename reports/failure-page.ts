/**
 * One page per failure, the one a person reads first: in the first screen the clause
 * and what the spec says about it, then what the model expected against what came back, as a diff;
 * below, every request of the case and its answer, the replay command, and the reproducer scripts.
 * Self-contained like the report (inline CSS, no script), linked from the report's first screen.
 * Pure: the writer (reports/write.ts) decides where it goes.
 */
import type { ClauseResult, Counterexample } from '../runner/results.ts';
import { clauseText } from '../reference/catalog/clause-text.ts';
import { html } from './escape.ts';
import { diffRows } from './value-diff.ts';
import { answerLine } from './answer-diff.ts';
import { requestsOf } from '../reference/answer-checks.ts';
import { checkDocPath, isKnownCheck } from './check-docs.ts';
import { confirmationLabel } from './confirmation.ts';

export interface FailurePageLinks {
  /** Relative links from the page: the report, the reproducer script, its node test. */
  readonly report: string;
  readonly script?: string;
  readonly nodeTest?: string;
}

const CSS = `
body{font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:1300px;padding:10px 24px;color:#1b1f24}
h1{font-size:19px;margin:4px 0}h2{font-size:15px;margin:14px 0 4px;border-bottom:1px solid #d0d7de;padding-bottom:2px}
nav a{margin-right:14px}.meta{color:#57606a;margin:2px 0}
blockquote.clause{margin:4px 0;padding:6px 12px;border-left:4px solid #0969da;background:#f6f8fa;white-space:pre-wrap;font-family:ui-monospace,monospace;font-size:13px}
table{border-collapse:collapse;width:100%;margin:4px 0}th,td{text-align:left;padding:3px 8px;border-bottom:1px solid #eaeef2;vertical-align:top;overflow-wrap:anywhere}th{background:#f6f8fa}
.diff td.mark{width:1em;font-weight:600}.d-added td.mark{color:#1a7f37}.d-removed td.mark,.d-needed td.mark{color:#cf222e}.d-modified td.mark{color:#9a6700}.d-met td.mark{color:#1a7f37}
pre{background:#f6f8fa;padding:8px;overflow:auto;white-space:pre-wrap;word-break:break-all;margin:4px 0}
.sides td{width:50%}.sides pre{max-height:10em}
ol.answers li{margin:2px 0}
`;

/** The page of one counterexample of a failed clause. */
export function failurePage(c: ClauseResult, cx: Counterexample, links: FailurePageLinks): string {
  const text = clauseText(c.id);
  // A failure the expectations file excuses says so before anything else.
  const known = c.status === 'failed' && c.expectedFailure === true;
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${html(`${c.id}: ${known ? 'known failure' : 'failure'}`)}</title>`,
    `<style>${CSS}</style></head><body>`,
    `<nav><a href="${html(links.report)}">the report</a><a href="#spec">the spec</a><a href="#diff">the diff</a><a href="#exchanges">sent and answered</a><a href="#replay">replay</a><a href="#script">script</a></nav>`,
    `<h1><code>${html(c.id)}</code> ${html(c.summary)}</h1>`,
    known ? '<p class="known"><b>Known failure</b>: excused by the expectations file (not counted as failures).</p>' : '',
    `<p class="meta">check ${isKnownCheck(cx.check) ? `<a href="../${html(checkDocPath(cx.check))}"><code>${html(cx.check)}</code></a>` : `<code>${html(cx.check)}</code>`} · ${cx.requestCount} request(s)${cx.confirmation ? ` · ${html(confirmationLabel(cx.confirmation))}` : ''}</p>`,
    specSection(c, text),
    diffSection(cx),
    exchangesSection(cx),
    `<h2 id="replay">Replay</h2><pre>${html(cx.replay)}</pre>`,
    scriptSection(cx, links),
    '</body></html>',
    '',
  ].join('\n');
}

function specSection(c: ClauseResult, text: ReturnType<typeof clauseText>): string {
  if (text === undefined)
    return `<h2 id="spec">What the spec says</h2><p>${html(c.summary)} (no section of the spec documents matches this clause id)</p>`;
  const where = `${text.doc === 'rest' ? 'REST API' : 'node agent and controller daemon'} document, section ${text.section} ${text.title}`;
  // A clause no line names exactly (a table cell) is shown with its whole section, folded open.
  const quote =
    text.quote.length > 0
      ? `<blockquote class="clause">${html(text.quote.join('\n'))}</blockquote><details><summary>the whole section ${html(text.section)}</summary><blockquote>${html(text.sectionLines.join('\n'))}</blockquote></details>`
      : `<p class="meta">No single line states this clause (a case of a table or of the section as a whole); the section:</p><blockquote class="clause">${html(text.sectionLines.slice(0, 12).join('\n'))}${text.sectionLines.length > 12 ? '\n…' : ''}</blockquote>${text.sectionLines.length > 12 ? `<details><summary>the whole section ${html(text.section)}</summary><blockquote>${html(text.sectionLines.join('\n'))}</blockquote></details>` : ''}`;
  return `<h2 id="spec">What the spec says <span class="meta">(${html(where)})</span></h2>\n${quote}`;
}

/** The model's expectation against the answer: the needs, the structured diff, and both texts. */
function diffSection(cx: Counterexample): string {
  const rows: string[] = [];
  for (const n of cx.needs ?? []) {
    const reqs = [...new Set(requestsOf(n.test))];
    rows.push(
      `<tr class="${n.met ? 'd-met' : 'd-needed'}"><td class="mark">${n.met ? '=' : '≠'}</td><td>${reqs.length > 0 ? `answer to request ${reqs.join(', ')}` : 'the answer'}</td><td><code>${html(n.says)}</code></td><td><code>${html(n.observed)}</code></td></tr>`,
    );
  }
  if (cx.diff !== undefined) {
    for (const r of diffRows(cx.diff))
      rows.push(
        `<tr class="d-${r.kind}"><td class="mark">${r.mark}</td><td><code>${html(r.path)}</code></td><td><code>${html(r.expected)}</code></td><td><code>${html(r.observed)}</code></td></tr>`,
      );
  }
  const table =
    rows.length === 0
      ? ''
      : `<table class="diff"><tr><th></th><th>field or need</th><th>expected</th><th>observed</th></tr>${rows.join('')}</table>`;
  return [
    `<h2 id="diff">What the model expected, and what came back</h2>`,
    table,
    `<table class="sides"><tr><th>expected (the model)</th><th>observed (the target)</th></tr><tr><td><pre>${html(cx.expected)}</pre></td><td><pre>${html(cx.observed)}</pre></td></tr></table>`,
  ].join('\n');
}

/** Every request of the case with its answer: items of every page, foreign ones named; watch events. */
function exchangesSection(cx: Counterexample): string {
  const steps =
    cx.steps.length === 0 ? '' : `<p>Steps (shrunk):</p><ol>${cx.steps.map((s) => `<li><code>${html(s)}</code></li>`).join('')}</ol>`;
  const answers =
    (cx.answers ?? []).length === 0
      ? '<p class="meta">No HTTP requests: the steps above are the case.</p>'
      : `<ol class="answers" start="0">${cx.answers!.map((a) => `<li><code>${html(answerLine(a))}</code></li>`).join('')}</ol>`;
  return `<h2 id="exchanges">What was sent, what came back</h2>\n${steps}\n${answers}`;
}

function scriptSection(cx: Counterexample, links: FailurePageLinks): string {
  const files = [
    links.script
      ? `<a href="${html(links.script)}">${html(links.script.split('/').pop()!)}</a> (bash: exit 1 while the failure is present, 0 once fixed)`
      : '',
    links.nodeTest
      ? `<a href="${html(links.nodeTest)}">${html(links.nodeTest.split('/').pop()!)}</a> (<code>node --test</code>: fails while the failure is present)`
      : '',
  ].filter((s) => s !== '');
  return [
    '<h2 id="script">Reproducer</h2>',
    files.length > 0 ? `<p>${files.join(' · ')}</p>` : '',
    cx.curl.trim() === '' ? '' : `<details><summary>show the script</summary><pre>${html(cx.curl)}</pre></details>`,
  ].join('\n');
}
