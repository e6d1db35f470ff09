/**
 * Every file that sits on the edge of a node-agent rule, grouped by the clause it decides, so that each
 * clause's verdict is reached on every run: the just-outside and just-inside values of every range rule
 * (2.2 Rule column and its edges in the field table), both sides of every cross-field rule
 * (config-rules.ts breaks and keeps: iptablesMasqueradeBit against iptablesDropBit, the shutdown
 * periods...), every boundary value of a field's type (int32 limits, compound and sub-second durations)
 * and the matchImages syntax corners and other one-violation CredentialProviderConfig files (2.1), and
 * section 2's duration row (its examples, and a duration written as no string).
 *
 * The random properties drew from these pools a few files per run, so a clause a target gets wrong on
 * one file of several (upstream accepts equal iptables bits but refuses a bit of 32; it accepts a glob
 * in a matchImages path but not in the port) failed on some seeds and passed on others. One case per
 * clause keeps every failing clause reported with its own shrunk file (a case that failed under several
 * clauses would be shrunk to, and reported as, one of them).
 *
 * Each file is a file of defaults with the value laid over it; whether it is valid, invalid or open is
 * the model's verdict, never this module's (an open file is left out: it decides nothing).
 */
import { profiles, type Profile } from '../reference/profile.ts';
import { configFields, nameIn, type FieldSpec } from '../reference/nodeagent/config-fields.ts';
import { configApiVersion, configKind, validateNodeagentConfig } from '../reference/nodeagent/config.ts';
import { crossRules } from '../reference/nodeagent/config-rules.ts';
import { validateCredentialProviderConfig } from '../reference/nodeagent/credential-provider.ts';
import type { ClauseId } from '../reference/catalog/clause-ids.ts';
import { boundaryVerdicts, toYaml, violations, type Doc, type NodeagentCase } from './nodeagent.ts';
import { breakerDocs, PATTERNS, plainCredentialDoc } from './nodeagent-credentials.ts';
import { EveryOneArbitrary } from './every-one.ts';
import type fc from 'fast-check';

export type EdgeFileKind = 'config' | 'credentials';

export interface EdgeFile extends NodeagentCase {
  readonly file: EdgeFileKind;
  /** The clause the file decides: the one the model rejects it under, else the field's or rule's own. */
  readonly group: ClauseId;
}

/**
 * Patterns around the matchImages syntax rules of 2.1 ("Globs allowed in the domain ... but not in port
 * or path; one glob matches one subdomain segment only"), beside the breakers' three: a glob in part of
 * the port, in a middle path segment, a `?` in the path; and valid corners (a glob for the whole
 * domain, a glob domain with port and path). The model says which are valid.
 */
const MATCH_IMAGES_CORNERS = [
  'registry.io:50*',
  'registry.io/*/app',
  'registry.io:5000/te?m',
  '*',
  '*.registry.io:5000/team',
  '*.*.registry.io:443/a/b',
];

/**
 * Section 2's row "Duration fields are written as strings such as `1m`, `20s`, `4h`": its three
 * examples accepted, and a duration written as a number or a bool refused (the model says which).
 */
const DURATION_ROW_VALUES: readonly unknown[] = ['1m', '20s', '4h', 60, true];

const baseDoc = (p: Profile): Doc => ({
  apiVersion: configApiVersion(p),
  kind: configKind(p),
  [nameIn(configFields.find((f) => f.name === 'reservedSystemCPUs')!, p)]: '',
});

function withOverlay(base: Doc, overlay: Doc): Doc {
  const out = { ...base, ...overlay };
  for (const [k, v] of Object.entries(overlay)) if (v === null) delete out[k];
  return out;
}

/** Wraps a nested value into the top-level overlay: ['memorySwap', 'swapBehavior'] -> {memorySwap: {swapBehavior: v}}. */
function nest(keys: readonly string[], v: unknown): Doc {
  let out: unknown = v;
  for (let i = keys.length - 1; i >= 0; i--) out = { [keys[i]!]: out };
  return out as Doc;
}

/** Overlays of every edge the field table marks accepted (nested members too), with the field's clause. */
function acceptedEdges(
  fields: readonly FieldSpec[],
  prefix: readonly string[],
  p: Profile,
): { overlay: Doc; clause: ClauseId; what: string }[] {
  return fields.flatMap((f) => {
    const keys = [...prefix, prefix.length === 0 ? nameIn(f, p) : f.name];
    const own = (f.edges ?? [])
      .filter((e) => e.ok)
      .map((e) => ({ overlay: nest(keys, e.value), clause: f.clause, what: `${keys.join('.')} = ${JSON.stringify(e.value)} (${e.what})` }));
    return [...own, ...(f.type.kind === 'object' ? acceptedEdges(f.type.fields, keys, p) : [])];
  });
}

