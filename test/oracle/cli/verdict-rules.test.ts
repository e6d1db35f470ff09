// Why: a failure found is a failure reported. Against a planted health fault, a
// run of one suite that finds and confirms a failure exits 1, not 3 ("not tested"), and the health check
// goes on past the failure: healthz, livez and readyz are judged on the same answers, and the clauses it
// could not reach name the failure that stopped it. A run that times out after a failure exits 1 and
// says it is incomplete. The clean runs beside them show the same selection passes on a good target.
// A watch that sends its types in lower case is reported at once, not after every settle window.
// The rows of docs/verdict-rules.md are checked one by one in test/unit/runner/run-verdict.test.ts.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { profiles } from '../../../reference/profile.ts';
import type { FaultName } from '../../../targets/api-server/index.ts';
import { referenceBehindProxy } from './target-proxy.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-verdict-'));

interface Summary {
  verdict: string;
  verdictLine: string;
  incomplete?: { because: string[]; lines: string[] };
  notTested?: string[];
  clauses: { id: string; status: string; notes: string[]; counterexamples: { observed: string; confirmation?: { label: string } }[] }[];
}

/**
 * An upper limit for a hang of one spawned run, not a speed claim: the one-case replay's three runs
 * took 45 s of vitest's default 60 at a load of 6.
 */
const RUN_HANG_MS = 120_000;

function run(name: string, args: string[]): { status: number | null; stdout: string; stderr: string; summary: Summary } {
  const reports = path.join(dir, name);
  const r = spawnSync(process.execPath, [bin, 'run', '--seed', '7', '--reports', reports, ...args], {
    encoding: 'utf8',
    timeout: RUN_HANG_MS,
    env: { ...process.env, KUBECONFIG: '' },
  });
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    summary: JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as Summary,
  };
}

/** `run`, asynchronously, with the time each line of its output arrived (stdout and stderr interleaved as they came). */
async function runTimed(
  name: string,
  args: string[],
): Promise<{
  status: number | null;
  output: string;
  all: string;
  stdout: string;
  lines: { atMs: number; text: string }[];
  summary: Summary;
}> {
  const reports = path.join(dir, name);
  const child = spawn(process.execPath, [bin, 'run', '--seed', '7', '--reports', reports, ...args], {
    env: { ...process.env, KUBECONFIG: '' },
  });
  const lines: { atMs: number; text: string }[] = [];
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream }).on('line', (text) => lines.push({ atMs: Date.now(), text }));
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    status,
    output: lines
      .map((l) => l.text)
      .join('\n')
      .slice(-4000),
    all: lines.map((l) => l.text).join('\n'),
    stdout,
    lines,
    summary: JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as Summary,
  };
}

/** The stalled runs' budget: far above what the health check needs on a loaded machine. */
const STALLED_BUDGET = '30s';
/** An upper limit for a hang of a stalled run: its budget, its stop's bound (13 s), its start and reports under load. */
const STALLED_HANG_MS = 180_000;

/**
 * health-endpoints and watch-bookmarks against a served reference server (with `faults`) whose proxy
 * never answers a watch asking for bookmarks: watch-bookmarks cannot end before the budget, however
 * fast or slow the machine, and is cut by it.
 */
async function runStalled(name: string, faults: readonly FaultName[]) {
  const served = await referenceBehindProxy(profiles.svc, faults);
  served.proxy.mode = 'hold-bookmark-watches';
  try {
    const r = await runTimed(name, [
      '--server',
      served.proxy.url,
      '--check',
      'health-endpoints',
      '--check',
      'watch-bookmarks',
      '--timeout',
      STALLED_BUDGET,
    ]);
    // The stall was the target's, not a slow machine's.
    expect(served.proxy.held, r.output).toBeGreaterThan(0);
    return r;
  } finally {
    await served.close();
  }
}

const status = (s: Summary, id: string) => s.clauses.find((c) => c.id === id)?.status;
const HEALTH = ['rest:4.2/healthz', 'rest:4.2/livez', 'rest:4.2/readyz', 'rest:4.2.1'];

