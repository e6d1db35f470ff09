/**
 * Node-agent configuration files as fast-check arbitraries, built from the model's field table:
 * valid ones (random subsets of fields, sample values of every type, a cross-field combination near
 * its edge) and invalid ones with exactly one targeted violation (a range edge, a cross-field rule,
 * a wrong type, a wrong kind or version). Plain data: the harness writes them as YAML.
 *
 * The model is asked only to keep the cases honest: a random valid subset that happens to combine
 * into a violation (podsPerCore 10 with maxPods 0) drops the fields involved.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { profiles, type Profile } from '../reference/profile.ts';
import { configFields, nameIn, type FieldSpec } from '../reference/nodeagent/config-fields.ts';
import { configApiVersion, configKind, validateNodeagentConfig } from '../reference/nodeagent/config.ts';
import { crossRules } from '../reference/nodeagent/config-rules.ts';
import type { TypeSpec } from '../reference/nodeagent/config-types.ts';
import { pathSegments } from '../reference/nodeagent/field-path.ts';
import type { ClauseId } from '../reference/catalog/clause-ids.ts';

export type Doc = Record<string, unknown>;

export interface NodeagentCase {
  readonly doc: Doc;
  /** For an invalid case: the violation planted and the clause it breaks. */
  readonly violation?: { readonly what: string; readonly clause: ClauseId };
}

const HEADER_KEYS = new Set(['apiVersion', 'kind']);
const header = (p: Profile): Doc => ({ apiVersion: configApiVersion(p), kind: configKind(p) });

/** Maps the svc names of an overlay's top-level keys to the profile's. */
export function inProfile(overlay: Doc, p: Profile): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(overlay)) {
    const f = configFields.find((x) => x.name === k);
    out[f ? nameIn(f, p) : k] = v;
  }
  return out;
}

/**
 * Drops the fields behind any error or unspecified note until the model accepts with nothing open;
 * `reservedSystemCPUs` (required, no default: absence is open) is kept and set to "".
 */
export function repairToValid(doc: Doc, p: Profile): Doc {
  let d: Doc = { ...doc };
  const rsc = configFields.find((f) => f.name === 'reservedSystemCPUs')!;
  for (let round = 0; round < 6; round++) {
    if (d[nameIn(rsc, p)] === undefined) d[nameIn(rsc, p)] = '';
    const v = validateNodeagentConfig(d, p);
    const issues = [...v.errors, ...v.unspecified];
    if (issues.length === 0) return d;
    for (const i of issues) {
      for (const path of [i.field, ...(i.related ?? [])]) {
        const top = String(pathSegments(path)[0] ?? '');
        if (top === '' || HEADER_KEYS.has(top)) continue;
        if (top === nameIn(rsc, p)) d[top] = '';
        else delete d[top];
      }
    }
  }
  return { ...header(p), [nameIn(rsc, p)]: '' };
}

const dropUndefined = (r: Doc): Doc => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));

// ---- boundary inputs ------------------------------------------------------------------

/**
 * Values at and past the edges of a field's type: integers at the int32/uint32 limits, one past them,
 * and one that wraps into the field's own sample when cut to 32 bits (2^32 + sample: a loader that
 * truncates accepts it); -1; compound and fractional durations (`1h30m`, `300ms`, `1.5h`), zero and
 * negative ones. Whether each is valid for the field is the model's verdict (boundaryVerdicts).
 */
function boundaryValues(f: FieldSpec, p: Profile): unknown[] {
  if (f.type.kind !== 'scalar') return [];
  const sample = f.samples(p).find((v): v is number => Number.isInteger(v)) ?? 0;
  switch (f.type.scalar) {
    case 'int32':
      return [-1, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, 2 ** 32 + sample];
    case 'uint32':
      return [-1, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + sample];
    case 'int64':
      return [-1];
    case 'duration':
      return ['1h30m', '300ms', '1.5h', '0s', '-1s'];
    default:
      return [];
  }
}

export const baseDoc = (p: Profile): Doc => ({ ...header(p), [nameIn(configFields.find((f) => f.name === 'reservedSystemCPUs')!, p)]: '' });

interface BoundaryVerdict {
  readonly field: FieldSpec;
  readonly value: unknown;
  /** The model's verdict for the value alone in a file of defaults: accepted with nothing open, or refused. */
  readonly valid: boolean;
}

const boundaryCache = new Map<string, readonly BoundaryVerdict[]>();

/** Every boundary value of every top-level field, with the model's verdict (open ones left out). */
export function boundaryVerdicts(p: Profile): readonly BoundaryVerdict[] {
  const hit = boundaryCache.get(p.name);
  if (hit) return hit;
  const out: BoundaryVerdict[] = [];
  for (const f of configFields) {
    for (const value of boundaryValues(f, p)) {
      const r = validateNodeagentConfig({ ...baseDoc(p), [nameIn(f, p)]: value }, p);
      if (r.errors.length > 0) out.push({ field: f, value, valid: false });
      else if (r.unspecified.length === 0) out.push({ field: f, value, valid: true });
    }
  }
  boundaryCache.set(p.name, out);
  return out;
}

