// Why: before a failure is reported it is replayed alone, then beside background
// writes; the label must say `reproduces alone` only when every replay alone failed the same clause
// again, `needs concurrent writes` only when none alone and every one beside writes did, and the time
// bound must leave the rest `not confirmed (time)` rather than guess.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  confirmationBudgetMs,
  confirmFailures,
  unconfirmed,
  type ConfirmOptions,
  type ReplayMode,
} from '../../../runner/confirm-failures.ts';
import { confirmationLabel } from '../../../reports/confirmation.ts';
import type { CheckRecord } from '../../../runner/results.ts';
import { Ajv } from 'ajv';
import { summaryJsonSchema } from '../../../reports/summary-schema.ts';

const failing = (clause: string, pathText?: string, observed = 'o') =>
  ({
    clause,
    check: 'c',
    verdict: 'fail',
    count: 1,
    counterexample: {
      check: 'c',
      clause,
      expected: 'e',
      observed,
      steps: [],
      curl: '',
      requestCount: 1,
      seed: 1,
      replay: 'r',
      ...(pathText ? { path: pathText } : {}),
    },
  }) as unknown as CheckRecord;

/** Options with a clock that never runs out unless a test moves it. */
const options = (replay: ConfirmOptions['replay'], over: Partial<ConfirmOptions> = {}): ConfirmOptions => ({
  times: 2,
  deadline: 1,
  now: () => 0,
  replay,
  log: () => undefined,
  ...over,
});

const confirm = async (replay: (mode: ReplayMode, n: number) => CheckRecord[], over: Partial<ConfirmOptions> = {}) => {
  const calls: ReplayMode[] = [];
  const [r] = await confirmFailures(
    [failing('rest:4.4.3', '0:1')],
    options(async (_c, _cx, mode) => {
      calls.push(mode);
      return replay(mode, calls.filter((m) => m === mode).length);
    }, over),
  );
  return { c: r!.counterexample!, calls };
};

describe('confirmFailures', () => {
  it("reproduces alone: every replay alone fails the same clause; the replay's counterexample is shown", async () => {
    const { c, calls } = await confirm(() => [failing('rest:4.4.3', '0:1', 'from the replay')]);
    expect(c.confirmation).toEqual({ label: 'reproduces alone', runs: 2, reproduced: 2 });
    expect(calls).toEqual(['alone', 'alone']);
    expect(c.observed).toBe('from the replay');
    expect(confirmationLabel(c.confirmation!)).toBe('reproduces alone (2/2 replays alone failed again)');
  });

  it('flaky: some replays alone fail it; another clause failing is not the same failure', async () => {
    const { c, calls } = await confirm((_m, n) => [failing(n === 1 ? 'rest:4.4.3' : 'rest:4.4.6')]);
    expect(c.confirmation).toEqual({ label: 'flaky', runs: 2, reproduced: 1 });
    expect(calls).toEqual(['alone', 'alone']);
    expect(c.observed).toBe('o');
  });

  it('needs concurrent writes: never alone, every time beside background writes', async () => {
    const { c, calls } = await confirm((mode) => (mode === 'writes' ? [failing('rest:4.4.3', '0:1', 'with writes')] : []));
    expect(c.confirmation).toEqual({ label: 'needs concurrent writes', runs: 2, reproduced: 0, withWrites: { runs: 2, reproduced: 2 } });
    expect(calls).toEqual(['alone', 'alone', 'writes', 'writes']);
    expect(c.observed).toBe('with writes');
    expect(confirmationLabel(c.confirmation!)).toBe(
      'needs concurrent writes (0/2 replays alone, 2/2 beside background writes failed again)',
    );
  });

  it('not reproduced when no replay fails it; flaky when only some beside writes do', async () => {
    expect((await confirm(() => [])).c.confirmation!.label).toBe('not reproduced');
    expect((await confirm((mode, n) => (mode === 'writes' && n === 2 ? [failing('rest:4.4.3')] : []))).c.confirmation!.label).toBe('flaky');
  });

  it('the time bound: no replay starts after it, and what was left undecided says so', async () => {
    let t = 0;
    // The clock passes the deadline after the first replay alone.
    const { c, calls } = await confirm(
      () => {
        t = 10;
        return [failing('rest:4.4.3')];
      },
      { now: () => t, deadline: 5 },
    );
    expect(calls).toEqual(['alone']);
    expect(c.confirmation).toEqual({ label: 'not confirmed (time)', runs: 1, reproduced: 1 });
    // Two replays that already disagree are flaky whatever time is left.
    let u = 0;
    const mixed = await confirm(
      (_m, n) => {
        u = n;
        return n === 1 ? [failing('rest:4.4.3')] : [];
      },
      { now: () => (u >= 2 ? 10 : 0), deadline: 5, times: 3 },
    );
    expect(mixed.c.confirmation!.label).toBe('flaky');
  });

  it('one case failing several clauses is replayed once for all of them', async () => {
    let replays = 0;
    const out = await confirmFailures(
      [failing('rest:4.4.3', '0:1'), failing('rest:4.4.6', '0:1')],
      options(async () => {
        replays++;
        return [failing('rest:4.4.3'), failing('rest:4.4.6')];
      }),
    );
    expect(replays).toBe(2);
    expect(out.map((r) => r.counterexample!.confirmation!.label)).toEqual(['reproduces alone', 'reproduces alone']);
  });

  it('known failures, failures without a path, and --no-confirm are labelled without a replay', async () => {
    const never = async (): Promise<CheckRecord[]> => {
      throw new Error('not replayed');
    };
    const [known, pathless] = await confirmFailures(
      [failing('rest:4.4.3', '0:1'), failing('rest:4.4.6')],
      options(never, { known: (r) => r.clause === 'rest:4.4.3' }),
    );
    expect(known!.counterexample!.confirmation!.label).toBe('not confirmed (known failure)');
    expect(pathless!.counterexample!.confirmation!.label).toBe('not confirmed (no replay path)');
    expect(unconfirmed([failing('rest:4.4.3', '0:1')])[0]!.counterexample!.confirmation!.label).toBe('not confirmed (off)');
  });

  it('the default time bound follows the run: its own duration, at least a minute and two eventual windows', () => {
    expect(confirmationBudgetMs(10_000, 5_000)).toBe(60_000);
    expect(confirmationBudgetMs(10_000, 60_000)).toBe(120_000);
    expect(confirmationBudgetMs(600_000, 60_000)).toBe(600_000);
  });
});

