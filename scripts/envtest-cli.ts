/**
 * `svc-conformance envtest`: the upstream control plane of harness/envtest on loopback until Ctrl-C,
 * for a person (or another script) to point the suite or kubectl at. Prints the kubeconfig path, never
 * the token. Exit codes: 0 stopped by Ctrl-C/SIGTERM, 2 no binaries (one line), 3 a component did not
 * start (one line, then the tail of its log).
 */
import { copyFileSync, chmodSync, rmSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, type Command } from '@commander-js/extra-typings';
import {
  AssetsError,
  ControlPlaneStartError,
  CredentialsError,
  startControlPlane,
  topologies,
  type ControlPlane,
  type ControlPlaneOptions,
  type Topology,
} from '../harness/envtest/index.ts';
import { parseDuration } from './duration-flag.ts';

export const ENVTEST_EXIT = { stopped: 0, usage: 2, startFailed: 3 } as const;

/** Starts the control plane; on failure writes the explanation and returns the exit code instead. */
export async function startOrExplain(o: ControlPlaneOptions, write: (line: string) => void): Promise<ControlPlane | number> {
  try {
    return await startControlPlane(o);
  } catch (e) {
    if (e instanceof AssetsError) {
      write(`svc-conformance: ${e.message}`);
      return ENVTEST_EXIT.usage;
    }
    if (e instanceof CredentialsError) {
      write(`svc-conformance: ${e.message}`);
      return ENVTEST_EXIT.startFailed;
    }
    if (e instanceof ControlPlaneStartError) {
      write(`svc-conformance: ${e.message}`);
      if (e.logTail.length > 0) write(`last lines of ${path.basename(e.logFile)}:\n${e.logTail.map((l) => `  ${l}`).join('\n')}`);
      return ENVTEST_EXIT.startFailed;
    }
    throw e;
  }
}

const topologyArg = (v: string): Topology => {
  if (!topologies.includes(v as Topology)) throw new InvalidArgumentError(`one of ${topologies.join(', ')}`);
  return v as Topology;
};

const durationArg = (v: string): number => {
  const ms = parseDuration(v);
  if (ms === undefined || ms === 0) throw new InvalidArgumentError('not a duration (use e.g. 30s, 2m)');
  return ms;
};

/** One `--name=value` kube-apiserver flag, collected in order. */
const apiServerFlagArg = (v: string, previous: string[]): string[] => {
  if (!/^--[a-z0-9][a-z0-9-]*(=.*)?$/.test(v))
    throw new InvalidArgumentError('a kube-apiserver flag such as --etcd-compaction-interval=10s');
  return [...previous, v];
};

export function registerEnvtestCommand(program: Command<[], Record<string, unknown>>): void {
  program
    .command('envtest')
    .description(
      'run an upstream control plane (etcd, kube-apiserver, kube-controller-manager) on loopback until Ctrl-C; prints its kubeconfig path',
    )
    .option('--assets <dir>', 'folder with etcd, kube-apiserver and optionally kube-controller-manager (default: KUBEBUILDER_ASSETS)')
    .option('--kubeconfig-out <file>', 'also write the kubeconfig (mode 0600) here; removed again on stop')
    .option('--log-dir <dir>', 'keep the component logs in this folder (default: the private folder, removed on stop)')
    .option('--no-controller-manager', 'do not start kube-controller-manager even when it is there')
    .option('--start-timeout <duration>', 'longest wait for each component to serve', durationArg)
    .option(
      '--topology <kind>',
      `single (one API server), ha (two behind a round-robin balancer), no-watch-cache (--watch-cache=false)`,
      topologyArg,
      'single' as Topology,
    )
    .option(
      '--apiserver-flag <flag>',
      "one more kube-apiserver flag, e.g. --apiserver-flag=--etcd-compaction-interval=10s (repeatable; after the launcher's own)",
      apiServerFlagArg,
      [] as string[],
    )
    .action(async (o) => {
      const err = (line: string) => process.stderr.write(`${line}\n`);
      const cp = await startOrExplain(
        {
          assetsDir: o.assets,
          controllerManager: o.controllerManager ? 'auto' : 'off',
          logDir: o.logDir,
          startTimeoutMs: o.startTimeout,
          topology: o.topology,
          apiServerFlags: o.apiserverFlag,
          log: err,
          // Ctrl-C is ours once it runs: a graceful stop, then exit 0.
          stopOnSignals: false,
        },
        err,
      );
      if (typeof cp === 'number') {
        process.exitCode = cp;
        return;
      }
      let kubeconfig = cp.kubeconfigPath;
      if (o.kubeconfigOut !== undefined) {
        kubeconfig = path.resolve(o.kubeconfigOut);
        copyFileSync(cp.kubeconfigPath, kubeconfig);
        chmodSync(kubeconfig, 0o600);
      }
      const out = (line: string) => process.stdout.write(`${line}\n`);
      out(
        `envtest: ${cp.topology} ready in ${(cp.timings.total! / 1000).toFixed(1)} s at ${cp.server} (${cp.components.map((c) => c.name).join(', ')})`,
      );
      out(`kubeconfig: ${kubeconfig}`);
      out(
        `  npx svc-conformance run --kubeconfig ${kubeconfig} --profile k8s --expectations upstream-kube-apiserver --hook 'compact=node scripts/etcd-compact.mjs ${cp.etcdUrl}'`,
      );
      out('Ctrl-C stops it.');
      const signal = await new Promise<NodeJS.Signals>((resolve) => {
        for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve(sig));
      });
      const { ms } = await cp.stop();
      if (o.kubeconfigOut !== undefined) rmSync(kubeconfig, { force: true });
      err(`envtest: ${signal}: stopped in ${(ms / 1000).toFixed(1)} s`);
      process.exitCode = ENVTEST_EXIT.stopped;
    });
}
