/**
 * The node-agent configuration model (spec 2.2-2.5, 5, 8): validation, defaults and the effective
 * configuration, as pure functions of the parsed document. The field table is config-fields.ts; the
 * cross-field rules config-rules.ts.
 *
 *   validateNodeagentConfig({apiVersion, kind, maxPods: -1}, svc)
 *     -> { errors: [{ field: 'maxPods', clause: 'node:2.2/maxPods', message: '-1 is negative' }], unspecified: [] }
 *
 * Three outcomes: `errors` non-empty, the loader must reject; else `unspecified` non-empty, either
 * answer is acceptable (the spec does not decide: the notes say why); else the loader must accept.
 */
import type { Profile } from '../profile.ts';
import {
  configFields,
  defaultOf,
  fieldByName,
  fieldBySvcName,
  isZeroScalar,
  nameIn,
  zeroReadsAsDefault,
  type FieldSpec,
  type Issue,
} from './config-fields.ts';
import { DURATIONS_ROW, isRecord, nanosOf, scalarTypeError, type TypeSpec } from './config-types.ts';
import { formatGoDuration, parseGoDuration } from './duration.ts';
import { gateEnabled, serverCertGate } from './feature-gates.ts';
import { crossRules, type RuleContext } from './config-rules.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';
import { REFERENCE_VERSION, type MinorVersion } from './minor-version.ts';
import { didYouMean } from './did-you-mean.ts';

export interface FieldError {
  /** Path in the file as written under the profile: `a.b[0].c`; '' for the document itself. */
  readonly field: string;
  readonly clause: ClauseId;
  readonly message: string;
  /** Other paths a loader may name for the same violation (a cross-field rule names either field). */
  readonly related?: readonly string[];
}
/**
 * A decision the spec leaves open. `row`: the field's own 2.2-2.4 clause when the note names another
 * (a 2.5 gap): the row says no more than "see gap list", so the answer is unspecified under both.
 */
export type UnspecifiedNote = FieldError & { readonly row?: ClauseId };

export interface ValidationResult {
  readonly errors: readonly FieldError[];
  readonly unspecified: readonly UnspecifiedNote[];
}

export type { MinorVersion } from './minor-version.ts';

export interface ValidateOptions {
  /** Version the loader claims (showHiddenMetricsForVersion accepts only the previous minor). */
  readonly version?: MinorVersion;
  /**
   * Rules to leave out, by id (`type`, `type:<field>`, `range:<field>`, `gate`, `kind`, or a cross rule id): only the
   * planted faults of the reference loader use this, to prove the suite notices a missing rule.
   */
  readonly skip?: ReadonlySet<string>;
}

export const NODEAGENT_VERSION = 'v1beta1';
export const configKind = (p: Profile) => p.nodeagentConfigurationKind;
export const configApiVersion = (p: Profile) => `${p.nodeagentGroup}/${NODEAGENT_VERSION}`;

/** Document-level check shared with the credential-provider model. */
export function checkTypeMeta(doc: Record<string, unknown>, p: Profile, kind: string, clause: ClauseId): FieldError[] {
  const out: FieldError[] = [];
  const api = `${p.nodeagentGroup}/${NODEAGENT_VERSION}`;
  // The spec fixes the pair (apiVersion = X, kind = Y): a kind unknown in that version is a fault of the
  // pair, so a loader may name either member (upstream: `no kind "K" is registered for version "V"`).
  if (doc.apiVersion !== api)
    out.push({
      field: 'apiVersion',
      clause,
      message: `apiVersion ${JSON.stringify(doc.apiVersion ?? null)} is not ${api}`,
      related: ['kind'],
    });
  if (doc.kind !== kind)
    out.push({ field: 'kind', clause, message: `kind ${JSON.stringify(doc.kind ?? null)} is not ${kind}`, related: ['apiVersion'] });
  return out;
}

class Collector {
  readonly errors: FieldError[] = [];
  readonly unspecified: UnspecifiedNote[] = [];
  add(path: string, clause: ClauseId, issue: Issue): void {
    const e = { field: path, clause: issue.clause ?? clause, message: issue.message };
    if (issue.level === 'error') this.errors.push(e);
    else this.unspecified.push(e.clause === clause ? e : { ...e, row: clause });
  }
}

