/**
 * The objects a run of the suite left on a target, found by its label alone: what the run's own sweep,
 * a second signal and `svc-conformance cleanup` (after a crash: nothing of the run's memory survives)
 * all read. Every cluster-scoped kind the target serves with list and delete is asked, not a list of
 * the kinds the suites create today: the guard (harness/transport/guard.ts) lets a run create a labelled object of
 * any kind, so a kind added to a suite tomorrow is found without a change here.
 *
 * An object is the run's only when its label says so on the object itself (a target that ignored the
 * label selector must not get everything deleted), and a namespace only when its name also starts with
 * `svc-conformance-<run id>`, as the guard requires of every namespace a run creates. Objects inside
 * the run's namespaces go with them.
 */
import type { Target } from '../harness/transport/index.ts';
import { InfrastructureError } from '../harness/transport/index.ts';

/** One run's objects, or those of every run of the suite on the target. */
export type RunScope = { readonly runId: string } | 'all';

export interface RunObject {
  readonly kind: string;
  readonly name: string;
  /** The run whose label it carries. */
  readonly runId: string;
  /** Its path, for DELETE. */
  readonly path: string;
  /** kubectl's name for its resource (`customresourcedefinitions.apiextensions.k8s.io`). */
  readonly kubectl: string;
  /** Deleted, not gone yet (a finalizer still runs, or never will). */
  readonly terminating: boolean;
}

export interface FoundObjects {
  readonly objects: RunObject[];
  /** Kinds that could not be listed (other than those a run creates), each `resource: why`: not vouched for. */
  readonly unlisted: string[];
}

interface Resource {
  readonly name: string;
  readonly kind: string;
  /** `/api/v1` or `/apis/<group>/<version>` */
  readonly base: string;
  readonly group: string;
}

/** What the suites create cluster-scoped today: a failure to list these leaves the cleanup unverified. */
const CREATED_BY_RUNS = new Set([
  'namespaces',
  'customresourcedefinitions',
  'validatingwebhookconfigurations',
  'mutatingwebhookconfigurations',
]);

/** A run id as newRunId makes them, and what a label value must look like to be taken for one. */
const RUN_ID = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

export function selectorOf(runLabel: string, scope: RunScope): string {
  return scope === 'all' ? runLabel : `${runLabel}=${scope.runId}`;
}

interface Item {
  metadata?: { name?: unknown; labels?: Record<string, unknown>; deletionTimestamp?: unknown };
}

/** Throws InfrastructureError when the target cannot say what it serves or list what runs create. */
export async function findRunObjects(client: Target, runLabel: string, scope: RunScope): Promise<FoundObjects> {
  const { resources, unlisted } = await clusterResources(client);
  const selector = selectorOf(runLabel, scope);
  const lists = await Promise.all(
    resources.map(async (r) => {
      const res = await client.send({ method: 'GET', path: `${r.base}/${r.name}`, query: [['labelSelector', selector]] });
      if (res.status === 404) return [];
      if (res.status !== 200) {
        const why = `${r.name}${r.group ? `.${r.group}` : ''}: GET ${r.base}/${r.name} answered ${res.status}`;
        if (CREATED_BY_RUNS.has(r.name)) throw new InfrastructureError(`cannot list ${why}`);
        unlisted.push(why);
        return [];
      }
      const items = (res.json as { items?: unknown } | undefined)?.items;
      return (Array.isArray(items) ? (items as Item[]) : []).flatMap((i) => {
        const o = ownObject(i, r, runLabel, scope);
        return o === undefined ? [] : [o];
      });
    }),
  );
  return { objects: lists.flat().sort((a, b) => deletionRank(a) - deletionRank(b) || a.name.localeCompare(b.name)), unlisted };
}

