/**
 * `--background-writes`: one write in a namespace of the run's own before every
 * request a check sends, so the cluster-wide resourceVersion moves between any two of its requests, as
 * it does when other checks (or a real cluster's other clients) write beside it. A failure that needed
 * other checks' writes between two of its pages reproduces alone with it.
 *
 * Deterministic on purpose: a writer on a timer would land between two requests only sometimes, and a
 * printed replay that reproduces sometimes is the defect the option exists to remove. The writes go
 * through the check's own client, so they are recorded in its transcript in the order they happened:
 * the counterexample lists them as steps and its curl script performs them in place.
 *
 * Safety: the namespace is created by the run (named under its prefix, labelled with its run label),
 * and the only object written is one ConfigMap there carrying the same label (docs/architecture.md "Safety").
 *
 *   before: GET list?limit=1          after: PATCH configmaps <run>-bg/bg   (write 1)
 *           GET list?continue=...            GET list?limit=1
 *                                            PATCH configmaps <run>-bg/bg   (write 2)
 *                                            GET list?continue=...
 */
import { collectionPath, objectPath, resourceTypes } from '../../reference/resources.ts';
import type { Profile } from '../../reference/profile.ts';
import {
  InfrastructureError,
  queryToString,
  RECORD_TO,
  recordedBy,
  type Exchange,
  type ExchangeRecorder,
  type Target,
  type TargetRequest,
} from '../transport/index.ts';

/** What a counterexample needs from the writer: the requests that made its namespace, and its writes told apart. */
export interface BackgroundWrites {
  /** The namespace and object creation, shown first in every reproduction (the writes need them). */
  readonly setup: readonly Exchange[];
  /** One step per background write among `exchanges`, naming the request of the check it preceded. */
  describe(exchanges: readonly Exchange[]): string[];
}

/** Steps listed one by one; a longer case gets a count for the rest (the curl script has them all). */
const LISTED = 40;

export class BackgroundWriter implements BackgroundWrites {
  private ready: Promise<void> | undefined;
  private writes = 0;
  private readonly made: Exchange[] = [];
  private readonly objectPath: string;
  private readonly namespacePath: string;

  constructor(
    private readonly target: Target,
    private readonly o: { readonly namespace: string; readonly profile: Profile; readonly runId: string },
  ) {
    const rt = resourceTypes(o.profile);
    this.objectPath = objectPath(rt.configmaps, 'bg', o.namespace);
    this.namespacePath = collectionPath(rt.namespaces);
  }

  get setup(): readonly Exchange[] {
    return this.made;
  }

  get namespace(): string {
    return this.o.namespace;
  }

  /**
   * One write, recorded by `to` (the check whose request it precedes); the first call creates the
   * namespace and the object (outside any check's transcript).
   */
  async write(to?: ExchangeRecorder): Promise<void> {
    // A failed setup is tried again by the next write rather than remembered.
    this.ready ??= this.create().catch((e: unknown) => {
      this.ready = undefined;
      throw e;
    });
    await this.ready;
    const n = ++this.writes;
    const r = await this.target.send(
      recordedBy(
        {
          method: 'PATCH',
          path: this.objectPath,
          headers: { 'content-type': 'application/merge-patch+json' },
          body: JSON.stringify({ data: { write: String(n) } }),
        },
        to,
      ),
    );
    // A writer that cannot write would make every replay beside it a replay alone: say so instead.
    if (r.status < 200 || r.status >= 300)
      throw new InfrastructureError(`--background-writes: PATCH ${this.objectPath} answered ${r.status}: ${r.bodyText.slice(0, 200)}`);
  }

  describe(exchanges: readonly Exchange[]): string[] {
    const out: string[] = [];
    let k = 0;
    exchanges.forEach((e, i) => {
      if (!this.isWrite(e)) return;
      k++;
      if (k > LISTED) return;
      const next = exchanges.slice(i + 1).find((x) => !this.isWrite(x));
      const rv = (e.response?.json as { metadata?: { resourceVersion?: unknown } } | undefined)?.metadata?.resourceVersion;
      out.push(
        `background write ${k}: merge-patch configmaps ${this.o.namespace}/bg (${e.response ? `${e.response.status}${typeof rv === 'string' ? `, resourceVersion ${rv}` : ''}` : (e.transportError ?? 'no answer')})${next ? `, before ${next.request.method} ${next.request.path}${queryToString(next.request.query)}` : ''}`,
      );
    });
    if (k > LISTED) out.push(`... ${k - LISTED} more background writes (the curl script performs every one in its place)`);
    return out;
  }

  private isWrite(e: Exchange): boolean {
    return e.request.method === 'PATCH' && e.request.path === this.objectPath;
  }

  private async create(): Promise<void> {
    const labels = { [this.o.profile.runLabel]: this.o.runId };
    const rt = resourceTypes(this.o.profile);
    const steps: TargetRequest[] = [
      {
        method: 'POST',
        path: this.namespacePath,
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: this.o.namespace, labels } },
      },
      {
        method: 'POST',
        path: collectionPath(rt.configmaps, this.o.namespace),
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bg', namespace: this.o.namespace, labels }, data: { write: '0' } },
      },
    ];
    for (const request of steps) {
      const startedAtMs = Date.now();
      const response = await this.target.send(request);
      // 409: made by an earlier attempt whose answer was lost; the writes only need it to exist.
      if ((response.status < 200 || response.status >= 300) && response.status !== 409) {
        throw new InfrastructureError(
          `--background-writes: ${request.method} ${request.path} answered ${response.status}: ${response.bodyText.slice(0, 200)}`,
        );
      }
      this.made.push({ seq: 0, request, response, startedAtMs, durationMs: 0 });
    }
  }
}

/** `target` with one background write before each request (and each watch it opens). */
export function withBackgroundWrites(target: Target, writer: BackgroundWriter): Target {
  return {
    server: target.server,
    async send(req) {
      await writer.write(req[RECORD_TO]);
      return target.send(req);
    },
    openStream: target.openStream
      ? async (req: TargetRequest) => {
          await writer.write(req[RECORD_TO]);
          return target.openStream!(req);
        }
      : undefined,
    close: () => target.close(),
  };
}
