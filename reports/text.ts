/**
 * The terminal summary printed at the end of a run: one line per area, then each regression with
 * enough to act on (clause, expected, observed, replay), then the verdict and where the reports are.
 * Target-supplied text is made inert: an observed body carrying ESC sequences must not repaint the
 * reader's terminal.
 */
import { capabilityLine, capabilityMapText } from './capability-map.ts';
import type { Counterexample, ClauseResult, RunResult } from '../runner/results.ts';
import { groupByArea, isRegression, type FamilyOf, type StatusCounts } from './areas.ts';
import { indentRest } from './counterexample-text.ts';
import { answerLines, needLines } from './answer-diff.ts';
import { visibleControls } from './escape.ts';
import { confirmationLabel, labelCounts } from './confirmation.ts';
import { entriesWith } from './known-failures.ts';
import { scorecardLines, verdictText } from './scorecard.ts';
import { shownStatus } from './aggregate.ts';
import { notSelectedLines } from './gaps.ts';
import { targetText } from './run-identity.ts';
import { verdictHeadline } from './verdict-line.ts';

export interface TerminalOptions {
  readonly color: boolean;
  /** Folder the reports were written to, when they were. */
  readonly reportsDir?: string;
}

type Paint = (code: string, s: string) => string;

export function toTerminalSummary(run: RunResult, familyOf: FamilyOf, opts: TerminalOptions): string {
  const paint: Paint = opts.color ? (code, s) => `\u001b[${code}m${s}\u001b[0m` : (_code, s) => s;
  const areas = groupByArea(run.clauses, familyOf);
  const width = Math.max(0, ...areas.map((a) => safe(a.name).length));
  const lines = areas.map((a) => `${safe(a.name).padEnd(width)}  ${countsLine(a.counts, paint)}`);

  const map = capabilityMapText(run.capabilities ?? []);
  if (map.length > 0) lines.unshift(...map.map(safe), '');
  const regressions = run.clauses.filter(isRegression);
  if (regressions.length > 0) lines.push('', paint('1;31', `Failures (${regressions.length}):`));
  for (const c of regressions) lines.push(...failureLines(c, paint));

  const known = run.clauses.filter((c) => shownStatus(c) === 'known');
  if (known.length > 0) {
    lines.push(
      '',
      `${paint('34', `Known failures (${known.length})`)}, excused by the expectations file (not counted as failures): ${known.map((c) => safe(c.id)).join(', ')}`,
    );
  }
  // Advice to remove an entry only where the run sent its input and the answer conformed.
  const gone = entriesWith(run.clauses, 'noLongerOccurs');
  if (gone.length > 0) {
    lines.push(`No longer occurring (the run sent the input and the answers conformed); remove from the expectations file:`);
    for (const g of gone)
      lines.push(
        `  ${safe(g.clause)} (${safe(g.entry.excuses)})${g.entry.at !== undefined ? ` at ${safe(g.entry.at)}` : ''}: ${safe(g.entry.detail)}`,
      );
  }
  const idle = [...new Set(entriesWith(run.clauses, 'notExercised').map((g) => g.clause))].filter((id) => !known.some((c) => c.id === id));
  if (idle.length > 0)
    lines.push(`Listed but not exercised in this run (kept; see the notes in summary.json): ${idle.map(safe).join(', ')}`);
  if (run.errors.length > 0) {
    lines.push('', paint('33', `Infrastructure errors (${run.errors.length}):`));
    for (const e of run.errors) lines.push(`  ${indentRest(safe(e), 2)}`);
  }
  // Clauses whose checks errored: no verdict, and the reason is the first thing a reader needs.
  const errored = run.clauses.filter((c) => c.status === 'error');
  if (errored.length > 0) {
    lines.push('', paint('33', `Errors, no verdict (${errored.length}):`));
    for (const c of errored)
      lines.push(
        `  ${safe(c.id)}${c.errorChecks?.length ? ` (${c.errorChecks.map(safe).join(', ')})` : ''}: ${safe(c.notes[0] ?? 'no reason recorded')}`,
      );
  }

  // A component the run was not given: one line, however many clauses it holds.
  const absent = notSelectedLines(run);
  if (absent.length > 0) lines.push('', ...absent.map(safe));
  if (run.scorecard !== undefined) lines.push('', 'Exercised:', ...scorecardLines(run.scorecard).map((l) => `  ${l}`));
  if (run.notTested !== undefined) {
    lines.push('', paint('33', 'Not tested:'));
    for (const l of run.notTested) lines.push(`  ${indentRest(safe(l), 2)}`);
  }
  if (run.incomplete !== undefined) {
    lines.push('', paint('33', `Incomplete (${run.incomplete.because.join(', ')}):`));
    for (const l of run.incomplete.lines) lines.push(`  ${indentRest(safe(l), 2)}`);
  }
  lines.push('', verdictLine(run, paint));
  if (opts.reportsDir !== undefined) lines.push(`Reports written to ${safe(opts.reportsDir)}`);
  return `${lines.join('\n')}\n`;
}

