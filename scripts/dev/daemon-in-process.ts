/**
 * Runs the controller daemon checks in-process against the reference daemon (optionally with planted
 * faults) and the embedded reference API server, through the CLI's own plan and executor (runner/), so
 * the self-tests see the records the reports would show. What differs from `run`: the daemon is
 * started in this process (no process per start) with the shorter waits such a daemon allows.
 */
import { profiles, type ProfileName } from '../../reference/profile.ts';
import type { CheckRecord } from '../../runner/results.ts';
import { selfTestPlan } from './self-test-plan.ts';
import type { RunPlan } from '../../runner/plan.ts';
import { executeRun } from '../../runner/executor.ts';
import { directStage } from '../../runner/check-stage.ts';
import { checkById } from '../../suites/checks/index.ts';
import { processLauncher, type DaemonLauncher } from '../../harness/processes/index.ts';
import { inProcessLauncher } from '../../targets/controller-daemon/in-process.ts';
import { daemonFaultByName, type DaemonFault } from '../../targets/controller-daemon/faults.ts';
import { violationKinds } from '../../generators/daemon-flags.ts';
import type { DaemonVariationName } from '../../targets/controller-daemon/variations.ts';
import { defaultTargetSettings } from '../../runner/env.ts';

export interface DaemonRunOptions {
  readonly checks: readonly string[];
  readonly faults?: readonly string[];
  readonly runs: number;
  readonly seed: number;
  readonly profile?: ProfileName;
  /** Start real processes with this command instead of the in-process reference daemon. */
  readonly command?: string;
  readonly withDaemon?: boolean;
  /** Legal variations of the in-process reference daemon. */
  readonly variations?: readonly DaemonVariationName[];
  /**
   * The starts with flags go to an in-process reference daemon with these planted faults, as a default
   * run sends them to its own (runner/daemon.ts); --help and --version stay with the daemon above.
   */
  readonly startFaults?: readonly string[];
}

export async function runDaemonChecks(o: DaemonRunOptions): Promise<CheckRecord[]> {
  const profile = profiles[o.profile ?? 'svc'];
  for (const id of o.checks) if (!checkById(id)) throw new Error(`no check ${id}`);
  const faults = faultsNamed(o.faults ?? []);
  const launcher: DaemonLauncher = o.command ? processLauncher(o.command) : inProcessLauncher(profile.name, faults, o.variations ?? []);
  const startFaults = o.startFaults ? faultsNamed(o.startFaults) : undefined;
  const starts = startFaults ? { startLauncher: (p: ProfileName) => inProcessLauncher(p, startFaults) } : {};
  const planned = selfTestPlan(
    {
      profile: profile.name,
      seed: o.seed,
      runs: o.runs,
      check: [...o.checks],
      controllerDaemon: o.command,
    },
    'd',
  );
  const plan: RunPlan = {
    ...planned,
    // The waits of an external target, as the daemon self-tests always had them.
    settings: { ...planned.settings, ...defaultTargetSettings },
    inProcess: {
      keepFailures: true,
      source: 'self-test',
      daemon:
        o.withDaemon === false
          ? 'none'
          : { launcher, ...starts, startTimeoutMs: o.command ? 20_000 : 8000, settleMs: 200, leaseTimeoutMs: o.command ? 10_000 : 4000 },
    },
  };
  const { run } = await executeRun(plan, { log: () => undefined, stage: directStage({ inOrder: true }) });
  return [...run.records];
}

function faultsNamed(names: readonly string[]): DaemonFault[] {
  return names.map((n) => {
    const f = daemonFaultByName(n);
    if (!f) throw new Error(`no daemon fault ${n}`);
    return f;
  });
}

/** The check that sees a daemon fault: the invalid-flags check of its rule, the help table, the lease or the valid starts. */
export function daemonCheckFor(f: DaemonFault): string {
  if (f.disablesRule) return `daemon-invalid-flags/${violationKinds.find((v) => v.clause === f.clause)!.name}`;
  if (f.defaults || f.gates || f.lacksOption) return 'daemon-help-table';
  if (f.ignoresNonOptions) return 'daemon-invalid-flags/syntax';
  if (f.leaseName) return 'daemon-leader-lease';
  if (f.ignoresTlsMinVersion) return 'daemon-tls-min-version';
  if (f.ignoresCertDir) return 'daemon-self-signed-cert-dir';
  if (f.ignoresCipherSuites) return 'daemon-tls-cipher-suites';
  if (f.sniFirstMatch) return 'daemon-tls-sni-cert-key';
  if (f.refusesPortZero) return 'daemon-secure-port-zero';
  if (f.stringsOneValue) return 'daemon-valid-flags-types-row';
  if (f.alphaGatesLocked) return 'daemon-gate-lifecycle';
  return 'daemon-valid-flags';
}
