/**
 * What a check's requests reached on the target, counted from the exchanges the
 * harness records anyway, never from requests of its own: answers by class, the rest:4.5 table cells
 * requested, pages and continue chains, watches opened, resumed and expired, hooks crossed, apply
 * conflicts met, and the largest list and object seen. Plain numbers, so the counts travel with the
 * check's footprint from a vitest worker to the CLI and add up across checks.
 *
 *   GET /api/v1/namespaces/x/configmaps?limit=2            -> 2xx, cell rest:4.5/list/unset/limit/unset, 1 page
 *   GET ...?limit=2&continue=T (T from the answer above)    -> 2xx, cell .../limit-continue/unset, chain 2
 */
import { classifyList } from '../../reference/query.ts';
import { getClause, listClause, rvColumn, watchClause } from '../../reference/rv-semantics.ts';
import type { Exchange } from '../transport/index.ts';

export interface CheckReach {
  /** Answers by class (`2xx`, `4xx`, ...), and by status for 409, 410, 429 and 504; `none`: no answer came. */
  answers: Record<string, number>;
  /** rest:4.5 get, list and watch cells: requests answered (other than 401/403) per cell clause id. */
  cells: Record<string, number>;
  /** List pages answered 2xx to a request with a limit. */
  pages: number;
  /** Pages in the longest chain linked by continue tokens (the first page counts). */
  longestChain: number;
  /** `delivering`: watches answered 200 whose stream carried at least one event of a change (ADDED, MODIFIED, DELETED, or those types spelt otherwise). */
  watches: { opened: number; resumed: number; expired: number; delivering: number };
  /** Compact and restart hooks that completed inside the check. */
  compactions: number;
  restarts: number;
  /** Server-side apply requests answered 409 Conflict. */
  applyConflicts: number;
  /** Most items in one list answer. */
  largestList: number;
  /** Largest single object sent or received, in bytes of its serialised body. */
  largestObjectBytes: number;
}

export const emptyReach = (): CheckReach => ({
  answers: {},
  cells: {},
  pages: 0,
  longestChain: 0,
  watches: { opened: 0, resumed: 0, expired: 0, delivering: 0 },
  compactions: 0,
  restarts: 0,
  applyConflicts: 0,
  largestList: 0,
  largestObjectBytes: 0,
});

/** Per check: the chain length behind each continue token handed out, and the versions watch events carried. */
interface ReachMemory {
  readonly chains: Map<string, number>;
  readonly watchedVersions: Set<string>;
}
const memories = new WeakMap<CheckReach, ReachMemory>();
const memoryOf = (r: CheckReach): ReachMemory => {
  let m = memories.get(r);
  if (m === undefined) memories.set(r, (m = { chains: new Map(), watchedVersions: new Set() }));
  return m;
};

const SPECIAL_STATUSES = new Set([409, 410, 429, 504]);

/** Counts one exchange; `sentBytes` is the size of its serialised request body (the footprint measures it already). */
export function countReach(r: CheckReach, e: Exchange, sentBytes: number): void {
  const res = e.response;
  const bump = (rec: Record<string, number>, k: string) => (rec[k] = (rec[k] ?? 0) + 1);
  if (res === undefined) {
    bump(r.answers, 'none');
    return;
  }
  bump(r.answers, `${Math.floor(res.status / 100)}xx`);
  if (SPECIAL_STATUSES.has(res.status)) bump(r.answers, String(res.status));
  const req = e.request;
  if (req.method !== 'GET') {
    if (req.method === 'PATCH' && res.status === 409 && /apply-patch/i.test(headerOf(req.headers, 'content-type') ?? ''))
      r.applyConflicts++;
    if (req.method !== 'DELETE') r.largestObjectBytes = Math.max(r.largestObjectBytes, sentBytes);
    return;
  }
  const shape = readShape(req.path);
  if (shape === undefined) return;
  const query = req.query ?? [];
  const param = (name: string) => query.find(([k]) => k === name)?.[1] ?? undefined;
  const watch = param('watch');
  const refused = res.status === 401 || res.status === 403;
  if (watch === '1' || watch === 'true') {
    countWatch(r, e, param('resourceVersion'), refused);
    return;
  }
  if (shape === 'get') {
    if (!refused) bump(r.cells, getClause(rvColumn(param('resourceVersion'))));
    if (res.status >= 200 && res.status < 300) r.largestObjectBytes = Math.max(r.largestObjectBytes, Buffer.byteLength(res.bodyText));
    return;
  }
  const q = classifyList(query);
  if (q.ok && !refused) bump(r.cells, listClause(q.cell.match, q.cell.paging, q.cell.rv));
  if (res.status < 200 || res.status >= 300) return;
  const body = res.json as { items?: unknown; metadata?: { continue?: unknown } } | undefined;
  if (Array.isArray(body?.items)) r.largestList = Math.max(r.largestList, body.items.length);
  if (!q.ok || q.limit === undefined) return;
  r.pages++;
  const chains = memoryOf(r).chains;
  const length = q.continueToken === undefined ? 1 : (chains.get(q.continueToken) ?? 1) + 1;
  r.longestChain = Math.max(r.longestChain, length);
  const next = body?.metadata?.continue;
  if (typeof next === 'string' && next !== '') chains.set(next, length);
}

