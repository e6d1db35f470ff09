/**
 * Emptying a pooled namespace of exactly the objects the run wrote there, before another case may lease
 * it: several of one collection by one delete of the collection selecting the run's label, the rest one
 * by one; finalizers a case left are stripped; and the namespace counts as empty only once a list at
 * resourceVersion 0 (which a lagging watch cache may serve) no longer shows them. Foreign objects (the
 * controller manager's root-CA config map) stay, as in a fresh namespace.
 */
import type { TargetRequest, TargetResponse } from '../transport/index.ts';
import { ACCEPT_GZIP } from '../transport/index.ts';

/** How long emptying one namespace may take before it is retired. */
export const EMPTY_TIMEOUT_MS = 10_000;
/** How long a cache may go on showing deleted objects before they are followed one by one. */
const FOLLOW_AFTER_MS = 1_000;

/** What emptying sends through and waits on. */
export interface Emptying {
  /** Sends one request, recorded where the releasing check's requests go. */
  readonly send: (req: TargetRequest) => Promise<TargetResponse>;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** The run's label as a selector (`key=runId`), for one collection delete of several objects. */
  readonly runSelector?: string | undefined;
}

/** An object still to follow until gone, from its DELETE's answer (NOT_SENT: read it first). */
interface Pending {
  readonly path: string;
  readonly r: TargetResponse;
}

const NOT_SENT: TargetResponse = { status: 0, headers: {}, bodyText: '', json: undefined };

/** Deletes the objects at `paths` (those the run wrote in one namespace); true once none is left, in any read. */
export async function emptyWritten(paths: readonly string[], how: Emptying): Promise<boolean> {
  if (paths.length === 0) return true;
  const deadline = how.now() + EMPTY_TIMEOUT_MS;
  const byCollection = new Map<string, Map<string, string>>();
  for (const p of paths) {
    const i = p.lastIndexOf('/');
    const c = p.slice(0, i);
    if (!byCollection.has(c)) byCollection.set(c, new Map());
    byCollection.get(c)!.set(decodeURIComponent(p.slice(i + 1)), p);
  }
  const emptied = await Promise.all([...byCollection].map(([c, objects]) => emptyCollection(c, objects, deadline, how)));
  return !emptied.includes(false);
}

/** Deletes the run's objects (name -> path) of one collection; true once none is left, in any read. */
async function emptyCollection(
  collection: string,
  objects: ReadonlyMap<string, string>,
  deadline: number,
  how: Emptying,
): Promise<boolean> {
  // The collection delete answers with every object it deleted: gzipped where the target can.
  const all =
    objects.size >= 2 && how.runSelector !== undefined
      ? await how.send({ method: 'DELETE', path: collection, query: [['labelSelector', how.runSelector]], headers: ACCEPT_GZIP })
      : undefined;
  const toSettle =
    all !== undefined && all.status >= 200 && all.status < 300
      ? await leftByCollectionDelete(collection, objects, all, how)
      : await deleteEach(collection, objects, how);
  const removed = await Promise.all(toSettle.map((a) => settle(a.path, a.r, deadline, how)));
  if (removed.includes(false)) return false;
  return waitUntilUnlisted(collection, objects, deadline, how);
}

/**
 * The answer lists what it deleted: an object it shows gone needs no read. Whatever else the
 * collection delete left (an object whose label a patch removed, one with finalizers) is followed
 * one by one from a read; a target that answered and kept one is caught by the wait after.
 */
async function leftByCollectionDelete(
  collection: string,
  objects: ReadonlyMap<string, string>,
  all: TargetResponse,
  how: Emptying,
): Promise<Pending[]> {
  const open = [...objects].filter(([name]) => !goneIn(all).has(name));
  const l = open.length > 0 ? await how.send({ method: 'GET', path: collection, headers: ACCEPT_GZIP }) : undefined;
  const listed = l?.status === 200 ? namesListed(l) : undefined;
  return open.filter(([name]) => listed === undefined || listed.has(name)).map(([, path]) => ({ path, r: NOT_SENT }));
}

/** Deletes each object; what is left to follow. */
async function deleteEach(collection: string, objects: ReadonlyMap<string, string>, how: Emptying): Promise<Pending[]> {
  const answered = await Promise.all(
    [...objects].map(async ([name, path]) => ({ name, path, r: await how.send({ method: 'DELETE', path }) })),
  );
  // A DELETE that answers "done" is still confirmed by a read of the current state (an object without
  // finalizers may linger: rest:3.1 does not show its removal): one list of the collection for
  // several objects, a GET for a single one.
  const followed = answered.filter((a) => !deletedAtOnce(a.r));
  const unconfirmed = answered.filter((a) => deletedAtOnce(a.r) && a.r.status !== 404);
  let stillThere = unconfirmed;
  if (unconfirmed.length >= 2) {
    const l = await how.send({ method: 'GET', path: collection });
    const listed = l.status === 200 ? namesListed(l) : undefined;
    if (listed !== undefined) stillThere = unconfirmed.filter((u) => listed.has(u.name));
  }
  return [...followed, ...stillThere.map((u) => ({ ...u, r: NOT_SENT }))];
}