// Boundary values stay out of the valid files' samples (generators/nodeagent-edges.ts judges each alone): a
// target refusing one (upstream's kubelet refuses a shutdownGracePeriod under 1s) would otherwise taint
// every file built on a valid one.
const samplesOf = (f: FieldSpec, p: Profile): unknown[] => [...f.samples(p), ...(f.edges ?? []).filter((e) => e.ok).map((e) => e.value)];

/** Valid configuration files: a random subset of fields with sample values, maybe a cross-field combination. */
export function validConfigArb(p: Profile): fc.Arbitrary<NodeagentCase> {
  const entries: [string, fc.Arbitrary<unknown>][] = [];
  for (const f of configFields) {
    const s = samplesOf(f, p);
    // About one field in ten: files of a handful of fields, shrinking towards leaving each one out.
    if (s.length > 0)
      entries.push([
        nameIn(f, p),
        fc.oneof(
          { withCrossShrink: true },
          { arbitrary: fc.constant(undefined), weight: 9 },
          { arbitrary: fc.constantFrom(...s), weight: 1 },
        ),
      ]);
  }
  const keeps = crossRules.flatMap((r) => r.keeps);
  return fc
    .record({ fields: fc.record(Object.fromEntries(entries)).map(dropUndefined), combo: fc.option(fc.constantFrom(...keeps), { freq: 3 }) })
    .map(({ fields, combo }) => ({ doc: repairToValid({ ...header(p), ...(fields as Doc), ...(combo ? inProfile(combo, p) : {}) }, p) }));
}

/**
 * Valid files that set every field that has samples (each shrinks towards leaving it out): with about
 * one field in ten per drawn file, which field clauses a run reached moved with the seed; these files
 * reach every one on every seed.
 */
export function everyFieldConfigArb(p: Profile): fc.Arbitrary<NodeagentCase> {
  const entries: [string, fc.Arbitrary<unknown>][] = [];
  for (const f of configFields) {
    const s = samplesOf(f, p);
    if (s.length > 0) entries.push([nameIn(f, p), fc.option(fc.constantFrom(...s), { nil: undefined, freq: 1_000 })]);
  }
  return fc
    .record(Object.fromEntries(entries))
    .map((fields) => ({ doc: addWhileValid(repairToValid(header(p), p), dropUndefined(fields as Doc), p) }));
}

/**
 * Adds each field that keeps the file valid. Not repairToValid on the whole file: a cross-field rule
 * there drops every field it names. Passes repeat, so a field that needs a companion (a soft eviction
 * threshold and its grace period) gets in once the companion is there.
 */
function addWhileValid(base: Doc, fields: Doc, p: Profile): Doc {
  let doc = base;
  // Fields the base already sets (reservedSystemCPUs) go last: they are there either way.
  let left = Object.entries(fields).sort(([a], [b]) => Number(a in base) - Number(b in base));
  for (let pass = 0; pass < 3 && left.length > 0; pass++) {
    const refused: [string, unknown][] = [];
    for (const [k, v] of left) {
      const next = { ...doc, [k]: v };
      const r = validateNodeagentConfig(next, p);
      if (r.errors.length === 0 && r.unspecified.length === 0) doc = next;
      else refused.push([k, v]);
    }
    if (refused.length === left.length) break;
    left = refused;
  }
  return doc;
}

// ---- violations ---------------------------------------------------------------------------------

export interface Violation {
  readonly what: string;
  readonly category: 'type' | 'rule' | 'document';
  /** Top-level keys (profile names) to set on a valid file. */
  readonly overlay: Doc;
}

/** A value of the wrong type for the type (as a Go JSON decoder would refuse it). */
function wrongValues(t: TypeSpec): unknown[] {
  switch (t.kind) {
    case 'scalar':
      switch (t.scalar) {
        case 'bool':
          return ['true', 1];
        case 'string':
          return [5, true];
        case 'int32':
        case 'int64':
        case 'uint32':
          return ['5', 1.5];
        case 'nanos':
          return ['soon', 1.5];
        case 'float64':
          return ['high'];
        case 'duration':
          return ['1d', 30];
        case 'quantity':
          return ['10MB', true];
      }
      break;
    case 'list':
      return ['x', ...(t.of.kind === 'scalar' ? [[{ a: 1 }]] : [[5]])];
    case 'map':
      return [['x'], ...(t.of.kind === 'scalar' && t.of.scalar === 'bool' ? [{ x: 'yes please' }] : [])];
    case 'object':
    case 'opaque':
      return ['x', [1]];
  }
  return [];
}

/** Wraps a nested value into the top-level overlay: ['authentication', 'webhook', 'enabled'] -> {authentication: {webhook: {enabled: v}}}. */
function nest(keys: readonly string[], v: unknown): Doc {
  let out: unknown = v;
  for (let i = keys.length - 1; i >= 0; i--) out = { [keys[i]!]: out };
  return out as Doc;
}