function countWatch(r: CheckReach, e: Exchange, rv: string | undefined, refused: boolean): void {
  const res = e.response!;
  if (!refused) r.cells[watchClause(rvColumn(rv))] = (r.cells[watchClause(rvColumn(rv))] ?? 0) + 1;
  const seen = memoryOf(r).watchedVersions;
  if (res.status === 410) r.watches.expired++;
  if (res.status !== 200) return;
  r.watches.opened++;
  // A resume starts from where an earlier watch of the check was: a version it delivered (an event, a
  // bookmark) or, when it delivered nothing, the version it started from.
  if (rv !== undefined && rv !== '' && rv !== '0') {
    if (seen.has(rv)) r.watches.resumed++;
    else seen.add(rv);
  }
  let delivered = false;
  for (const line of res.bodyText.split('\n')) {
    if (!line.startsWith('{')) continue;
    let event: { type?: unknown; object?: { code?: unknown; metadata?: { resourceVersion?: unknown } } };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      continue;
    }
    // A change however its type is spelt: a stream of "added" events delivered, it is not silent.
    if (typeof event.type === 'string' && !['BOOKMARK', 'ERROR'].includes(event.type.toUpperCase()) && event.object !== undefined)
      delivered = true;
    if (event.type === 'ERROR' && event.object?.code === 410) r.watches.expired++;
    const v = event.object?.metadata?.resourceVersion;
    if (typeof v === 'string' && v !== '') seen.add(v);
  }
  if (delivered) r.watches.delivering++;
}

/** `get` for one object, `list` for a collection, undefined for anything else (discovery, health, subresources). */
function readShape(path: string): 'get' | 'list' | undefined {
  const seg = path.split('/').filter(Boolean);
  let rest = seg[0] === 'api' && seg.length >= 2 ? seg.slice(2) : seg[0] === 'apis' && seg.length >= 3 ? seg.slice(3) : undefined;
  if (rest === undefined || rest.length === 0) return undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) rest = rest.slice(2);
  return rest.length === 1 ? 'list' : rest.length === 2 ? 'get' : undefined;
}

function headerOf(headers: Readonly<Record<string, string>> | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** Sums of several checks' reach; the longest chain and the largest list and object are maxima. */
export function sumReach(all: readonly CheckReach[]): CheckReach {
  const out = emptyReach();
  const add = (into: Record<string, number>, from: Record<string, number>) => {
    for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
  };
  for (const r of all) {
    add(out.answers, r.answers);
    add(out.cells, r.cells);
    out.pages += r.pages;
    out.longestChain = Math.max(out.longestChain, r.longestChain);
    out.watches.opened += r.watches.opened;
    out.watches.resumed += r.watches.resumed;
    out.watches.expired += r.watches.expired;
    out.watches.delivering += r.watches.delivering;
    out.compactions += r.compactions;
    out.restarts += r.restarts;
    out.applyConflicts += r.applyConflicts;
    out.largestList = Math.max(out.largestList, r.largestList);
    out.largestObjectBytes = Math.max(out.largestObjectBytes, r.largestObjectBytes);
  }
  return out;
}

/** A `--require` minimum and what the run reached (reports/require.ts). */
export interface RequirementResult {
  readonly key: string;
  readonly min: number;
  readonly actual: number;
  readonly met: boolean;
}

export interface TableCells {
  readonly hit: number;
  readonly of: number;
  readonly get: number;
  readonly list: number;
  readonly watch: number;
  /** Cells no request of the run fell into. */
  readonly missed: readonly string[];
}

/** The run's scorecard, as summary.json carries it (built by reports/scorecard.ts). */
export interface Scorecard {
  /** Answers by class, and 409, 410, 429, 504 by status; `none`: no answer came (transport failure). */
  readonly answers: Readonly<Record<string, number>>;
  /** Per decision table (the rest:4.5 get, list and watch tables): how many of its cells some request fell into. */
  readonly cells: Readonly<Record<string, TableCells>>;
  readonly pages: { readonly walked: number; readonly longestChain: number };
  /** `delivering` is absent from summaries written before it was counted. */
  readonly watches: { readonly opened: number; readonly resumed: number; readonly expired: number; readonly delivering?: number };
  readonly compactions: number;
  readonly restarts: number;
  readonly applyConflicts: number;
  readonly largest: { readonly objects: number; readonly bytes: number };
  /** How much of the selection reached a verdict (reports/vacuity.ts); absent when the selection is unknown. */
  readonly exercised?: Exercised;
  /** `--require` minimums and what the run reached. */
  readonly require?: readonly RequirementResult[];
}

export interface Exercised {
  readonly selectedChecks: number;
  /** Selected checks that did not decline as a whole. */
  readonly applicableChecks: number;
  readonly checksWithVerdict: number;
  /** Clauses declared by the applicable checks, less the ones they declined with a reason. */
  readonly declaredClauses: number;
  readonly judgedClauses: number;
  /** Feature areas (spec sections) the applicable checks declare, and those some check decided a clause of; absent from older summaries. */
  readonly declaredAreas?: number;
  readonly judgedAreas?: number;
  readonly notTested: boolean;
  /** One line for the reports: the figures, and why the run is not tested when it is not. */
  readonly line: string;
}
