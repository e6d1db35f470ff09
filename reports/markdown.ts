/**
 * results/summary.md: the few lines a CI step summary shows (GitHub's `$GITHUB_STEP_SUMMARY` renders
 * Markdown): the verdict, the counts, every regression with its replay command, then known failures.
 * A reader decides from it whether to open the HTML report; it is not the report.
 */
import { checkDocPath, isKnownCheck } from './check-docs.ts';
import type { ClauseResult, RunResult } from '../runner/results.ts';
import type { BaselineDiff } from './baseline.ts';
import { confirmationLabel, labelCounts } from './confirmation.ts';
import { entriesWith } from './known-failures.ts';
import { answerLines, needLines } from './answer-diff.ts';
import { scorecardLines, verdictText } from './scorecard.ts';
import { shownStatus } from './aggregate.ts';
import { notSelectedLines, otherGapGroups } from './gaps.ts';
import { targetText } from './run-identity.ts';
import { verdictHeadline } from './verdict-line.ts';
import { capabilityLine, capabilityMapMarkdown } from './capability-map.ts';

const ICON: Record<RunResult['verdict'], string> = {
  conformant: '✅',
  nonconformant: '❌',
  error: '⚠️',
  notTested: '⚠️',
  interrupted: '⏹️',
};

export function toMarkdownSummary(run: RunResult, baseline?: BaselineDiff): string {
  const t = run.totals;
  const lines = [
    `## ${ICON[run.verdict]} svc-conformance: ${cell(verdictHeadline(run))} · ${cell(targetText(run.target))}`,
    '',
    ...headerLines(run),
    '',
    '| failed beyond expectations | known failures | passed | error | unspecified | inconclusive | skipped | not checked | informative | not served | blocked |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${t.failed} | ${t.known} | ${t.passed} | ${t.error} | ${t.unspecified} | ${t.inconclusive} | ${t.skipped} | ${t.notChecked} | ${t.informative} | ${t.notServed} | ${t.blocked} |`,
  ];
  const capabilities = capabilityLine(run);
  if (capabilities !== undefined) lines.push('', `**${cell(capabilities)}**`);
  if (run.capabilities !== undefined && run.capabilities.length > 0) lines.push('', ...capabilityMapMarkdown(run.capabilities));
  // A component the run was not given: one line each, whatever number of clauses it holds.
  for (const line of notSelectedLines(run)) lines.push('', `**${cell(line)}**`);
  const groups = otherGapGroups(run.clauses);
  if (groups.length > 0) {
    // A gap is never silent: each clause without a verdict says why, once per reason.
    const n = groups.reduce((k, g) => k + g.clauses.length, 0);
    lines.push('', `<details><summary>Not checked (${n}), by reason</summary>`, '');
    for (const g of groups) lines.push(`- ${idList(g.clauses)}: ${cell(g.reason)}`);
    lines.push('', '</details>');
  }
  if (run.notTested !== undefined) lines.push('', '### Not tested', '', ...run.notTested.map((l) => `- ${cell(l)}`));
  if (run.incomplete !== undefined)
    lines.push('', `### Incomplete (${cell(run.incomplete.because.join(', '))})`, '', ...run.incomplete.lines.map((l) => `- ${cell(l)}`));
  if (run.scorecard !== undefined) lines.push('', '### Exercised', '', ...scorecardLines(run.scorecard).map((l) => `- ${cell(l)}`));
  const regressions = run.clauses.filter((c) => shownStatus(c) === 'failed');
  const known = run.clauses.filter((c) => shownStatus(c) === 'known');
  const errored = run.clauses.filter((c) => c.status === 'error');
  if (regressions.length > 0) lines.push('', `### Failed beyond expectations (${regressions.length})`, '', ...failureTable(regressions));
  if (regressions.length > 0) lines.push(...answersNeeded(regressions));
  if (errored.length > 0) {
    lines.push('', `### Error (${errored.length}): the suite could not tell`, '');
    for (const c of errored) lines.push(`- \`${cell(c.id)}\`: ${cell(c.notes[0] ?? 'no detail')}`);
  }
  if (run.errors.length > 0) {
    lines.push('', '### Run errors', '');
    for (const e of run.errors) lines.push(`- ${cell(e)}`);
  }
  if (baseline !== undefined) lines.push('', ...baselineLines(baseline));
  if (known.length > 0) {
    lines.push(
      '',
      `<details><summary>Known failures (${known.length}): excused by the expectations file (not counted as failures)</summary>`,
      '',
    );
    for (const c of known) lines.push(`- \`${cell(c.id)}\` ${cell(c.summary)}${excuses(c)}`);
    lines.push('', '</details>');
  }
  const gone = entriesWith(run.clauses, 'noLongerOccurs');
  if (gone.length > 0) {
    lines.push('', `### No longer occurring (${gone.length}): remove from the expectations file`, '');
    for (const g of gone)
      lines.push(
        `- \`${cell(g.clause)}\` (${cell(g.entry.excuses)})${g.entry.at !== undefined ? ` at \`${cell(g.entry.at)}\`` : ''}: ${cell(g.entry.detail)}`,
      );
  }
  const idle = entriesWith(run.clauses, 'notExercised').filter((g) => !known.some((c) => c.id === g.clause));
  if (idle.length > 0) {
    lines.push(
      '',
      `<details><summary>Not exercised in this run (${idle.length}): listed, neither seen nor shown gone; keep them</summary>`,
      '',
    );
    for (const g of idle) lines.push(`- \`${cell(g.clause)}\` (${cell(g.entry.excuses)}): ${cell(g.entry.detail)}`);
    lines.push('', '</details>');
  }
  return `${lines.join('\n')}\n`;
}

