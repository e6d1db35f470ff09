/**
 * Judges of the scale profile. The long page chain is judged against a compact model: the
 * suite's objects as they were when the first page was served (key -> uid and resourceVersion), since
 * a chain of hundreds of pages over thousands of objects is too large for a snapshot per write
 * (reference/history.ts). rest:4.4.3: all pages report the first page's collection version and together
 * are exactly that state: no item twice (a repeat), none missing (a skip), none created later, none at a
 * version written later.
 *
 *   judgeLongChain(new Map([['ns/a', { uid: 'u', rv: '5' }]]), (k) => true, [page1, page2], { limit: 1 })
 *     -> a fail of rest:4.4.3 if 'ns/a' shows on both pages
 */
import { fail, pass, rule, tagged, unspecified, type Judgement } from './judgement.ts';
import { judgeRemaining, type ObservedPage } from './read-oracle.ts';

export interface ChainEntry {
  readonly uid: string;
  readonly rv: string;
}

const list = (xs: readonly string[]) => (xs.length > 5 ? `${xs.slice(0, 5).join(', ')} and ${xs.length - 5} more` : xs.join(', '));

/**
 * `expected`: the suite's objects in the collection when the first page was served; `isOurs`: whether
 * a key is one the suite ever wrote (others, such as a controller's root CA config map, are not judged).
 */
export function judgeLongChain(
  expected: ReadonlyMap<string, ChainEntry>,
  isOurs: (key: string) => boolean,
  pages: readonly ObservedPage[],
  opts: { limit: number; selector?: boolean },
): Judgement[] {
  const first = pages[0];
  if (!first) throw new Error('model misuse: judgeLongChain needs at least one page');
  const js: Judgement[] = [];
  const selector = opts.selector === true;
  const oversize = pages.findIndex((p) => p.items.length > opts.limit);
  js.push(
    rule(
      'rest:4.4.1',
      oversize < 0,
      `at most limit=${opts.limit} items on each of ${pages.length} pages`,
      oversize < 0 ? 'as expected' : `page ${oversize + 1} has ${pages[oversize]!.items.length} items`,
    ),
  );
  const drifted = pages.findIndex((p) => p.collectionRv !== first.collectionRv);
  js.push(
    rule(
      'rest:4.4.3',
      drifted < 0,
      `every page reports the first page's collection resourceVersion ${JSON.stringify(first.collectionRv)}`,
      drifted < 0 ? 'as expected' : `page ${drifted + 1} reports ${JSON.stringify(pages[drifted]!.collectionRv)}`,
    ),
  );
  const { problems, missing } = chainProblems(expected, isOurs, pages);
  const expectText = `the ${expected.size} objects of the first page's snapshot, each exactly once, at its version then, over ${pages.length} pages`;
  // The union first: a repeated or skipped item also throws every remainingItemCount off by one.
  // Items only skipped in a selector chain: the departure named selector-page-lost-items.
  const union = (j: Judgement) =>
    selector
      ? tagged([j], {
          input: 'paged-selector-list',
          class: missing.length > 0 && problems.length === 1 ? 'selector-page-lost-items' : undefined,
        })
      : [j];
  if (problems.length > 0) return [...js, ...union(fail('rest:4.4.3', expectText, problems.join('; ')))];
  js.push(...judgeChainPages(pages, selector));
  js.push(
    ...union(pass('rest:4.4.3', expectText)),
    pass('rest:4.4.2', `followed ${pages.length} pages until continue was empty`),
    pass('rest:4.5/meaning/continue-exact', "continuation pages served at the first page's version"),
  );
  return js;
}

/**
 * What is wrong with the suite's items over the whole chain against the first page's snapshot: repeated,
 * skipped, created after it, or at a later version; and the keys skipped.
 */
