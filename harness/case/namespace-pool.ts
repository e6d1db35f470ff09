/**
 * A few namespaces leased to cases exclusively and reused. A namespace costs a real cluster a
 * service account, a root-CA config map and, on deletion, a sweep of every resource type; one per case
 * made a default run create thousands. A case leases a namespace for its whole life, so every check's
 * model still sees a collection to itself (paging over a whole namespace, remainingItemCount, watches
 * from resourceVersion 0); when the case ends the pool deletes exactly the objects the run wrote there
 * (several of one collection by one delete of the collection selecting the run's label)
 * (foreign ones such as the controller manager's root-CA config map stay, as in a fresh namespace),
 * strips finalizers a case left, and waits until the watch cache no longer lists them before another
 * case may lease it. A namespace that will not empty is retired (deleted) and replaced.
 *
 * Capacity: with N cases running at once and each needing at most two namespaces, N + 1 leases avoid a
 * deadlock (one waiting case always finds one free); the default of 5 serves 4 parallel checks.
 */
import type { ExchangeRecorder, Target, TargetRequest, TargetResponse } from '../transport/index.ts';
import type { ExchangeSink } from './footprint.ts';
import { ACCEPT_GZIP, InfrastructureError, recordedBy } from '../transport/index.ts';

export const DEFAULT_POOL_SIZE = 5;
/** How long emptying one namespace may take before it is retired. */
const EMPTY_TIMEOUT_MS = 10_000;
/** How long a cache may go on showing deleted objects before they are followed one by one. */
const FOLLOW_AFTER_MS = 1_000;
/**
 * Namespaces retired in a row, none emptied between them, after which the target is taken to break
 * the run's precondition (a clean namespace per case): the run ends instead of making more.
 */
export const RETIRED_IN_A_ROW_LIMIT = 8;

/** The start of the note of every check a broken precondition ended; the CLI finds it there. */
export const PRECONDITION_FAILED = 'precondition failed: ';

/** No clean namespace can be had from the target: every check that needs one ends with this error. */
export class PreconditionFailed extends InfrastructureError {
  constructor(why: string) {
    super(`${PRECONDITION_FAILED}${why}`);
  }
}

interface Slot {
  readonly name: string;
  /** false until the lessee created it: a failed creation frees the slot. */
  exists: boolean;
}

export interface Lease {
  readonly name: string;
  /** The lessee must create (POST) the namespace; otherwise it exists and is empty of the run's objects. */
  readonly isNew: boolean;
  /**
   * Object resourceVersions the target returned in this namespace under earlier leases. A read the spec
   * lets be served from any past state (rv="0") may show them: states the lessee's model never held.
   */
  readonly priorVersions: VersionSet;
}

/** What the oracles read of a set of versions (reference/read-oracle.ts): membership and emptiness. */
export interface VersionSet {
  has(v: string): boolean;
  readonly size: number;
}

/**
 * The versions a namespace answered before a lease began: a view of the pool's record (version -> order
 * first seen), not a copy of it per lease; versions seen after the lease began are not in it.
 */
class SeenBefore implements VersionSet {
  constructor(
    private readonly seen: ReadonlyMap<string, number>,
    readonly size: number,
  ) {}

  has(v: string): boolean {
    const at = this.seen.get(v);
    return at !== undefined && at < this.size;
  }
}

/**
 * A case's prior versions: those of every pooled namespace it reused. Different namespaces hold
 * different objects, so their versions are apart and the sizes add up.
 */
export class PriorVersions implements VersionSet {
  private readonly parts: VersionSet[] = [];

  include(part: VersionSet): void {
    if (part.size > 0) this.parts.push(part);
  }

  has(v: string): boolean {
    return this.parts.some((p) => p.has(v));
  }

  get size(): number {
    return this.parts.reduce((n, p) => n + p.size, 0);
  }
}

export class NamespacePool {
  private readonly idle: Slot[] = [];
  private readonly busy = new Map<string, Slot>();
  private readonly waiting: { resolve: (s: Slot) => void; reject: (e: Error) => void }[] = [];
  private retiredInARow = 0;
  /** Set once no clean namespace can be had (see RETIRED_IN_A_ROW_LIMIT). */
  broken: PreconditionFailed | undefined;
  /** Object paths the run wrote per namespace, to delete when the lease ends. */
  private readonly written = new Map<string, Set<string>>();
  /** Object resourceVersions answered per namespace over the whole run, each with the order it was first seen in (see `Lease.priorVersions`). */
  private readonly versions = new Map<string, Map<string, number>>();
  private made = 0;
  retired = 0;
  /** The namespaces are the user's (`--namespace`): never created, relabelled nor deleted by the run. */
  readonly given: boolean;

