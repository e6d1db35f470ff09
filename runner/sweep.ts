/**
 * Last line of the safety net on a real cluster, and its own audit (issue 32): after the suites (whose
 * workers clean up on their own) delete whatever is still labelled with this run, wait a bounded time
 * for it to go, and name what is left with the command that removes it. Only objects carrying the run
 * label (and, for namespaces, the run's name prefix) are touched.
 */
import { namedGroup, type Profile } from '../reference/profile.ts';
import type { TargetConfig } from '../harness/kubeconfig.ts';
import { createTargetClient } from '../harness/client.ts';

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

interface Item {
  metadata?: { name?: string; deletionTimestamp?: string };
}
interface Kind {
  readonly kind: string;
  readonly path: string;
  readonly kubectl: string;
  readonly mine: (name: string) => boolean;
}

function kindsOf(profile: Profile, runId: string): Kind[] {
  const admission = namedGroup(profile, 'admissionregistration');
  const extensions = namedGroup(profile, 'apiextensions');
  return [
    { kind: 'Namespace', path: '/api/v1/namespaces', kubectl: 'namespace', mine: (n) => n.startsWith(`svc-conformance-${runId}`) },
    { kind: 'CustomResourceDefinition', path: `/apis/${extensions}/v1/customresourcedefinitions`, kubectl: `customresourcedefinitions.${extensions}`, mine: () => true },
    { kind: 'ValidatingWebhookConfiguration', path: `/apis/${admission}/v1/validatingwebhookconfigurations`, kubectl: `validatingwebhookconfigurations.${admission}`, mine: () => true },
    { kind: 'MutatingWebhookConfiguration', path: `/apis/${admission}/v1/mutatingwebhookconfigurations`, kubectl: `mutatingwebhookconfigurations.${admission}`, mine: () => true },
  ];
}

/** The by-hand removal; a namespace stuck Terminating needs its finalizers cleared. */
export function removalCommand(k: Pick<Kind, 'kind' | 'kubectl'>, name: string, state: Leftover['state']): string {
  if (k.kind === 'Namespace' && state === 'terminating') {
    return `kubectl get namespace ${name} -o json | jq '.spec.finalizers = []' | kubectl replace --raw /api/v1/namespaces/${name}/finalize -f -`;
  }
  return `kubectl delete ${k.kubectl} ${name}`;
}

export async function sweepRun(cfg: TargetConfig, profile: Profile, runId: string, log: (line: string) => void, o: { waitMs?: number; pollMs?: number } = {}): Promise<SweepResult> {
  const client = createTargetClient(cfg, { maxRetries: 1, requestTimeoutMs: 10_000, budgetLeftMs: () => undefined });
  const selector: [string, string][] = [['labelSelector', `${profile.runLabel}=${runId}`]];
  const kinds = kindsOf(profile, runId);
  // A kind the target does not serve (404) holds nothing of ours.
  const list = async (k: Kind): Promise<Item[]> => {
    const r = await client.send({ method: 'GET', path: k.path, query: selector });
    if (r.status === 404) return [];
    if (r.status !== 200) throw new Error(`GET ${k.path}: ${r.status}`);
    return ((r.json as { items?: Item[] } | undefined)?.items ?? []).filter((i) => typeof i.metadata?.name === 'string' && k.mine(i.metadata.name));
  };
  try {
    let deleted = 0;
    for (const k of kinds) {
      for (const i of await list(k)) {
        if (i.metadata?.deletionTimestamp) continue;
        await client.send({ method: 'DELETE', path: `${k.path}/${encodeURIComponent(i.metadata!.name!)}` });
        deleted++;
      }
    }
    if (deleted > 0) log(`svc-conformance: deleted ${deleted} object(s) left by run ${runId}; waiting at most ${Math.round((o.waitMs ?? SWEEP_WAIT_MS) / 1000)} s for them to go`);
    const until = Date.now() + (o.waitMs ?? SWEEP_WAIT_MS);
    for (;;) {
      const left: Leftover[] = [];
      for (const k of kinds) {
        for (const i of await list(k)) {
          const state = i.metadata?.deletionTimestamp ? 'terminating' : 'present';
          left.push({ kind: k.kind, name: i.metadata!.name!, state, command: removalCommand(k, i.metadata!.name!, state) });
        }
      }
      if (left.length === 0 || Date.now() >= until) return { leftovers: left };
      await new Promise((resolve) => setTimeout(resolve, Math.min(o.pollMs ?? 1_000, Math.max(0, until - Date.now()))));
    }
  } catch (e) {
    return { leftovers: [], unverified: `could not verify the cleanup of run ${runId}: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    await client.close();
  }
}

/** Terminal lines naming what is left, one per object, each with its removal command. */
export function leftoverLines(r: SweepResult, runLabel: string, runId: string): string[] {
  const out: string[] = [];
  if (r.unverified !== undefined) out.push(r.unverified);
  if (r.leftovers.length > 0) {
    out.push(`run ${runId} left ${r.leftovers.length} object(s) behind (all labelled ${runLabel}=${runId}):`);
    for (const l of r.leftovers) out.push(`  ${l.kind} ${l.name} (${l.state}): ${l.command}`);
  }
  return out;
}
