/**
 * The bookmarks of a watch (rest:6.1/BOOKMARK, rest:2.5/bookmark-object, rest:4.3/allowWatchBookmarks):
 * sent only when asked, an object carrying only its resourceVersion, never before every change up to
 * that version was sent, never moving backwards.
 */
import type { History } from './history.ts';
import { isRecord } from './objects.ts';
import { fail, pass, rule, type Judgement } from './judgement.ts';
import type { ReadContext } from './read-oracle.ts';
import { changes, type ObservedEvent, type WatchExpectation } from './watch-stream.ts';

/** Go zero values (null, {}, []) carry nothing: upstream bookmarks contain `creationTimestamp: null`. */
const isEmptyValue = (v: unknown) =>
  v === null || v === undefined || (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.values(v).every(isEmptyValue));

function bookmarkShape(exp: WatchExpectation, raw: unknown): string | undefined {
  if (!isRecord(raw)) return 'the object is not a JSON object';
  if (raw['kind'] !== undefined && raw['kind'] !== exp.kind) return `kind ${JSON.stringify(raw['kind'])}, not ${exp.kind}`;
  if (raw['apiVersion'] !== undefined && raw['apiVersion'] !== exp.apiVersion) return `apiVersion ${JSON.stringify(raw['apiVersion'])}`;
  const md = raw['metadata'];
  if (!isRecord(md) || typeof md['resourceVersion'] !== 'string' || md['resourceVersion'] === '') return 'no metadata.resourceVersion';
  const extraMeta = Object.keys(md).filter((k) => k !== 'resourceVersion' && !isEmptyValue(md[k]));
  const extraTop = Object.keys(raw).filter((k) => !['kind', 'apiVersion', 'metadata'].includes(k) && !isEmptyValue(raw[k]));
  if (extraMeta.length + extraTop.length > 0)
    return `carries more than metadata.resourceVersion: ${[...extraMeta.map((k) => `metadata.${k}`), ...extraTop].join(', ')}`;
  return undefined;
}

/**
 * Every BOOKMARK of a stream judged: asked for, shaped right, and, once the stream's start is known
 * (`earliest`: the earliest start it fits, with its synthetic ADDED count), sent only after every change
 * up to its version and never at a version older than an earlier bookmark's. `ours` are the stream's
 * events of the suite's own objects.
 *
 *   a BOOKMARK at snapshot #3 after 1 of the 2 changes due -> fail rest:6.1/BOOKMARK "only 1 of 2 events before it"
 */
export function judgeStreamBookmarks(
  ctx: ReadContext,
  exp: WatchExpectation,
  events: readonly ObservedEvent[],
  ours: readonly ObservedEvent[],
  earliest: { readonly at: number | undefined; readonly synthetic: number },
): Judgement[] {
  const h: History = ctx.history;
  const js: Judgement[] = [];
  const oursBefore: number[] = [];
  let count = 0;
  for (const e of events) {
    if (e === ours[count]) count++;
    if (e.type === 'BOOKMARK') oursBefore.push(count);
  }
  let lastIndex = -1;
  events
    .filter((e) => e.type === 'BOOKMARK')
    .forEach((b, i) => {
      js.push(
        rule(
          'rest:6.1/BOOKMARK',
          exp.bookmarksRequested,
          'BOOKMARK only when allowWatchBookmarks=true',
          'a BOOKMARK on a watch that did not ask for them',
        ),
      );
      const shape = bookmarkShape(exp, b.raw);
      js.push(
        rule(
          'rest:2.5/bookmark-object',
          shape === undefined,
          `an object of kind ${exp.kind} with only metadata.resourceVersion`,
          shape ?? '',
        ),
      );
      const idx = typeof b.object.rv === 'string' ? h.rvIndex.get(b.object.rv) : undefined;
      if (idx !== undefined && earliest.at !== undefined) {
        const due = earliest.synthetic + changes(ctx, earliest.at, idx).length;
        js.push(
          rule(
            'rest:6.1/BOOKMARK',
            oursBefore[i]! >= due,
            `every change up to snapshot #${idx} sent before a BOOKMARK at its version`,
            `only ${oursBefore[i]} of ${due} events before it`,
          ),
        );
        js.push(
          rule(
            'rest:6.1/BOOKMARK',
            idx >= lastIndex,
            'bookmark versions never move backwards',
            `bookmark at snapshot #${idx} after one at #${lastIndex}`,
          ),
        );
        lastIndex = Math.max(lastIndex, idx);
      }
    });
  return js;
}

/**
 * What a watch that did or did not ask for bookmarks showed, once its stream was judged (judgeWatch
 * holds any bookmark to its shape, judgeStreamBookmarks): none at all unasked (rest:6.1/BOOKMARK), and the parameter
 * accepted when asked (rest:4.3/allowWatchBookmarks: the watch was served).
 *
 *   judgeBookmarkRequest(false, 200, [{ type: 'BOOKMARK', ... }]) -> [fail rest:6.1/BOOKMARK]
 */
export function judgeBookmarkRequest(requested: boolean, status: number, events: readonly ObservedEvent[]): Judgement[] {
  if (!requested) {
    const bookmarks = events.filter((e) => e.type === 'BOOKMARK').length;
    const expected = 'no BOOKMARK on a watch that did not ask';
    return [bookmarks === 0 ? pass('rest:6.1/BOOKMARK', expected) : fail('rest:6.1/BOOKMARK', expected, `${bookmarks} BOOKMARK event(s)`)];
  }
  const expected = 'allowWatchBookmarks accepted; any bookmarks had the right shape';
  return [
    status === 200 ? pass('rest:4.3/allowWatchBookmarks', expected) : fail('rest:4.3/allowWatchBookmarks', expected, `status ${status}`),
  ];
}