  constructor(
    private readonly target: Target,
    private readonly o: {
      readonly capacity: number;
      readonly nameOf: (n: number) => string;
      readonly sleep: (ms: number) => Promise<void>;
      readonly now: () => number;
      /**
       * The run's label as a selector (`key=runId`): every object the run creates or replaces carries it
       * (the guard refuses a body without it), so in a namespace leased to one case a collection delete
       * with it removes that case's objects, and only the run's, in one request.
       */
      readonly runSelector?: string;
      /**
       * Namespaces the user named (`--namespace`): the pool's only slots, existing from the start; a
       * case never creates, relabels or deletes one, and one that will not empty is set aside, not deleted.
       */
      readonly given?: readonly string[];
    },
  ) {
    this.given = (o.given ?? []).length > 0;
    for (const name of o.given ?? []) this.idle.push({ name, exists: true });
  }

  /** How many namespaces one case may hold at once: with given namespaces, all of them. */
  get givenCount(): number {
    return this.given ? this.o.given!.length : Infinity;
  }

  get size(): number {
    return this.idle.length + this.busy.size;
  }

  owns(ns: string): boolean {
    return this.busy.has(ns) || this.idle.some((s) => s.name === ns);
  }

  /** `sink`: the leasing check's, which is charged the wait. */
  async lease(sink?: ExchangeSink): Promise<Lease> {
    if (this.broken) throw this.broken;
    let slot = this.idle.shift();
    if (!slot && !this.given && this.size < this.o.capacity) slot = { name: this.o.nameOf(++this.made), exists: false };
    if (!slot) {
      const t0 = performance.now();
      slot = await new Promise<Slot>((resolve, reject) => this.waiting.push({ resolve, reject }));
      const fp = sink?.footprint;
      if (fp) fp.namespaceWaitMs += Math.round(performance.now() - t0);
    }
    this.busy.set(slot.name, slot);
    let seen = this.versions.get(slot.name);
    if (!seen) this.versions.set(slot.name, (seen = new Map()));
    return { name: slot.name, isNew: !slot.exists, priorVersions: new SeenBefore(seen, seen.size) };
  }

  /** The namespace was found gone (the target deleted it): the lessee must create it again. */
  lost(ns: string): void {
    const s = this.busy.get(ns);
    if (s) s.exists = false;
  }

  /** The lessee created the namespace it was handed. */
  created(ns: string): void {
    const s = this.busy.get(ns);
    if (s) s.exists = true;
  }

  /**
   * Ends a lease: deletes what the run wrote in the namespace, then hands it to the next case. `to`:
   * where those requests are recorded (the releasing check's sink; without one the run's transcript).
   */
  async release(ns: string, to?: ExchangeRecorder): Promise<void> {
    const slot = this.busy.get(ns);
    if (!slot) return;
    const wrote = (this.written.get(ns)?.size ?? 0) > 0;
    const clean = slot.exists ? await this.empty(ns, to).catch(() => false) : false;
    if (clean && wrote) this.retiredInARow = 0;
    if (this.given && !clean) {
      // The user's namespace is never deleted: one still holding the run's objects is set aside.
      this.busy.delete(ns);
      this.written.delete(ns);
      this.retired++;
      if (this.size === 0 && !this.broken) {
        this.broken = new PreconditionFailed(`no clean namespace: the run's objects stayed in every namespace named by --namespace after ${EMPTY_TIMEOUT_MS / 1000} s of deleting them`);
        for (const w of this.waiting.splice(0)) w.reject(this.broken);
      }
      return;
    }
    if (!clean && slot.exists && ++this.retiredInARow >= RETIRED_IN_A_ROW_LIMIT && !this.broken) {
      this.broken = new PreconditionFailed(
        `no clean namespace: the last ${this.retiredInARow} namespaces the run emptied still held objects it had deleted (DELETE answered, the objects still there after ${EMPTY_TIMEOUT_MS / 1000} s each)`,
      );
      for (const w of this.waiting.splice(0)) w.reject(this.broken);
    }
    // Emptying itself writes (finalizer patches): nothing of it is left for the next lessee.
    this.written.delete(ns);
    this.busy.delete(ns);
    if (!clean && slot.exists) {
      this.retired++;
      await this.send({ method: 'DELETE', path: `/api/v1/namespaces/${encodeURIComponent(ns)}` }, to).catch(() => undefined);
    }
    const next: Slot | undefined = this.broken ? undefined : clean ? slot : this.size < this.o.capacity ? { name: this.o.nameOf(++this.made), exists: false } : undefined;
    if (!next) return;
    const waiter = this.waiting.shift();
    if (waiter) {
      this.busy.set(next.name, next);
      waiter.resolve(next);
    } else this.idle.push(next);
  }