function chainProblems(
  expected: ReadonlyMap<string, ChainEntry>,
  isOurs: (key: string) => boolean,
  pages: readonly ObservedPage[],
): { problems: string[]; missing: string[] } {
  const seenOn = new Map<string, number>();
  const repeats: string[] = [];
  const unexpected: string[] = [];
  const wrongVersion: string[] = [];
  pages.forEach((p, i) => {
    for (const o of p.items) {
      if (!isOurs(o.key)) continue;
      const before = seenOn.get(o.key);
      if (before !== undefined) repeats.push(`${o.key} on pages ${before + 1} and ${i + 1}`);
      else seenOn.set(o.key, i);
      const want = expected.get(o.key);
      if (!want) unexpected.push(`${o.key}@${String(o.rv)} (page ${i + 1})`);
      else if (o.uid !== want.uid || o.rv !== want.rv)
        wrongVersion.push(`${o.key}@${String(o.rv)} on page ${i + 1}, the first page's state has it @${want.rv}`);
    }
  });
  const missing = [...expected.keys()].filter((k) => !seenOn.has(k));
  const problems = [
    ...(repeats.length ? [`${repeats.length} repeated: ${list(repeats)}`] : []),
    ...(missing.length ? [`${missing.length} skipped: ${list(missing)}`] : []),
    ...(unexpected.length ? [`${unexpected.length} not in the snapshot (created after it): ${list(unexpected)}`] : []),
    ...(wrongVersion.length ? [`${wrongVersion.length} at a later version: ${list(wrongVersion)}`] : []),
  ];
  return { problems, missing };
}

/** Per page: remainingItemCount against the items that came after it, and no continue token once none remain. */
function judgeChainPages(pages: readonly ObservedPage[], selector: boolean): Judgement[] {
  const js: Judgement[] = [];
  let later = pages.reduce((n, p) => n + p.items.length, 0);
  pages.forEach((p, i) => {
    later -= p.items.length;
    const lastPage = i === pages.length - 1;
    const hasToken = typeof p.continueToken === 'string' && p.continueToken !== '';
    if (!lastPage && later === 0 && hasToken) {
      const expectedText = 'continue empty on the page after which no items remain';
      const observed = `page ${i + 1} carried a continue token, and the pages after it held no items`;
      js.push(
        selector
          ? unspecified('rest:2.3/metadata.continue', expectedText, observed)
          : fail('rest:2.3/metadata.continue', expectedText, observed),
      );
    }
    js.push(...judgeRemaining(p, { later, last: lastPage, selector, paged: true, page: i + 1 }));
  });

  return js;
}

/**
 * An object written near or over a size limit. The spec names no request size limit (rest:8: "request
 * size limits of the API server: not shown"), so accepting or refusing either is recorded as
 * unspecified; what is fixed is that an accepted object reads back as written, and a refused one was
 * not stored.
 */
export function judgeSizedWrite(o: { bytes: number; status: number; readBackStatus: number; readBackIntact: boolean }): Judgement[] {
  const accepted = o.status >= 200 && o.status < 300;
  const what = `a create with ${o.bytes} bytes of data`;
  const js: Judgement[] = [
    unspecified(
      'rest:8/rate-size-limits-not-shown',
      `${what}: accepted or refused (no size limit is shown)`,
      accepted ? `accepted (${o.status})` : `refused with ${o.status}`,
    ),
  ];
  if (accepted) {
    js.push(
      rule(
        'rest:4.1/post',
        o.readBackStatus === 200 && o.readBackIntact,
        `${what} that was accepted reads back exactly as written`,
        o.readBackStatus === 200 ? 'the data read back differs' : `reading it back answered ${o.readBackStatus}`,
      ),
    );
  } else {
    // The status of a get of an absent object is not fixed beyond 4xx (as in judgeGet).
    js.push(
      rule(
        'rest:4.1/post',
        o.readBackStatus >= 400 && o.readBackStatus < 500,
        `${what} that was refused is not stored (a get answers 4xx)`,
        `a get answered ${o.readBackStatus}`,
      ),
    );
  }
  return js;
}
