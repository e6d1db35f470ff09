/**
 * The reference daemon as a launcher inside this process: the same code as the `main.ts` process, with
 * no process boot per start, so self-tests can afford many starts. `stop` is the daemon's SIGTERM path.
 */
import type { DaemonLauncher, DaemonProcess } from '../../harness/controller-daemon.ts';
import type { ProfileName } from '../../reference/profile.ts';
import { startDaemon } from './daemon.ts';
import type { DaemonFault } from './faults.ts';

export function inProcessLauncher(profile: ProfileName, faults: readonly DaemonFault[] = []): DaemonLauncher {
  const ours = [`--profile=${profile}`, ...faults.map((f) => `--fault=${f.name}`)].join(' ');
  return {
    display: `npx svc-conformance controller-daemon run ${ours}`,
    launch(args): DaemonProcess {
      let out = '';
      const write = (s: string) => void (out += s);
      let resolveExit!: (e: { code: number | null }) => void;
      const exited = new Promise<{ code: number | null }>((r) => (resolveExit = r));
      const started = startDaemon(args, { profile, faults, out: write, err: write }).then((s) => {
        if (s.kind === 'exit') resolveExit({ code: s.code });
        return s;
      }, (e: unknown) => {
        write(`internal error: ${(e as Error).message}\n`);
        resolveExit({ code: 70 });
        return undefined;
      });
      return {
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
