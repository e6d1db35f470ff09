/**
 * The long paged reads of the scale checks and the collections they read: following a list chain to its
 * end with writes between pages, the collection a page-chain case grows (and the writes it makes between
 * pages), and a polite bound on requests in flight.
 */
import {
  judgeContinueGone,
  judgeCreate,
  judgeDeleteAccepted,
  judgeEndlessPaging,
  judgeListNotServed,
  judgeUpdate,
} from '../../harness/case/index.ts';
import type { CaseContext, ScaleProfile } from '../../harness/case/index.ts';
import type { QueryPair } from '../../harness/transport/index.ts';
import { bodyFor, contentFor, pageOf } from '../../harness/interpreters/index.ts';
import { keyOf, readObject } from '../../reference/objects.ts';
import { collectionPath, objectPath, type ResourceType } from '../../reference/resources.ts';
import type { ChainEntry } from '../../reference/scale.ts';
import type { ObservedPage } from '../../reference/read-oracle.ts';

export const scaleOf = (cx: CaseContext): ScaleProfile => cx.env.settings.scale!;
export const is2xx = (s: number) => s >= 200 && s < 300;

/** `fn` over `items`, at most `n` at a time (a polite guest: a few requests in flight). */
export async function bounded<T>(items: readonly T[], n: number, fn: (t: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

/** Deletes what the case wrote, a few at a time; failures are left to the run's cleanup. */
export async function deleteAll(cx: CaseContext, rt: ResourceType, keys: Iterable<string>): Promise<void> {
  const paths = [...keys].map((k) => {
    const [ns, name] = k.split('/') as [string, string];
    return objectPath(rt, name, ns);
  });
  await bounded(paths, scaleOf(cx).concurrency, async (path) => {
    await cx.env.target.send({ method: 'DELETE', path }).catch(() => undefined);
  });
}

export interface Chain {
  readonly pages: ObservedPage[];
  /** Set when the chain could not be followed to its end: the judgements that say why. */
  readonly cut?: ReturnType<typeof judgeContinueGone>;
}

/** Follows one paged list to its end, running `between()` after every `every`-th page. */
export async function followChain(
  cx: CaseContext,
  rt: ResourceType,
  ns: string,
  query: readonly QueryPair[],
  limit: number,
  maxPages: number,
  every: number,
  between: () => Promise<void>,
): Promise<Chain> {
  const path = collectionPath(rt, ns);
  const startedAt = cx.env.now();
  const pages: ObservedPage[] = [];
  let token: string | undefined;
  for (;;) {
    const q: QueryPair[] = [...query, ['limit', String(limit)], ...(token !== undefined ? [['continue', token] as const] : [])];
    const r = await cx.send({ method: 'GET', path, query: q });
    if (r.status === 410 && token !== undefined)
      return { pages, cut: judgeContinueGone(cx.env.now() - startedAt, cx.env.settings.continueTtlMs) };
    if (!is2xx(r.status)) {
      cx.judge(judgeListNotServed('rest:4.4.2', `200 with page ${pages.length + 1} of the chain`, r.status, r.bodyText));
      return { pages };
    }
    const p = pageOf(rt, r);
    pages.push(p);
    if (typeof p.continueToken !== 'string' || p.continueToken === '') return { pages };
    if (pages.length >= maxPages) {
      cx.judge(judgeEndlessPaging(maxPages));
      return { pages };
    }
    token = p.continueToken;
    if (pages.length % every === 0) await between();
  }
}

export interface LiveEntry extends ChainEntry {
  readonly name: string;
  readonly tier: string;
}

/** A stable filler of `bytes` characters (not one repeated letter, so nothing compresses it away). */
export function filler(bytes: number, salt: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let x = (salt + 1) * 2654435761;
  let chunk = '';
  for (let i = 0; i < 4096; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    chunk += alphabet[x % alphabet.length];
  }
  return chunk.repeat(Math.ceil(bytes / chunk.length)).slice(0, bytes);
}

/** The objects a page-chain case wrote and holds: live ones with their versions, every key written, and those deleted. */
export interface PageChainCollection {
  readonly live: Map<string, LiveEntry>;
  readonly written: Set<string>;
  readonly gone: Set<string>;
  /** Creates `name` with label tier=`tier` (judged), and holds it as live. */
  create(name: string, tier: string, n: number): Promise<void>;
}

export function pageChainCollection(cx: CaseContext, rt: ResourceType, ns: string): PageChainCollection {
  const live = new Map<string, LiveEntry>();
  const written = new Set<string>();
  const gone = new Set<string>();
  const create = async (name: string, tier: string, n: number): Promise<void> => {
    const key = keyOf(ns, name);
    written.add(key);
    const content = contentFor(cx, rt, { labels: { tier }, annotations: {}, data: { k1: `v${n}` } });
    const r = await cx.send({ method: 'POST', path: collectionPath(rt, ns), body: bodyFor(rt, name, ns, content) });
    cx.judge(judgeCreate({ key, reused: false, status: r.status, body: r.bodyText }));
    const o = readObject(rt, r.json);
    live.set(key, { name, tier, uid: String(o.uid), rv: String(o.rv) });
  };
  return { live, written, gone, create };
}

/** Writes between pages: an update, a create, a delete, in turn, spread over the collection. */
export function writerBetweenPages(cx: CaseContext, rt: ResourceType, ns: string, c: PageChainCollection): () => Promise<void> {
  let writes = 0;
  return async () => {
    const k = writes++;
    const keys = [...c.live.keys()];
    const key = keys[(k * 7919) % keys.length]!;
    const entry = c.live.get(key)!;
    if (k % 3 === 0) {
      const content = contentFor(cx, rt, { labels: { tier: entry.tier }, annotations: {}, data: { k1: `updated-${k}` } });
      const r = await cx.send({
        method: 'PUT',
        path: objectPath(rt, entry.name, ns),
        body: bodyFor(rt, entry.name, ns, content, entry.rv),
      });
      cx.judge(judgeUpdate({ key, status: r.status, body: r.bodyText }));
      c.live.set(key, { ...entry, rv: String(readObject(rt, r.json).rv) });
    } else if (k % 3 === 1) {
      await c.create(`n-${String(k).padStart(5, '0')}`, 'web', k);
    } else {
      const r = await cx.send({ method: 'DELETE', path: objectPath(rt, entry.name, ns) });
      cx.judge(judgeDeleteAccepted(key, r.status));
      // Whether it is gone at once or Terminating is not shown (rest:3.1): later reads skip it.
      c.live.delete(key);
      c.gone.add(key);
    }
  };
}
