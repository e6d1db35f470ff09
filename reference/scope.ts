/**
 * The scope rule of a collection read: every item of a namespaced list, and every object of
 * a namespaced watch, belongs to the namespace in the path (rest:4.1/get-namespaced-collection: "the
 * collection in that namespace"); with a label selector, every item's labels match it
 * (rest:4.4/selector-scope). Judged on every item the target sent, the suite's own or not: a foreign
 * object from another namespace is exactly what a key-prefix scan leaks (`ns-1` reading `ns-10/...`).
 *
 *   judgeScope({ namespace: 'ns-1' }, [{ key: 'ns-10/a', namespace: 'ns-10', labels: {} }], 'list')
 *     -> [fail('rest:4.1/get-namespaced-collection', ..., 'ns-10/a (namespace "ns-10")')]
 */
import { matchesLabels, parseLabelSelector } from './label-selector.ts';
import { fail, pass, type Judgement } from './judgement.ts';

export interface RequestScope {
  /** The namespace of the path; undefined for a cluster-wide (all-namespace) read. */
  readonly namespace?: string;
  /** The labelSelector sent, as text. */
  readonly selector?: string;
}

export interface ScopedItem {
  readonly key: string;
  readonly namespace: string | undefined;
  readonly labels: Readonly<Record<string, string>>;
}

const show = (items: readonly ScopedItem[]): string => {
  const head = items
    .slice(0, 5)
    .map((i) => `${i.key} (namespace ${JSON.stringify(i.namespace)})`)
    .join(', ');
  return items.length > 5 ? `${head} and ${items.length - 5} more` : head;
};

/**
 * The objects of a watch's events that the scope rule applies to: not BOOKMARK (only a version) and not
 * an ERROR event or a Status (the stream's own error, no object of the collection).
 */
export function scopedObjects<O extends { kind: unknown }>(events: readonly { type: unknown; object: O }[]): O[] {
  return events.filter((e) => e.type !== 'BOOKMARK' && e.type !== 'ERROR' && e.object.kind !== 'Status').map((e) => e.object);
}

export function judgeScope(scope: RequestScope | undefined, items: readonly ScopedItem[], what: 'list' | 'watch'): Judgement[] {
  if (scope === undefined || items.length === 0) return [];
  const js: Judgement[] = [];
  if (scope.namespace !== undefined) {
    const outside = items.filter((i) => i.namespace !== scope.namespace);
    const expected = `every item of the ${what} in namespace ${JSON.stringify(scope.namespace)}`;
    js.push(
      outside.length === 0
        ? pass('rest:4.1/get-namespaced-collection', expected)
        : fail('rest:4.1/get-namespaced-collection', expected, `${outside.length} item(s) of other namespaces: ${show(outside)}`),
    );
  }
  if (scope.selector !== undefined) {
    const parsed = parseLabelSelector(scope.selector);
    if (!parsed.ok) throw new Error(`model misuse: judgeScope given an invalid selector ${scope.selector}: ${parsed.error}`);
    const unmatched = items.filter((i) => !matchesLabels(parsed.selector, i.labels));
    const expected = `every item of the ${what} matches the label selector ${JSON.stringify(scope.selector)}`;
    js.push(
      unmatched.length === 0
        ? pass('rest:4.4/selector-scope', expected)
        : fail(
            'rest:4.4/selector-scope',
            expected,
            `${unmatched.length} item(s) that do not match: ${unmatched
              .slice(0, 5)
              .map((i) => `${i.key} ${JSON.stringify(i.labels)}`)
              .join(', ')}`,
          ),
    );
  }
  return js;
}
