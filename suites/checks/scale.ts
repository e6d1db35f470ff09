/**
 * The scale profile (`--scale nightly`; not checked without it): thousands of objects in one
 * collection read in a chain of hundreds of pages with writes between pages (rest:4.4); namespaces whose
 * names prefix one another (`<base>-1`, `<base>-10`, `<base>-100`), listed and watched, where every item
 * must belong to the requested namespace and match the selector (reference/scope.ts); objects near the
 * usual size limit and one over it (rest:8 names no limit: recorded as unspecified). Each check is one
 * case over a fixed, large input: it is not shrunk (the input is the profile), and it deletes what it
 * wrote, a few requests at a time, before its namespaces go.
 */
import { judgeLongChain, judgeScope, judgeSizedWrite, judgeWatchIn } from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check, CheckEnv, CaseContext, ScaleProfile } from '../../harness/case/index.ts';
import { prefixNamespaceNames } from '../../harness/case/index.ts';
import {
  bodyFor,
  contentFor,
  knownKeys,
  namespaceOf,
  ownNamespace,
  resourceOf,
  runOp,
  runWrite,
} from '../../harness/interpreters/index.ts';
import { openWatch, waitCaughtUp } from '../../harness/interpreters/index.ts';
import { keyOf, readObject } from '../../reference/objects.ts';
import { apiVersionOf, collectionPath, objectPath, type ResourceType } from '../../reference/resources.ts';
import { currentIndex, visibleObjects } from '../../reference/history.ts';
import { type ChainEntry } from '../../reference/scale.ts';
import { namePool } from '../../generators/ops.ts';
import { bounded, deleteAll, filler, followChain, is2xx, pageChainCollection, scaleOf, writerBetweenPages } from './scale-chain.ts';

const needsScale = (env: CheckEnv): string | undefined =>
  env.settings.scale === undefined ? 'runs only with --scale nightly (thousands of objects, chains of hundreds of pages)' : undefined;

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
    const c = pageChainCollection(cx, rt, ns);
    try {
      const names = Array.from({ length: p.objects }, (_, i) => `o-${String(i).padStart(5, '0')}`);
      await bounded(names, p.concurrency, (name, i) => c.create(name, i % 2 === 0 ? 'web' : 'db', i));
      const between = writerBetweenPages(cx, rt, ns, c);

      const snapshot = new Map(c.live);
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
      cx.judge(judgeLongChain(snapshot, (k) => c.written.has(k), all.pages, { limit: p.pageLimit }));

      const selector = `tier=web,${Object.entries(cx.ownLabels)
        .map(([k, v]) => `${k}=${v}`)
        .join(',')}`;
      const webSnapshot = new Map([...c.live].filter(([, e]) => e.tier === 'web'));
      // Deleted before this chain: their state is open (rest:3.1), so they are not judged.
      const goneBefore = new Set(c.gone);
      const limit = p.pageLimit * 3;
      const web = await followChain(
        cx,
        rt,
        ns,
        [['labelSelector', selector]],
        limit,
        maxPages(webSnapshot.size, limit),
        p.writeEveryPages,
        between,
      );
      if (web.cut) return cx.judge(web.cut);
      const webItems = web.pages.flatMap((pg) => pg.items);
      cx.judge(judgeScope({ namespace: ns, selector }, webItems, 'list'));
      cx.judge(judgeLongChain(webSnapshot, (k) => c.written.has(k) && !goneBefore.has(k), web.pages, { limit, selector: true }));
    } finally {
      await deleteAll(cx, rt, c.live.keys());
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
      families.push(...(await prefixFamilies(cx, p)));
      const perNs = Math.min(p.objectsPerNamespace, namePool.length - 1);
      await listEachFamily(cx, p, families, perNs);
      await watchEachFamilyRoot(cx, rt, families);
      // Last: every namespace of the case at once, narrowed by the case label and a selector, paged.
      await runOp(cx, {
        op: 'list',
        res: 'configmaps',
        ns: 'all',
        match: 'unset',
        rv: { kind: 'unset' },
        limit: Math.max(2, perNs + 1),
        selector: 'tier=web',
      });
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

/** The case's namespaces in families whose names prefix one another (`<base>-r`, `<base>-r0`, `<base>-r00`), as indices. */
async function prefixFamilies(cx: CaseContext, p: ScaleProfile): Promise<number[][]> {
  const families: number[][] = [];
  for (const fam of prefixNamespaceNames(cx.env.nextNamespace(), p)) {
    const idx: number[] = [];
    for (const name of fam) idx.push(await ownNamespace(cx, name));
    families.push(idx);
  }
  return families;
}

/**
 * The same `perNs` names in every namespace (a leak shows as a second `alpha`, not only as a stranger),
 * then each namespace listed unpaged, by selector, and paged with a write in its sibling between pages.
 */
async function listEachFamily(cx: CaseContext, p: ScaleProfile, families: readonly number[][], perNs: number): Promise<void> {
  const every = families.flat();
  await bounded(every, p.concurrency, async (ns) => {
    for (let j = 0; j < perNs; j++)
      await runWrite(cx, {
        op: 'create',
        res: 'configmaps',
        ns,
        name: namePool[j]!,
        content: { labels: { tier: j % 2 === 0 ? 'web' : 'db' }, annotations: {}, data: { k1: `ns${ns}` } },
      });
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
        between: [
          {
            op: 'update',
            res: 'configmaps',
            ns: sibling,
            name: namePool[0]!,
            content: { labels: { tier: 'web' }, annotations: {}, data: { k1: `during-${ns}` } },
          },
        ],
      });
    }
  }
}

/** A watch of each family's shortest name while all of the family is written, the root last. */
async function watchEachFamilyRoot(cx: CaseContext, rt: ResourceType, families: readonly number[][]): Promise<void> {
  for (const fam of families) {
    const root = cx.namespaces[fam[0]!]!;
    const requestIndex = currentIndex(cx.history('configmaps'));
    const session = await openWatch(cx, rt, collectionPath(rt, root), []);
    let cutOff: string | undefined;
    try {
      for (const ns of [...fam.slice(1), fam[0]!]) {
        await runWrite(cx, {
          op: 'create',
          res: 'configmaps',
          ns,
          name: namePool[namePool.length - 1]!,
          content: { labels: {}, annotations: {}, data: { k1: 'watched' } },
        });
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
    cx.judge(
      judgeWatchIn(
        { history: cx.history('configmaps'), knownKeys: knownKeys(cx), namespaces: [root], scope: { namespace: root } },
        exp,
        session.events,
      ).judgements,
    );
  }
}

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