function countsLine(n: StatusCounts, paint: Paint): string {
  const parts = [
    part(n.passed, 'passed', '32', paint),
    part(n.failed, 'failed', '31', paint),
    part(n.unspecified, 'unspecified', '35', paint),
    part(n.notChecked, 'not checked', '2', paint),
  ];
  // Rare columns only when present, so the common line stays short.
  if (n.known > 0) parts.splice(2, 0, part(n.known, 'known', '34', paint));
  if (n.informative > 0) parts.push(part(n.informative, 'informative', '36', paint));
  if (n.skipped > 0) parts.push(part(n.skipped, 'skipped', '2', paint));
  if (n.inconclusive > 0) parts.push(part(n.inconclusive, 'inconclusive', '33', paint));
  if (n.error > 0) parts.push(part(n.error, 'error', '33', paint));
  if (n.notServed > 0) parts.push(part(n.notServed, 'not served', '33', paint));
  if (n.blocked > 0) parts.push(part(n.blocked, 'blocked', '2', paint));
  return parts.join('  ');
}

function part(count: number, label: string, code: string, paint: Paint): string {
  const text = `${count} ${label}`;
  return count > 0 ? paint(code, text) : text;
}

function failureLines(c: ClauseResult, paint: Paint): string[] {
  const head = `  ${paint('31', 'FAIL')} ${paint('1', safe(c.id))}  ${safe(c.summary)}`;
  // A listed clause failing otherwise than its entries excuse: both answers, side by side.
  const listed =
    c.expectation?.regression === true
      ? [
          `    listed:   the expectations file excuses only ${c.expectation.entries.map((e) => `${safe(e.excuses)}${e.at !== undefined ? ` (${safe(e.at)})` : ''}`).join('; ')}`,
          `    not excused: ${indentRest(safe(c.expectation.unexcused[0] ?? ''), 17)}`,
        ]
      : [];
  const cx = c.counterexamples[0];
  // A feature found not served by the capability probe: its note is the finding.
  if (cx === undefined) {
    const note = c.notes.find((n) => n.startsWith('not served: ')) ?? c.notes[0];
    return [head, ...listed, `    ${note !== undefined ? safe(note) : '(no counterexample recorded)'}`];
  }
  const lines = [
    head,
    ...listed,
    `    expected: ${indentRest(safe(cx.expected), 14)}`,
    `    observed: ${indentRest(safe(cx.observed), 14)}`,
    ...compactDiff(cx).map((l) => `    ${safe(l)}`),
    `    replay:   ${safe(cx.replay)}`,
    ...(cx.confirmation ? [`    replayed: ${confirmationLabel(cx.confirmation)}`] : []),
  ];
  if (c.counterexamples.length > 1)
    lines.push(
      `    (+${c.counterexamples.length - 1} more counterexample(s) in the HTML report: ${labelCounts(c.counterexamples.slice(1))})`,
    );
  return lines;
}

/**
 * What was tested, then the failures beyond expectations, then the known ones, then the rest:
 *   Verdict: conformant, against the embedded reference server (0 failed beyond expectations, 1 known failure, 519 passed, ...)
 */
function verdictLine(run: RunResult, paint: Paint): string {
  const t = run.totals;
  const code = run.verdict === 'conformant' ? '1;32' : run.verdict === 'nonconformant' ? '1;31' : '1;33';
  const known = t.known;
  const failed = `${t.failed} failed${known > 0 || run.clauses.some((c) => c.expectation !== undefined) ? ' beyond expectations' : ''}`;
  const detail = [
    failed,
    ...(known > 0 ? [`${known} known failure${known === 1 ? '' : 's'}`] : []),
    `${t.passed} passed, ${t.error} error, ${t.unspecified} unspecified, ${t.inconclusive} inconclusive, ${t.skipped} skipped, ${t.notChecked} not checked, ${t.informative} informative`,
  ].join(', ');
  const figures = verdictHeadline(run).slice(verdictText(run.verdict).length);
  return `${paint(code, `Verdict: ${verdictText(run.verdict)}`)}${figures}, against ${targetPhrase(run)} (${detail}; profile ${safe(run.profile)}, seed ${run.seed})`;
}

/** "the embedded reference server", or the external server as the run named it. */
function targetPhrase(run: RunResult): string {
  return run.target.kind === 'embedded' ? `the ${safe(targetText(run.target))}` : safe(targetText(run.target));
}

// C1 controls too: 0x9B is a one-byte CSI on some terminals.
function safe(s: string): string {
  return visibleControls(s).replace(/[\u0080-\u009F]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The needs that failed and the answers they read (at most a few lines: the HTML page has the rest). */
function compactDiff(cx: Counterexample): string[] {
  const needs = needLines(cx).filter((l) => l.startsWith('needed'));
  const answers = answerLines(cx).slice(0, 4);
  return [...needs, ...answers.map((a) => `  ${a.length > 300 ? `${a.slice(0, 297)}...` : a}`)];
}
