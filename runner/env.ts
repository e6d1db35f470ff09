/**
 * Builds the environment every check runs in: the undici client, the transcript that records it, the
 * safety guard around it, and the run's namespace names. The one place the layers are wired together;
 * opened through runner/session.ts (the self-tests of the harness open it directly). A node-agent
 * loader handed in stays its owner's to close.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Profile } from '../reference/profile.ts';
import type { CheckEnv, TargetSettings } from '../harness/case/index.ts';
import { createTargetClient } from '../harness/transport/index.ts';
import { createGuardedTarget, registerCleanup, runIdentity, type CleanupHandle, type GuardedTarget } from '../harness/transport/index.ts';
import type { TargetConfig } from '../harness/transport/index.ts';
import { Transcript } from '../harness/transport/index.ts';
import type { NodeagentLoaderTarget } from '../harness/processes/index.ts';
import { daemonTarget, type ControllerDaemonSettings } from '../harness/processes/index.ts';
import { DEFAULT_POOL_SIZE, NamespacePool } from '../harness/case/index.ts';
import type { Exchange, ExchangeRecorder, Target } from '../harness/transport/index.ts';
import { identitiesClient, restrictedUserLearner } from '../harness/transport/index.ts';
import { namedGroup } from '../reference/profile.ts';
import { BackgroundWriter, withBackgroundWrites } from '../harness/case/index.ts';
import { requestPace } from '../harness/transport/index.ts';
import { within } from './run-stop.ts';

export const defaultTargetSettings: TargetSettings = {
  continueTtlMs: 5 * 60_000,
  historyWindowMs: 5 * 60_000,
  slow: false,
  maxFastWaitMs: 10_000,
  eventualWindowMs: 60_000,
  watchWaitMs: 5_000,
  bookmarkWaitMs: 1_500,
};

/** Short, DNS-label-safe, unique enough to tell runs apart on a shared cluster. */
export function newRunId(): string {
  return randomBytes(4).toString('hex');
}

export interface OpenedEnv {
  readonly env: CheckEnv;
  readonly target: GuardedTarget;
  readonly cleanup: CleanupHandle;
  close(): Promise<void>;
  /**
   * A stopped run's end of the checks it abandons: their next requests are refused, and the ones in
   * flight get at most `settleMs` to end, so a create of theirs cannot land after the run's listing of
   * what it leaves (the run's sweep, not this env, deletes what they made).
   */
  abandon(settleMs: number): Promise<void>;
}

/** What a run opens its check environment with, besides the target's configuration. */
export interface OpenEnvOptions {
  profile: Profile;
  runId: string;
  settings: TargetSettings;
  signals?: boolean;
  scope?: string;
  nodeagentLoader?: NodeagentLoaderTarget;
  controllerDaemon?: ControllerDaemonSettings;
  poolSize?: number;
  restricted?: TargetConfig;
  backgroundWrites?: boolean;
  namespaces?: readonly string[];
  excused?: CheckEnv['excused'];
  /** What the checks' requests pass through first (a self-test's stand-in target); the pool and the writer talk to the target itself. */
  checksTarget?: (t: Target) => Target;
}

export function openEnv(cfg: TargetConfig, o: OpenEnvOptions): OpenedEnv {
  const transcript = new Transcript();
  const pace = requestPace();
  // Exchanges go to the check that sent them (checks may run concurrently); the rest to the run's transcript.
  const clientOptions = {
    pace,
    onExchange: (e: Exchange, to?: ExchangeRecorder) => (to ?? transcript).record(e),
  };
  const client = identitiesClient(cfg, o.restricted, clientOptions);
  const identity = runIdentity(o.runId, o.profile.runLabel, o.namespaces);
  // Every identity's requests pass the one guard: the restricted user writes only where the run may.
  const target = createGuardedTarget(client, identity);
  const cleanup = registerCleanup(target, identity, { signals: o.signals ?? true });
  let n = 0;
  // Several suite files of one run share the run id: a scope keeps their namespace names apart.
  const stem = o.scope ? `${identity.namespacePrefix}-${o.scope}` : identity.namespacePrefix;
  const sleep = (ms: number) => delay(ms).then(() => undefined);
  const now = () => Date.now();
  const pool = new NamespacePool(target, {
    capacity: o.poolSize ?? DEFAULT_POOL_SIZE,
    nameOf: (i) => `${stem}-p${i}`,
    sleep,
    now,
    runSelector: `${identity.labelKey}=${identity.runId}`,
    given: o.namespaces,
  });
  const tracked = trackedByPool(target, pool);
  // --background-writes: the writer talks to the guarded target itself (its namespace is not the pool's).
  const writer =
    o.backgroundWrites === true ? new BackgroundWriter(target, { namespace: `${stem}-bg`, profile: o.profile, runId: o.runId }) : undefined;
  const checked = writer ? withBackgroundWrites(tracked, writer) : tracked;
  const env: CheckEnv = {
    target: o.checksTarget !== undefined ? o.checksTarget(checked) : checked,
    backgroundWrites: writer,
    namespacePool: pool,
    transcript,
    profile: o.profile,
    runId: o.runId,
    settings: o.settings,
    now,
    sleep,
    nextNamespace: () => `${stem}-${++n}`,
    pace,
    identities: {
      restricted:
        o.restricted === undefined
          ? 'impersonation'
          : { user: restrictedUserLearner(cfg, o.restricted, namedGroup(o.profile, 'authorization')) },
    },
    nodeagentLoader: o.nodeagentLoader,
    ...(o.controllerDaemon ? { controllerDaemon: daemonTarget(o.controllerDaemon) } : {}),
    excused: o.excused,
  };
  return {
    env,
    target,
    cleanup,
    async close() {
      try {
        await cleanup.cleanup();
      } finally {
        cleanup.dispose();
        await client.close();
      }
    },
    abandon: (settleMs) => within(client.close(), settleMs).then(() => undefined),
  };
}

/** Longest any one probe request may take: the probe is a few requests, never a run of its own. */
export const PROBE_REQUEST_TIMEOUT_MS = 10_000;

/**
 * The probes' two clients (runner/phases/probe.ts, harness/interpreters/capability-probe.ts), opened before
 * any check: the guarded one for writes, in a namespace of the run's own (the setup probe makes it, the
 * capability probe works in it), and the plain one for paths outside any resource. The caller closes them.
 */
export function openProbeClients(
  cfg: TargetConfig,
  runId: string,
  profile: Profile,
  requestTimeoutMs: number,
): { guarded: GuardedTarget; plain: Target; close(): Promise<void> } {
  const plain = createTargetClient(cfg, { maxRetries: 1, requestTimeoutMs });
  return { guarded: createGuardedTarget(plain, runIdentity(runId, profile.runLabel)), plain, close: () => plain.close() };
}

export type ProbeClients = ReturnType<typeof openProbeClients>;

/** `target` with every write's answer told to the pool, which deletes what a lease's namespace got when it ends. */
function trackedByPool(target: Target, pool: NamespacePool): Target {
  return {
    server: target.server,
    ...(target.openStream ? { openStream: (req) => target.openStream!(req) } : {}),
    async send(req) {
      const res = await target.send(req);
      pool.noteWrite(req, res);
      return res;
    },
    close: () => target.close(),
  };
}
