/**
 * The failures of the HTML report (reports/html.ts): the links to the failure pages in the first
 * screen, each failure with its counterexamples (expected, observed, the field diff, the answers the
 * model needed, replay and curl), the known failures collapsed; and the anchors and notes the
 * report's other sections share with them.
 */
import { checkDocPath, isKnownCheck } from './check-docs.ts';
import type { ClauseResult, Counterexample } from '../runner/results.ts';
import { html } from './escape.ts';
import { diffRows } from './value-diff.ts';
import type { ValueDiff } from '../reference/value-diff.ts';
import { confirmationLabel } from './confirmation.ts';
import { answerLines, needLines } from './answer-diff.ts';

export type Pages = ReadonlyMap<Counterexample, string>;

/** In the first screen: a link to each failure's page (what was sent and answered, the spec's words, the diff, the scripts). */
export function failurePageLinks(regressions: readonly ClauseResult[], pages: Pages): string {
  const links = regressions.flatMap((c) =>
    c.counterexamples
      .map((cx) => pages.get(cx))
      .filter((p): p is string => p !== undefined)
      .map((p) => `<a href="${html(p)}">${html(c.id)}</a>`),
  );
  if (links.length === 0) return '';
  return `<p class="failpages">Failure pages (read these first): ${links.join(' · ')}</p>`;
}

export function failuresSection(title: string, clauses: readonly ClauseResult[], pages: Pages): string {
  if (clauses.length === 0) return `<h2 id="failures">${html(title)}</h2>\n<p>None.</p>`;
  return [`<h2 id="failures">${html(title)} (${clauses.length})</h2>`, ...clauses.map((c) => failure(c, false, pages))].join('\n');
}

/**
 * Known failures, collapsed: one row each (the entry that excused it and its failure pages), after the
 * failures beyond expectations. Their details are on the failure pages.
 */
export function knownFailuresSection(clauses: readonly ClauseResult[], pages: Pages): string {
  if (clauses.length === 0) return '';
  const rows = clauses.map((c) => {
    const used = (c.expectation?.entries ?? []).filter((e) => e.outcome === 'excused');
    const links = c.counterexamples
      .map((cx) => pages.get(cx))
      .filter((p): p is string => p !== undefined)
      .map((p, n) => `<a href="${html(p)}">${n + 1}</a>`);
    return `<tr class="known" id="${html(anchor(c.id))}"><td><code>${html(c.id)}</code></td><td>${html(c.summary)}</td><td>${used.map((e) => `${html(e.excuses)}: ${html(e.reason)}`).join('<br>')}</td><td>${links.join(' ')}</td></tr>`;
  });
  return [
    `<h2 id="known-failures">Known failures (${clauses.length})</h2>`,
    `<details><summary>excused by the expectations file (not counted as failures): show them</summary>`,
    `<table><thead><tr><th>clause</th><th>summary</th><th>excused by</th><th>failure pages</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`,
    '</details>',
  ].join('\n');
}

function failure(c: ClauseResult, known: boolean, pages: Pages): string {
  const cxs =
    c.counterexamples.length === 0
      ? ['<p>No counterexample was recorded.</p>']
      : c.counterexamples.map((cx) => counterexample(cx, pages.get(cx)));
  const regression =
    c.expectation?.regression === true
      ? `<p><strong>Listed in the expectations file, but this failure is not the one excused.</strong> Excused: ${c.expectation.entries.map((e) => `<code>${html(e.excuses)}</code>`).join('; ')}. Observed: <code>${html(c.expectation.unexcused[0] ?? '')}</code></p>`
      : '';
  return [
    `<section class="failure${known ? ' known' : ''}" id="${html(anchor(c.id))}">`,
    `<h3><code>${html(c.id)}</code> ${html(c.summary)}</h3>`,
    regression,
    notes(c.notes),
    ...cxs,
    '</section>',
  ].join('\n');
}

/** A check's id, linked to its page beside the report (what it sends, judges, how to read it) when it has one. */
export function checkRef(id: string, titled = true): string {
  const title = titled ? ' title="what this check sends and judges"' : '';
  return isKnownCheck(id) ? `<a href="${html(checkDocPath(id))}"${title}><code>${html(id)}</code></a>` : `<code>${html(id)}</code>`;
}

function counterexample(cx: Counterexample, page: string | undefined): string {
  const steps =
    cx.steps.length === 0
      ? ''
      : `<dt>Steps (shrunk, ${cx.steps.length})</dt><dd><ol>${cx.steps.map((s) => `<li><code>${html(s)}</code></li>`).join('')}</ol></dd>`;
  return [
    '<dl>',
    page === undefined
      ? ''
      : `<dt>Failure page</dt><dd><a href="${html(page)}">${html(page)}</a>: the spec's words, the diff, every request and answer, the scripts</dd>`,
    `<dt>Check</dt><dd>${checkRef(cx.check)} · ${cx.requestCount} request(s)</dd>`,
    `<dt>Expected</dt><dd><pre>${html(cx.expected)}</pre></dd>`,
    `<dt>Observed</dt><dd><pre>${html(cx.observed)}</pre></dd>`,
    cx.diff === undefined ? '' : diffTable(cx.diff),
    answersNeeded(cx),
    steps,
    `<dt>Replay</dt><dd><pre>${html(cx.replay)}</pre></dd>`,
    cx.confirmation ? `<dt>Confirmed</dt><dd class="confirmation">${html(confirmationLabel(cx.confirmation))}</dd>` : '',
    cx.curl.trim() === '' ? '' : `<dt>Curl script</dt><dd><details><summary>show</summary><pre>${html(cx.curl)}</pre></details></dd>`,
    '</dl>',
  ]
    .filter((s) => s !== '')
    .join('\n');
}

/** The answers the model needed beside the target's, and the answers they read, every item named. */
function answersNeeded(cx: Counterexample): string {
  const needs = needLines(cx);
  const answers = answerLines(cx);
  if (needs.length + answers.length === 0) return '';
  const list = (ls: readonly string[]) => `<ul>${ls.map((l) => `<li><code>${html(l)}</code></li>`).join('')}</ul>`;
  return [
    needs.length > 0 ? `<dt>Answer needed</dt><dd class="needs">${list(needs)}</dd>` : '',
    answers.length > 0 ? `<dt>Answers given</dt><dd class="answers">${list(answers)}</dd>` : '',
  ].join('\n');
}

/** The structured diff of a counterexample: one row per field path the target got wrong. */
function diffTable(d: ValueDiff): string {
  const rows = diffRows(d);
  if (rows.length === 0) return '';
  const body = rows
    .map(
      (r) =>
        `<tr class="d-${r.kind}"><td>${r.mark}</td><td><code>${html(r.path)}</code></td><td><code>${html(r.expected)}</code></td><td><code>${html(r.observed)}</code></td></tr>`,
    )
    .join('');
  return `<dt>Difference (${rows.length} field${rows.length === 1 ? '' : 's'})</dt><dd><table class="diff"><tr><th></th><th>field</th><th>expected</th><th>observed</th></tr>${body}</table></dd>`;
}

export function notes(list: readonly string[]): string {
  return list.length === 0 ? '' : `<ul class="notes">${list.map((n) => `<li>${html(n)}</li>`).join('')}</ul>`;
}

export function anchor(id: string): string {
  return `clause-${id.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}
