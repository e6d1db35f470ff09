/**
 * The daemon as a process: our own leading options, then the daemon's flags; runs until SIGTERM or
 * SIGINT and resolves with the exit code.
 */
import { profileByName, type ProfileName } from '../../reference/profile.ts';
import { daemonFaultByName, daemonFaults, type DaemonFault } from './faults.ts';
import { startDaemon } from './daemon.ts';

export async function runDaemonProcess(args: readonly string[]): Promise<number> {
  let profile: ProfileName = 'svc';
  const faults: DaemonFault[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    const m = /^--(profile|fault)(?:=(.*))?$/.exec(a);
    if (!m) break;
    const value = m[2] ?? args[++i];
    if (m[1] === 'profile') {
      if (value === undefined || !profileByName(value)) return usage(`--profile must be svc or k8s`);
      profile = value as ProfileName;
    } else {
      const f = value === undefined ? undefined : daemonFaultByName(value);
      if (!f) return usage(`unknown --fault ${value ?? ''}; known: ${daemonFaults.map((x) => x.name).join(', ')}`);
      faults.push(f);
    }
  }
  const started = await startDaemon(args.slice(i), {
    profile,
    faults,
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
  });
  if (started.kind === 'exit') return started.code;
  await new Promise<void>((resolve) => {
    for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => resolve());
  });
  await started.daemon.stop();
  return 0;
}

function usage(message: string): number {
  process.stderr.write(`controller-daemon: ${message}\n`);
  return 2;
}
