/**
 * The safety guard of docs/architecture.md "Safety": a Target wrapper that refuses, before anything is sent, every
 * mutating request that could touch an object this run did not create, and the cleanup that removes
 * what the run did create.
 *
 * Allowed mutations:
 *  (a) POST of a namespace named `<prefix>` or `<prefix>-...` that carries `<runLabel>=<runId>`;
 *  (b) anything inside a namespace this run created; POST and PUT bodies must carry the run label;
 *  (c) PATCH/PUT/DELETE of a cluster-scoped object this run created (its namespaces included), and POST
 *      of a new cluster-scoped object carrying the run label (a test CRD);
 *  plus POSTs to the non-persisted review APIs (they create nothing).
 * Creations are learned from 2xx answers to allowed POSTs (never from dry runs).
 *
 * Cleanup: the CLI calls `cleanup()` explicitly on success and failure; `process.on('exit')` cannot
 * run asynchronous work, so only SIGINT/SIGTERM are handled here.
 */
import type { Target, TargetRequest, TargetResponse } from './exchange.ts';
import {
  REVIEW_RESOURCES,
  parsePath,
  metadataOf,
  carriesRunLabel,
  stringField,
  selectsRun,
  isRunNamespaceName,
  clusterKey,
  type RunIdentity,
} from './guard-rules.ts';

// The run's identity was defined here; its users take it from the guard still.
export { runIdentity } from './guard-rules.ts';
export type { RunIdentity } from './guard-rules.ts';

/** A request the guard refused; nothing was sent. A bug in a suite, never a target failure. */
export class SafetyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SafetyError';
  }
}

export interface CreatedObjects {
  readonly namespaces: readonly string[];
  /** Paths of cluster-scoped objects other than namespaces, in creation order. */
  readonly clusterObjects: readonly string[];
}

export interface GuardedTarget extends Target {
  created(): CreatedObjects;
}

interface GuardState {
  readonly namespaces: Set<string>;
  /** Collections of given namespaces the run created objects in: emptied of the run's label at cleanup. */
  readonly givenCollections: Set<string>;
  /** clusterKey -> object path */
  readonly clusterObjects: Map<string, string>;
  readonly run: RunIdentity;
}

const states = new WeakMap<GuardedTarget, GuardState>();

type Verdict = { readonly record?: (res: TargetResponse) => void; readonly unknownObject?: string };

/** What the guard of one run knows: what the run created, the namespaces it was given, and its own objects in them. */
interface Guarding {
  readonly state: GuardState;
  readonly run: RunIdentity;
  readonly given: ReadonlySet<string>;
  /** Objects of given namespaces read and found carrying the run's label. */
  readonly ownObjects: Set<string>;
}

/** One request's path, parsed, and the refusals every branch of the check shares. */
interface Asked {
  readonly req: TargetRequest;
  readonly parsed: Exclude<ReturnType<typeof parsePath>, string>;
  readonly refuse: (why: string) => never;
  /** Refuses a create or replace whose body does not carry the run's label. */
  readonly labelled: () => void;
  readonly dryRun: boolean;
}

/** Whether a mutating request may be sent, and what its answer teaches the guard; throws SafetyError when not. */
function checkRequest(g: Guarding, req: TargetRequest): Verdict {
  const { run } = g;
  const refuse = (why: string): never => {
    throw new SafetyError(`refused ${req.method} ${req.path}: ${why} (run ${run.runId})`);
  };
  const parsed = parsePath(req.path);
  if (typeof parsed === 'string') return refuse(parsed);
  const needsLabel = req.method === 'POST' || req.method === 'PUT';
  const labelled = (): void => {
    if (needsLabel && !carriesRunLabel(req.bodyView ?? req.body, run)) refuse(`body does not carry label ${run.labelKey}=${run.runId}`);
  };
  const asked: Asked = { req, parsed, refuse, labelled, dryRun: (req.query ?? []).some(([k]) => k === 'dryRun') };
  return parsed.namespace !== undefined ? checkNamespaced(g, asked, parsed.namespace) : checkClusterScoped(g, asked);
}

