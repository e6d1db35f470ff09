/**
 * Starting one component of the control plane and waiting until it serves: free ports picked by binding
 * port 0, its log in the log folder, and a fresh try on fresh ports when it lost a port to a race. A
 * component that does not serve is stopped and named in a one-line error with its last log lines.
 */
import path from 'node:path';
import { freePort } from '../processes/index.ts';
import type { Assets, BinaryName } from './assets.ts';
import { logTail, startComponent, type Component } from './component.ts';
import { waitReady, type ReadyOutcome } from './readiness.ts';

/** A component did not start or serve. `message` is one line; `logTail` holds its last log lines. */
export class ControlPlaneStartError extends Error {
  constructor(
    readonly component: string,
    detail: string,
    readonly logTail: readonly string[],
    readonly logFile: string,
  ) {
    super(`${component} ${detail}`);
    this.name = 'ControlPlaneStartError';
  }
}

const PORT_ATTEMPTS = 3;
const PORT_RACE = /address already in use/i;

/** One component to start: its binary, its arguments and readiness URL for the ports it gets, how to probe it. */
export interface ComponentLaunch {
  readonly binary: BinaryName;
  readonly name?: string;
  readonly portCount: number;
  readonly argsFor: (ports: number[]) => string[];
  readonly url: (ports: number[]) => string;
  readonly probe: { readonly ca?: string; readonly token?: string };
}

export interface LauncherSettings {
  readonly assets: Assets;
  readonly logDir: string;
  readonly timeoutMs: number;
  /** When the control plane's start began: the timings count from it. */
  readonly startedAt: number;
  readonly log: (line: string) => void;
  /** Log lines quoted in an error with every credential taken out. */
  readonly scrub: (line: string) => string;
}

/** Starts components one after another, keeping what runs (for the stop), the ports taken and the timings. */
export class ComponentLauncher {
  readonly ports: number[] = [];
  readonly timings: Record<string, number> = {};

  constructor(
    private readonly s: LauncherSettings,
    private readonly running: Component[],
  ) {}

  /** Milliseconds since the control plane's start began. */
  sinceStart(): number {
    return Date.now() - this.s.startedAt;
  }

  /** Starts `c` and waits for its readiness URL; on a lost port race, tries fresh ports. Its ports. */
  async launch(c: ComponentLaunch): Promise<number[]> {
    const name = c.name ?? c.binary;
    for (let attempt = 1; ; attempt++) {
      const mine = await distinctPorts(c.portCount, this.ports);
      const logFile = path.join(this.s.logDir, `${name}.log`);
      const component = startComponent(name, this.s.assets.binaries[c.binary]!, c.argsFor(mine), logFile);
      this.running.push(component);
      const outcome = await waitReady(component, c.url(mine), { ...c.probe, deadlineMs: this.s.timeoutMs });
      if (outcome.kind === 'ready') {
        this.timings[name] = this.sinceStart();
        this.s.log(`envtest: ${name} ready on 127.0.0.1:${mine[0]} (${(this.timings[name] / 1000).toFixed(1)} s since start)`);
        this.ports.push(...mine);
        return mine;
      }
      await component.stop();
      this.running.splice(this.running.indexOf(component), 1);
      const tail = logTail(logFile, 20, this.s.scrub);
      if (outcome.kind === 'exited' && attempt < PORT_ATTEMPTS && tail.some((l) => PORT_RACE.test(l))) {
        this.s.log(`envtest: ${name} lost a port to another process; retrying on fresh ports`);
        continue;
      }
      throw new ControlPlaneStartError(name, describe(outcome, c.url(mine), this.s.timeoutMs), tail, logFile);
    }
  }
}

function describe(o: Exclude<ReadyOutcome, { kind: 'ready' }>, url: string, timeoutMs: number): string {
  if (o.kind === 'exited') return `exited before serving (${o.signal !== null ? `signal ${o.signal}` : `exit code ${o.code}`})`;
  return `did not answer 200 at ${url} within ${Math.round(timeoutMs / 1000)} s (last: ${o.lastStatus ?? 'no answer'})`;
}

async function distinctPorts(n: number, taken: readonly number[]): Promise<number[]> {
  const out: number[] = [];
  while (out.length < n) {
    const p = await freePort();
    if (!out.includes(p) && !taken.includes(p)) out.push(p);
  }
  return out;
}
