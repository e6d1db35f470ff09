/**
 * Child processes started through one small helper process (harness/processes/spawn-helper.mjs) rather than by
 * this one: a fork copies the forking process's page tables, so from a run that holds hundreds of MB
 * each start cost tens of ms of CPU (the daemon suite starts dozens), from the helper about one.
 * What the child sees is the same (file, arguments, environment, working directory, no shell, stdin
 * closed), and so is what the caller sees: output in arrival order, the exit code and signal.
 *
 * The helper is forked on the first start and stays, unreferenced while nothing runs (it never keeps a
 * process alive); `closeSpawner` ends and reaps it. If it cannot be forked, starts are direct spawns.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Spawned {
  /** Settles once the child has exited and its output is closed. */
  readonly exited: Promise<{ code: number | null; signal?: string }>;
  /**
   * Settles if the helper died while the child ran: the child was killed with it, unobserved, so
   * `exited` never settles (a caller's start runs out its window: hung, never a verdict on the target).
   */
  readonly lost: Promise<void>;
  kill(signal: NodeJS.Signals): void;
}

export interface SpawnOptions {
  /** Output handler: stdout and stderr, decoded chunk by chunk, in arrival order. */
  readonly onOutput: (text: string) => void;
  /** Past this many characters the caller keeps nothing more (the helper then sends nothing more). */
  readonly capChars: number;
}

type FromHelper = ['o', number, string] | ['e', number, string] | ['c', number, number | null, NodeJS.Signals | null];

interface Pending {
  readonly onOutput: (text: string) => void;
  readonly onError: (message: string) => void;
  readonly onClose: (code: number | null, signal: NodeJS.Signals | null) => void;
  readonly onLost: () => void;
}

const HELPER = fileURLToPath(new URL('./spawn-helper.mjs', import.meta.url));

let helper: ChildProcess | undefined;
let helperGone: Promise<void> | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

function holdOpen(on: boolean): void {
  if (!helper) return;
  const channel = helper.channel as { ref?: () => void; unref?: () => void } | undefined;
  if (on) {
    helper.ref();
    channel?.ref?.();
  } else {
    helper.unref();
    channel?.unref?.();
  }
}

function startHelper(): ChildProcess | undefined {
  if (helper?.connected) return helper;
  let h: ChildProcess;
  try {
    // No execArgv of ours (a TypeScript loader, --inspect): the helper is plain JavaScript.
    h = fork(HELPER, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [], serialization: 'json' });
  } catch {
    return undefined;
  }
  helper = h;
  helperGone = new Promise((resolve) => h.once('exit', () => resolve()));
  h.on('message', (m: FromHelper) => {
    const p = pending.get(m[1]);
    if (!p) return;
    if (m[0] === 'o') p.onOutput(m[2]);
    else if (m[0] === 'e') p.onError(m[2]);
    else {
      pending.delete(m[1]);
      p.onClose(m[2], m[3]);
      if (pending.size === 0) holdOpen(false);
    }
  });
  // A helper that dies takes its children with it (it kills them when its channel closes).
  h.once('exit', () => {
    if (helper === h) helper = undefined;
    for (const p of pending.values()) {
      p.onOutput('\n(the spawn helper ended; this process was killed with it)');
      p.onLost();
    }
    pending.clear();
  });
  h.once('error', () => undefined);
  return h;
}

/** Starts `file args...` (no shell) through the helper, or directly when there is none. */
export function spawnChild(file: string, args: readonly string[], o: SpawnOptions): Spawned {
  const h = startHelper();
  if (!h) return spawnDirect(file, args, o);
  const id = nextId++;
  let onLost!: () => void;
  const lost = new Promise<void>((r) => (onLost = r));
  const exited = new Promise<{ code: number | null; signal?: string }>((resolve) => {
    pending.set(id, {
      onLost,
      onOutput: o.onOutput,
      onError: (message) => {
        o.onOutput(`\n(could not start: ${message})`);
        resolve({ code: 127 });
      },
      onClose: (code, signal) => resolve({ code, signal: signal ?? undefined }),
    });
  });
  holdOpen(true);
  h.send(['s', id, file, [...args], o.capChars]);
  return {
    exited,
    lost,
    kill: (signal) => {
      if (pending.has(id) && helper === h && h.connected) h.send(['k', id, signal]);
    },
  };
}

/** The same, spawned by this process. */
export function spawnDirect(file: string, args: readonly string[], o: SpawnOptions): Spawned {
  const child = spawn(file, [...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let kept = 0;
  const add = (b: Buffer) => {
    if (kept >= o.capChars) return;
    const text = b.toString('utf8');
    kept += text.length;
    o.onOutput(text);
  };
  child.stdout.on('data', add);
  child.stderr.on('data', add);
  const exited = new Promise<{ code: number | null; signal?: string }>((resolve) => {
    child.once('error', (e) => {
      o.onOutput(`\n(could not start: ${e.message})`);
      resolve({ code: 127 });
    });
    child.once('close', (code, signal) => resolve({ code, signal: signal ?? undefined }));
  });
  return { exited, lost: new Promise<void>(() => undefined), kill: (signal) => void child.kill(signal) };
}

let holders = 0;

/**
 * Holds the helper for one run until the release it returns; the last release closes it. Runs that
 * share a process (the self-tests' and `npm run mutation`'s concurrent runs) share the helper: one that
 * closed it as it ended killed the openssl or daemon another was still waiting on.
 */
export function holdSpawner(): () => Promise<void> {
  holders++;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    holders--;
    if (holders === 0) await closeSpawner();
  };
}

/** Ends the helper (its children, if any are left, are killed) and waits until it is reaped. */
export async function closeSpawner(): Promise<void> {
  const h = helper;
  if (!h) return;
  helper = undefined;
  if (h.connected) h.disconnect();
  await helperGone;
}
