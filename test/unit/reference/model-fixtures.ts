/**
 * A small history used by the model's own tests:
 *   #0 {}   #1 {a@10}   #2 {a@10, b@11}   #3 {a@12, b@11}   #4 {b@11}  (a removed)
 * Literal versions belong here, in the model's tests, and nowhere in the suites.
 */
import { emptyHistory, recordWrite, type History } from '../../../reference/history.ts';
import type { Content, ObjectVersion, ObservedObject } from '../../../reference/objects.ts';
import type { ReadContext } from '../../../reference/read-oracle.ts';

export const NS = 'ns1';
const content = (data: Record<string, string>): Content => ({ labels: { app: 'web' }, annotations: {}, body: data });

export const a10: ObjectVersion = {
  key: `${NS}/a`,
  name: 'a',
  namespace: NS,
  uid: 'uid-a',
  rv: '10',
  creationTimestamp: 't0',
  content: content({ k: '1' }),
};
export const b11: ObjectVersion = {
  key: `${NS}/b`,
  name: 'b',
  namespace: NS,
  uid: 'uid-b',
  rv: '11',
  creationTimestamp: 't1',
  content: content({ k: '2' }),
};
export const a12: ObjectVersion = { ...a10, rv: '12', content: content({ k: '3' }) };

export function history(): History {
  let h = emptyHistory(0);
  h = recordWrite(h, { op: 'put', version: a10, atMs: 1 });
  h = recordWrite(h, { op: 'put', version: b11, atMs: 2 });
  h = recordWrite(h, { op: 'put', version: a12, atMs: 3 });
  h = recordWrite(h, { op: 'remove', key: a12.key, atMs: 4 });
  return h;
}

export function observed(v: ObjectVersion, over: Partial<ObservedObject> = {}): ObservedObject {
  return {
    key: v.key,
    name: v.name,
    namespace: v.namespace,
    uid: v.uid,
    rv: v.rv,
    creationTimestamp: v.creationTimestamp,
    kind: 'ConfigMap',
    apiVersion: 'v1',
    labels: v.content.labels,
    annotations: v.content.annotations,
    body: v.content.body,
    deletionTimestamp: undefined,
    ...over,
  };
}

export function ctx(h: History = history()): ReadContext {
  return { history: h, knownKeys: new Set(['app']), inScope: (v) => v.namespace === NS };
}

/** The suite's objects in each snapshot of history(), as a target would list them. */
export const snapshotItems: ObservedObject[][] = [
  [],
  [observed(a10)],
  [observed(a10), observed(b11)],
  [observed(a12), observed(b11)],
  [observed(b11)],
];