  /** Learns what a write put into a pooled namespace (called for every answered request). */
  noteWrite(req: TargetRequest, res: TargetResponse): void {
    this.noteVersions(req, res);
    if (req.method === 'GET' || req.method === 'DELETE' || res.status < 200 || res.status >= 300) return;
    // Dry-run writes are tracked like real ones: whether the bare flag persists is open (rest:4.6.1),
    // and a target that wrongly persists a dryRun=All write must not leave it to the next case (nor
    // to fast-check's shrinking, which would then blame an innocent create). Deleting what was not
    // stored costs one 404.
    const seg = req.path.split('/');
    const at = seg.indexOf('namespaces');
    // /api/v1/namespaces/<ns>/<resource>[/<name>[/<sub>]] or /apis/<g>/<v>/namespaces/...
    if (at < 0 || at + 2 >= seg.length) return;
    const ns = decodeURIComponent(seg[at + 1]!);
    if (!this.busy.has(ns)) return;
    const collection = seg.slice(0, at + 3).join('/');
    const named = seg[at + 3];
    const md = res.json as { kind?: unknown; metadata?: { name?: unknown } } | undefined;
    const name = named !== undefined ? named : md?.kind !== 'Status' && typeof md?.metadata?.name === 'string' ? encodeURIComponent(md.metadata.name) : undefined;
    if (name === undefined) return;
    let set = this.written.get(ns);
    if (!set) this.written.set(ns, (set = new Set()));
    set.add(`${collection}/${name}`);
  }

  /** Every object resourceVersion an answer about a pooled namespace carries (items of a list included). */
  private noteVersions(req: TargetRequest, res: TargetResponse): void {
    const seg = req.path.split('/');
    const at = seg.indexOf('namespaces');
    if (at < 0 || at + 2 >= seg.length) return;
    const ns = decodeURIComponent(seg[at + 1]!);
    if (!this.owns(ns)) return;
    const body = res.json as { metadata?: { resourceVersion?: unknown }; items?: { metadata?: { resourceVersion?: unknown } }[]; object?: { metadata?: { resourceVersion?: unknown } } } | undefined;
    let seen = this.versions.get(ns);
    if (!seen) this.versions.set(ns, (seen = new Map()));
    const add = (v: unknown) => {
      if (typeof v === 'string' && !seen.has(v)) seen.set(v, seen.size);
    };
    if (Array.isArray(body?.items)) for (const it of body.items) add(it?.metadata?.resourceVersion);
    else add(body?.metadata?.resourceVersion);
  }

  private send(req: TargetRequest, to: ExchangeRecorder | undefined): Promise<TargetResponse> {
    return this.target.send(recordedBy(req, to));
  }

  private async empty(ns: string, to: ExchangeRecorder | undefined): Promise<boolean> {
    const paths = [...(this.written.get(ns) ?? [])];
    this.written.delete(ns);
    if (paths.length === 0) return true;
    const deadline = this.o.now() + EMPTY_TIMEOUT_MS;
    const byCollection = new Map<string, Map<string, string>>();
    for (const p of paths) {
      const i = p.lastIndexOf('/');
      const c = p.slice(0, i);
      if (!byCollection.has(c)) byCollection.set(c, new Map());
      byCollection.get(c)!.set(decodeURIComponent(p.slice(i + 1)), p);
    }
    const emptied = await Promise.all([...byCollection].map(([c, objects]) => this.emptyCollection(c, objects, deadline, to)));
    return !emptied.includes(false);
  }

