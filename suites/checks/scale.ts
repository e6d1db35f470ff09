/**
 * The scale profile (`--scale nightly`; not checked without it): thousands of objects in one
 * collection read in a chain of hundreds of pages with writes between pages (rest:4.4); namespaces whose
 * names prefix one another (`<base>-1`, `<base>-10`, `<base>-100`), listed and watched, where every item
 * must belong to the requested namespace and match the selector (reference/scope.ts); objects near the
 * usual size limit and one over it (rest:8 names no limit: recorded as unspecified). Each check is one
 * case over a fixed, large input: it is not shrunk (the input is the profile), and it deletes what it
 * wrote, a few requests at a time, before its namespaces go.
 */
import {
  judgeContinueGone,
  judgeCreate,
  judgeDeleteAccepted,
  judgeEndlessPaging,
  judgeListNotServed,
  judgeLongChain,
  judgeScope,
  judgeSizedWrite,
  judgeUpdate,
  judgeWatchIn,
} from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check, CheckEnv } from '../../harness/case/index.ts';
import type { CaseContext } from '../../harness/case/index.ts';
import type { QueryPair } from '../../harness/transport/index.ts';
import type { ScaleProfile } from '../../harness/case/index.ts';
import { prefixNamespaceNames } from '../../harness/case/index.ts';
import { bodyFor, contentFor, knownKeys, namespaceOf, ownNamespace, pageOf, resourceOf, runOp, runWrite } from '../../harness/interpreters/index.ts';
import { openWatch, waitCaughtUp } from '../../harness/interpreters/index.ts';
import { keyOf, readObject } from '../../reference/objects.ts';
import { apiVersionOf, collectionPath, objectPath, type ResourceType } from '../../reference/resources.ts';
import { currentIndex, visibleObjects } from '../../reference/history.ts';

import { type ChainEntry } from '../../reference/scale.ts';

import type { ObservedPage } from '../../reference/read-oracle.ts';
import { namePool } from '../../generators/ops.ts';

const needsScale = (env: CheckEnv): string | undefined => (env.settings.scale === undefined ? 'runs only with --scale nightly (thousands of objects, chains of hundreds of pages)' : undefined);
const scaleOf = (cx: CaseContext): ScaleProfile => cx.env.settings.scale!;
const is2xx = (s: number) => s >= 200 && s < 300;

