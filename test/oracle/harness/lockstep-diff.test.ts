// Why: the differ decides what counts as "the same answer" from two servers. It must map
// generated values by position and never by value, find order and omitted-empty differences, and
// still report a real difference (a version two answers share on one server but not on the other).
import { describe, expect, it } from 'vitest';
import { align, compareAnswers, translator, ValueMap, type Recorded } from '../../../harness/interpreters/lockstep-diff.ts';

const rec = (path: string, status: number, json: unknown, query?: [string, string | null][]): Recorded => ({
  request: { method: 'GET', path, query },
  answer: { status, json },
});

describe('lockstep differ', () => {
  it('maps generated values by where they stand, so equal answers with other numbers are alike', () => {
    const map = new ValueMap();
    expect(
      compareAnswers(
        rec('/a', 200, { metadata: { resourceVersion: '7', uid: 'u1' } }),
        rec('/a', 200, { metadata: { resourceVersion: '41', uid: 'z9' } }),
        map,
      ),
    ).toEqual([]);
    expect(
      compareAnswers(rec('/a', 200, { metadata: { resourceVersion: '7' } }), rec('/a', 200, { metadata: { resourceVersion: '41' } }), map),
    ).toEqual([]);
  });

  it('reports a version one server reuses where the other made a new one', () => {
    const map = new ValueMap();
    compareAnswers(rec('/a', 201, { metadata: { resourceVersion: '7' } }), rec('/a', 201, { metadata: { resourceVersion: '41' } }), map);
    const d = compareAnswers(
      rec('/l', 200, { metadata: { resourceVersion: '7' } }),
      rec('/l', 200, { metadata: { resourceVersion: '44' } }),
      map,
    );
    expect(d.map((x) => x.kind)).toEqual(['generated-value']);
  });

  it('tells order, omitted empty fields, status codes and values apart', () => {
    const map = new ValueMap();
    const kinds = (a: unknown, b: unknown, sa = 200, sb = 200) =>
      compareAnswers(rec('/x', sa, a), rec('/x', sb, b), map).map((x) => x.kind);
    expect(kinds({ items: [{ n: 1 }, { n: 2 }] }, { items: [{ n: 2 }, { n: 1 }] })).toEqual(['order']);
    expect(kinds({ metadata: { annotations: {} } }, { metadata: {} })).toEqual(['omitted-empty']);
    expect(kinds({ reason: 'Conflict' }, { reason: 'Invalid' }, 409, 422)).toEqual(['status-code']);
    expect(kinds({ data: { k: 'v1' } }, { data: { k: 'v2' } })).toEqual(['value']);
    expect(kinds({ data: { k: 'v1' } }, { data: { k: 'v1', j: 'x' } })).toEqual(['field-presence']);
  });

  it('aligns the sequences past a request only one side sent', () => {
    const a = [rec('/1', 200, {}), rec('/2', 200, {}, [['continue', 'A']]), rec('/3', 200, {})];
    const b = [rec('/1', 200, {}), rec('/2', 200, {}, [['continue', 'B']]), rec('/2', 200, {}, [['continue', 'C']]), rec('/3', 200, {})];
    expect(align(a, b)).toEqual([
      [0, 0],
      [1, 1],
      [-1, 2],
      [2, 3],
    ]);
  });

  it("rewrites one profile's names into the other's", () => {
    const t = translator([['k8s.io', 'svc.io']], [['kubernetes', 'svc']]);
    expect(t({ apiVersion: 'coordination.k8s.io/v1', spec: { finalizers: ['kubernetes'] }, note: 'kubernetes rocks' })).toEqual({
      apiVersion: 'coordination.svc.io/v1',
      spec: { finalizers: ['svc'] },
      note: 'kubernetes rocks',
    });
  });
});
