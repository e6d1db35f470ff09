/**
 * A few namespaces leased to cases exclusively and reused. A namespace costs a real cluster a
 * service account, a root-CA config map and, on deletion, a sweep of every resource type; one per case
 * made a default run create thousands. A case leases a namespace for its whole life, so every check's
 * model still sees a collection to itself (paging over a whole namespace, remainingItemCount, watches
 * from resourceVersion 0); when the case ends the pool empties it of exactly the objects the run wrote
 * there (harness/case/namespace-emptying.ts) before another case may lease it. A namespace that will not
 * empty is retired (deleted) and replaced.
 *
 * Capacity: with N cases running at once and each needing at most two namespaces, N + 1 leases avoid a
 * deadlock (one waiting case always finds one free); the default of 5 serves 4 parallel checks.
 */
import type { ExchangeRecorder, Target, TargetRequest, TargetResponse } from '../transport/index.ts';
import type { ExchangeSink } from './footprint.ts';
import { InfrastructureError, recordedBy } from '../transport/index.ts';
import { EMPTY_TIMEOUT_MS, emptyWritten } from './namespace-emptying.ts';
import { SeenBefore, type VersionSet } from './prior-versions.ts';

export const DEFAULT_POOL_SIZE = 5;
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
        this.broken = new PreconditionFailed(
          `no clean namespace: the run's objects stayed in every namespace named by --namespace after ${EMPTY_TIMEOUT_MS / 1000} s of deleting them`,
        );
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
    const next: Slot | undefined = this.broken
      ? undefined
      : clean
        ? slot
        : this.size < this.o.capacity
          ? { name: this.o.nameOf(++this.made), exists: false }
          : undefined;
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
    const name =
      named !== undefined
        ? named
        : md?.kind !== 'Status' && typeof md?.metadata?.name === 'string'
          ? encodeURIComponent(md.metadata.name)
          : undefined;
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
    const body = res.json as
      | {
          metadata?: { resourceVersion?: unknown };
          items?: { metadata?: { resourceVersion?: unknown } }[];
          object?: { metadata?: { resourceVersion?: unknown } };
        }
      | undefined;
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

  /** Deletes what the run wrote in `ns` (namespace-emptying.ts); true once none of it is left. */
  private async empty(ns: string, to: ExchangeRecorder | undefined): Promise<boolean> {
    const paths = [...(this.written.get(ns) ?? [])];
    this.written.delete(ns);
    return emptyWritten(paths, {
      send: (req) => this.send(req, to),
      now: () => this.o.now(),
      sleep: (ms) => this.o.sleep(ms),
      runSelector: this.o.runSelector,
    });
  }
}
