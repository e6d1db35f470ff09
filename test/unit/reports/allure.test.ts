// Why: the run writes its Allure results from its own records (no test runner in between): one test per
// check named by its id and title, its clauses as labels, a failure's curl transcript attached, and the
// status its worst record decides.
import { describe, expect, it } from 'vitest';
import { allureFiles } from '../../../reports/allure.ts';
import type { CheckRecord } from '../../../runner/results.ts';
import { emptyFootprint } from '../../../harness/case/footprint.ts';

const checks = [
  { id: 'a', suite: 'rest-crud', title: 'create then read', clauses: ['rest:2.2.1', 'rest:2.2.2'] },
  { id: 'b', suite: 'rest-health', title: 'health endpoints', clauses: ['rest:4.2/exclude'] },
  { id: 'c', suite: 'rest-authz', title: 'authz', clauses: ['rest:5.1'] },
];
const cx = {
  check: 'b',
  clause: 'rest:4.2/exclude',
  expected: 'excluded',
  observed: 'ok',
  steps: ['GET /readyz?exclude=x'],
  curl: 'curl -s /readyz?exclude=x',
  requestCount: 1,
  seed: 11,
  path: '2',
  replay: 'npx svc-conformance run --check b --seed 11 --path 2',
  answers: [],
};
const records = [
  { clause: 'rest:2.2.1', check: 'a', verdict: 'pass', count: 3 },
  { clause: 'rest:2.2.2', check: 'a', verdict: 'unspecified', count: 1, note: 'n' },
  { clause: 'rest:4.2/exclude', check: 'b', verdict: 'fail', count: 1, counterexample: cx },
  { clause: 'rest:5.1', check: 'c', verdict: 'notChecked', count: 0, note: 'no restricted identity' },
] as unknown as CheckRecord[];

describe('Allure results from the records', () => {
  const files = allureFiles({
    checks,
    records,
    footprints: [{ ...emptyFootprint('a'), wallMs: 40 }],
    seed: 11,
    profile: 'svc',
    startedAt: 1_000,
  });
  const results = files
    .filter((f) => f.name.endsWith('-result.json'))
    .map(
      (f) =>
        JSON.parse(f.content) as {
          name: string;
          status: string;
          labels: { name: string; value: string }[];
          parameters: { name: string; value: string }[];
          steps: { name: string; attachments: { source: string }[] }[];
          start: number;
          stop: number;
        },
    );

  it('one test per check, named by id and title, clauses as labels (not in the name)', () => {
    expect(results.map((r) => r.name)).toEqual(['a: create then read', 'b: health endpoints', 'c: authz']);
    expect(results[0]!.labels.filter((l) => l.name === 'clause').map((l) => l.value)).toEqual(['rest:2.2.1', 'rest:2.2.2']);
    expect(results[0]!.labels).toContainEqual({ name: 'suite', value: 'rest-crud' });
    expect(results[0]!.parameters).toContainEqual({ name: 'seed', value: '11' });
    expect(results[0]!.stop - results[0]!.start).toBe(40);
  });

  it('a check whose every failure the expectations file excuses is skipped as a known failure, never failed (as in JUnit)', () => {
    const excused = allureFiles({
      checks,
      records,
      footprints: [],
      seed: 11,
      profile: 'svc',
      startedAt: 1_000,
      known: (r) => r.clause === 'rest:4.2/exclude',
    });
    const b = excused
      .filter((f) => f.name.endsWith('-result.json'))
      .map((f) => JSON.parse(f.content) as { name: string; status: string; statusDetails: { message: string } })[1]!;
    expect(b).toMatchObject({ name: 'b: health endpoints', status: 'skipped' });
    expect(b.statusDetails.message).toMatch(/^known failure \(expectations file\): rest:4\.2\/exclude: expected excluded; observed ok$/);
  });

  it('status: a failure fails the check, nothing judged skips it, passes and unspecified pass', () => {
    expect(results.map((r) => r.status)).toEqual(['passed', 'failed', 'skipped']);
  });

  it("attaches a failure's curl transcript and shrunk steps", () => {
    const step = results[1]!.steps.find((s) => s.name === 'rest:4.2/exclude curl transcript')!;
    expect(files.find((f) => f.name === step.attachments[0]!.source)?.content).toBe(cx.curl);
    expect(results[1]!.steps.map((s) => s.name)).toEqual(['rest:4.2/exclude curl transcript', 'rest:4.2/exclude shrunk steps']);
  });

  it('the same run writes the same file names', () => {
    expect(allureFiles({ checks, records, footprints: [], seed: 11, profile: 'svc', startedAt: 1_000 }).map((f) => f.name)).toEqual(
      files.map((f) => f.name),
    );
  });
});
