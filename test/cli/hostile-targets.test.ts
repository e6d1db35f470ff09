// Why (issue 32 items 1, 4, 5): a nightly run against a broken target must end with a report, never
// hang until the CI system kills it. Against each hostile fault of the embedded server a bounded run
// (the suites that meet the fault, --timeout 2m) must end within its budget plus one minute (the vitest limit below, not
// a wall-clock assertion), write summary.json, summary.md and the HTML page, never call the target
// conformant, report the clause the fault breaks failed or inconclusive where it breaks one, and name
// what it could not clean up. A watch fault must be reported within two minutes of the run's start.
import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostileFaults } from '../../targets/api-server/hostile-faults.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/svc-conformance.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-hostile-'));
const BUDGET_MS = 2 * 60_000;
/**
 * What each run selects: the suites that meet the fault first, enough to see it and short enough for six
 * runs at once on two cores. Where the fault leaves an eventual effect undecided (a namespace that never
 * goes, a stream that never speaks) every case waits out the eventual window, stretched up to 8x on a
 * busy machine: those runs name a shorter window (--eventual-window, the documented knob for it).
 */
const SELECT: Record<string, readonly string[]> = {
  'never-delete': ['--suite', 'rest-crud', '--suite', 'rest-deletion'],
  'namespace-never-finalizes': ['--check', 'names-and-scope', '--eventual-window', '2s'],
  'hold-connections': ['--suite', 'rest-crud'],
  'trickle-body': ['--suite', 'rest-crud'],
  'silent-watch': ['--check', 'watch-cell-unset', '--check', 'watch-cell-other', '--check', 'watch-resume', '--eventual-window', '2s'],
  'write-201-not-stored': ['--suite', 'rest-crud'],
};

interface Summary {
  verdict: string;
  errors: string[];
  leftovers?: { kind: string; name: string }[];
  clauses: { id: string; status: string; notes: string[] }[];
}

