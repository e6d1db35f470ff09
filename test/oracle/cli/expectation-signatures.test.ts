// Why: a target built on upstream that fails a clause the upstream expectations file
// lists, but in its own way, must see its bug as a regression; one that fails it the way upstream does
// must not. Planted faults of the embedded server stand in for both targets.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SummaryJson } from '../../../reports/summary-json.ts';
import { Ajv } from 'ajv';
import { summaryJsonSchema } from '../../../reports/summary-schema.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(root, 'bin', 'svc-conformance.mjs');
const upstream = path.join(root, 'expectations', 'upstream-kube-apiserver.yaml');

function runWith(args: string[]): { status: number | null; stdout: string; stderr: string; summary: SummaryJson } {
  const dir = mkdtempSync(path.join(tmpdir(), 'signatures-'));
  const r = spawnSync(process.execPath, [bin, 'run', '--expectations', upstream, '--reports', dir, ...args], {
    encoding: 'utf8',
    timeout: 240_000,
    cwd: root,
  });
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    summary: JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as SummaryJson,
  };
}

const clause = (s: SummaryJson, id: string) => s.clauses.find((c) => c.id === id)!;

describe('the upstream expectations against planted faults', () => {
  it('a bare ?dryRun refused with 400 (upstream: 422 Invalid) fails the run: a regression of a listed clause', () => {
    const r = runWith(['--check', 'dry-run-sequences', '--fault', 'dry-run-rejects-bare-flag', '--seed', '3', '--runs', '10']);
    expect(r.status, r.stderr).toBe(1);
    const c = clause(r.summary, 'rest:4.6.1');
    expect(c).toMatchObject({ status: 'failed', expectedFailure: false, expectation: { regression: true } });
    expect(c.counterexamples[0]).toMatchObject({ class: 'bare-dryrun-refused', observedStatus: 400 });
    expect(c.expectation!.unexcused[0]).toContain('not status 400');
    expect(r.stdout).toContain('listed:   the expectations file excuses only class bare-dryrun-refused, status 422, reason Invalid');
    // The published schema holds for a summary with expectation outcomes and tagged counterexamples.
    const validate = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true })
      .addFormat('date-time', true)
      .compile(summaryJsonSchema);
    expect(validate(r.summary), JSON.stringify(validate.errors)).toBe(true);
  }, 300_000);

  it('managedFields [] resetting ownership as upstream does is the known failure: the run stays conformant', () => {
    const r = runWith(['--check', 'apply-points', '--fault', 'managed-fields-empty-list-resets', '--seed', '3']);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const c = clause(r.summary, 'rest:4.7.5');
    expect(c).toMatchObject({ status: 'failed', expectedFailure: true, expectation: { regression: false } });
    expect(c.expectation!.entries.find((e) => e.outcome === 'excused')!.excuses).toBe('class empty-managed-fields-resets');
    // The other rest:4.7.5 entry is never excused here (the embedded server keeps the writer's ownership on a
    // reset with changes): gone if a case sent one before the [] point ended it, else not exercised, said so.
    const other = c.expectation!.entries.find((e) => e.excuses === 'class reset-with-changes-unowned')!;
    expect(other.outcome === 'noLongerOccurs' ? other.detail : `${other.outcome}: ${other.detail}`).toMatch(
      /^the run sent a non-apply write whose managedFields is \[\{\}\] together with other changes \(\d+ answers?\)|^notExercised: .*the run sent no non-apply write whose managedFields is \[\{\}\] together with other changes$/,
    );
  }, 300_000);

  it('a run of one suite gives no advice to remove entries of other suites', () => {
    const r = runWith(['--suite', 'rest-health', '--seed', '3', '--runs', '2']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/no longer occurring|remove from the expectations file/i);
    expect(r.stdout).toMatch(/Listed but not exercised in this run/);
    const listed = r.summary.clauses.filter((c) => c.expectation !== undefined);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((c) => c.expectation!.entries.every((e) => e.outcome === 'notExercised'))).toBe(true);
  }, 300_000);
});
