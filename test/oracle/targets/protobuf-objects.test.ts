// The reference server's inner protobuf encoding (targets/api-server/protobuf-objects.ts): what it
// stores survives JSON -> protobuf -> JSON for every kind it serves, so protobuf reads and writes
// (kubectl's typed creates) change nothing.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeObject, encodeObject } from '../../../targets/api-server/protobuf-objects.ts';

const str = fc.string({ maxLength: 8 });
const map = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), str, { maxKeys: 3 });
const time = fc.integer({ min: 0, max: 4_000_000_000 }).map((s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z'));
const metadata = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 8 }),
    namespace: fc.string({ minLength: 1, maxLength: 8 }),
    uid: fc.uuid(),
    resourceVersion: fc.nat().map(String),
    creationTimestamp: time,
    labels: map,
    annotations: map,
  },
  { requiredKeys: ['name', 'uid', 'resourceVersion', 'creationTimestamp'] },
);

/** Protobuf has no empty map on the wire: an empty map comes back absent (the same content, rest:2.3). */
function dropEmpty(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropEmpty);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(
        ([k, x]) =>
          !(
            ['labels', 'annotations', 'data'].includes(k) &&
            typeof x === 'object' &&
            x !== null &&
            !Array.isArray(x) &&
            Object.keys(x).length === 0
          ),
      )
      .map(([k, x]) => [k, dropEmpty(x)]),
  );
}

describe('protobuf objects of the reference server', () => {
  it('ConfigMap, Lease and Namespace round-trip', () => {
    fc.assert(
      fc.property(
        metadata,
        map,
        fc.record(
          { holderIdentity: fc.string({ maxLength: 8 }), leaseDurationSeconds: fc.integer({ min: 1, max: 3600 }) },
          { requiredKeys: [] },
        ),
        (md, data, spec) => {
          expect(decodeObject('ConfigMap', encodeObject('ConfigMap', { kind: 'ConfigMap', apiVersion: 'v1', metadata: md, data }))).toEqual(
            dropEmpty({ metadata: md, data }),
          );
          expect(decodeObject('Lease', encodeObject('Lease', { metadata: md, spec }))).toEqual(dropEmpty({ metadata: md, spec }));
          const ns = { metadata: md, spec: { finalizers: ['svc'] }, status: { phase: 'Active' } };
          expect(decodeObject('Namespace', encodeObject('Namespace', ns))).toEqual(dropEmpty(ns));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('lists keep their paging metadata', () => {
    const list = {
      metadata: { resourceVersion: '7', continue: 'tok', remainingItemCount: 2 },
      items: [{ metadata: { name: 'a', resourceVersion: '3' }, data: { k: '' } }],
    };
    expect(decodeObject('ConfigMapList', encodeObject('ConfigMapList', list))).toEqual(list);
  });
});