/** svc names of an overlay's top-level keys to the profile's (the cross rules' examples use svc names). */
function inProfile(overlay: Doc, p: Profile): Doc {
  return Object.fromEntries(
    Object.entries(overlay).map(([k, v]) => {
      const f = configFields.find((x) => x.name === k);
      return [f ? nameIn(f, p) : k, v];
    }),
  );
}

const cache = new Map<string, readonly EdgeFile[]>();

/** Every edge file of the profile, in a fixed order, each file once. */
export function edgeFiles(p: Profile): readonly EdgeFile[] {
  const hit = cache.get(p.name);
  if (hit) return hit;
  const out: EdgeFile[] = [];
  const seen = new Set<string>();
  const config = (doc: Doc, what: string, clause: ClauseId) => {
    const model = validateNodeagentConfig(doc, p);
    if (model.errors.length === 0 && model.unspecified.length > 0) return;
    const invalid = model.errors[0];
    add({ file: 'config', doc, group: invalid?.clause ?? clause, violation: invalid ? { what, clause: invalid.clause } : undefined });
  };
  const credentials = (doc: Doc, what: string) => {
    const model = validateCredentialProviderConfig(doc, p);
    const invalid = model.errors[0];
    // A valid file decides only what the spec leaves open in it (the exec apiVersion, 2.5).
    const group = invalid?.clause ?? model.unspecified[0]?.clause;
    if (group === undefined) return;
    add({ file: 'credentials', doc, group, violation: invalid ? { what, clause: invalid.clause } : undefined });
  };
  const add = (f: EdgeFile) => {
    const key = `${f.file}:${JSON.stringify(f.doc)}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(f);
  };
  const base = baseDoc(p);
  for (const v of violations(p)) if (v.category === 'rule') config(withOverlay(base, v.overlay), v.what, v.clause);
  for (const e of acceptedEdges(configFields, [], p)) config(withOverlay(base, e.overlay), e.what, e.clause);
  for (const r of crossRules) r.keeps.forEach((k, i) => config(withOverlay(base, inProfile(k, p)), `${r.id} keep #${i + 1}`, r.clause));
  for (const b of boundaryVerdicts(p))
    config(
      { ...base, [nameIn(b.field, p)]: b.value },
      `${nameIn(b.field, p)} = ${JSON.stringify(b.value)}, at the edge of its type or range`,
      b.field.clause,
    );
  const syncFrequency = nameIn(configFields.find((f) => f.name === 'syncFrequency')!, p);
  for (const v of DURATION_ROW_VALUES)
    config({ ...base, [syncFrequency]: v }, `${syncFrequency} = ${JSON.stringify(v)}`, 'node:2/durations');
  for (const b of breakerDocs(p)) credentials(b.doc, b.what);
  // The invalid corners one file each; the valid ones all in one file (a valid file decides only the open exec apiVersion).
  const cornerValid = (x: string) => validateCredentialProviderConfig(plainCredentialDoc(p, { matchImages: [x] }), p).errors.length === 0;
  for (const x of MATCH_IMAGES_CORNERS.filter((c) => !cornerValid(c)))
    credentials(plainCredentialDoc(p, { matchImages: [x] }), `matchImages pattern ${JSON.stringify(x)}`);
  credentials(plainCredentialDoc(p, { matchImages: [...PATTERNS, ...MATCH_IMAGES_CORNERS.filter(cornerValid)] }), 'every valid pattern');
  cache.set(p.name, out);
  return out;
}

/** The clauses the edge files decide, in the order they first appear (the same in both profiles: clause ids use svc names). */
export function edgeClauses(p: Profile = profiles.svc): ClauseId[] {
  return [...new Set(edgeFiles(p).map((f) => f.group))];
}

/** The edge files deciding one clause. */
export function edgeFilesOf(p: Profile, clause: ClauseId): readonly EdgeFile[] {
  return edgeFiles(p).filter((f) => f.group === clause);
}

/** Every edge file of one clause, as one case (see generators/every-one.ts). */
export function everyEdgeFileArb(p: Profile, clause: ClauseId): fc.Arbitrary<readonly EdgeFile[]> {
  return new EveryOneArbitrary(edgeFilesOf(p, clause));
}
