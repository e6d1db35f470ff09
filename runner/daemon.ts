/**
 * The controller daemon a run tests, prepared before its checks start (and removed after them).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtReferenceDaemon, bundleReferenceDaemon } from '../targets/controller-daemon/bundle.ts';
import { defaultDaemonTimings, kubeconfigJson, shellQuote, type ControllerDaemonSettings } from '../harness/processes/index.ts';
import type { ProfileName } from '../reference/profile.ts';
import { holdSpawner } from '../harness/processes/index.ts';
import { inProcessLauncher } from '../targets/controller-daemon/in-process.ts';
import type { RunPlan } from './plan.ts';

/**
 * The controller daemon `svc-conformance run` tests: `--controller-daemon CMD`, or with the embedded API
 * server the reference daemon as a process. The daemon under test never talks to the user's cluster:
 * `--leader-elect` defaults to true, so a start against a real API server would contend for the real
 * controller manager's lock and run a second set of controllers. Against an external target bring-up
 * starts a private reference API server for the daemon instead (`privateServer`,
 * runner/phases/bring-up.ts), and the checks read the daemon's Lease there.
 * An empty command is the plan's to refuse (runner/plan.ts).
 */
export async function prepareDaemon(o: {
  command?: string;
  bundle?: boolean;
  external: boolean;
  profile: ProfileName;
  server: string;
  privateServer?: string;
  startTimeoutMs?: number;
  token?: string;
}): Promise<{ settings?: ControllerDaemonSettings; cleanup: () => Promise<void> }> {
  if (o.command === undefined && o.external) return { cleanup: async () => undefined };
  // Never the user's cluster: a daemon beside an external target talks to the private server or to nothing.
  if (o.external && o.privateServer === undefined)
    throw new Error('internal: a daemon under test beside an external target needs its private API server');
  // Without a bundle, the command line that starts the reference daemon; with one, what a person pastes.
  const unbundled = o.command ?? referenceDaemonCommand(o.profile);
  const timings = { ...defaultDaemonTimings, ...(o.startTimeoutMs !== undefined ? { startTimeoutMs: o.startTimeoutMs } : {}) };
  const apiServer = o.privateServer ?? o.server;
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-daemon-'));
  const kubeconfigPath = path.join(dir, 'kubeconfig.yaml');
  // The embedded server authenticates: the daemon gets the run's token (never the user's, for an external target).
  writeFileSync(kubeconfigPath, kubeconfigJson(apiServer, o.privateServer !== undefined ? undefined : o.token), { mode: 0o600 });
  // The reference daemon is started dozens of times by the daemon checks: bundled once for a run that
  // selects them, it starts in well under half the CPU.
  const bundled = o.command === undefined && o.bundle === true ? await bundleReferenceDaemon() : undefined;
  const command = bundled ? [process.execPath, bundled.entry, `--profile=${o.profile}`].map(shellQuote).join(' ') : unbundled;
  // The reference daemon's starts with flags (serving, refused or ignored) run its code in this
  // process: no process boot each; --help and --version stay processes (ControllerDaemonTarget).
  const inProcess = o.command === undefined ? { startLauncher: (profile: ProfileName) => inProcessLauncher(profile) } : {};
  const releaseSpawner = holdSpawner();
  return {
    settings: {
      command,
      ...(bundled ? { display: unbundled } : {}),
      ...inProcess,
      kubeconfigPath,
      apiServerUrl: o.privateServer,
      ...timings,
    },
    cleanup: async () => {
      rmSync(dir, { recursive: true, force: true });
      bundled?.remove();
      await releaseSpawner();
    },
  };
}

/**
 * The daemon the plan asks for (none for a self-test that says so), prepared against the target's
 * server, or the private one bring-up started for it.
 */
export async function daemonOf(
  plan: RunPlan,
  api: { server: string; token?: string; privateServer?: string },
): Promise<{ settings?: ControllerDaemonSettings; cleanup: () => Promise<void> }> {
  const given = plan.inProcess?.daemon;
  if (given === 'none') return { cleanup: async () => undefined };
  const prepared = await prepareDaemon({
    command: plan.daemon.command,
    bundle: given === undefined && plan.selection.selected.some((c) => c.suite === 'controller-daemon'),
    external: plan.target.kind === 'external',
    profile: plan.profile.name,
    server: api.server,
    token: api.token,
    privateServer: api.privateServer,
    startTimeoutMs: plan.daemon.startTimeoutMs,
  });
  if (prepared.settings === undefined || given === undefined) return prepared;
  // A launcher of the caller's (a daemon with planted faults) starts everything it is not told otherwise.
  const { startLauncher: _reference, ...settings } = prepared.settings;
  return { settings: { ...settings, ...given }, cleanup: prepared.cleanup };
}

/**
 * The reference daemon as its own light process (no CLI boot): the build's bundle when this is the
 * compiled CLI (an installed package has no tsx), else node, the tsx loader and main.ts.
 */
export function referenceDaemonCommand(profile: ProfileName): string {
  const built = builtReferenceDaemon();
  if (built !== undefined) return [process.execPath, built, `--profile=${profile}`].map(shellQuote).join(' ');
  const tsx = fileURLToPath(import.meta.resolve('tsx'));
  const main = fileURLToPath(new URL('../targets/controller-daemon/main.ts', import.meta.url));
  return [process.execPath, '--import', pathToFileURL(tsx).href, main, `--profile=${profile}`].map(shellQuote).join(' ');
}
