/**
 * Value types of the node-agent configuration (spec 2.2 "Type" column, 2.3, 2.4) and how a YAML/JSON
 * value is read as one. Reading is strict the way a Go JSON decoder is: a quoted "true" is not a bool,
 * 1.5 is not an int32, "1d" is not a duration. Pure; no defaults or ranges here (config-fields.ts).
 */
import { parseGoDuration } from './duration.ts';
import { parseQuantity } from './quantity.ts';
import type { Scalar, TypeSpec } from './field-spec-types.ts';

/** Section 2: "Duration fields are written as strings such as `1m`, `20s`, `4h`." A duration written as no string breaks this row. */
export const DURATIONS_ROW = 'node:2/durations' as const;

export type { Scalar, TypeSpec } from './field-spec-types.ts';

export const scalar = (s: Scalar): TypeSpec => ({ kind: 'scalar', scalar: s });
export const listOf = (of: TypeSpec): TypeSpec => ({ kind: 'list', of });
export const mapOf = (of: TypeSpec): TypeSpec => ({ kind: 'map', of });

const INT_RANGE: Record<'int32' | 'int64' | 'uint32', [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  // JS numbers: int64 limited to the exactly representable integers; beyond that YAML already lost digits.
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  uint32: [0, 2 ** 32 - 1],
};

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function typeText(t: TypeSpec): string {
  switch (t.kind) {
    case 'scalar':
      return t.scalar === 'nanos' ? 'duration in nanoseconds (int64)' : t.scalar;
    case 'list':
      return `list of ${typeText(t.of)}`;
    case 'map':
      return `map string to ${typeText(t.of)}`;
    case 'object':
    case 'opaque':
      return t.typeName;
  }
}

/** Undefined when `v` is a value of the scalar type; else why not (a Go decoder's reason, our words). */
export function scalarTypeError(s: Scalar, v: unknown): string | undefined {
  const got = v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a map' : `${typeof v} ${JSON.stringify(v)}`;
  switch (s) {
    case 'bool':
      return typeof v === 'boolean' ? undefined : `expected a bool, got ${got}`;
    case 'string':
      return typeof v === 'string' ? undefined : `expected a string, got ${got}`;
    case 'float64':
      return typeof v === 'number' && Number.isFinite(v) ? undefined : `expected a number, got ${got}`;
    case 'int32':
    case 'int64':
    case 'uint32':
    case 'nanos': {
      if (typeof v !== 'number' || !Number.isInteger(v))
        return `expected an integer (${s === 'nanos' ? 'int64 nanoseconds' : s}), got ${got}`;
      const [lo, hi] = INT_RANGE[s === 'nanos' ? 'int64' : s];
      return v < lo || v > hi ? `${v} does not fit in ${s === 'nanos' ? 'int64' : s}` : undefined;
    }
    case 'duration': {
      if (typeof v !== 'string') return `expected a duration string such as "1m", got ${got}`;
      const d = parseGoDuration(v);
      return d.ok ? undefined : d.error;
    }
    case 'quantity': {
      if (typeof v !== 'string' && !(typeof v === 'number' && Number.isFinite(v))) return `expected a quantity such as "10Mi", got ${got}`;
      const q = parseQuantity(String(v));
      return q.ok ? undefined : q.error;
    }
  }
}

/** Duration text to nanoseconds, for values already type-checked. */
export function nanosOf(v: unknown): bigint {
  const d = parseGoDuration(String(v));
  if (!d.ok) throw new Error(`not a duration: ${String(v)}`);
  return d.nanos;
}
