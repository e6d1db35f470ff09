// `npm run test:upstream`: the plan runs every suite against the upstream binaries (three fixed seeds for the API and
// node-agent suites, fresh seeds on every topology, each run with its own expectations file and report
// folder, each fresh seed with a command that replays it); a run is ok only when nothing failed beyond
// its expectations file and nothing errored; the sweep names, per clause, the seeds and topologies it
// failed on; without binaries or with a bad option it says so in one line.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  planRuns,
  expectationFiles,
  API_EXTRA_SEED_RUNS,
  DEFAULT_FRESH,
  drawSeeds,
  replayCommand,
} from '../../../scripts/upstream/plan.ts';
import { formatOutcomes, formatSweep, judgeRun, sweep } from '../../../scripts/upstream/outcome.ts';
import type { SummaryClause, SummaryJson } from '../../../reports/summary-json.ts';
import { totalsOf } from '../../../reports/aggregate.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const script = path.join(root, 'scripts/test-upstream.ts');
const tsx = fileURLToPath(import.meta.resolve('tsx'));
const testUpstream = (args: string[], env: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, ['--import', tsx, script, ...args], { encoding: 'utf8', timeout: 60_000, cwd: root, env });
const withoutAssets = () => {
  const env = { ...process.env };
  delete env.KUBEBUILDER_ASSETS;
  return env;
};

describe('the test:upstream plan', () => {
  const input = {
    topology: 'single' as const,
    kubeconfig: '/k/kubeconfig',
    controllerManager: '/a/kube-controller-manager',
    kubeletConfigLoader: '/a dir/kubelet-config-loader',
    seeds: [1, 2, 3],
    freshSeeds: [],
    kinds: ['api', 'daemon', 'nodeagent'] as const,
    reportsRoot: '/r',
    root: '/repo',
  };
  const plan = planRuns({ ...input, kinds: [...input.kinds] });
  const option = (args: readonly string[], name: string) => args[args.indexOf(name) + 1];

  it('runs the API and node-agent suites on three seeds and the daemon suite, each against its expectations file', () => {
    expect(plan.map((r) => r.name)).toEqual([
      'api-seed1',
      'api-seed2',
      'api-seed3',
      'daemon-seed1',
      'nodeagent-seed1',
      'nodeagent-seed2',
      'nodeagent-seed3',
    ]);
    for (const r of plan) {
      expect(option(r.args, '--expectations')).toBe(path.join('/repo', expectationFiles[r.kind]));
      expect(option(r.args, '--reports')).toBe(path.join('/r', r.name));
      expect(option(r.args, '--kubeconfig')).toBe('/k/kubeconfig');
      expect(option(r.args, '--profile')).toBe('k8s');
      expect(option(r.args, '--seed')).toBe(String(r.seed));
    }
    expect(new Set(plan.map((r) => r.reportsDir)).size).toBe(plan.length);
    // The default budget on the first API seed, a smaller one on the others.
    expect(plan.filter((r) => r.kind === 'api').map((r) => r.runs)).toEqual([undefined, API_EXTRA_SEED_RUNS, API_EXTRA_SEED_RUNS]);
    // The envtest kube-apiserver keeps its default watch cache: the API runs say so for the entries limited to one.
    for (const r of plan.filter((x) => x.kind === 'api')) expect(option(r.args, '--target-capability')).toBe('watch-cache');
    expect(option(plan.find((r) => r.kind === 'daemon')!.args, '--controller-daemon')).toBe('/a/kube-controller-manager');
    // A loader path with a space stays one word of the loader command line.
    expect(option(plan.find((r) => r.kind === 'nodeagent')!.args, '--nodeagent-loader')).toBe(`'/a dir/kubelet-config-loader'`);
  });

  it('fresh seeds run the API suites at the smaller budget; another topology gets only its fresh seeds, named apart', () => {
    const single = planRuns({ ...input, kinds: [...input.kinds], freshSeeds: [77, 88] });
    expect(single.filter((r) => r.fresh).map((r) => [r.name, r.kind, r.runs, r.topology])).toEqual([
      ['api-fresh-77', 'api', API_EXTRA_SEED_RUNS, 'single'],
      ['api-fresh-88', 'api', API_EXTRA_SEED_RUNS, 'single'],
    ]);
    const ha = planRuns({ ...input, kinds: [...input.kinds], topology: 'ha', kubeconfig: '/k/ha', seeds: [], freshSeeds: [99] });
    expect(ha.map((r) => r.name)).toEqual(['api-ha-fresh-99']);
    expect(option(ha[0]!.args, '--kubeconfig')).toBe('/k/ha');
    expect(option(ha[0]!.args, '--reports')).toBe(path.join('/r', 'api-ha-fresh-99'));
    // --runs sets every API run's budget, the first fixed seed's too.
    expect(planRuns({ ...input, kinds: ['api'], runs: 3 }).map((r) => r.runs)).toEqual([3, 3, 3]);
  });

  it('fresh seeds: distinct, in the range --seed takes; defaults two on one server, one on each other topology', () => {
    const seeds = drawSeeds(50);
    expect(new Set(seeds).size).toBe(50);
    for (const s of seeds) expect(Number.isInteger(s) && s >= 0 && s < 2 ** 31).toBe(true);
    // A draw that repeats itself is drawn again, never planned twice.
    const draws = [5, 5, 6];
    expect(drawSeeds(2, () => draws.shift()!)).toEqual([5, 6]);
    expect(DEFAULT_FRESH).toEqual({ single: 2, ha: 1, 'no-watch-cache': 1 });
  });

  it('the replay command runs exactly that seed, budget and topology again, alone', () => {
    expect(replayCommand({ kind: 'api', topology: 'ha', seed: 99, runs: 5 }, '/a dir')).toBe(
      "KUBEBUILDER_ASSETS='/a dir' npm run test:upstream -- --only api --topologies ha --seeds 99 --runs 5 --fresh 0",
    );
    expect(replayCommand({ kind: 'api', topology: 'single', seed: 1 }, '/a')).toBe(
      'KUBEBUILDER_ASSETS=/a npm run test:upstream -- --only api --topologies single --seeds 1 --fresh 0',
    );
  });
});