/**
 * A list at resourceVersion 0 may be served from a cache that lags: the next case's model starts
 * from an empty namespace, so wait until the cache no longer shows what was deleted.
 */
async function waitUntilUnlisted(
  collection: string,
  objects: ReadonlyMap<string, string>,
  deadline: number,
  how: Emptying,
): Promise<boolean> {
  const waitFrom = how.now();
  let followed = false;
  for (let wait = 20; ; wait = Math.min(wait * 2, 500)) {
    const r = await how.send({ method: 'GET', path: collection, query: [['resourceVersion', '0']] });
    const listed = r.status === 200 ? namesListed(r) : undefined;
    if (listed === undefined) return r.status === 404 || r.status === 405;
    const left = [...objects].filter(([n]) => listed.has(n));
    if (left.length === 0) return true;
    if (how.now() > deadline) return false;
    // Longer than a cache lags: an object a delete's answer showed gone is followed from a read after all.
    if (!followed && how.now() - waitFrom > FOLLOW_AFTER_MS) {
      followed = true;
      const settled = await Promise.all(left.map(([, path]) => settle(path, NOT_SENT, deadline, how)));
      if (settled.includes(false)) return false;
    }
    await how.sleep(wait);
  }
}

/**
 * Follows one object's deletion from the answer `r` (NOT_SENT: read it first), stripping the
 * finalizers a case may have left and deleting again what is not marked for deletion; true once gone.
 */
async function settle(path: string, r: TargetResponse, deadline: number, how: Emptying): Promise<boolean> {
  for (let wait = 20; ; wait = Math.min(wait * 2, 500)) {
    if (r.status === 404) return true;
    r = await how.send({ method: 'GET', path });
    if (r.status === 404) return true;
    if (r.status !== 200) return false;
    const md = (r.json as { metadata?: { finalizers?: unknown; deletionTimestamp?: unknown } } | undefined)?.metadata;
    if (Array.isArray(md?.finalizers) && md.finalizers.length > 0) {
      await how.send({
        method: 'PATCH',
        path,
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ metadata: { finalizers: null } }),
      });
    } else if (md?.deletionTimestamp === undefined || md.deletionTimestamp === null) {
      await how.send({ method: 'DELETE', path });
    }
    if (how.now() > deadline) return false;
    await how.sleep(wait);
    r = NOT_SENT;
  }
}

/** The names of a list answer's items; undefined when it is not a list. */
function namesListed(r: TargetResponse): Set<string> | undefined {
  const items = (r.json as { items?: { metadata?: { name?: unknown } }[] } | undefined)?.items;
  if (!Array.isArray(items)) return undefined;
  return new Set(items.flatMap((it) => (typeof it?.metadata?.name === 'string' ? [it.metadata.name] : [])));
}

/** The names a collection delete's answer shows deleted at once (no finalizers, no deletionTimestamp). */
function goneIn(r: TargetResponse): Set<string> {
  const items = (r.json as { items?: unknown[] } | undefined)?.items;
  if (!Array.isArray(items)) return new Set();
  return new Set(
    items.flatMap((it) => {
      const md = (it as { metadata?: { name?: unknown; finalizers?: unknown; deletionTimestamp?: unknown } } | null)?.metadata;
      const held =
        (Array.isArray(md?.finalizers) && md.finalizers.length > 0) ||
        (md?.deletionTimestamp !== undefined && md.deletionTimestamp !== null);
      return typeof md?.name === 'string' && !held ? [md.name] : [];
    }),
  );
}

/**
 * A DELETE answer that says the object is gone: 404, a Status of Success, or the deleted object (200)
 * without a deletionTimestamp. 202 (removed in the background) and an object marked for deletion are not.
 */
export function deletedAtOnce(r: TargetResponse): boolean {
  if (r.status === 404) return true;
  if (r.status !== 200) return false;
  const body = r.json as { kind?: unknown; status?: unknown; metadata?: { deletionTimestamp?: unknown } } | null | undefined;
  if (typeof body !== 'object' || body === null) return false;
  if (body.kind === 'Status') return body.status === 'Success';
  const md = body.metadata;
  return typeof md === 'object' && md !== null && (md.deletionTimestamp === undefined || md.deletionTimestamp === null);
}