/** A request in a namespace: one the run created, or one it was given (--namespace), where only its own objects may be touched. */
function checkNamespaced(g: Guarding, { req, parsed, refuse, labelled }: Asked, namespace: string): Verdict {
  const { state, run, given, ownObjects } = g;
  const { prefix, resource, name } = parsed;
  if (given.has(namespace) && !state.namespaces.has(namespace)) {
    labelled();
    const collection = `${prefix}/namespaces/${encodeURIComponent(namespace)}/${encodeURIComponent(resource)}`;
    if (name === undefined) {
      if (req.method === 'POST')
        return {
          record: (res) => {
            state.givenCollections.add(collection);
            const made = stringField(metadataOf(res.json), 'name');
            if (made !== undefined && (req.query ?? []).every(([k]) => k !== 'dryRun'))
              ownObjects.add(`${collection}/${encodeURIComponent(made)}`);
          },
        };
      if (!selectsRun(req, run))
        refuse(
          `${req.method} of a collection in namespace ${namespace} (named by --namespace) without the selector ${run.labelKey}=${run.runId}`,
        );
      return {};
    }
    // Only the run's own objects: the guard reads an object it does not know before the first write to it.
    const object = `${collection}/${encodeURIComponent(name)}`;
    return {
      unknownObject: object,
      record: () => {
        state.givenCollections.add(collection);
        ownObjects.add(object);
      },
    };
  }
  if (!state.namespaces.has(namespace)) refuse(`namespace ${namespace} was not created by this run`);
  labelled();
  return {};
}

/** A cluster-scoped request: a create of a namespace or object of the run's, or a write to one the run created. */
function checkClusterScoped(g: Guarding, { req, parsed, refuse, labelled, dryRun }: Asked): Verdict {
  const { state, run } = g;
  const { prefix, group, resource, name, subresource } = parsed;
  const isNamespaces = group === '' && resource === 'namespaces';
  if (name === undefined) {
    if (req.method !== 'POST') return refuse(`${req.method} on a whole cluster-scoped collection`);
    if (REVIEW_RESOURCES.has(resource)) return {};
    labelled();
    const meta = metadataOf(req.body);
    const given = stringField(meta, 'name');
    const generate = stringField(meta, 'generateName');
    if (isNamespaces) {
      const ok =
        given !== undefined ? isRunNamespaceName(given, run) : generate !== undefined && generate.startsWith(`${run.namespacePrefix}-`);
      if (!ok) refuse(`namespace name ${given ?? generate ?? '(none)'} does not start with ${run.namespacePrefix}-`);
    }
    if (dryRun) return {};
    return {
      record: (res) => {
        const created = stringField(metadataOf(res.json), 'name') ?? given;
        if (created === undefined) return;
        if (isNamespaces) {
          if (isRunNamespaceName(created, run)) state.namespaces.add(created);
        } else {
          state.clusterObjects.set(clusterKey(group, resource, created), `${prefix}/${resource}/${encodeURIComponent(created)}`);
        }
      },
    };
  }

  const own = isNamespaces ? state.namespaces.has(name) : state.clusterObjects.has(clusterKey(group, resource, name));
  if (!own) refuse(`${resource}/${name} was not created by this run`);
  if (req.method === 'POST' && subresource.length === 0) refuse('POST to an object path');
  labelled();
  return {};
}

export function createGuardedTarget(inner: Target, run: RunIdentity): GuardedTarget {
  const state: GuardState = { namespaces: new Set(), givenCollections: new Set(), clusterObjects: new Map(), run };
  const g: Guarding = { state, run, given: new Set(run.givenNamespaces ?? []), ownObjects: new Set<string>() };
  const ownObjects = g.ownObjects;
  const check = (req: TargetRequest): Verdict => checkRequest(g, req);

  const guarded: GuardedTarget = {
    server: inner.server,
    // Streams are reads (watch): nothing to guard, but only GETs may be streamed.
    openStream: inner.openStream
      ? (req: TargetRequest) => {
          if (req.method !== 'GET') throw new SafetyError(`refusing to stream a ${req.method} request`);
          return inner.openStream!(req);
        }
      : undefined,
    async send(req: TargetRequest): Promise<TargetResponse> {
      if (req.method === 'GET') return inner.send(req);
      const verdict = check(req);
      if (verdict.unknownObject !== undefined && !ownObjects.has(verdict.unknownObject)) {
        const found = await inner.send({ method: 'GET', path: verdict.unknownObject });
        if (found.status === 200 && !carriesRunLabel(found.json, run))
          throw new SafetyError(
            `refused ${req.method} ${req.path}: the object is not this run's (no label ${run.labelKey}=${run.runId}) (run ${run.runId})`,
          );
        if (found.status !== 200 && found.status !== 404)
          throw new SafetyError(
            `refused ${req.method} ${req.path}: could not tell whose object it is (GET answered ${found.status}) (run ${run.runId})`,
          );
        if (found.status === 200) ownObjects.add(verdict.unknownObject);
      }
      const res = await inner.send(req);
      if (verdict.record && res.status >= 200 && res.status < 300) verdict.record(res);
      return res;
    },
    close: () => inner.close(),
    created: () => ({ namespaces: [...state.namespaces], clusterObjects: [...state.clusterObjects.values()] }),
  };
  states.set(guarded, state);
  return guarded;
}