  /** Deletes the run's objects (name -> path) of one collection; true once none is left, in any read. */
  private async emptyCollection(collection: string, objects: ReadonlyMap<string, string>, deadline: number, to: ExchangeRecorder | undefined): Promise<boolean> {
    let toSettle: { path: string; r: TargetResponse }[];
    // The collection delete answers with every object it deleted: gzipped where the target can.
    const all =
      objects.size >= 2 && this.o.runSelector !== undefined
        ? await this.send({ method: 'DELETE', path: collection, query: [['labelSelector', this.o.runSelector]], headers: ACCEPT_GZIP }, to)
        : undefined;
    if (all !== undefined && all.status >= 200 && all.status < 300) {
      // The answer lists what it deleted: an object it shows gone needs no read. Whatever else the
      // collection delete left (an object whose label a patch removed, one with finalizers) is followed
      // one by one from a read; a target that answered and kept one is caught by the wait below.
      const open = [...objects].filter(([name]) => !goneIn(all).has(name));
      const l = open.length > 0 ? await this.send({ method: 'GET', path: collection, headers: ACCEPT_GZIP }, to) : undefined;
      const listed = l?.status === 200 ? namesListed(l) : undefined;
      toSettle = open.filter(([name]) => listed === undefined || listed.has(name)).map(([, path]) => ({ path, r: NOT_SENT }));
    } else {
      const answered = await Promise.all([...objects].map(async ([name, path]) => ({ name, path, r: await this.send({ method: 'DELETE', path }, to) })));
      // A DELETE that answers "done" is still confirmed by a read of the current state (an object without
      // finalizers may linger: rest:3.1 does not show its removal): one list of the collection for
      // several objects, a GET for a single one.
      const followed = answered.filter((a) => !deletedAtOnce(a.r));
      const unconfirmed = answered.filter((a) => deletedAtOnce(a.r) && a.r.status !== 404);
      let stillThere = unconfirmed;
      if (unconfirmed.length >= 2) {
        const l = await this.send({ method: 'GET', path: collection }, to);
        const listed = l.status === 200 ? namesListed(l) : undefined;
        if (listed !== undefined) stillThere = unconfirmed.filter((u) => listed.has(u.name));
      }
      toSettle = [...followed, ...stillThere.map((u) => ({ ...u, r: NOT_SENT }))];
    }
    const removed = await Promise.all(toSettle.map((a) => this.settle(a.path, a.r, deadline, to)));
    if (removed.includes(false)) return false;
    // A list at resourceVersion 0 may be served from a cache that lags: the next case's model starts
    // from an empty namespace, so wait until the cache no longer shows what was deleted.
    const waitFrom = this.o.now();
    let followed = false;
    for (let wait = 20; ; wait = Math.min(wait * 2, 500)) {
      const r = await this.send({ method: 'GET', path: collection, query: [['resourceVersion', '0']] }, to);
      const listed = r.status === 200 ? namesListed(r) : undefined;
      if (listed === undefined) return r.status === 404 || r.status === 405;
      const left = [...objects].filter(([n]) => listed.has(n));
      if (left.length === 0) return true;
      if (this.o.now() > deadline) return false;
      // Longer than a cache lags: an object a delete's answer showed gone is followed from a read after all.
      if (!followed && this.o.now() - waitFrom > FOLLOW_AFTER_MS) {
        followed = true;
        const settled = await Promise.all(left.map(([, path]) => this.settle(path, NOT_SENT, deadline, to)));
        if (settled.includes(false)) return false;
      }
      await this.o.sleep(wait);
    }
  }

  /**
   * Follows one object's deletion from the answer `r` (NOT_SENT: read it first), stripping the
   * finalizers a case may have left and deleting again what is not marked for deletion; true once gone.
   */
  private async settle(path: string, r: TargetResponse, deadline: number, to: ExchangeRecorder | undefined): Promise<boolean> {
    for (let wait = 20; ; wait = Math.min(wait * 2, 500)) {
      if (r.status === 404) return true;
      r = await this.send({ method: 'GET', path }, to);
      if (r.status === 404) return true;
      if (r.status !== 200) return false;
      const md = (r.json as { metadata?: { finalizers?: unknown; deletionTimestamp?: unknown } } | undefined)?.metadata;
      if (Array.isArray(md?.finalizers) && md.finalizers.length > 0) {
        await this.send({ method: 'PATCH', path, headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ metadata: { finalizers: null } }) }, to);
      } else if (md?.deletionTimestamp === undefined || md.deletionTimestamp === null) {
        await this.send({ method: 'DELETE', path }, to);
      }
      if (this.o.now() > deadline) return false;
      await this.o.sleep(wait);
      r = NOT_SENT;
    }
  }
}

const NOT_SENT: TargetResponse = { status: 0, headers: {}, bodyText: '', json: undefined };

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
      const held = (Array.isArray(md?.finalizers) && md.finalizers.length > 0) || (md?.deletionTimestamp !== undefined && md.deletionTimestamp !== null);
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
