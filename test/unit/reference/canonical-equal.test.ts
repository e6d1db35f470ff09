// canonicalEqual stands in for comparing canonical strings on every write of the reference server
// and in the apply model: it must say "equal" exactly when the canonical strings are equal.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonical, canonicalEqual } from '../../../reference/objects.ts';

// Small pools so equal and nearly equal pairs are common; undefined and null, NaN and -0, a
// `__proto__` key and key order are where a structural comparison could drift from the strings.
const leaf = fc.constantFrom<unknown>(undefined, null, 0, -0, 1, Number.NaN, Number.POSITIVE_INFINITY, '', 'a', 'null', true, false);
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', '__proto__', 'constructor'), tie('v'), { maxKeys: 3 }),
  ),
})).v;

const reordered = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(reordered);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).reverse())
    Object.defineProperty(out, k, {
      value: reordered((v as Record<string, unknown>)[k]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
};

describe('canonicalEqual', () => {
  it('agrees with comparing canonical strings', () => {
    fc.assert(
      // A property that returns its verdict (fast-check reports the pair that breaks it): 5,000 runs
      // of an expect cost more than the comparisons they check.
      fc.property(value, value, (a, b) => canonicalEqual(a, b) === (canonical(a) === canonical(b))),
      { numRuns: 5000 },
    );
  });
  it('a value equals itself with its keys in another order, and not a changed copy', () => {
    fc.assert(fc.property(value, (a) => canonicalEqual(a, reordered(a)) === true));
    expect(canonicalEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(canonicalEqual({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] })).toBe(false);
    expect(canonicalEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(canonicalEqual([], {})).toBe(false);
  });
});
