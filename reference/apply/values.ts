/**
 * Small helpers on JSON values that must survive any key, `__proto__` and `constructor` included
 * (ECOSYSTEM.md: fast-check generates them on purpose). Values are never mutated once built.
 */
import { canonicalEqual, isRecord } from '../objects.ts';

export type Json = null | boolean | number | string | readonly Json[] | { readonly [k: string]: Json };

/**
 * Assignment that creates an own property even for `__proto__`. Only that key needs defineProperty
 * (Object.prototype's one setter): for every other key of a plain object plain assignment makes the
 * same own, enumerable, writable property, about eight times faster.
 */
export function defineKey(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

export function own(o: Readonly<Record<string, unknown>>, k: string): unknown {
  return Object.hasOwn(o, k) ? o[k] : undefined;
}

export const jsonEqual = (a: unknown, b: unknown): boolean => canonicalEqual(a, b);

export function deepClone<T>(v: T): T {
  if (Array.isArray(v)) return v.map(deepClone) as T;
  if (isRecord(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) defineKey(out, k, deepClone(v[k]));
    return out as T;
  }
  return v;
}

export const isScalar = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v);