function ownObject(i: Item, r: Resource, runLabel: string, scope: RunScope): RunObject | undefined {
  const name = i.metadata?.name;
  const runId = i.metadata?.labels?.[runLabel];
  if (typeof name !== 'string' || name === '' || typeof runId !== 'string' || !RUN_ID.test(runId)) return undefined;
  if (scope !== 'all' && runId !== scope.runId) return undefined;
  if (
    r.base === '/api/v1' &&
    r.name === 'namespaces' &&
    !(name === `svc-conformance-${runId}` || name.startsWith(`svc-conformance-${runId}-`))
  )
    return undefined;
  return {
    kind: r.kind,
    name,
    runId,
    path: `${r.base}/${r.name}/${encodeURIComponent(name)}`,
    kubectl: r.group === '' ? r.name : `${r.name}.${r.group}`,
    terminating: typeof i.metadata?.deletionTimestamp === 'string',
  };
}

/**
 * Webhook configurations first (one left pointing at the run's gone webhook server could refuse the
 * deletes that follow), then other kinds, then definitions, then the namespaces.
 */
export function deletionRank(o: Pick<RunObject, 'kubectl'>): number {
  const resource = o.kubectl.split('.')[0]!;
  if (resource.endsWith('webhookconfigurations')) return 0;
  if (resource === 'customresourcedefinitions') return 2;
  if (o.kubectl === 'namespaces') return 3;
  return 1;
}

/** Every cluster-scoped resource the target serves with list and delete, in its groups' preferred versions. */
async function clusterResources(client: Target): Promise<{ resources: Resource[]; unlisted: string[] }> {
  const unlisted: string[] = [];
  const groups = await client.send({ method: 'GET', path: '/apis' });
  if (groups.status !== 200 && groups.status !== 404)
    throw new InfrastructureError(`cannot discover the target's API groups: GET /apis answered ${groups.status}`);
  const bases: { base: string; group: string }[] = [{ base: '/api/v1', group: '' }];
  // Discovery as the target answers it, shapes unchecked: a target under test may answer anything, and
  // cleanup must still remove what it can (an unreadable group list is named, never a crash).
  const listed = (groups.json as { groups?: unknown } | undefined)?.groups;
  if (groups.status === 200 && !Array.isArray(listed)) unlisted.push('named groups: GET /apis answered no groups list');
  for (const g of (Array.isArray(listed) ? listed : []) as { name?: unknown; preferredVersion?: { groupVersion?: unknown } }[]) {
    const gv = g?.preferredVersion?.groupVersion;
    if (typeof g.name === 'string' && typeof gv === 'string') bases.push({ base: `/apis/${gv}`, group: g.name });
  }
  const found = await Promise.all(
    bases.map(async ({ base, group }) => {
      const res = await client.send({ method: 'GET', path: base });
      if (res.status !== 200) {
        if (base === '/api/v1')
          throw new InfrastructureError(`cannot discover the target's core resources: GET /api/v1 answered ${res.status}`);
        // An aggregated group whose backend is down (503): named, not fatal (no run creates objects there today).
        unlisted.push(`${group}: GET ${base} answered ${res.status}`);
        return [];
      }
      const given = (res.json as { resources?: unknown } | undefined)?.resources;
      if (!Array.isArray(given)) {
        if (base === '/api/v1')
          throw new InfrastructureError(`cannot discover the target's core resources: GET /api/v1 answered no resources list`);
        unlisted.push(`${group}: GET ${base} answered no resources list`);
        return [];
      }
      const resources = given as ({ name?: unknown; kind?: unknown; namespaced?: unknown; verbs?: unknown } | null)[];
      return resources.flatMap((r) =>
        r !== null &&
        typeof r === 'object' &&
        typeof r.name === 'string' &&
        !r.name.includes('/') &&
        r.namespaced === false &&
        typeof r.kind === 'string' &&
        Array.isArray(r.verbs) &&
        r.verbs.includes('list') &&
        r.verbs.includes('delete')
          ? [{ name: r.name, kind: r.kind, base, group }]
          : [],
      );
    }),
  );
  return { resources: found.flat(), unlisted };
}