function fieldViolations(fields: readonly FieldSpec[], prefix: readonly string[], p: Profile): Violation[] {
  const out: Violation[] = [];
  for (const f of fields) {
    const keys = [...prefix, prefix.length === 0 ? nameIn(f, p) : f.name];
    const label = keys.join('.');
    for (const w of wrongValues(f.type))
      out.push({ what: `${label}: wrong type ${JSON.stringify(w)}`, category: 'type', overlay: nest(keys, w) });
    for (const e of f.edges ?? [])
      if (!e.ok) out.push({ what: `${label} = ${JSON.stringify(e.value)} (${e.what})`, category: 'rule', overlay: nest(keys, e.value) });
    if (f.type.kind === 'object') out.push(...fieldViolations(f.type.fields, keys, p));
    if (f.type.kind === 'list' && f.type.of.kind === 'object') {
      const item = f.type.of;
      // A member with no sample (MemoryReservation.limits: shape not shown) gets an empty value of its type, not a second wrong type.
      const ok = Object.fromEntries(
        item.fields.map((s) => [s.name, s.samples(p)[0] ?? (s.type.kind === 'map' ? {} : s.type.kind === 'list' ? [] : 0)]),
      );
      for (const s of item.fields)
        for (const w of wrongValues(s.type))
          out.push({
            what: `${label}[0].${s.name}: wrong type ${JSON.stringify(w)}`,
            category: 'type',
            overlay: nest(keys, [{ ...ok, [s.name]: w }]),
          });
    }
  }
  return out;
}

/** A violation with the clause it breaks on its own, laid over a file of defaults. */
export type PlacedViolation = Violation & { readonly clause: ClauseId };

// Built once per profile: every property of the suite draws from this pool (the per-rule ones too), and
// building it validates some 400 files.
const violationCache = new Map<string, readonly PlacedViolation[]>();

/** Every single-violation overlay the model rejects with every other field at its default. */
export function violations(p: Profile): readonly PlacedViolation[] {
  const hit = violationCache.get(p.name);
  if (hit) return hit;
  const placed = allViolations(p).flatMap((v) => {
    // Keep only overlays that are a clear violation on their own (a wrong type in an open field is still one).
    const first = validateNodeagentConfig(withOverlay({ ...header(p), reservedSystemCPUs: '' }, v.overlay), p).errors[0];
    return first === undefined ? [] : [{ ...v, clause: first.clause }];
  });
  violationCache.set(p.name, placed);
  return placed;
}

function allViolations(p: Profile): Violation[] {
  const other = (p.name === 'svc' ? profiles.k8s : profiles.svc).nodeagentConfigurationKind;
  const all: Violation[] = [
    ...fieldViolations(configFields, [], p),
    ...crossRules.flatMap((r) =>
      r.breaks.map((b, i) => ({ what: `${r.id} #${i + 1}: ${JSON.stringify(b)}`, category: 'rule' as const, overlay: inProfile(b, p) })),
    ),
    { what: 'kind of another naming profile', category: 'document', overlay: { kind: other } },
    { what: 'unknown kind', category: 'document', overlay: { kind: 'NodeConfiguration' } },
    { what: 'no kind', category: 'document', overlay: { kind: null } },
    { what: 'unknown version', category: 'document', overlay: { apiVersion: `${p.nodeagentGroup}/v1` } },
    { what: 'unknown group', category: 'document', overlay: { apiVersion: `nodeagent.config.example.io/v1beta1` } },
  ];
  return all;
}

export function withOverlay(doc: Doc, overlay: Doc): Doc {
  const out = { ...doc, ...overlay };
  for (const [k, v] of Object.entries(overlay)) if (v === null) delete out[k];
  return out;
}

/** Invalid files: a valid one with exactly one violation laid over it. */
export function invalidConfigArb(p: Profile): fc.Arbitrary<NodeagentCase> {
  const base = { ...header(p), [nameIn(configFields.find((f) => f.name === 'reservedSystemCPUs')!, p)]: '' };
  const pool = violations(p);
  // Range edges and cross-field rules are few beside the wrong types of ~100 fields: weigh them up.
  const of = (c: Violation['category']) => fc.constantFrom(...pool.filter((v) => v.category === c));
  const violation = fc.oneof(
    { arbitrary: of('rule'), weight: 4 },
    { arbitrary: of('type'), weight: 2 },
    { arbitrary: of('document'), weight: 1 },
  );
  return fc.record({ valid: validConfigArb(p), v: violation }).map(({ valid, v }) => {
    const clause = v.clause;
    // A valid field may cancel the violation (a low threshold under the planted high one): start from defaults then.
    let doc = withOverlay(valid.doc, v.overlay);
    if (!validateNodeagentConfig(doc, p).errors.some((e) => e.clause === clause)) doc = withOverlay(base, v.overlay);
    return { doc, violation: { what: v.what, clause } };
  });
}

/** The clauses range edges and cross-field rules break (each has an edge check of its own). */
export function ruleViolationClauses(p: Profile): ClauseId[] {
  return [
    ...new Set(
      violations(p)
        .filter((v) => v.category === 'rule')
        .map((v) => v.clause),
    ),
  ];
}

/** The file as the suite writes it: YAML 1.1-safe (strings like "yes" or "on" stay strings for Go readers). */
export function toYaml(doc: Doc): string {
  return stringify(doc, { version: '1.1' });
}
