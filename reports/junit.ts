/**
 * JUnit XML, the format every CI understands. One <testsuite> per area, one <testcase> per clause.
 * JUnit has no "expected failure": a known failure is reported as skipped (with its counterexample in
 * system-out) so CI turns red only on regressions, the same rule as the run's verdict.
 */
import type { ClauseResult, RunResult } from '../runner/results.ts';
import { groupByArea, type Area, type FamilyOf } from './areas.ts';
import { counterexampleText, oneLine } from './counterexample-text.ts';
import { xmlAttr, xmlText } from './escape.ts';
import { junitOutcome, type JUnitOutcome } from '../runner/verdicts.ts';
import { targetText } from './run-identity.ts';

export function toJUnitXml(run: RunResult, familyOf: FamilyOf): string {
  const areas = groupByArea(run.clauses, familyOf);
  const all = tally(run.clauses);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="svc-conformance" tests="${all.tests}" failures="${all.failures}" errors="${all.errors + run.errors.length}" skipped="${all.skipped}" time="${seconds(run.durationMs)}" timestamp="${xmlAttr(run.startedAt)}">`,
  ];
  areas.forEach((area, i) => out.push(...suite(area, i, run)));
  // Infrastructure errors outside any clause still have to surface in CI, so they get a suite of their own.
  if (run.errors.length > 0) out.push(...infrastructureSuite(run, areas.length));
  out.push('</testsuites>', '');
  return out.join('\n');
}

interface Tally {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function tally(clauses: readonly ClauseResult[]): Tally {
  const t = { tests: clauses.length, failures: 0, errors: 0, skipped: 0 };
  for (const c of clauses) {
    const kind = outcome(c);
    if (kind === 'failure') t.failures += 1;
    else if (kind === 'error') t.errors += 1;
    else if (kind === 'skipped') t.skipped += 1;
  }
  return t;
}

function outcome(c: ClauseResult): JUnitOutcome {
  return junitOutcome(c.status, c.expectedFailure === true);
}

function suite(area: Area, index: number, run: RunResult): string[] {
  const t = tally(area.clauses);
  const lines = [
    `  <testsuite name="${xmlAttr(area.name)}" id="${index}" tests="${t.tests}" failures="${t.failures}" errors="${t.errors}" skipped="${t.skipped}" time="${seconds(area.clauses.reduce((s, c) => s + (c.timeMs ?? 0), 0))}" timestamp="${xmlAttr(run.startedAt)}">`,
    ...properties(run),
  ];
  for (const c of area.clauses) lines.push(...testcase(c, area.name));
  lines.push('  </testsuite>');
  return lines;
}

function properties(run: RunResult): string[] {
  const props: [string, string][] = [
    ['profile', run.profile],
    ['seed', String(run.seed)],
    ['verdict', run.verdict],
    ['version', run.version],
    ['server', run.target.server ?? ''],
    // What was tested: a green suite against the embedded server must not pass for one against a cluster.
    ['target', targetText(run.target)],
    ['target.kind', run.target.kind ?? ''],
    ['target.reportedVersion', run.target.reportedVersion ?? ''],
    ['nodeagentLoader', run.target.nodeagentLoader ?? ''],
  ];
  return [
    '    <properties>',
    ...props.map(([k, v]) => `      <property name="${xmlAttr(k)}" value="${xmlAttr(v)}"/>`),
    '    </properties>',
  ];
}

function testcase(c: ClauseResult, area: string): string[] {
  const open = `    <testcase classname="${xmlAttr(area)}" name="${xmlAttr(`${c.id} ${c.summary}`)}" time="${seconds(c.timeMs ?? 0)}"`;
  const body = childrenOf(c);
  if (body.length === 0) return [`${open}/>`];
  return [`${open}>`, ...body.map((l) => `      ${l}`), '    </testcase>'];
}

function childrenOf(c: ClauseResult): string[] {
  const notes = c.notes.join('\n');
  const details = [
    `${c.id}: ${c.summary}`,
    `checks: ${c.checks}`,
    ...c.counterexamples.map((cx, i) => `\n--- counterexample ${i + 1} of ${c.counterexamples.length} ---\n${counterexampleText(cx)}`),
  ].join('\n');
  switch (c.status) {
    case 'passed':
      return notes === '' ? [] : [element('system-out', notes)];
    case 'unspecified':
      // Passed for CI, but what the target did is the whole point of recording it.
      return [element('system-out', notes === '' ? 'unspecified by the spec; recorded, not judged' : notes)];
    case 'notChecked':
      return [`<skipped message="${xmlAttr(notes === '' ? 'not checked' : `not checked: ${oneLine(notes)}`)}"/>`];
    case 'skipped':
      return [`<skipped message="${xmlAttr(notes === '' ? 'skipped' : oneLine(notes))}"/>`];
    case 'notServed':
    case 'blocked':
      // The note names the feature: "not served: ..." or "blocked by ...".
      return [`<skipped message="${xmlAttr(notes === '' ? c.status : oneLine(notes))}"/>`];
    case 'informative':
      // Nothing a black-box test can judge: skipped for CI, with the catalog's reason.
      return [`<skipped message="${xmlAttr(`informative: ${oneLine(notes)}`)}"/>`];
    case 'inconclusive':
      // Not a pass: the target was asked, but nothing it did within the run's window decided the clause.
      return [`<skipped message="${xmlAttr(notes === '' ? 'inconclusive' : `inconclusive: ${oneLine(notes)}`)}"/>`];
    case 'error':
      return [
        `<error message="${xmlAttr(notes === '' ? 'infrastructure error' : oneLine(notes))}" type="infrastructure">${xmlText(notes)}</error>`,
      ];
    case 'failed': {
      const first = c.counterexamples[0];
      const message =
        first === undefined
          ? (c.notes.find((n) => n.startsWith('not served: ')) ?? c.notes[0] ?? 'failed')
          : `expected ${oneLine(first.expected)}; observed ${oneLine(first.observed)}`;
      if (c.expectedFailure === true) {
        return [`<skipped message="${xmlAttr(`known failure: ${message}`)}"/>`, element('system-out', `${notes}\n${details}`)];
      }
      const body = notes === '' ? details : `${details}\n\nnotes:\n${notes}`;
      return [`<failure message="${xmlAttr(message)}" type="nonconformance">${xmlText(body)}</failure>`];
    }
  }
}

function infrastructureSuite(run: RunResult, index: number): string[] {
  return [
    `  <testsuite name="infrastructure" id="${index}" tests="${run.errors.length}" failures="0" errors="${run.errors.length}" skipped="0" time="0.000" timestamp="${xmlAttr(run.startedAt)}">`,
    ...run.errors.map(
      (e, i) =>
        `    <testcase classname="infrastructure" name="${xmlAttr(`error ${i + 1}`)}" time="0.000"><error message="${xmlAttr(oneLine(e))}" type="infrastructure">${xmlText(e)}</error></testcase>`,
    ),
    '  </testsuite>',
  ];
}

function element(name: string, text: string): string {
  return `<${name}>${xmlText(text)}</${name}>`;
}

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}