const ABSENT_UNSPECIFIED = 'required with no default: the spec does not say whether a loader refuses its absence or reads the zero value';
/** Required members with no default whose absence the parent's stated default covers (logging). */
const ABSENCE_COVERED = new Set(['flushFrequency', 'vmodule']);

function childPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

/** Type check and field-local rules of one value; returns whether the value was of the right type. */
function checkValue(spec: FieldSpec, t: TypeSpec, v: unknown, path: string, p: Profile, c: Collector, skip: ReadonlySet<string>): boolean {
  const clause = spec.clause;
  const typeErr = (message: string, at: ClauseId = clause, skipKey?: string) => {
    if (!skip.has('type') && !skip.has(`type:${spec.name}`) && !(skipKey !== undefined && skip.has(skipKey)))
      c.add(path, at, { level: 'error', message });
    return false;
  };
  switch (t.kind) {
    case 'scalar': {
      if (t.scalar === 'nanos' && typeof v === 'string' && parseGoDuration(v).ok) {
        c.add(path, clause, { level: 'unspecified', message: 'a duration string where the spec says nanoseconds (int64): not ruled on' });
        return false;
      }
      const e = scalarTypeError(t.scalar, v);
      if (e === undefined) break;
      // "Duration fields are written as strings" (section 2's own row): a number or a bool there breaks that row.
      return t.scalar === 'duration' && typeof v !== 'string' ? typeErr(e, DURATIONS_ROW, 'durations-as-numbers') : typeErr(e);
    }
    case 'list': {
      if (!Array.isArray(v)) return typeErr(`expected a list, got ${typeof v}`);
      let ok = true;
      v.forEach((item, i) => {
        ok = checkValue(spec, t.of, item, `${path}[${i}]`, p, c, skip) && ok;
      });
      if (!ok) return false;
      break;
    }
    case 'map': {
      if (!isRecord(v)) return typeErr(`expected a map, got ${Array.isArray(v) ? 'a list' : typeof v}`);
      let ok = true;
      const before = c.errors.length;
      for (const [k, item] of Object.entries(v)) ok = checkValue(spec, t.of, item, childPath(path, k), p, c, skip) && ok;
      // A map's entries are no fields of their own (2.2 types `featureGates` "map string to bool"): an error
      // about an entry names the map too (upstream: `Go struct field KubeletConfiguration.featureGates of type bool`).
      for (let i = before; i < c.errors.length; i++) c.errors[i] = { ...c.errors[i]!, related: [...(c.errors[i]!.related ?? []), path] };
      if (!ok) return false;
      break;
    }
    case 'opaque':
      if (!isRecord(v)) return typeErr(`expected a ${t.typeName} object, got ${Array.isArray(v) ? 'a list' : typeof v}`);
      break;
    case 'object': {
      if (!isRecord(v)) return typeErr(`expected a ${t.typeName} object, got ${Array.isArray(v) ? 'a list' : typeof v}`);
      let ok = true;
      for (const [k, item] of Object.entries(v)) {
        const sub = t.fields.find((f) => f.name === k);
        if (!sub) {
          c.add(childPath(path, k), spec.clause, {
            level: 'unspecified',
            message: `unknown field ${k} of ${t.typeName}${didYouMean(
              k,
              t.fields.map((f) => f.name),
            )}: the spec does not say whether unknown fields are refused`,
          });
          continue;
        }
        if (item === null) continue;
        ok = checkField(sub, item, childPath(path, k), p, c, skip) && ok;
      }
      for (const sub of t.fields) {
        if (
          sub.required &&
          sub.def.kind === 'none' &&
          !ABSENCE_COVERED.has(sub.name) &&
          (v[sub.name] === undefined || v[sub.name] === null)
        ) {
          c.add(childPath(path, sub.name), sub.clause, { level: 'unspecified', message: ABSENT_UNSPECIFIED });
        }
      }
      if (!ok) return false;
      break;
    }
  }
  return true;
}

