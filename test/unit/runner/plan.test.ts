/**
 * The run plan is a pure function of the `run` options (runner/plan.ts): every configuration mistake
 * is found before a port is opened or a file read, and what a run will do is readable as data.
 */
import { describe, expect, it } from 'vitest';
import { planRun, type RunOptions } from '../../../runner/plan.ts';
import { checks } from '../../../suites/checks/index.ts';

const base: RunOptions = { profile: 'svc', runs: 25, reports: 'results', output: 'text', confirm: 2, timeout: 3_600_000 };
const drawn = { seed: 99, runId: 'abcd0123', cwd: '/w' };
const errorsOf = (o: Partial<RunOptions>) => planRun({ ...base, ...o }, drawn).errors ?? [];

describe('planRun', () => {
  it('plans the embedded target with its short windows, the drawn seed and every check by default', () => {
    const { plan } = planRun(base, drawn);
    expect(plan?.target).toEqual({ kind: 'embedded', faults: [], variations: [], continueTtlMs: 1500, historyWindowMs: 3000 });
    expect(plan?.settings).toMatchObject({
      continueTtlMs: 1500,
      historyWindowMs: 3000,
      eventualWindowMs: 5000,
      watchWaitMs: 1500,
      slow: false,
    });
    expect(plan?.seed).toBe(99);
    expect(plan?.runId).toBe('abcd0123');
    expect(plan?.selection.selected.map((c) => c.id)).toEqual(checks.map((c) => c.id));
    expect(plan?.reports).toEqual({ dir: '/w/results', output: 'text' });
    expect(plan?.replayCommand).toBe('npx svc-conformance run');
  });

  it('keeps a given seed, selects suites and checks in registry order, and shards the selection', () => {
    const { plan } = planRun({ ...base, seed: 7, suite: ['rest-crud', 'rest-paging'], shard: { index: 2, count: 2 } }, drawn);
    expect(plan?.seed).toBe(7);
    const chosen = checks.filter((c) => c.suite === 'rest-crud' || c.suite === 'rest-paging').map((c) => c.id);
    expect(plan?.selection.chosen.map((c) => c.id)).toEqual(chosen);
    expect(plan?.selection.selected.map((c) => c.id)).toEqual(chosen.filter((_, i) => i % 2 === 1));
  });

  it('plans an external target with its hooks and the windows given, and a replay command that repeats them', () => {
    const { plan } = planRun(
      { ...base, kubeconfig: 'k.yaml', context: 'c', hook: ['restart=systemctl restart x'], eventualWindow: 2000, backgroundWrites: true },
      drawn,
    );
    expect(plan?.target).toMatchObject({
      kind: 'external',
      kubeconfig: 'k.yaml',
      context: 'c',
      hooks: { restart: { kind: 'command', command: 'systemctl restart x' } },
    });
    expect(plan?.settings.eventualWindowMs).toBe(2000);
    expect(plan?.settings.hooks).toEqual({ restart: { kind: 'command', command: 'systemctl restart x' } });
    expect(plan?.replayCommand).toBe(
      "npx svc-conformance run --kubeconfig k.yaml --context c --eventual-window 2000ms --hook 'restart=systemctl restart x' --background-writes",
    );
    expect(plan?.replayCommandAlone).toBe(
      "npx svc-conformance run --kubeconfig k.yaml --context c --eventual-window 2000ms --hook 'restart=systemctl restart x'",
    );
  });

  it('computes the cleanup command of an external target once, its files resolved against the run folder; none for the embedded one', () => {
    const { plan } = planRun({ ...base, kubeconfig: 'k.yaml', context: 'my ctx', tokenFile: '/t/token' }, drawn);
    expect(plan?.cleanupCommand).toBe(
      "svc-conformance cleanup --run-id abcd0123 --kubeconfig /w/k.yaml --context 'my ctx' --token-file /t/token",
    );
    expect(planRun(base, drawn).plan?.cleanupCommand).toBeUndefined();
  });

  it('refuses each configuration mistake with the line the command prints', () => {
    expect(errorsOf({ path: '0:1' })).toEqual([
      '--path replays one counterexample: give it with the --seed and --check it was printed with',
    ]);
    expect(errorsOf({ reproduce: 3, seed: 1, check: ['crud-sequences'] })[0]).toMatch(/^--reproduce N replays one counterexample/);
    expect(errorsOf({ suite: ['rest-wach'] })[0]).toMatch(/^unknown suite rest-wach; did you mean rest-watch\? \(known: rest-crud, /);
    expect(errorsOf({ check: ['health-endpoint'] })).toEqual([
      'unknown check health-endpoint; did you mean health-endpoints? (see `svc-conformance list-checks`)',
    ]);
    expect(errorsOf({ server: 'https://x', fault: ['ignore-exact'] })).toEqual([
      '--fault and --variation apply to the embedded reference server only',
    ]);
    expect(errorsOf({ server: 'https://x', runtimeConfig: 'a/v1' })).toEqual([
      '--runtime-config applies to the embedded reference server only',
    ]);
    expect(errorsOf({ hook: ['restart=x'] })[0]).toMatch(/^--hook applies to an external target/);
    expect(errorsOf({ restrictedKubeconfig: 'r.yaml' })[0]).toMatch(/^--restricted-kubeconfig applies to an external target/);
    expect(errorsOf({ fault: ['no-such-fault'] })[0]).toMatch(
      /^unknown fault no-such-fault; did you mean .*\(see `svc-conformance list-faults`\)$/,
    );
    expect(errorsOf({ variation: ['no-such'] })[0]).toMatch(
      /^unknown variation no-such; did you mean .*\(see `svc-conformance list-faults`\)$/,
    );
    expect(errorsOf({ without: ['no-such'] })[0]).toMatch(/^unknown --without feature no-such.*\(see `svc-conformance list-faults`\)$/);
    expect(errorsOf({ server: 'https://x', without: ['put'] })).toEqual(['--without applies to the embedded reference server only']);
    // A partial server's failures replay against the same partial server.
    expect(planRun({ ...base, without: ['put', 'paging'] }, drawn).plan?.replayCommand).toBe(
      'npx svc-conformance run --without put --without paging',
    );
    expect(planRun({ ...base, without: ['put'] }, drawn).plan?.target).toMatchObject({ kind: 'embedded', without: ['put'] });
    expect(errorsOf({ server: 'https://x', hook: ['reboot=x'] })).toEqual(['--hook reboot=x: expected restart=CMD or compact=CMD']);
  });

  it('refuses the node-agent loader and controller daemon options before anything starts (the executor checks none)', () => {
    expect(errorsOf({ nodeagentFault: ['no-such'] })[0]).toMatch(/^unknown node-agent fault no-such/);
    expect(errorsOf({ nodeagentLoader: 'x', nodeagentFault: ['no-such'] })).toContain(
      '--nodeagent-fault applies to the embedded node-agent loader only',
    );
    expect(errorsOf({ nodeagentLoader: '  ' })).toEqual(['--nodeagent-loader needs a command']);
    expect(errorsOf({ controllerDaemon: ' \t ' })).toEqual(['--controller-daemon needs a command']);
    expect(errorsOf({ controllerDaemon: "'' x" })).toEqual([]);
  });

  it('lists every mistake, in the order the command line checks them', () => {
    expect(errorsOf({ path: '0:1', suite: ['nope'] }).map((e) => e.split(' ')[0])).toEqual(['--path', 'unknown']);
  });

  it('plans a reproduction of one counterexample', () => {
    const { plan } = planRun({ ...base, seed: 5, check: ['crud-sequences'], path: '3:1', reproduce: 4 }, drawn);
    expect(plan?.reproduce).toEqual({ times: 4, check: 'crud-sequences', path: '3:1' });
    expect(plan?.path).toBe('3:1');
  });
});
