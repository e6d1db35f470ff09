// The reference server's store files keys by collection so a read scans only its own: whatever the
// writes, deletions and compactions, a prefix read must answer what a scan of every key answers.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VersionedStore, type StoredObject } from '../../../targets/api-server/store.ts';

const keyArb = fc
  .tuple(
    fc.constantFrom('configmaps', 'leases', 'namespaces'),
    fc.constantFrom('', 'ns-1', 'ns-10', 'ns-2'),
    fc.constantFrom('a', 'b', 'ab'),
  )
  .map(([t, ns, n]) => `${t}/${ns}/${n}`);
const opArb = fc.oneof(
  fc.record({ op: fc.constant('write' as const), key: keyArb }),
  fc.record({ op: fc.constant('delete' as const), key: keyArb }),
  fc.record({ op: fc.constant('compact' as const), back: fc.nat(6) }),
);
// Prefixes the server reads with: a type, a namespace of it, the namespace-prefix-leak fault's form
// (no slash after the namespace), part of a name, everything.
const PREFIXES = [
  '',
  'configmaps/',
  'configmaps/ns-1/',
  'configmaps/ns-1',
  'configmaps/ns-1/a',
  'leases//',
  'namespaces/',
  'config',
  'secrets/',
];

const obj = (key: string, rev: number): StoredObject => ({ metadata: { name: key, resourceVersion: String(rev) } });

describe('VersionedStore prefix reads', () => {
  it('list and lastRevisionUnder agree with a scan of every key, at every retained revision', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const s = new VersionedStore();
        const lastWrite = new Map<string, number>();
        for (const o of ops) {
          if (o.op === 'compact') s.compactTo(Math.max(0, s.currentRevision - o.back));
          else lastWrite.set(o.key, s.write(o.key, o.op === 'write' ? obj(o.key, s.nextRevision) : null, 0));
        }
        for (let rev = s.oldestRetained; rev <= s.currentRevision; rev++) {
          const all = s.list('', rev);
          for (const p of PREFIXES) expect(s.list(p, rev)).toEqual(all.filter((e) => e.key.startsWith(p)));
        }
        for (const p of PREFIXES) {
          const written = [...lastWrite].filter(([k]) => k.startsWith(p)).map(([, r]) => r);
          expect(s.lastRevisionUnder(p)).toBe(Math.max(s.oldestRetained, ...written));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a key deleted and compacted away leaves no trace in its collection, and a later write is read again', () => {
    const s = new VersionedStore();
    s.write('configmaps/ns-1/a', obj('a', 1), 0);
    s.write('configmaps/ns-1/a', null, 0);
    s.compactTo(s.currentRevision);
    expect(s.list('configmaps/ns-1/')).toEqual([]);
    s.write('configmaps/ns-1/a', obj('a', 3), 0);
    expect(s.list('configmaps/ns-1/').map((e) => e.key)).toEqual(['configmaps/ns-1/a']);
  });

  it('the compaction by time, which trims only the keys written since the last one, reads as a compaction of every key', () => {
    const timedArb = fc.oneof(
      fc.record({ op: fc.constant('write' as const), key: keyArb, after: fc.nat(3) }),
      fc.record({ op: fc.constant('delete' as const), key: keyArb, after: fc.nat(3) }),
      fc.record({ op: fc.constant('compact' as const), after: fc.nat(3) }),
    );
    fc.assert(
      fc.property(fc.array(timedArb, { maxLength: 80 }), fc.integer({ min: 1, max: 8 }), (ops, window) => {
        const timed = new VersionedStore();
        const full = new VersionedStore();
        let now = 0;
        for (const o of ops) {
          now += o.after;
          if (o.op === 'compact') {
            timed.compact(now, window);
            full.compactTo(timed.oldestRetained);
          } else {
            const value = o.op === 'write' ? obj(o.key, timed.nextRevision) : null;
            timed.write(o.key, value, now);
            full.write(o.key, value, now);
          }
        }
        expect(timed.oldestRetained).toBe(full.oldestRetained);
        expect(timed.retainedVersions).toBe(full.retainedVersions);
        for (let rev = timed.oldestRetained; rev <= timed.currentRevision; rev++) expect(timed.list('', rev)).toEqual(full.list('', rev));
        for (const p of PREFIXES) expect(timed.lastRevisionUnder(p)).toBe(full.lastRevisionUnder(p));
      }),
      { numRuns: 300 },
    );
  });
});