describe('judging one run of the plan', () => {
  const clause = (id: string, status: SummaryClause['status'], extra: Partial<SummaryClause> = {}): SummaryClause => ({
    id,
    section: '4',
    summary: '',
    status,
    checks: 1,
    counterexamples: [],
    notes: [],
    expectedFailure: false,
    ...extra,
  });
  const summary = (clauses: SummaryClause[], errors: string[] = [], verdict: SummaryJson['verdict'] = 'conformant'): SummaryJson => ({
    tool: 'svc-conformance',
    version: '0',
    profile: 'k8s',
    seed: 1,
    verdict,
    target: { server: null, nodeagentLoader: null },
    totals: { ...totalsOf([]), passed: 1 },
    clauses,
    startedAt: '',
    durationMs: 0,
    errors,
  });
  const run = { name: 'api-seed1', seed: 1, topology: 'single' as const, fresh: false };

  it('known failures only: ok; a known failure that passed is pointed out', () => {
    const entry = (outcome: 'noLongerOccurs' | 'notExercised') => ({
      regression: false,
      unexcused: [],
      entries: [{ excuses: 'class limit-ignored', reason: 'r', outcome, detail: 'd' }],
    });
    const o = judgeRun(
      run,
      0,
      1000,
      summary([
        clause('rest:4.6.1', 'failed', { expectedFailure: true }),
        clause('rest:4.4.1', 'passed', { expectedFailure: true, expectation: entry('noLongerOccurs') }),
        // Passed without the input behind the entry: not pointed out.
        clause('rest:4.5/list/unset/limit/0', 'passed', { expectedFailure: true, expectation: entry('notExercised') }),
      ]),
    );
    expect(o).toMatchObject({ ok: true, regressions: [], known: ['rest:4.6.1'], nowPassing: ['rest:4.4.1'] });
  });

  it('a failure beyond the file, an error verdict, a run-level error, a missing report, a non-zero exit: not ok', () => {
    expect(judgeRun(run, 1, 1000, summary([clause('rest:4.8/unsupported', 'failed')]))).toMatchObject({
      ok: false,
      regressions: ['rest:4.8/unsupported'],
    });
    expect(judgeRun(run, 3, 1000, summary([clause('rest:7/504', 'error')]))).toMatchObject({ ok: false, errors: ['rest:7/504'] });
    expect(judgeRun(run, 3, 1000, summary([], ['cleanup failed']))).toMatchObject({ ok: false, errors: ['cleanup failed'] });
    expect(judgeRun(run, 1, 1000, undefined, 'summary.json: not written')).toMatchObject({
      ok: false,
      verdict: 'no report',
      errors: ['summary.json: not written'],
    });
    // The exit code alone decides too: a run killed before it judged anything is never a pass.
    expect(judgeRun(run, null, 1000, summary([clause('rest:4.4.1', 'passed')])).ok).toBe(false);
  });

  it('the table has a row per run and names the clauses behind every bad count', () => {
    const table = formatOutcomes([
      judgeRun(run, 0, 61_500, summary([clause('rest:4.6.1', 'failed', { expectedFailure: true })])),
      judgeRun(
        { name: 'nodeagent-seed2', seed: 2, runs: 5, topology: 'single', fresh: false },
        1,
        2_000,
        summary([clause('node:2.2/port', 'failed')], [], 'nonconformant'),
      ),
    ]);
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^run\s+topology\s+seed\s+runs\s+time\s+passed\s+failed\s+known\s+inconcl\s+unspec\s+error\s+exit\s+verdict$/);
    expect(lines[1]).toMatch(/^api-seed1\s+single\s+1\s+default\s+1m02s\s+1\s+0\s+1\s+0\s+0\s+0\s+0\s+ok$/);
    expect(lines[2]).toMatch(/^nodeagent-seed2\s+single\s+2\s+5\s+2\.0s\s+1\s+1\s+0\s+0\s+0\s+0\s+1\s+FAIL \(nonconformant\)$/);
    expect(lines).toContain('nodeagent-seed2: failed beyond the expectations file: node:2.2/port');
  });

  it('the sweep lists, per clause, the topologies and seeds it failed or errored on, most widespread first', () => {
    const outcomes = [
      judgeRun(run, 0, 1, summary([clause('rest:4.6.1', 'failed', { expectedFailure: true })])),
      judgeRun({ name: 'api-fresh-7', seed: 7, topology: 'single', fresh: true }, 1, 1, summary([clause('rest:4.1/patch', 'failed')])),
      judgeRun(
        { name: 'api-ha-fresh-8', seed: 8, topology: 'ha', fresh: true },
        1,
        1,
        summary([clause('rest:4.1/patch', 'failed'), clause('rest:9.3/deprecated-endpoint', 'failed')]),
      ),
      judgeRun(
        { name: 'api-no-watch-cache-fresh-9', seed: 9, topology: 'no-watch-cache', fresh: true },
        3,
        1,
        summary([clause('rest:6.1.1', 'error')], ['cleanup failed']),
      ),
    ];
    const rows = sweep(outcomes);
    expect(rows.map((r) => r.clause)).toEqual(['rest:4.1/patch', '(run)', 'rest:6.1.1', 'rest:9.3/deprecated-endpoint']);
    expect(rows[0]!.on).toEqual([
      { status: 'failed', topology: 'single', seed: 7, fresh: true, run: 'api-fresh-7' },
      { status: 'failed', topology: 'ha', seed: 8, fresh: true, run: 'api-ha-fresh-8' },
    ]);
    // The known failure of the first run is not in the sweep: only what fails beyond the file.
    expect(rows.some((r) => r.clause === 'rest:4.6.1')).toBe(false);
    const text = formatSweep(rows, outcomes).split('\n');
    expect(text[0]).toBe('sweep: single seeds 1, 7*; ha seeds 8*; no-watch-cache seeds 9* (* fresh)');
    expect(text).toContain('rest:4.1/patch                failed on single 7*, ha 8*');
    expect(text).toContain('rest:6.1.1                    error on no-watch-cache 9*');
    expect(formatSweep([], outcomes.slice(0, 1)).split('\n')[1]).toBe('sweep: no clause failed beyond the expectations file, no error');
  });
});

