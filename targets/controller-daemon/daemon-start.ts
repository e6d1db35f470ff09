/**
 * What the reference daemon starts with and what a start gives back: an exit code, or a daemon running.
 * Both the command-line half (daemon.ts) and the serving half (serving.ts) speak them.
 */
import type { ProfileName } from '../../reference/profile.ts';
import type { DaemonFault } from './fault-type.ts';
import type { RunCommand } from './self-signed.ts';
import type { DaemonVariationName } from './variations.ts';

export interface DaemonOptions {
  readonly profile: ProfileName;
  readonly faults: readonly DaemonFault[];
  readonly variations?: readonly DaemonVariationName[];
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  /** How it runs openssl for a self-signed pair; by default a child of this process. */
  readonly run?: RunCommand;
}

export interface RunningDaemon {
  /** Port actually listened on (undefined with --secure-port=0). */
  readonly port: number | undefined;
  /** Settles with an exit code when the daemon ends by itself (a control-loop value refused at leadership). */
  readonly ended: Promise<number>;
  stop(): Promise<void>;
}

export type DaemonStart = { kind: 'exit'; code: number } | { kind: 'running'; daemon: RunningDaemon };
