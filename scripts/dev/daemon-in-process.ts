/**
 * Runs the controller daemon checks in-process against the reference daemon (optionally with planted
 * faults) and the embedded reference API server, the way `svc-conformance run --controller-daemon`
 * does, so the self-tests see the records the reports would show.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedServer } from '../../runner/embedded.ts';
import { profiles, type ProfileName } from '../../reference/profile.ts';
import { defaultTargetSettings } from '../../runner/env.ts';
import { openSession } from '../../runner/session.ts';
import { runCheck } from '../../runner/run-check.ts';
import { checkById } from '../../suites/checks/index.ts';
import type { CheckRecord } from '../../runner/results.ts';
import { kubeconfigText, processLauncher, type DaemonLauncher } from '../../harness/controller-daemon.ts';
import { answerPace, daemonPace } from '../../harness/pace.ts';
import { inProcessLauncher } from '../../targets/controller-daemon/in-process.ts';
import { daemonFaultByName, type DaemonFault } from '../../targets/controller-daemon/faults.ts';
import { violationKinds } from '../../generators/daemon-flags.ts';
import type { DaemonVariationName } from '../../targets/controller-daemon/variations.ts';

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
}

export async function runDaemonChecks(o: DaemonRunOptions): Promise<CheckRecord[]> {
  const profile = profiles[o.profile ?? 'svc'];
  const server = await startEmbeddedServer({ profile, faults: [], variations: [] });
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-daemon-test-'));
  const kubeconfigPath = path.join(dir, 'kubeconfig.yaml');
  writeFileSync(kubeconfigPath, kubeconfigText(server.url));
  const faults = (o.faults ?? []).map((n) => {
    const f = daemonFaultByName(n);
    if (!f) throw new Error(`no daemon fault ${n}`);
    return f;
  });
  const launcher: DaemonLauncher = o.command ? processLauncher(o.command) : inProcessLauncher(profile.name, faults, o.variations ?? []);
  const opened = openSession({ server: server.url, tls: { insecureSkipTlsVerify: false }, headers: {}, source: 'self-test' }, { profile, runId: `d${o.seed.toString(16)}`, settings: defaultTargetSettings, signals: false });
  const env = o.withDaemon === false ? opened.env : { ...opened.env, controllerDaemon: { launcher, kubeconfigPath, startTimeoutMs: o.command ? 20_000 : 8000, settleMs: 200, leaseTimeoutMs: o.command ? 10_000 : 4000, pace: daemonPace(), answers: answerPace() } };
  try {
    const records: CheckRecord[] = [];
    for (const id of o.checks) records.push(...(await runCheck(checkById(id)!, env, { seed: o.seed, runs: o.runs })));
    return records;
  } finally {
    await opened.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The check that sees a daemon fault: the invalid-flags check of its rule, the help table, the lease or the valid starts. */
export function daemonCheckFor(f: DaemonFault): string {
  if (f.disablesRule) return `daemon-invalid-flags/${violationKinds.find((v) => v.clause === f.clause)!.name}`;
  if (f.defaults || f.gates) return 'daemon-help-table';
  if (f.ignoresNonOptions) return 'daemon-invalid-flags/syntax';
  if (f.leaseName) return 'daemon-leader-lease';
  if (f.ignoresTlsMinVersion) return 'daemon-tls-min-version';
  if (f.ignoresCertDir) return 'daemon-self-signed-cert-dir';
  if (f.ignoresCipherSuites) return 'daemon-tls-cipher-suites';
  if (f.sniFirstMatch) return 'daemon-tls-sni-cert-key';
  if (f.refusesPortZero) return 'daemon-secure-port-zero';
  return 'daemon-valid-flags';
}