/** The target with the version it reported, how the run was asked for, and its size. */
function headerLines(run: RunResult): string[] {
  const t = run.target;
  const server = t.kind === 'embedded' && t.server !== null ? ` at \`${cell(t.server)}\`` : '';
  const version =
    t.reportedVersion !== undefined ? `, version \`${cell(t.reportedVersion)}\`` : t.kind !== undefined ? ', version not reported' : '';
  const lines = [
    `Target: ${cell(targetText(t))}${server}${version}. Profile \`${cell(run.profile)}\`, seed \`${run.seed}\`, ${(run.durationMs / 1000).toFixed(1)} s.`,
  ];
  const i = run.invocation;
  if (i !== undefined) {
    lines.push(
      '',
      `Command: \`${cell(i.command)}\``,
      '',
      `Selection: ${cell(i.selection)}. Expectations: ${i.expectations.length > 0 ? i.expectations.map((f) => `\`${cell(f)}\``).join(', ') : 'none'}.`,
    );
  }
  return lines;
}

/** The entries that excused a known failure, in a few words. */
function excuses(c: ClauseResult): string {
  const used = (c.expectation?.entries ?? []).filter((e) => e.outcome === 'excused');
  return used.length === 0 ? '' : ` (excused: ${cell(used.map((e) => e.excuses).join('; '))})`;
}

/** At most a few clause ids, then how many more (summary.json has every one). */
function idList(ids: readonly string[], shown = 8): string {
  const head = ids
    .slice(0, shown)
    .map((id) => `\`${cell(id)}\``)
    .join(', ');
  return ids.length > shown ? `${head} and ${ids.length - shown} more` : head;
}

/** Per failure, the answer the model needed beside the target's, and the answers read. */
function answersNeeded(clauses: readonly ClauseResult[]): string[] {
  const blocks = clauses.flatMap((c) => {
    const cx = c.counterexamples[0];
    if (cx === undefined) return [];
    const lines = [...needLines(cx), ...answerLines(cx)];
    return lines.length === 0 ? [] : [`- \`${cell(c.id)}\``, ...lines.map((l) => `  - ${cell(l)}`)];
  });
  return blocks.length === 0 ? [] : ['', '<details><summary>Answers needed and answers given</summary>', '', ...blocks, '', '</details>'];
}

function failureTable(clauses: readonly ClauseResult[]): string[] {
  const rows = ['| clause | expected | observed | replay |', '|---|---|---|---|'];
  for (const c of clauses) {
    const cx = c.counterexamples[0];
    // A listed clause that failed otherwise: what the file excuses, beside what was observed.
    const listed =
      c.expectation?.regression === true
        ? ` (listed: the expectations file excuses only ${c.expectation.entries.map((e) => e.excuses).join('; ')})`
        : '';
    // The check that found it, linked to its page beside the report (what it sends and judges).
    const by = cx !== undefined && isKnownCheck(cx.check) ? ` by [${cell(cx.check)}](${checkDocPath(cx.check)})` : '';
    rows.push(
      `| \`${cell(c.id)}\`${by} | ${cell(`${cx?.expected ?? c.summary}${listed}`)} | ${cell(cx?.observed ?? '')} | ${cx ? `\`${cell(cx.replay)}\`${cx.confirmation ? ` ${cell(confirmationLabel(cx.confirmation))}` : ''}${c.counterexamples.length > 1 ? ` (+${c.counterexamples.length - 1} more: ${cell(labelCounts(c.counterexamples.slice(1)))})` : ''}` : ''} |`,
    );
  }
  return rows;
}

function baselineLines(d: BaselineDiff): string[] {
  const list = (title: string, ids: readonly string[]): string[] =>
    ids.length === 0 ? [] : [`- **${title}** (${ids.length}): ${ids.map((i) => `\`${cell(i)}\``).join(', ')}`];
  const body = [
    ...list('new failures', d.newFailures),
    ...list('fixed', d.fixed),
    ...list('still failing', d.stillFailing),
    ...list('newly not checked', d.newlyNotChecked),
    ...list('newly checked', d.newlyChecked),
  ];
  return ['### Against the baseline', '', ...(body.length === 0 ? ['No change of any clause status.'] : body)];
}

/** One table cell: no line breaks, no pipe that would split the row, bounded length. */
function cell(s: string): string {
  const one = s.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
  return one.length > 300 ? `${one.slice(0, 297)}...` : one;
}
