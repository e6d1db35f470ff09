/**
 * What the model expects of a loader's answer to one file: the verdict (accept / reject / either),
 * the clause a field path belongs to, and the effective configuration compared field by field
 * (durations by value, quantities by value, a field the loader leaves out read as Go's zero value, as
 * a Go program reading its output would).
 *
 *   compareEffective({... maxPods unset}, {maxPods: 100}, svc)
 *     -> [{ field: 'maxPods', clause: 'node:2.2/maxPods', expected: '110', observed: '100' }]
 */
import type { Profile } from '../profile.ts';
import { configFields, nameIn, type FieldSpec } from './config-fields.ts';
import { DURATIONS_ROW, isRecord, type TypeSpec } from './config-types.ts';
import { parseGoDuration } from './duration.ts';
import { parseQuantity } from './quantity.ts';
import { effective } from './config.ts';
import { pathSegments } from './field-path.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';

function fieldAt(segments: readonly (string | number)[], p: Profile): FieldSpec | undefined {
  let fields: readonly FieldSpec[] = configFields;
  let found: FieldSpec | undefined;
  for (const [i, seg] of segments.entries()) {
    if (typeof seg === 'number') continue;
    const f = i === 0 ? fields.find((x) => nameIn(x, p) === seg) : fields.find((x) => x.name === seg);
    if (!f) break;
    found = f;
    const t = f.type.kind === 'list' ? f.type.of : f.type;
    if (t.kind !== 'object') break;
    fields = t.fields;
  }
  return found;
}

/** Clause of the deepest known field on a path (`logging.verbosity` -> node:2.4/...); `node:2.2/kind` otherwise. */
export function clauseForPath(path: string, p: Profile): ClauseId {
  return fieldAt(pathSegments(path), p)?.clause ?? 'node:2.2/kind';
}

/** Clauses of every known field the document sets, nested ones included, document clause first. */
export function clausesOfDoc(doc: Record<string, unknown>, p: Profile): ClauseId[] {
  const out = new Set<ClauseId>(['node:2.2/kind']);
  const walk = (fields: readonly FieldSpec[], v: Record<string, unknown>, top: boolean) => {
    for (const [k, x] of Object.entries(v)) {
      const f = fields.find((y) => (top ? nameIn(y, p) : y.name) === k);
      if (!f || x === null || x === undefined) continue;
      out.add(f.clause);
      // A duration written as a string, accepted: what section 2's row asks of a loader.
      if (f.type.kind === 'scalar' && f.type.scalar === 'duration' && typeof x === 'string') out.add(DURATIONS_ROW);
      const t = f.type.kind === 'list' ? f.type.of : f.type;
      if (t.kind !== 'object') continue;
      for (const item of Array.isArray(x) ? x : [x]) if (isRecord(item)) walk(t.fields, item, false);
    }
  };
  walk(configFields, doc, true);
  return [...out];
}

export interface EffectiveMismatch {
  readonly field: string;
  readonly clause: ClauseId;
  /** For a default shown wrong (the field left out): the other clauses stating that default (8, 5). */
  readonly also?: readonly ClauseId[];
  readonly expected: string;
  readonly observed: string;
  /** The values themselves, for the structured diff; `observedValue` is absent when the loader left the field out. */
  readonly expectedValue?: unknown;
  readonly observedValue?: unknown;
}

function zeroOf(t: TypeSpec): unknown {
  if (t.kind === 'object') return {};
  if (t.kind !== 'scalar') return undefined;
  switch (t.scalar) {
    case 'bool':
      return false;
    case 'string':
      return '';
    case 'duration':
      return '0s';
    case 'quantity':
      return '0';
    default:
      return 0;
  }
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.keys(v).length === 0);
/** Go reads a left-out member as its zero value: drop zeros on both sides before comparing lists and maps. */
function dropZero(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropZero);
  if (!isRecord(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .map(([k, x]) => [k, dropZero(x)] as const)
      .filter(([, x]) => !(x === false || x === 0 || x === '' || x === null || isEmpty(x))),
  );
}
const sortedJson = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (isRecord(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));

function sameScalar(f: FieldSpec, t: TypeSpec, expected: unknown, observed: unknown): boolean {
  if (t.kind === 'scalar' && t.scalar === 'duration') {
    const [a, b] = [parseGoDuration(String(expected)), parseGoDuration(String(observed))];
    return a.ok && b.ok && a.nanos === b.nanos && typeof observed === 'string';
  }
  if (t.kind === 'scalar' && t.scalar === 'quantity') {
    const [a, b] = [parseQuantity(String(expected)), parseQuantity(String(observed))];
    return a.ok && b.ok && a.value.numerator === b.value.numerator && a.value.denominator === b.value.denominator;
  }
  // The spec writes cpuManagerPolicy's default `None` and memoryManagerPolicy's `none`; upstream spells them the other way round.
  if (f.name.endsWith('ManagerPolicy') && typeof expected === 'string' && typeof observed === 'string')
    return expected.toLowerCase() === observed.toLowerCase();
  if (t.kind === 'list' || t.kind === 'map')
    return (isEmpty(expected) && isEmpty(observed)) || sortedJson(dropZero(expected)) === sortedJson(dropZero(observed));
  return sortedJson(expected) === sortedJson(observed);
}

function compareField(
  f: FieldSpec,
  given: unknown,
  expected: unknown,
  observedRaw: unknown,
  path: string,
  out: EffectiveMismatch[],
  p: Profile,
): void {
  const hasDefault = f.def.kind === 'value' || f.def.kind === 'object' || f.def.kind === 'nil';
  if ((given === undefined || given === null) && !hasDefault && f.name !== 'nodeStatusReportFrequency') return;
  if (f.def.kind === 'nil' && (given === undefined || given === null)) {
    if (!isEmpty(observedRaw))
      out.push({ field: path, clause: f.clause, expected: 'empty (default nil)', observed: JSON.stringify(observedRaw) });
    return;
  }
  const observed = observedRaw === undefined || observedRaw === null ? zeroOf(f.type) : observedRaw;
  if (f.type.kind === 'object' && isRecord(expected)) {
    const obs = isRecord(observed) ? observed : {};
    const g = isRecord(given) ? given : {};
    for (const sub of f.type.fields) compareField(sub, g[sub.name], expected[sub.name], obs[sub.name], `${path}.${sub.name}`, out, p);
    return;
  }
  if (!sameScalar(f, f.type, expected, observed))
    out.push({
      field: path,
      clause: f.clause,
      also: given === undefined || given === null ? f.also : undefined,
      expected: JSON.stringify(expected),
      observed: observedRaw === undefined ? 'left out' : JSON.stringify(observedRaw),
      expectedValue: expected,
      ...(observedRaw === undefined ? {} : { observedValue: observedRaw }),
    });
}

/** Mismatches between the model's effective configuration of a valid `doc` and what the loader printed. */
export function compareEffective(doc: Record<string, unknown>, printed: Record<string, unknown>, p: Profile): EffectiveMismatch[] {
  const expected = effective(doc, p);
  const out: EffectiveMismatch[] = [];
  for (const f of configFields) {
    const name = nameIn(f, p);
    if (f.def.kind === 'gap' && doc[name] === undefined) continue;
    compareField(f, doc[name], expected[name], printed[name], name, out, p);
  }
  return out;
}
