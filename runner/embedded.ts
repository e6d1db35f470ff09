/**
 * The one place the embedded reference API server is started: a run's target (runner/executor.ts), the
 * private server a controller daemon under test talks to (runner/phases/bring-up.ts), `serve`, both sides of
 * `compare`, the benches and the reproducer measurement all describe the server they want as data
 * (the run plan's EmbeddedTargetPlan, or the same fields) and get it here with the TargetConfig checks
 * reach it by and its restart and compaction hooks. Nothing else imports the server's constructor
 * (test/unit/architecture.test.ts). A run's server authenticates and authorizes (rest:5); the run's own
 * identity is a superuser of it, with a token drawn here.
 */
import { randomBytes } from 'node:crypto';
import { startReferenceServer, type ReferenceServer, type VariationName } from '../targets/api-server/index.ts';
import { embeddedHooks } from '../targets/api-server/hooks.ts';
import { SUPERUSER_GROUP, type UserInfo } from '../reference/rbac.ts';
import type { Profile } from '../reference/profile.ts';
import type { Hooks } from '../harness/case/index.ts';
import type { TargetConfig } from '../harness/transport/index.ts';
import type { EmbeddedTargetPlan } from './plan.ts';

export type { ReferenceServer };

/** What a server is started with: a run plan's embedded target, or the same fields (absent: the server's defaults). */
export type EmbeddedTargetSpec = Partial<EmbeddedTargetPlan>;

export interface EmbeddedTarget {
  readonly server: ReferenceServer;
  /** How the checks reach it: the run's superuser token, or none when the server does not authenticate. */
  readonly config: TargetConfig;
  readonly token?: string;
  /** Its restart and compaction hooks (docs/architecture.md "Target hooks"). */
  readonly hooks: Hooks;
  close(): Promise<void>;
}

export interface EmbeddedStartOptions {
  /** What the TargetConfig calls its source (reports name it). */
  readonly source?: string;
  /**
   * Who may do what. 'run' (the default): a superuser token of the run's own, drawn here; 'open': the
   * server does not authenticate, everyone may do anything (the daemon's private server, the benches);
   * a token table: those tokens and users, with RBAC (`serve --token-auth-file`).
   */
  readonly access?: 'run' | 'open' | ReadonlyMap<string, UserInfo>;
  /** Loopback port; 0 or absent: any free one. */
  readonly port?: number;
  /** false: deleted namespaces stay Terminating for a real namespace controller (`serve --external-namespace-controller`). */
  readonly builtInNamespaceController?: boolean;
  /** How long a read of a version not yet reached waits before its 504 (the bench's plain replay: 0). */
  readonly tooLargeWaitMs?: number;
  /** Told each variation decision point the server passes (the self-tests learn which checks reach a variation). */
  readonly onVariationPoint?: (v: VariationName) => void;
}

export async function startEmbeddedTarget(t: EmbeddedTargetSpec, profile: Profile, o: EmbeddedStartOptions = {}): Promise<EmbeddedTarget> {
  const access = o.access ?? 'run';
  const token = access === 'run' ? randomBytes(16).toString('hex') : undefined;
  const tokens =
    token !== undefined
      ? new Map([[token, { user: 'svc-conformance', groups: [SUPERUSER_GROUP] }]])
      : typeof access === 'string'
        ? undefined
        : access;
  const server = await startReferenceServer({
    profile,
    tokens,
    port: o.port,
    builtInNamespaceController: o.builtInNamespaceController,
    tooLargeWaitMs: o.tooLargeWaitMs,
    onVariationPoint: o.onVariationPoint,
    continueTtlMs: t.continueTtlMs,
    historyWindowMs: t.historyWindowMs,
    bookmarkIntervalMs: t.bookmarkIntervalMs,
    release: t.release,
    runtimeConfig: t.runtimeConfig,
    faults: t.faults ?? [],
    variations: t.variations ?? [],
    namespaces: t.namespaces,
    without: t.without ?? [],
  });
  return {
    server,
    config: {
      server: server.url,
      tls: { insecureSkipTlsVerify: false },
      headers: token !== undefined ? { Authorization: `Bearer ${token}` } : {},
      source: o.source ?? 'embedded reference server',
    },
    token,
    hooks: embeddedHooks(server.url),
    close: () => server.close(),
  };
}