/** `fn` over `items`, at most `n` at a time (a polite guest: a few requests in flight). */
async function bounded<T>(items: readonly T[], n: number, fn: (t: T, i: number) => Promise<void>): Promise<void> {
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
async function deleteAll(cx: CaseContext, rt: ResourceType, keys: Iterable<string>): Promise<void> {
  const paths = [...keys].map((k) => {
    const [ns, name] = k.split('/') as [string, string];
    return objectPath(rt, name, ns);
  });
  await bounded(paths, scaleOf(cx).concurrency, async (path) => {
    await cx.env.target.send({ method: 'DELETE', path }).catch(() => undefined);
  });
}

interface Chain {
  readonly pages: ObservedPage[];
  /** Set when the chain could not be followed to its end: the judgements that say why. */
  readonly cut?: ReturnType<typeof judgeContinueGone>;
}

/** Follows one paged list to its end, running `between()` after every `every`-th page. */
async function followChain(cx: CaseContext, rt: ResourceType, ns: string, query: readonly QueryPair[], limit: number, maxPages: number, every: number, between: () => Promise<void>): Promise<Chain> {
  const path = collectionPath(rt, ns);
  const startedAt = cx.env.now();
  const pages: ObservedPage[] = [];
  let token: string | undefined;
  for (;;) {
    const q: QueryPair[] = [...query, ['limit', String(limit)], ...(token !== undefined ? [['continue', token] as const] : [])];
    const r = await cx.send({ method: 'GET', path, query: q });
    if (r.status === 410 && token !== undefined) return { pages, cut: judgeContinueGone(cx.env.now() - startedAt, cx.env.settings.continueTtlMs) };
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

interface LiveEntry extends ChainEntry {
  readonly name: string;
  readonly tier: string;
}

/** A stable filler of `bytes` characters (not one repeated letter, so nothing compresses it away). */
function filler(bytes: number, salt: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let x = (salt + 1) * 2654435761;
  let chunk = '';
  for (let i = 0; i < 4096; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    chunk += alphabet[x % alphabet.length];
  }
  return chunk.repeat(Math.ceil(bytes / chunk.length)).slice(0, bytes);
}

type NoInput = null;
const describeScale = (what: string) => (): string[] => [what];

export const scalePageChain: Check<NoInput> = {
  id: 'scale-page-chain',
  suite: 'rest-scale',
  title: 'thousands of objects in one collection, read in a chain of hundreds of pages with writes between pages',
  clauses: ['rest:4.4.1', 'rest:4.4.2', 'rest:4.4.3', 'rest:4.4.6', 'rest:4.4/selector-scope', 'rest:4.1/get-namespaced-collection'],
  defaultRuns: 1,
  shrink: false,
  applicable: needsScale,
  arbitrary: () => fc.constant(null),
  describe: (): string[] => [
    "create the profile's objects in one namespace (labels tier=web|db)",
    'list limit=<pageLimit> to the end, a write (update, create, delete in turn) between every few pages',
    'list labelSelector=tier=web with a larger limit, writes between pages',
  ],
  run: async (_i, cx) => {
    const p = scaleOf(cx);
    const rt = resourceOf(cx, 'configmaps');
    const ns = await namespaceOf(cx, 0, { own: true });
    const live = new Map<string, LiveEntry>();
    const written = new Set<string>();
    const gone = new Set<string>();
    try {
      const create = async (name: string, tier: string, n: number) => {
        const key = keyOf(ns, name);
        written.add(key);
        const content = contentFor(cx, rt, { labels: { tier }, annotations: {}, data: { k1: `v${n}` } });
        const r = await cx.send({ method: 'POST', path: collectionPath(rt, ns), body: bodyFor(rt, name, ns, content) });
        cx.judge(judgeCreate({ key, reused: false, status: r.status, body: r.bodyText }));
        const o = readObject(rt, r.json);
        live.set(key, { name, tier, uid: String(o.uid), rv: String(o.rv) });
      };
      const names = Array.from({ length: p.objects }, (_, i) => `o-${String(i).padStart(5, '0')}`);
      await bounded(names, p.concurrency, (name, i) => create(name, i % 2 === 0 ? 'web' : 'db', i));

      // Writes between pages: an update, a create, a delete, in turn, spread over the collection.
      let writes = 0;
      const between = async () => {
        const k = writes++;
        const keys = [...live.keys()];
        const key = keys[(k * 7919) % keys.length]!;
        const entry = live.get(key)!;
        if (k % 3 === 0) {
          const content = contentFor(cx, rt, { labels: { tier: entry.tier }, annotations: {}, data: { k1: `updated-${k}` } });
          const r = await cx.send({ method: 'PUT', path: objectPath(rt, entry.name, ns), body: bodyFor(rt, entry.name, ns, content, entry.rv) });
          cx.judge(judgeUpdate({ key, status: r.status, body: r.bodyText }));
          live.set(key, { ...entry, rv: String(readObject(rt, r.json).rv) });
        } else if (k % 3 === 1) {
          await create(`n-${String(k).padStart(5, '0')}`, 'web', k);
        } else {
          const r = await cx.send({ method: 'DELETE', path: objectPath(rt, entry.name, ns) });
          cx.judge(judgeDeleteAccepted(key, r.status));
          // Whether it is gone at once or Terminating is not shown (rest:3.1): later reads skip it.
          live.delete(key);
          gone.add(key);
        }
      };

      const snapshot = new Map(live);
      // Pages may hold fewer than `limit` items (rest:4.4.1 says at most), so the bound is per item.
      const maxPages = (n: number, _limit: number) => 2 * n + 50;
      const all = await followChain(cx, rt, ns, [], p.pageLimit, maxPages(snapshot.size, p.pageLimit), p.writeEveryPages, between);
      if (all.cut) return cx.judge(all.cut);
      cx.judge(
        judgeScope(
          { namespace: ns },
          all.pages.flatMap((pg) => pg.items),
          'list',
        ),
      );
      // Objects deleted during this chain are in its snapshot: they are judged here, skipped later.
      cx.judge(judgeLongChain(snapshot, (k) => written.has(k), all.pages, { limit: p.pageLimit }));

      const selector = `tier=web,${Object.entries(cx.ownLabels)
        .map(([k, v]) => `${k}=${v}`)
        .join(',')}`;
      const webSnapshot = new Map([...live].filter(([, e]) => e.tier === 'web'));
      // Deleted before this chain: their state is open (rest:3.1), so they are not judged.
      const goneBefore = new Set(gone);
      const limit = p.pageLimit * 3;
      const web = await followChain(cx, rt, ns, [['labelSelector', selector]], limit, maxPages(webSnapshot.size, limit), p.writeEveryPages, between);
      if (web.cut) return cx.judge(web.cut);
      const webItems = web.pages.flatMap((pg) => pg.items);
      cx.judge(judgeScope({ namespace: ns, selector }, webItems, 'list'));
      cx.judge(judgeLongChain(webSnapshot, (k) => written.has(k) && !goneBefore.has(k), web.pages, { limit, selector: true }));
    } finally {
      await deleteAll(cx, rt, live.keys());
    }
  },
};

export const scaleNamespacePrefixes: Check<NoInput> = {
  id: 'scale-namespace-prefixes',
  suite: 'rest-scale',
  title: 'namespaces whose names prefix one another (ns-1, ns-10, ns-100): lists and watches keep to their namespace',
  clauses: ['rest:4.1/get-namespaced-collection', 'rest:4.4/selector-scope', 'rest:4.4.3', 'rest:6.1.1', 'rest:4.5/watch/unset'],
  defaultRuns: 1,
  shrink: false,
  applicable: needsScale,
  arbitrary: () => fc.constant(null),
  describe: describeScale(
    "namespaces <base>-r, <base>-r0, <base>-r00 with the same object names in each; list (unpaged, paged with writes in the sibling namespaces, by selector) and watch each family's shortest name while its longer siblings are written",
  ),
  run: async (_i, cx) => {
    const p = scaleOf(cx);
    const rt = resourceOf(cx, 'configmaps');
    const families: number[][] = [];
    try {
      for (const fam of prefixNamespaceNames(cx.env.nextNamespace(), p)) {
        const idx: number[] = [];
        for (const name of fam) idx.push(await ownNamespace(cx, name));
        families.push(idx);
      }
      const perNs = Math.min(p.objectsPerNamespace, namePool.length - 1);
      const every = families.flat();
      await bounded(every, p.concurrency, async (ns) => {
        // The same names in every namespace: a leak shows as a second `alpha`, not only as a stranger.
        for (let j = 0; j < perNs; j++)
          await runWrite(cx, { op: 'create', res: 'configmaps', ns, name: namePool[j]!, content: { labels: { tier: j % 2 === 0 ? 'web' : 'db' }, annotations: {}, data: { k1: `ns${ns}` } } });
      });
      for (const fam of families) {
        for (const [d, ns] of fam.entries()) {
          const sibling = fam[(d + 1) % fam.length]!;
          await runOp(cx, { op: 'list', res: 'configmaps', ns, match: 'unset', rv: { kind: 'unset' } });
          await runOp(cx, { op: 'list', res: 'configmaps', ns, match: 'unset', rv: { kind: 'unset' }, selector: 'tier=web' });
          await runOp(cx, {
            op: 'list',
            res: 'configmaps',
            ns,
            match: 'unset',
            rv: { kind: 'unset' },
            limit: 1,
            between: [{ op: 'update', res: 'configmaps', ns: sibling, name: namePool[0]!, content: { labels: { tier: 'web' }, annotations: {}, data: { k1: `during-${ns}` } } }],
          });
        }
      }

      // A watch of each family's shortest name while all of the family is written, the root last.
      for (const fam of families) {
        const root = cx.namespaces[fam[0]!]!;
        const requestIndex = currentIndex(cx.history('configmaps'));
        const session = await openWatch(cx, rt, collectionPath(rt, root), []);
        let cutOff: string | undefined;
        try {
          for (const ns of [...fam.slice(1), fam[0]!]) {
            await runWrite(cx, { op: 'create', res: 'configmaps', ns, name: namePool[namePool.length - 1]!, content: { labels: {}, annotations: {}, data: { k1: 'watched' } } });
          }
          ({ cutOff } = await waitCaughtUp(cx, session, 'configmaps', 'current state', root));
        } finally {
          await session.close();
        }
        const exp = {
          semantic: 'GetStateAndStartAtMostRecent' as const,
          clause: 'rest:4.5/watch/unset' as const,
          requestIndex,
          bookmarksRequested: false,
          kind: rt.kind,
          apiVersion: apiVersionOf(rt),
          cutOff,
        };
        cx.judge(judgeWatchIn({ history: cx.history('configmaps'), knownKeys: knownKeys(cx), namespaces: [root], scope: { namespace: root } }, exp, session.events).judgements);
      }
      // Last: every namespace of the case at once, narrowed by the case label and a selector, paged.
      await runOp(cx, { op: 'list', res: 'configmaps', ns: 'all', match: 'unset', rv: { kind: 'unset' }, limit: Math.max(2, perNs + 1), selector: 'tier=web' });
    } finally {
      const h = cx.history('configmaps');
      await deleteAll(
        cx,
        rt,
        visibleObjects(h, currentIndex(h)).map((v) => v.key),
      );
    }
  },
};

export const scaleLargeObjects: Check<NoInput> = {
  id: 'scale-large-objects',
  suite: 'rest-scale',
  title: 'objects near the usual size limit read back intact and page one by one; one over it is accepted or refused, never half-stored',
  // rest:8/rate-size-limits-not-shown is recorded as unspecified on every run (no limit is shown).
  clauses: ['rest:4.1/post', 'rest:4.4.3'],
  defaultRuns: 1,
  shrink: false,
  applicable: needsScale,
  arbitrary: () => fc.constant(null),
  describe: describeScale('create two objects with data near the size limit and one over it; read each back; list them one per page'),
  run: async (_i, cx) => {
    const p = scaleOf(cx);
    const rt = resourceOf(cx, 'configmaps');
    const ns = await namespaceOf(cx, 0, { own: true });
    const stored = new Map<string, ChainEntry>();
    const written = new Set<string>();
    try {
      for (const [i, bytes] of [p.nearLimitBytes, p.nearLimitBytes, p.overLimitBytes].entries()) {
        const name = `big-${i}`;
        const key = keyOf(ns, name);
        const value = filler(bytes, i);
        written.add(key);
        const content = contentFor(cx, rt, { labels: {}, annotations: {}, data: { blob: value } });
        const r = await cx.send({ method: 'POST', path: collectionPath(rt, ns), body: bodyFor(rt, name, ns, content) });
        const back = await cx.send({ method: 'GET', path: objectPath(rt, name, ns) });
        const body = is2xx(back.status) ? readObject(rt, back.json).body : undefined;
        const intact = typeof body === 'object' && body !== null && (body as Record<string, unknown>)['blob'] === value;
        cx.judge(judgeSizedWrite({ bytes, status: r.status, readBackStatus: back.status, readBackIntact: intact }));
        if (is2xx(r.status)) {
          const o = readObject(rt, r.json);
          stored.set(key, { uid: String(o.uid), rv: String(o.rv) });
        }
      }
      const chain = await followChain(cx, rt, ns, [], 1, stored.size + 10, Number.MAX_SAFE_INTEGER, async () => undefined);
      if (chain.cut) return cx.judge(chain.cut);
      cx.judge(
        judgeScope(
          { namespace: ns },
          chain.pages.flatMap((pg) => pg.items),
          'list',
        ),
      );
      cx.judge(judgeLongChain(stored, (k) => written.has(k), chain.pages, { limit: 1 }));
    } finally {
      await deleteAll(cx, rt, stored.keys());
    }
  },
};

export const scaleChecks = [scalePageChain, scaleNamespacePrefixes, scaleLargeObjects];
