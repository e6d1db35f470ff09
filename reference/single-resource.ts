/**
 * rest:4: "The verbs get, create, apply, update, patch, delete and proxy act on a single resource
 * only; there is no multi-resource request or transaction." A write whose body is a list of objects
 * (a `List`, or the type's own `<Kind>List`) may be refused (the spec names no status for it) or read
 * as the one object the request addresses; what it may not do is write several objects at once.
 * Pure: the suite hands over the answer and which of the list's items exist afterwards.
 */
import { fail, pass, type Judgement } from './judgement.ts';

export const SINGLE_RESOURCE_VERBS = 'rest:4/single-resource-verbs' as const;

export interface MultiResourceWrite {
  /** create: POST of the list to the collection; update: PUT of it to the path of its first item. */
  readonly verb: 'create' | 'update';
  /** The names of the list's items, in order (for an update the first is the addressed object). */
  readonly items: readonly string[];
}

/**
 * `present`: the list's item names found by a list made after the write. An update may leave its own
 * object (which existed before); a create may have written one of the items; any further one is a
 * second resource written by one request.
 */
export function judgeMultiResourceWrite(w: MultiResourceWrite, status: number, present: readonly string[]): Judgement[] {
  const items = new Set(w.items);
  const written = present.filter((n) => items.has(n));
  const allowed = w.verb === 'update' ? [w.items[0]!] : written.slice(0, 1);
  const extra = written.filter((n) => !allowed.includes(n));
  const expected = `at most one object written by one ${w.verb === 'create' ? 'POST' : 'PUT'} whose body lists ${w.items.length} objects (refused, or read as ${w.verb === 'update' ? `${w.items[0]} alone` : 'one object'})`;
  const observed = `status ${status}; afterwards the list holds ${written.length === 0 ? 'none of them' : written.join(', ')}`;
  if (extra.length === 0) return [pass(SINGLE_RESOURCE_VERBS, expected, observed)];
  // The case's list holds only the case's objects: after a create, "at most one item" is the whole rule;
  // after an update it is not (the addressed object replaced by another would pass it), so no need there.
  // The write's own answer ({ page: 0 }: the suite hands its seq over) may be a success or a refusal: the
  // spec names no status, so a reproducer whose write is refused where the failing one was not still decides.
  const needs =
    w.verb === 'create'
      ? {
          needs: [
            {
              says: 'the write is answered (2xx or 4xx) and the list made afterwards holds at most one of the listed objects',
              test: {
                kind: 'allOf' as const,
                tests: [
                  { kind: 'anyOf' as const, tests: [2, 4].map((cls) => ({ kind: 'statusClass' as const, at: { page: 0 }, cls })) },
                  { kind: 'length' as const, at: 'judged' as const, path: ['items'], atMost: 1 },
                ],
              },
            },
          ],
        }
      : {};
  return [fail(SINGLE_RESOURCE_VERBS, expected, observed, needs)];
}
