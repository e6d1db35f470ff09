/**
 * The compact diff of a failure: each answer the model needed beside what the
 * target answered, and the answers those needs read, with every item of every page (items the suite
 * did not create named as such) or the events of a watch. Pure: lines of text, rendered by the
 * terminal, summary.md and the HTML page.
 *
 *   needLines(cx) -> ['needed: page 1 holds at most 1 item(s); got 2 item(s) (request 4)']
 */
import type { Counterexample } from '../runner/results.ts';
import type { ObservedAnswer } from '../harness/reproducers/index.ts';
import { requestsOf } from '../reference/answer-checks.ts';

/** One line per need: what was needed and what the recorded answer did (`met` for the needs it did meet). */
export function needLines(cx: Counterexample): string[] {
  return (cx.needs ?? []).map(
    (n) =>
      `${n.met ? 'met' : 'needed'}: ${n.says}; got ${n.observed}${requestsOf(n.test).length > 0 ? ` (request ${[...new Set(requestsOf(n.test))].join(', ')})` : ''}`,
  );
}

/** The answers the needs read, and every list page and watch of the case, one line each, in order. */
export function answerLines(cx: Counterexample): string[] {
  const read = new Set((cx.needs ?? []).flatMap((n) => requestsOf(n.test)));
  return (cx.answers ?? []).filter((a) => read.has(a.request) || a.items !== undefined || a.events !== undefined).map(answerLine);
}

export function answerLine(a: ObservedAnswer): string {
  const head = `request ${a.request}: ${a.call} -> ${a.status ?? (a.setup ? 'made before the case for it (a reused namespace): its answer was not recorded' : 'no answer')}`;
  if (a.items !== undefined) {
    const meta = [
      a.resourceVersion !== undefined ? `resourceVersion ${a.resourceVersion}` : '',
      a.continue !== undefined ? 'continue set' : 'no continue',
      a.remainingItemCount !== undefined ? `remainingItemCount ${a.remainingItemCount}` : '',
    ].filter((s) => s !== '');
    const items = a.items.map((i) => `${i.name}@${i.resourceVersion ?? '?'}${i.notCreatedBySuite ? ' (not created by the suite)' : ''}`);
    return `${head}, ${meta.join(', ')}; ${a.items.length} item(s)${items.length > 0 ? `: ${items.join(', ')}` : ''}${a.itemsLeftOut ? ` (+${a.itemsLeftOut} more)` : ''}`;
  }
  if (a.events !== undefined)
    return `${head}; events: ${a.events.map((e) => `${e.type} ${e.name ?? ''}${e.resourceVersion ? `@${e.resourceVersion}` : ''}${e.notCreatedBySuite ? ' (not created by the suite)' : ''}`.trim()).join(', ') || 'none'}`;
  return `${head}${a.name !== undefined ? `, ${a.kind ?? 'object'} ${a.name}@${a.resourceVersion ?? '?'}` : ''}`;
}