export interface CleanupOptions {
  /** Overall bound for cleanup. Default 60 s. */
  timeoutMs?: number;
  /** Install SIGINT/SIGTERM handlers. Default true. */
  signals?: boolean;
  /** Injected in tests; default process.exit. */
  exit?: (code: number) => void;
  /** One line per event; default stderr. */
  log?: (line: string) => void;
}

export interface CleanupHandle {
  /** Deletes what the run created; runs once (later calls share the first run). Throws one line when objects are left. */
  cleanup(): Promise<void>;
  /** Removes the signal handlers. */
  dispose(): void;
}

export function registerCleanup(target: GuardedTarget, identity: RunIdentity, opts: CleanupOptions = {}): CleanupHandle {
  const state = states.get(target);
  if (!state) throw new TypeError('registerCleanup needs a target made by createGuardedTarget');
  if (state.run.runId !== identity.runId)
    throw new TypeError(`registerCleanup: run ${identity.runId} does not match the guard's run ${state.run.runId}`);
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let running: Promise<void> | undefined;

  const cleanup = (): Promise<void> => (running ??= runCleanup(target, state, timeoutMs));

  const handlers = (['SIGINT', 'SIGTERM'] as const).map((signal) => {
    const handler = (): void => {
      log(`svc-conformance: ${signal}: deleting what run ${identity.runId} created (again to abort)`);
      cleanup()
        .catch((err: unknown) => log(`svc-conformance: ${err instanceof Error ? err.message : String(err)}`))
        .finally(() => exit(signal === 'SIGINT' ? 130 : 143));
    };
    return { signal, handler };
  });
  if (opts.signals !== false) for (const { signal, handler } of handlers) process.once(signal, handler);

  return {
    cleanup,
    dispose: () => {
      for (const { signal, handler } of handlers) process.removeListener(signal, handler);
    },
  };
}

async function runCleanup(target: GuardedTarget, state: GuardState, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const { run } = state;
  // A namespace whose create response was lost (timeout after the server applied it) is still ours
  // if it carries our label and prefix: find those by label before deleting.
  try {
    const selector = `${run.labelKey}=${run.runId}`;
    const res = await withDeadline(
      target.send({ method: 'GET', path: '/api/v1/namespaces', query: [['labelSelector', selector]] }),
      deadline,
    );
    const items = (res?.json as { items?: unknown } | undefined)?.items;
    if (res?.status === 200 && Array.isArray(items)) {
      for (const item of items) {
        const name = stringField(metadataOf(item), 'name');
        if (name !== undefined && isRunNamespaceName(name, run) && carriesRunLabel(item, run)) state.namespaces.add(name);
      }
    }
  } catch {
    // The sweep is best effort; the recorded creations below are the contract.
  }

  const paths = [
    ...[...state.clusterObjects.values()].reverse(),
    ...[...state.namespaces].map((ns) => `/api/v1/namespaces/${encodeURIComponent(ns)}`),
  ];
  const left: string[] = [];
  // In the user's namespaces only the run's objects go, by its label; the namespaces stay.
  await Promise.all(
    [...state.givenCollections].map(async (path) => {
      try {
        const res = await withDeadline(
          target.send({ method: 'DELETE', path, query: [['labelSelector', `${run.labelKey}=${run.runId}`]] }),
          deadline,
        );
        if (res !== undefined && res.status !== 404 && res.status !== 405 && (res.status < 200 || res.status > 299))
          left.push(`objects labelled ${run.labelKey}=${run.runId} in ${path} (${res.status})`);
      } catch (err) {
        left.push(`objects labelled ${run.labelKey}=${run.runId} in ${path} (${err instanceof Error ? err.message : String(err)})`);
      }
    }),
  );
  await Promise.all(
    paths.map(async (path) => {
      try {
        const res = await withDeadline(target.send({ method: 'DELETE', path }), deadline);
        if (res === undefined) left.push(`${path} (timed out)`);
        else if (res.status === 404 || (res.status >= 200 && res.status < 300)) return;
        else left.push(`${path} (${res.status})`);
      } catch (err) {
        left.push(`${path} (${err instanceof Error ? err.message : String(err)})`);
      }
    }),
  );
  if (left.length > 0) throw new Error(`cleanup of run ${run.runId} left ${left.length} object(s): ${left.join('; ')}`);
}

/** undefined when the deadline passed first; the request itself is not cancelled. */
async function withDeadline<T>(p: Promise<T>, deadline: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()));
    timer.unref();
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
