/**
 * The daemon as a process: our own leading options, then the daemon's flags; runs until SIGTERM or
 * SIGINT and resolves with the exit code.
 */
import { profileByName, type ProfileName } from '../../reference/profile.ts';
import { daemonFaultByName, daemonFaults, type DaemonFault } from './faults.ts';
import { startDaemon } from './daemon.ts';
import { daemonVariationByName, daemonVariations, type DaemonVariationName } from './variations.ts';

export async function runDaemonProcess(args: readonly string[]): Promise<number> {
  let profile: ProfileName = 'svc';
  const faults: DaemonFault[] = [];
  const variations: DaemonVariationName[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    const m = /^--(profile|fault|variation)(?:=(.*))?$/.exec(a);
    if (!m) break;
    const value = m[2] ?? args[++i];
    if (m[1] === 'profile') {
      if (value === undefined || !profileByName(value)) return usage(`--profile must be svc or k8s`);
      profile = value as ProfileName;
    } else if (m[1] === 'variation') {
      const v = value === undefined ? undefined : daemonVariationByName(value);
      if (!v) return usage(`unknown --variation ${value ?? ''}; known: ${daemonVariations.map((x) => x.name).join(', ')}`);
      variations.push(v);
    } else {
      const f = value === undefined ? undefined : daemonFaultByName(value);
      if (!f) return usage(`unknown --fault ${value ?? ''}; known: ${daemonFaults.map((x) => x.name).join(', ')}`);
      faults.push(f);
    }
  }
  const started = await startDaemon(args.slice(i), {
    profile,
    faults,
    variations,
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
  });
  if (started.kind === 'exit') return started.code;
  const code = await new Promise<number>((resolve) => {
    for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => resolve(0));
    void started.daemon.ended.then(resolve);
  });
  await started.daemon.stop();
  return code;
}

function usage(message: string): number {
  process.stderr.write(`controller-daemon: ${message}\n`);
  return 2;
}
