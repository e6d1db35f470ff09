/**
 * The plan of a self-test's in-process run (the API, daemon and node-agent ones): what they share, so
 * each states only what it varies. No reports, no confirmation replays, and no preflight: the
 * self-tests judge one check's oracle against a planted fault; the run-level gate on the identity's
 * permissions is tested on its own (test/oracle/cli/preflight.test.ts).
 */
import { DEFAULT_RUN_TIMEOUT_MS } from '../../runner/run-stop.ts';
import { planRun, type RunOptions, type RunPlan } from '../../runner/plan.ts';

type Varied = Omit<RunOptions, 'reports' | 'output' | 'confirm' | 'preflight' | 'timeout'>;

/** The plan, or a thrown error naming what the options got wrong (a self-test's own mistake). */
export function selfTestPlan(o: Varied & { readonly seed: number }, runIdPrefix: string): RunPlan {
  const planned = planRun(
    { ...o, reports: '.', output: 'text', confirm: false, preflight: false, timeout: DEFAULT_RUN_TIMEOUT_MS },
    { seed: o.seed, runId: `${runIdPrefix}${o.seed.toString(16)}`, cwd: '/' },
  );
  if (planned.errors !== undefined) throw new Error(planned.errors.join('; '));
  return planned.plan;
}