describe('test:upstream without binaries', () => {
  it('says so in one line and exits 2; with --skip-if-missing, one line and 0', () => {
    const r = testUpstream([], withoutAssets());
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^test:upstream: no upstream binaries: set KUBEBUILDER_ASSETS .*--skip-if-missing to skip\)$/),
    ]);
    expect(r.stdout).toBe('');
    const skipped = testUpstream(['--skip-if-missing'], withoutAssets());
    expect(skipped.status).toBe(0);
    expect(skipped.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^test:upstream: skipped \(--skip-if-missing\): no upstream binaries/),
    ]);
    expect(skipped.stderr).toBe('');
  });

  it('a bad --topologies or --fresh: one line, exit 2', () => {
    const bad = testUpstream(['--topologies', 'single,mesh'], withoutAssets());
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/unknown mesh; known: single, ha, no-watch-cache/)]);
    const fresh = testUpstream(['--fresh', 'two'], withoutAssets());
    expect(fresh.status).toBe(2);
    expect(fresh.stderr.trim().split('\n')).toEqual([expect.stringMatching(/--fresh.*a non-negative integer/)]);
  });

  it('an assets folder without the loader: names it (the node-agent suite needs it)', () => {
    const r = testUpstream(['--assets', path.join(root, 'test')], withoutAssets());
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /^test:upstream: no upstream binaries: etcd, kube-apiserver, kube-controller-manager, kubelet-config-loader are missing or not executable in .*\n$/,
    );
  });

  it("a --reports folder holding a user's files: exit 2 in one line before anything starts, nothing deleted", () => {
    // Stand-ins for the binaries, each recording that it was started.
    const assets = mkdtempSync(path.join(tmpdir(), 'svc-upstream-assets-'));
    for (const b of ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kubelet-config-loader']) {
      writeFileSync(path.join(assets, b), `#!/bin/sh\necho "$0" >> ${path.join(assets, 'started')}\nexit 1\n`);
      chmodSync(path.join(assets, b), 0o755);
    }
    const mine = mkdtempSync(path.join(tmpdir(), 'svc-upstream-mine-'));
    mkdirSync(path.join(mine, 'logs'));
    writeFileSync(path.join(mine, 'logs', 'x'), 'mine');
    const r = testUpstream(['--assets', assets, '--reports', mine], withoutAssets());
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/--reports .*: holds files test:upstream did not write.*nothing was deleted\)$/),
    ]);
    expect(readFileSync(path.join(mine, 'logs', 'x'), 'utf8')).toBe('mine');
    expect(existsSync(path.join(assets, 'started'))).toBe(false);
  });
});