describe('a failure found is a failure reported', () => {
  it(
    'one suite, a confirmed failure: exit 1, the other clauses of the same answers judged, the unreached ones naming the failure',
    () => {
      const r = run('health-fault', ['--suite', 'rest-health', '--fault', 'health-verbose-unmarked']);
      expect(r.status, r.stderr).toBe(1);
      expect(r.summary.verdict).toBe('nonconformant');
      const verbose = r.summary.clauses.find((c) => c.id === 'rest:4.2/verbose')!;
      expect(verbose.status).toBe('failed');
      expect(verbose.counterexamples[0]?.confirmation?.label).toBe('reproduces alone');
      for (const id of HEALTH) expect(status(r.summary, id), id).toBe('passed');
      // Names are learned from verbose lines the fault leaves unmarked: the single-check clauses stay unreached, and say why.
      const single = r.summary.clauses.find((c) => c.id === 'rest:4.2.2')!;
      expect(single.status).toBe('notChecked');
      expect(single.notes[0]).toMatch(
        /^not reached: health-endpoints failed rest:4.2\/verbose, and \d+ of its \d+ later cases stopped at that failure/,
      );
      expect(r.summary.verdictLine).toMatch(/^nonconformant: 1 failure, \d+ clauses judged/);
      expect(r.stdout).toMatch(/Verdict: nonconformant: 1 failure, \d+ clauses judged/);
    },
    RUN_HANG_MS,
  );

  it(
    'the same suite on the clean target is conformant, with every clause above passed',
    () => {
      const r = run('health-clean', ['--suite', 'rest-health']);
      expect(r.status, r.stderr).toBe(0);
      for (const id of [...HEALTH, 'rest:4.2/verbose', 'rest:4.2.2']) expect(status(r.summary, id), id).toBe('passed');
    },
    RUN_HANG_MS,
  );

  it(
    'a run that times out after a failure: exit 1, and the verdict says it is incomplete',
    async () => {
      // The target holds watch-bookmarks' watch for good, so the budget always cuts it; the health check
      // (no watch) fails well within a budget a loaded machine cannot eat up (3 s against the
      // check's own waits was a race, lost at a load of 25).
      const r = await runStalled('timeout-fault', ['health-verbose-unmarked']);
      expect(r.status, r.output).toBe(1);
      expect(r.all).toMatch(/run timeout after \d+ s/);
      expect(r.summary.verdict).toBe('nonconformant');
      expect(r.summary.incomplete?.because).toContain('timed out');
      expect(r.summary.verdictLine).toMatch(/^nonconformant: 1 failure, \d+ clauses judged; incomplete: timed out/);
      expect(r.stdout).toMatch(/Incomplete \(timed out\):\n {2}run timeout after/);
    },
    STALLED_HANG_MS,
  );

  it(
    'the same timeout without the fault is not conformant either (exit 3): the timeout only replaces "conformant"',
    async () => {
      const r = await runStalled('timeout-clean', []);
      expect(r.status, r.output).toBe(3);
      expect(r.summary.verdict).toBe('error');
      expect(r.summary.incomplete).toBeUndefined();
    },
    STALLED_HANG_MS,
  );

  it('a watch whose event types are lower case is reported without waiting out every settle window, on its envelope clause; confirmation keeps its announced bound', async () => {
    // Before the suite stopped waiting on unreadable streams, each case waited out its settle windows,
    // and a confirmation announced as "at most 325 s" ran for over six minutes. The run is a few
    // CPU-seconds: at a load of 30 on two cores it took over two minutes, so the limit is for that
    // hang (over six minutes), not a speed claim; the confirmation's own bound is measured below.
    const t0 = Date.now();
    const r = await runTimed('watch-lowercase', ['--suite', 'rest-watch', '--fault', 'watch-lowercase-types']);
    expect(Date.now() - t0).toBeLessThan(300_000);
    expect(r.status, r.output).toBe(1);
    const envelope = r.summary.clauses.find((c) => c.id === 'rest:2.5/watch-event')!;
    expect(envelope.status).toBe('failed');
    expect(envelope.counterexamples[0]).toMatchObject({
      observed: expect.stringContaining('an event of type "added" (the spec spells it "ADDED")'),
    });
    // Measured on the run's own lines: from the announcement to the first line after the confirmations.
    const start = r.lines.findIndex((l) => /confirming failures \(\d+ replays each, at most \d+ s\)/.test(l.text));
    expect(start, r.output).toBeGreaterThanOrEqual(0);
    const boundMs = Number(/at most (\d+) s/.exec(r.lines[start]!.text)![1]) * 1000;
    const after = r.lines.slice(start + 1).find((l) => !/(?:not )?confirmed /.test(l.text));
    expect(after, r.output).toBeDefined();
    // One second of slack: the announcement rounds the bound to whole seconds, and lines reach this process through a pipe.
    expect(after!.atMs - r.lines[start]!.atMs).toBeLessThanOrEqual(boundMs + 1000);
    expect(r.lines.filter((l) => /confirmed rest:2\.5\/watch-event/.test(l.text)).length).toBeGreaterThan(0);
  }, 330_000);

  it(
    'a one-case replay whose failure the expectations file excuses judged too little: not tested (exit 3), not conformant',
    () => {
      const excuses = path.join(dir, 'verbose-known.yaml');
      writeFileSync(
        excuses,
        "knownFailures:\n  - clause: rest:4.2/verbose\n    observed: { message: '0 check lines' }\n    reason: the verbose lines lack their marker\n",
      );
      const replay = ['--check', 'health-endpoints', '--path', '0', '--fault', 'health-verbose-unmarked'];
      const excused = run('replay-excused', [...replay, '--expectations', excuses]);
      expect(excused.status, excused.stderr).toBe(3);
      expect(excused.summary.verdict).toBe('notTested');
      expect(excused.summary.notTested?.[0]).toMatch(/^not tested: the API checks that ran judged \d+% of their own clauses on average/);
      // With --continue-past-failures the case goes on past the excused failure: what it then judges
      // counts, the excused clause never does.
      const goingOn = run('replay-excused-going-on', [...replay, '--expectations', excuses, '--continue-past-failures']);
      expect(goingOn.status, goingOn.stderr).toBe(0);
      expect(goingOn.summary.clauses.find((c) => c.id === 'rest:4.2/verbose')?.status).toBe('failed');
      const judged = goingOn.summary.clauses.filter((c) => c.status === 'passed' || c.status === 'unspecified').length;
      expect(goingOn.summary.verdictLine).toBe(`conformant: ${judged} clauses judged`);
      // Without the entry the same replay reports its failure.
      const reported = run('replay', replay);
      expect(reported.status, reported.stderr).toBe(1);
      expect(reported.summary.verdictLine).toMatch(/^nonconformant: 1 failure, \d+ clauses? judged/);
    },
    3 * RUN_HANG_MS,
  );
});
