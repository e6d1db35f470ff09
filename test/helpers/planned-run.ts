/**
 * A self-test's run of checks the way the command line runs them: `planRun` on options as `run` parses
 * them, then the one executor, in this process, one check after another (test/unit/test-layout.test.ts
 * holds that no other test file calls runCheck or openSession itself). What a run in this process
 * supplies instead of the command line (a stand-in target in front of the checks, the known failures the
 * expectations would name) is plan data (`RunPlan.inProcess`).
 *
 *   const { records } = await runPlanned({ options: { server: url, check: ['crud-sequences'], runs: 10 }, seed: 4, runId: 'steps1' });
 */
import { planRun, type InProcessOverrides, type RunOptions, type RunPlan } from '../../runner/plan.ts';
import { executeRun, type ExecutedRun } from '../../runner/executor.ts';
import { directStage } from '../../runner/check-stage.ts';
import { DEFAULT_RUN_TIMEOUT_MS } from '../../runner/run-stop.ts';
import type { CheckRecord } from '../../runner/results.ts';
import { onTestFinished } from 'vitest';
import type { TargetSettings } from '../../harness/case/index.ts';
import { kubeconfigText } from '../../harness/processes/daemon-files.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface PlannedRun {
  /**
   * The options of `run`. Left out: profile svc, one case, no reports, no confirmation, no preflight
   * and no capability probe (the checks meet the target themselves, as the tests expect them to).
   */
  readonly options: Partial<RunOptions>;
  readonly seed: number;
  /** The run's id: its namespaces' names are made of it. */
  readonly runId: string;
  readonly inProcess?: InProcessOverrides;
  /** Judges' waits the command line has no option for (a watch's), over the plan's own. */
  readonly settings?: Partial<TargetSettings>;
}

export interface PlannedRunResult {
  readonly records: CheckRecord[];
  readonly run: ExecutedRun;
  readonly exitCode: number;
  /** What the run told as it went: its log lines and the lines of failures found, in order. */
  readonly lines: readonly string[];
}

/** The plan of `o`, or a thrown error naming what the options got wrong (a test's own mistake). */
export function plannedRun(o: PlannedRun): RunPlan {
  const planned = planRun(
    {
      profile: 'svc',
      runs: 1,
      seed: o.seed,
      reports: '.',
      output: 'text',
      confirm: false,
      preflight: false,
      capabilityProbe: false,
      timeout: DEFAULT_RUN_TIMEOUT_MS,
      ...o.options,
    },
    { seed: o.seed, runId: o.runId, cwd: '/' },
  );
  if (planned.errors !== undefined) throw new Error(planned.errors.join('; '));
  return {
    ...planned.plan,
    settings: { ...planned.plan.settings, ...o.settings },
    inProcess: { keepFailures: true, source: 'self-test', ...o.inProcess },
  };
}

/** Plans and executes `o`; the records of its checks in the order given. */
export async function runPlanned(o: PlannedRun): Promise<PlannedRunResult> {
  const lines: string[] = [];
  const stage = directStage({ inOrder: true, events: { line: (text) => lines.push(text) } });
  const { run, exitCode } = await executeRun(plannedRun(o), { log: (line) => lines.push(line), stage });
  return { records: [...run.records], run, exitCode, lines };
}

/** Files a run's options name for an external target's credentials, in a private folder of the running test: `--token-file`, a kubeconfig. */
export function credentialFiles(): { tokenFile: (token: string) => string; kubeconfig: (server: string, token: string) => string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-planned-'));
  // The files hold tokens: gone when the test that asked for them ends, passed or failed.
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const write = (text: string) => {
    const file = path.join(dir, `file-${++n}`);
    writeFileSync(file, text, { mode: 0o600 });
    return file;
  };
  return { tokenFile: (token) => write(`${token}\n`), kubeconfig: (server, token) => write(kubeconfigText(server, token)) };
}
