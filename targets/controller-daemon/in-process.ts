/**
 * The reference daemon as a launcher inside this process: the same code as the `main.ts` process, with
 * no process boot per start, so self-tests can afford many starts. `stop` is the daemon's SIGTERM path.
 */
import type { DaemonLauncher, DaemonProcess } from '../../harness/processes/index.ts';
import type { ProfileName } from '../../reference/profile.ts';
import { startDaemon } from './daemon.ts';
import type { DaemonFault } from './faults.ts';
import type { DaemonVariationName } from './variations.ts';
import { runHere, type RunCommand } from './self-signed.ts';
import { spawnChild } from '../../harness/processes/index.ts';

/**
 * openssl for a self-signed pair, forked by the spawn helper rather than by this (large) process; run
 * here after all if the helper went away meanwhile (its answer was never seen).
 */
const throughSpawner: RunCommand = async (file, args) => {
  let out = '';
  const child = spawnChild(file, args, { onOutput: (s) => void (out += s), capChars: 4096 });
  const r = await Promise.race([child.exited, child.lost.then(() => undefined)]);
  if (r === undefined) return runHere(file, args);
  if (r.code !== 0) throw new Error(`${file} exited ${r.code ?? r.signal}: ${out.trim().split('\n')[0] ?? ''}`);
};

export function inProcessLauncher(
  profile: ProfileName,
  faults: readonly DaemonFault[] = [],
  variations: readonly DaemonVariationName[] = [],
): DaemonLauncher {
  const ours = [`--profile=${profile}`, ...faults.map((f) => `--fault=${f.name}`), ...variations.map((v) => `--variation=${v}`)].join(' ');
  return {
    display: `npx svc-conformance controller-daemon run ${ours}`,
    launch(args): DaemonProcess {
      const launchedAt = performance.now();
      let out = '';
      const write = (s: string) => void (out += s);
      let resolveExit!: (e: { code: number | null }) => void;
      const exited = new Promise<{ code: number | null }>((r) => (resolveExit = r));
      const started = startDaemon(args, { profile, faults, variations, out: write, err: write, run: throughSpawner }).then(
        (s) => {
          if (s.kind === 'exit') resolveExit({ code: s.code });
          // A daemon that ends by itself (a control-loop value refused at leadership) stops and exits.
          else
            void s.daemon.ended.then(async (code) => {
              await s.daemon.stop();
              resolveExit({ code });
            });
          return s;
        },
        (e: unknown) => {
          write(`internal error: ${(e as Error).message}\n`);
          resolveExit({ code: 70 });
          return undefined;
        },
      );
      return {
        launchedAt,
        exited,
        output: () => out,
        async stop() {
          const s = await started;
          if (s?.kind === 'running') {
            await s.daemon.stop();
            resolveExit({ code: 0 });
          }
        },
      };
    },
  };
}