function checkField(spec: FieldSpec, v: unknown, path: string, p: Profile, c: Collector, skip: ReadonlySet<string>): boolean {
  if (!checkValue(spec, spec.type, v, path, p, c, skip)) return false;
  if (spec.check && !skip.has(`range:${spec.name}`)) {
    const issue = spec.check(v, p);
    if (issue) c.add(path, spec.clause, issue);
  }
  return true;
}

/** Is the value the field's default (so a gate it needs does not matter)? */
export function isDefaultValue(spec: FieldSpec, v: unknown, p: Profile): boolean {
  if (v === undefined || v === null) return true;
  const d = defaultOf(spec, p);
  if (spec.def.kind === 'nil') return (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.keys(v).length === 0);
  if (d === undefined) return false;
  if (spec.type.kind === 'scalar' && spec.type.scalar === 'duration') return nanosOf(v) === nanosOf(d);
  if (typeof d === 'string' && typeof v === 'string' && spec.name.endsWith('ManagerPolicy')) return d.toLowerCase() === v.toLowerCase();
  return JSON.stringify(v) === JSON.stringify(d);
}

/** Gates a field needs for the value it holds ('pod' scope, non-none policies, true for a bool...). */
function gatesNeeded(spec: FieldSpec, v: unknown, p: Profile): string[] {
  if (!spec.gates || isDefaultValue(spec, v, p)) return [];
  return spec.gates.map((g) => (g === '$serverCertGate' ? serverCertGate(p) : g));
}

export function validateNodeagentConfig(doc: unknown, profile: Profile, opts: ValidateOptions = {}): ValidationResult {
  const skip = opts.skip ?? new Set<string>();
  const c = new Collector();
  if (!isRecord(doc)) {
    c.add('', 'node:2.2/kind', { level: 'error', message: 'the document is not a map of fields' });
    return c;
  }
  if (!skip.has('kind')) c.errors.push(...checkTypeMeta(doc, profile, configKind(profile), 'node:2.2/kind'));

  const typed = new Map<string, unknown>();
  for (const [key, v] of Object.entries(doc)) {
    if (key === 'apiVersion' || key === 'kind') continue;
    const spec = fieldByName(key, profile);
    if (!spec) {
      c.add(key, 'node:2.2/kind', {
        level: 'unspecified',
        message: `unknown field ${key}${didYouMean(
          key,
          configFields.map((f) => nameIn(f, profile)),
        )}: the spec does not say whether unknown fields are refused`,
      });
      continue;
    }
    if (v === null) continue;
    if (checkField(spec, v, key, profile, c, skip)) typed.set(spec.name, v);
  }
  for (const spec of configFields) {
    if (spec.required && spec.def.kind === 'none' && !typed.has(spec.name) && doc[nameIn(spec, profile)] === undefined) {
      c.add(nameIn(spec, profile), spec.clause, { level: 'unspecified', message: ABSENT_UNSPECIFIED });
    }
  }

  const gates = isRecord(typed.get('featureGates')) ? (typed.get('featureGates') as Record<string, unknown>) : {};
  for (const g of Object.keys(gates)) {
    if (gateEnabled(g, {}, profile) === undefined)
      c.add(`featureGates.${g}`, 'node:2.2/featureGates', {
        level: 'unspecified',
        message: `gate ${g} is not among the gates the spec names`,
      });
  }
  if (!skip.has('gate')) {
    for (const [name, v] of typed) {
      const spec = fieldBySvcName(name);
      for (const g of gatesNeeded(spec, v, profile)) {
        if (gateEnabled(g, gates, profile) === false) {
          c.add(nameIn(spec, profile), spec.clause, {
            level: 'unspecified',
            message: `needs feature ${g}, which is off: the spec does not say whether the field is refused or ignored`,
          });
        }
      }
    }
  }

  const ctx: RuleContext = {
    typed,
    profile,
    gates,
    version: opts.version ?? REFERENCE_VERSION,
    path: (name) => nameIn(fieldBySvcName(name), profile),
  };
  for (const rule of crossRules) {
    if (skip.has(rule.id)) continue;
    for (const r of rule.check(ctx))
      (r.level === 'error' ? c.errors : c.unspecified).push({
        field: r.field,
        clause: rule.clause,
        message: r.message,
        related: r.related,
      });
  }
  return { errors: c.errors, unspecified: c.unspecified };
}

