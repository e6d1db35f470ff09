/**
 * The one place the embedded reference API server is started: by a run against it, by `serve`, by the
 * private server a controller daemon under test talks to, by the self-tests' in-process runs and by
 * the benches. A run's server authenticates and authorizes (rest:5); the run's own identity is a
 * superuser of it, with a token drawn here.
 */
import { randomBytes } from 'node:crypto';
import { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../targets/api-server/index.ts';
import { embeddedHooks } from '../targets/api-server/hooks.ts';
import { SUPERUSER_GROUP } from '../reference/rbac.ts';
import type { Profile } from '../reference/profile.ts';
import type { Hooks } from '../harness/hooks.ts';
import type { TargetConfig } from '../harness/kubeconfig.ts';
import type { EmbeddedTargetPlan } from './plan.ts';

export type { ReferenceServer, ReferenceServerOptions };

export function startEmbeddedServer(o: ReferenceServerOptions): Promise<ReferenceServer> {
  return startReferenceServer(o);
}

export interface EmbeddedTarget {
  readonly server: ReferenceServer;
  /** How the checks reach it: the run's superuser token, or none when the server does not authenticate. */
  readonly config: TargetConfig;
  readonly token?: string;
  /** Its restart and compaction hooks (DESIGN.md "Target hooks"). */
  readonly hooks: Hooks;
  close(): Promise<void>;
}

/** `authenticate: false`: a server that lets everyone do anything (the daemon self-tests' and the benches'). */
export async function startEmbeddedTarget(t: EmbeddedTargetPlan, profile: Profile, o: { source?: string; authenticate?: boolean } = {}): Promise<EmbeddedTarget> {
  const token = o.authenticate === false ? undefined : randomBytes(16).toString('hex');
  const server = await startReferenceServer({
    profile,
    ...(token !== undefined ? { tokens: new Map([[token, { user: 'svc-conformance', groups: [SUPERUSER_GROUP] }]]) } : {}),
    continueTtlMs: t.continueTtlMs,
    historyWindowMs: t.historyWindowMs,
    ...(t.bookmarkIntervalMs !== undefined ? { bookmarkIntervalMs: t.bookmarkIntervalMs } : {}),
    ...(t.release !== undefined ? { release: t.release } : {}),
    ...(t.runtimeConfig !== undefined ? { runtimeConfig: t.runtimeConfig } : {}),
    faults: t.faults,
    variations: t.variations,
  });
  return {
    server,
    config: { server: server.url, tls: { insecureSkipTlsVerify: false }, headers: token !== undefined ? { Authorization: `Bearer ${token}` } : {}, source: o.source ?? 'embedded reference server' },
    ...(token !== undefined ? { token } : {}),
    hooks: embeddedHooks(server.url),
    close: () => server.close(),
  };
}
