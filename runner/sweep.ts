/**
 * Last line of the safety net on a real cluster, and its own audit: after the suites (whose
 * workers clean up on their own) delete whatever is still labelled with this run, wait a bounded time
 * for it to go, and name what is left with the command that removes it. Only objects carrying the run
 * label (and, for namespaces, the run's name prefix) are touched (runner/run-objects.ts). The same
 * removal, by run id or for every run, is `svc-conformance cleanup` (scripts/cleanup-cli.ts).
 */
import type { Profile } from '../reference/profile.ts';
import type { TargetConfig } from '../harness/transport/index.ts';
import { createTargetClient } from '../harness/transport/index.ts';
import { InfrastructureError } from '../harness/transport/index.ts';
import { deletionRank, findRunObjects, type RunObject, type RunScope } from './run-objects.ts';

/** Something of the run's own that cleanup did not remove; `command` removes it by hand. */
export interface Leftover {
  readonly kind: string;
  readonly name: string;
  /** `terminating`: deleted, but still there when the wait ended (a finalizer that never ran). */
  readonly state: 'present' | 'terminating';
  readonly command: string;
}

export interface SweepResult {
  readonly leftovers: Leftover[];
  /** Set when the target could not be asked what is left: the run cannot vouch for its cleanup. */
  readonly unverified?: string;
}

/** How long deleted objects may take to disappear before they are reported as left behind. */
export const SWEEP_WAIT_MS = 30_000;

/** The by-hand removal; a namespace stuck Terminating needs its finalizers cleared. */
export function removalCommand(k: { readonly kind: string; readonly kubectl: string }, name: string, state: Leftover['state']): string {
  if (k.kind === 'Namespace' && state === 'terminating') {
    return `kubectl get namespace ${name} -o json | jq '.spec.finalizers = []' | kubectl replace --raw /api/v1/namespaces/${name}/finalize -f -`;
  }
  return `kubectl delete ${k.kubectl} ${name}`;
}

export interface CleanupOptions {
  readonly log: (line: string) => void;
  /** List what would be removed; delete nothing. */
  readonly dryRun?: boolean;
  readonly waitMs?: number;
  readonly pollMs?: number;
  /** Once it settles: no further delete, no further wait; what is there then is the answer. */
  readonly hurry?: Promise<unknown>;
}

export interface CleanupResult extends SweepResult {
  /** What carried the label when cleanup began. */
  readonly found: readonly RunObject[];
  /** Deletes sent that the target accepted (2xx) or found already gone (404). */
  readonly deleted: number;
  /** Deletes the target refused, each `kind name: status`. */
  readonly refused: readonly string[];
  /** Kinds that could not be listed: not vouched for. */
  readonly unlisted: readonly string[];
}

const leftoverOf = (o: RunObject): Leftover => {
  const state = o.terminating ? 'terminating' : 'present';
  return { kind: o.kind, name: o.name, state, command: removalCommand(o, o.name, state) };
};

/**
 * Deletes every object labelled for `scope`, then waits (bounded) until none is listed. Objects that
 * appear while it waits (a check abandoned at a stop still writing) are deleted as they are seen.
 */
export async function cleanupRuns(cfg: TargetConfig, runLabel: string, scope: RunScope, o: CleanupOptions): Promise<CleanupResult> {
  const client = createTargetClient(cfg, { maxRetries: 1, requestTimeoutMs: 10_000, budgetLeftMs: () => undefined });
  let hurried = false;
  void o.hurry?.then(() => (hurried = true));
  const tried = new Set<string>();
  const refused: string[] = [];
  let deleted = 0;
  let found: RunObject[] = [];
  let unlisted: string[] = [];
  const remove = async (objects: readonly RunObject[]): Promise<void> => {
    for (const rank of [...new Set(objects.map(deletionRank))].sort()) {
      if (hurried) return;
      await Promise.all(
        objects
          .filter((x) => deletionRank(x) === rank && !x.terminating && !tried.has(x.path))
          .map(async (x) => {
            tried.add(x.path);
            const res = await client.send({ method: 'DELETE', path: x.path });
            if (res.status === 404 || (res.status >= 200 && res.status < 300)) deleted++;
            else refused.push(`${x.kind} ${x.name}: ${res.status}`);
          }),
      );
    }
  };
  try {
    ({ objects: found, unlisted } = await findRunObjects(client, runLabel, scope));
    if (o.dryRun === true) return { found, deleted: 0, refused, unlisted, leftovers: found.map(leftoverOf) };
    await remove(found);
    const waitMs = o.waitMs ?? SWEEP_WAIT_MS;
    if (deleted > 0)
      o.log(
        `svc-conformance: deleted ${deleted} object(s) labelled ${selectorText(runLabel, scope)}; waiting at most ${Math.round(waitMs / 1000)} s for them to go`,
      );
    const until = Date.now() + waitMs;
    for (;;) {
      const { objects } = await findRunObjects(client, runLabel, scope);
      if (objects.length === 0 || Date.now() >= until || hurried)
        return { found, deleted, refused, unlisted, leftovers: objects.map(leftoverOf) };
      await remove(objects);
      await Promise.race([
        new Promise((resolve) => setTimeout(resolve, Math.min(o.pollMs ?? 1_000, Math.max(0, until - Date.now())))),
        o.hurry,
      ]);
    }
  } catch (e) {
    if (!(e instanceof InfrastructureError)) throw e;
    return {
      found,
      deleted,
      refused,
      unlisted,
      leftovers: [],
      unverified: `could not verify the cleanup of ${scopeText(scope)}: ${e.message}`,
    };
  } finally {
    await client.close();
  }
}

const selectorText = (runLabel: string, scope: RunScope): string => (scope === 'all' ? runLabel : `${runLabel}=${scope.runId}`);
const scopeText = (scope: RunScope): string => (scope === 'all' ? 'the runs of the suite' : `run ${scope.runId}`);

export async function sweepRun(
  cfg: TargetConfig,
  profile: Profile,
  runId: string,
  log: (line: string) => void,
  o: { waitMs?: number; pollMs?: number; hurry?: Promise<unknown> } = {},
): Promise<SweepResult> {
  const r = await cleanupRuns(cfg, profile.runLabel, { runId }, { log, ...o });
  return { leftovers: r.leftovers, unverified: r.unverified };
}

/** Terminal lines naming what is left, one per object, each with its removal command. */
export function leftoverLines(r: SweepResult, runLabel: string, runId: string, cleanupCommand?: string): string[] {
  const out: string[] = [];
  if (r.unverified !== undefined) out.push(r.unverified);
  if (r.leftovers.length > 0) {
    out.push(`run ${runId} left ${r.leftovers.length} object(s) behind (all labelled ${runLabel}=${runId}):`);
    for (const l of r.leftovers) out.push(`  ${l.kind} ${l.name} (${l.state}): ${l.command}`);
  }
  if (cleanupCommand !== undefined && (r.leftovers.length > 0 || r.unverified !== undefined))
    out.push(`remove everything of run ${runId} with: ${cleanupCommand}`);
  return out;
}