function runCli(args: readonly string[]): { child: ChildProcess; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [bin, 'run', ...args], { env: { ...process.env, KUBECONFIG: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return { child, stderr: () => stderr, exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
}

const summaryOf = (reports: string) => JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as Summary;

describe.concurrent('hostile targets end with a report', () => {
  it.each(hostileFaults.map((f) => [f.name, f] as const))(
    '%s',
    async (name, fault) => {
      const reports = path.join(dir, name);
      const run = runCli([...(SELECT[name] ?? ['--suite', 'rest-crud']), '--runs', '5', '--timeout', `${BUDGET_MS / 1000}s`, '--fault', name, '--reports', reports]);
      const code = await run.exited;
      // A silent stream breaks no bound the spec fixes (rest:6.1 gives delivery none): its clauses are
      // inconclusive and the run, which could not test delivery, is notTested (3). Every other fault: 1
      // nonconformant, or 3 the run could not finish or left something behind; never 0, never a crash.
      const unbounded = name === 'silent-watch';
      expect([1, 3], run.stderr()).toContain(code);
      for (const f of ['summary.json', 'summary.md', 'index.html']) expect(existsSync(path.join(reports, f)), f).toBe(true);
      const s = summaryOf(reports);
      expect(s.verdict).not.toBe('conformant');
      if (unbounded) expect(s.verdict).toBe('notTested');
      if (fault.clauses.length > 0) {
        const judged = s.clauses.filter((c) => (fault.clauses as readonly string[]).includes(c.id));
        // An inconclusive case of a clause other cases passed shows as a note of the passed clause.
        const hit = judged.filter((c) => c.status === 'failed' || c.status === 'inconclusive' || (!unbounded && c.notes.some((n) => /still readable after|stopped short|may still come/.test(n))));
        expect(
          hit.map((c) => c.id),
          JSON.stringify(judged.map((c) => [c.id, c.status])),
        ).not.toEqual([]);
      } else {
        // A transport fault breaks no clause: the run says what it could not do. `error` when a check
        // ended on the transport before the budget ran out, `notTested` when too few did (a busy
        // machine: the preflight alone waits out one request bound); either way with its reasons.
        expect(['error', 'notTested']).toContain(s.verdict);
        // The reasons are the run's (a budget line, a check that threw, a cleanup that failed) or, when
        // every check ended on the transport inside the budget, each errored clause's own notes.
        const errored = s.clauses.filter((c) => c.status === 'error');
        const reasoned = s.errors.length > 0 || (errored.length > 0 && errored.every((c) => c.notes.length > 0));
        expect(reasoned, JSON.stringify({ errors: s.errors, errored: errored.map((c) => [c.id, c.notes.slice(0, 1)]) })).toBe(true);
      }
      // What the run could not remove is listed by name (summary.json and the terminal), or nothing is left.
      expect(Array.isArray(s.leftovers)).toBe(true);
      for (const l of s.leftovers ?? []) expect(run.stderr()).toContain(l.name);
    },
    BUDGET_MS + 60_000,
  );
});

/**
 * The bar: a *default* run (every suite) against each hostile fault ends within its --timeout
 * plus one minute with its three reports, never conformant, naming what it left behind. A short
 * --timeout keeps the six (at once) affordable: 40-75 s each on a loaded two-core machine.
 */
const DEFAULT_RUN_TIMEOUT_MS = 30_000;

describe.concurrent('a default run against each hostile fault ends within --timeout plus one minute', () => {
  it.each(hostileFaults.map((f) => f.name))(
    '%s',
    async (name) => {
      const reports = path.join(dir, `default-${name}`);
      const run = runCli(['--timeout', `${DEFAULT_RUN_TIMEOUT_MS / 1000}s`, '--fault', name, '--reports', reports]);
      const code = await run.exited;
      // 3: stopped by its budget, or could not test; 1: a failure found within it. Never 0, never a crash.
      expect([1, 3], run.stderr()).toContain(code);
      for (const f of ['summary.json', 'summary.md', 'index.html']) expect(existsSync(path.join(reports, f)), f).toBe(true);
      const s = summaryOf(reports);
      expect(s.verdict).not.toBe('conformant');
      expect(Array.isArray(s.leftovers)).toBe(true);
      for (const l of s.leftovers ?? []) expect(run.stderr()).toContain(l.name);
    },
    DEFAULT_RUN_TIMEOUT_MS + 60_000,
  );

  it(
    'a controller daemon that never gets ready: its clauses inconclusive, no error, the run not tested',
    async () => {
      const never = path.join(dir, 'never-ready.mjs');
      writeFileSync(never, 'setInterval(() => {}, 1000);\n');
      const reports = path.join(dir, 'daemon-never-ready');
      const run = runCli(['--suite', 'controller-daemon', '--controller-daemon', `${process.execPath} ${never}`, '--daemon-start-timeout', '2s', '--timeout', '60s', '--reports', reports]);
      const code = await run.exited;
      expect(code, run.stderr()).toBe(3);
      const s = summaryOf(reports);
      expect(s.verdict).toBe('notTested');
      expect(s.clauses.filter((c) => c.status === 'error').map((c) => c.id)).toEqual([]);
      const undecided = s.clauses.filter((c) => c.status === 'inconclusive');
      expect(undecided.length).toBeGreaterThan(0);
      expect(undecided[0]!.notes.join(' ')).toMatch(/the daemon (neither exited nor served \/healthz|had not exited) within the \d+ ms the suite waited/);
    },
    60_000 + 60_000,
  );
});

describe('a watch fault is reported within two minutes', () => {
  let run: ReturnType<typeof runCli> | undefined;
  const reports = path.join(dir, 'watch-drop-events');

  it('the failure is told as soon as it is found', async () => {
    run = runCli(['--suite', 'rest-watch', '--fault', 'watch-drop-events', '--reports', reports]);
    const started = run;
    // Woken by each line the run writes (no polling); a run that ends without telling fails here at once.
    const told = () => /failure found \(rest:6\.1\.1/.test(started.stderr());
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!told()) return;
        started.child.stderr!.off('data', check);
        resolve();
      };
      started.child.stderr!.on('data', check);
      void started.exited.then((code) => (told() ? resolve() : reject(new Error(`the run ended (${code}) without telling the failure:\n${started.stderr()}`))));
      check();
    });
  }, 120_000);

  it('the run ends with rest:6.1.1 failed in its reports', async () => {
    if (!run) throw new Error('the run of the previous test did not start');
    const code = await run.exited;
    expect(code, run.stderr()).toBe(1);
    const s = summaryOf(reports);
    expect(s.clauses.find((c) => c.id === 'rest:6.1.1')?.status).toBe('failed');
    // The whole run (shrinking within its budget, confirmation) took 72-101 s alone on two cores; the
    // limit leaves room for a machine shared with other runs.
  }, 180_000);
});