/**
 * The same file with every explicit zero a loader may read as unset left out (config-fields.ts
 * `zeroReadsAsDefault`: `port: 0`, `imageMinimumGCAge: 0s`, `authentication.webhook.cacheTTL: 0s`), or
 * undefined when it holds none. A loader may answer the file as if it were this one. `only`: the paths
 * to consider (the fields a violation names), when the other zeros are to stay.
 *
 *   withZerosUnset({port: 0, maxPods: 5}, svc) -> {maxPods: 5}
 */
export function withZerosUnset(
  doc: Record<string, unknown>,
  profile: Profile,
  only?: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  let changed = false;
  const strip = (fields: readonly FieldSpec[], v: Record<string, unknown>, prefix: string): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...v };
    for (const f of fields) {
      const k = prefix === '' ? nameIn(f, profile) : f.name;
      const path = childPath(prefix, k);
      const x = out[k];
      if (x === undefined || x === null) continue;
      if (
        f.type.kind === 'scalar' &&
        zeroReadsAsDefault(f, profile) &&
        isZeroScalar(f.type.scalar, x) &&
        (only === undefined || only.has(path))
      ) {
        delete out[k];
        changed = true;
      } else if (f.type.kind === 'object' && isRecord(x)) out[k] = strip(f.type.fields, x, path);
    }
    return out;
  };
  const out = strip(configFields, doc, '');
  return changed ? out : undefined;
}

/** Every defaulted field of NodeagentConfiguration under the profile (the document a loader fills in). */
export function defaults(profile: Profile): Record<string, unknown> {
  const out: Record<string, unknown> = { apiVersion: configApiVersion(profile), kind: configKind(profile) };
  for (const f of configFields) {
    const d = defaultOf(f, profile);
    if (d !== undefined) out[nameIn(f, profile)] = d;
  }
  return out;
}

function fillObject(t: TypeSpec, v: unknown, p: Profile): unknown {
  if (t.kind !== 'object' || !isRecord(v)) return v;
  const out: Record<string, unknown> = { ...v };
  for (const sub of t.fields) {
    if (out[sub.name] === undefined || out[sub.name] === null) {
      const d = defaultOf(sub, p);
      if (d !== undefined) out[sub.name] = d;
      else delete out[sub.name];
    } else out[sub.name] = fillObject(sub.type, out[sub.name], p);
  }
  return out;
}

/** Durations written back the Go way (`1m` -> `1m0s`), recursively. */
function canonical(t: TypeSpec, v: unknown): unknown {
  if (v === undefined || v === null) return v;
  if (t.kind === 'scalar' && t.scalar === 'duration' && typeof v === 'string') {
    const d = parseGoDuration(v);
    return d.ok ? formatGoDuration(d.nanos) : v;
  }
  if (t.kind === 'object' && isRecord(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const sub = t.fields.find((f) => f.name === k);
      out[k] = sub ? canonical(sub.type, x) : x;
    }
    return out;
  }
  return v;
}

/**
 * The effective configuration of a valid document: defaults for what it leaves out (nested types
 * member by member), `nodeStatusReportFrequency` following an explicit `nodeStatusUpdateFrequency`,
 * durations in Go's canonical text. Fields with no default to show (2.5 gaps) stay absent.
 */
export function effective(doc: Record<string, unknown>, profile: Profile): Record<string, unknown> {
  const out: Record<string, unknown> = { apiVersion: configApiVersion(profile), kind: configKind(profile) };
  for (const f of configFields) {
    const name = nameIn(f, profile);
    const given = doc[name];
    let v: unknown = given === undefined || given === null ? defaultOf(f, profile) : given;
    if (f.name === 'nodeStatusReportFrequency' && (given === undefined || given === null)) {
      const update = doc[nameIn(fieldBySvcName('nodeStatusUpdateFrequency'), profile)];
      if (update !== undefined && update !== null) v = update;
    }
    if (f.type.kind === 'object' && given !== undefined && given !== null) v = fillObject(f.type, given, profile);
    if (v !== undefined) out[name] = canonical(f.type, v);
  }
  return out;
}

export { configFields, didYouMean, type FieldSpec };