const bin = path.resolve(import.meta.dirname, '../../../bin/svc-conformance.mjs');
const cli = (args: readonly string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 240_000 });
const summaryOf = (dir: string) =>
  JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as {
    clauses: { status: string; counterexamples: { replay: string; steps: string[]; curl: string; confirmation?: { label: string } }[] }[];
  };
/** The printed replay, run with this checkout's CLI: `npx svc-conformance run ...` -> its arguments. */
const replayArgs = (replay: string, dir: string) => [...replay.replace(/^npx svc-conformance /, '').split(' '), '--reports', dir];

describe('run confirms failures by default', () => {
  it('a fault that reproduces alone is labelled so in summary.json and summary.md, and its printed replay exits 1', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'confirm-'));
    const r = cli(['run', '--check', 'paging-snapshot', '--fault', 'page-rv-drift', '--seed', '7', '--runs', '20', '--reports', dir]);
    expect(r.status, r.stderr).toBe(1);
    const summary = summaryOf(dir);
    const cx = summary.clauses.filter((c) => c.status === 'failed')[0]!.counterexamples[0]!;
    expect(cx.confirmation).toEqual({ label: 'reproduces alone', runs: 2, reproduced: 2 });
    expect(readFileSync(path.join(dir, 'summary.md'), 'utf8')).toContain('reproduces alone (2/2 replays alone failed again)');
    expect(r.stdout).toContain('replayed: reproduces alone');
    // The published schema of summary.json holds for a real one (a failure, its confirmation, footprint, coverage).
    const validate = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true })
      .addFormat('date-time', true)
      .compile(summaryJsonSchema);
    expect(validate(summary), JSON.stringify(validate.errors)).toBe(true);
    expect(summary).toHaveProperty('footprint');
    const again = cli([...replayArgs(cx.replay, mkdtempSync(path.join(tmpdir(), 'replay-'))), '--no-confirm']);
    expect(again.status, again.stderr).toBe(1);
  }, 300_000);

  it('a failure that needs writes between two pages is labelled needs concurrent writes, carries them, and its printed replay exits 1', () => {
    // --background-writes makes the main run fail deterministically where other checks' writes would
    // have made it fail by chance; alone the case passes (the page-rv-drift example).
    const dir = mkdtempSync(path.join(tmpdir(), 'confirm-'));
    const r = cli([
      'run',
      '--check',
      'rv-cell-list-unset-limit-unset',
      '--fault',
      'page-rv-drift',
      '--seed',
      '5',
      '--background-writes',
      '--reports',
      dir,
    ]);
    expect(r.status, r.stderr).toBe(1);
    const cx = summaryOf(dir).clauses.filter((c) => c.status === 'failed')[0]!.counterexamples[0]!;
    expect(cx.confirmation).toMatchObject({
      label: 'needs concurrent writes',
      runs: 2,
      reproduced: 0,
      withWrites: { runs: 2, reproduced: 2 },
    });
    expect(cx.replay).toContain('--background-writes');
    expect(cx.steps.some((s) => s.startsWith('background write '))).toBe(true);
    expect(cx.curl).toMatch(/configmaps\/bg'[^]*continue=/);
    const alone = cli([
      ...replayArgs(cx.replay.replace(' --background-writes', ''), mkdtempSync(path.join(tmpdir(), 'replay-'))),
      '--no-confirm',
    ]);
    expect(alone.status, alone.stderr).toBe(0);
    const again = cli([...replayArgs(cx.replay, mkdtempSync(path.join(tmpdir(), 'replay-'))), '--no-confirm']);
    expect(again.status, again.stderr).toBe(1);
  }, 300_000);
});
