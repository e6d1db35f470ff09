/**
 * A planted fault for each defaulted field of the node-agent configuration whose default a clause
 * besides the field's own states (oracle strength): the nested members of 2.3 and 2.4, and the
 * top-level fields whose default a row of 8 or 5 repeats. `default-changed/<path>` prints another
 * value for that field when the file leaves it out (one more, another word, the opposite), the other
 * fields as the model computes them (svc spellings: the self-tests run the svc profile). Kept apart from faults.ts, whose lookup reads it.
 */
import { configFields, type FieldSpec } from '../../reference/nodeagent/config-fields.ts';
import { profiles } from '../../reference/profile.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

export interface DefaultChange {
  /** The field's path in the file (svc spellings), top level first. */
  readonly path: readonly string[];
  readonly value: unknown;
}

/** Another value of the same kind: a number one more, a leading count one more (`5m` -> `6m`), the opposite bool, another word. */
function another(v: unknown): unknown {
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'string') return /^\d/.test(v) ? v.replace(/^\d+/, (n) => String(Number(n) + 1)) : `${v}-other`;
  return undefined;
}

/** The defaulted scalar fields under `f` (itself included), with their paths. */
function defaulted(f: FieldSpec, parent: readonly string[], nestedOnly: boolean): { f: FieldSpec; path: string[] }[] {
  const path = [...parent, f.name];
  if (f.type.kind === 'object') return f.type.fields.flatMap((sub) => defaulted(sub, path, false));
  if (f.def.kind !== 'value' || another(f.def.value(profiles.svc)) === undefined) return [];
  // A top-level field's own clause has its type and range faults; only a default stated elsewhere needs this one.
  return nestedOnly && (f.also ?? []).length === 0 ? [] : [{ f, path }];
}

/** A fault of this family: faults.ts's NodeagentFault with its change (spelled out here, so faults.ts alone imports the other). */
export interface NodeagentDefaultFault {
  readonly name: string;
  readonly clauses: readonly ClauseId[];
  readonly description: string;
  readonly checks: readonly string[];
  readonly defaultChange: DefaultChange;
}

export const nodeagentDefaultFaults: readonly NodeagentDefaultFault[] = configFields
  .flatMap((f) => defaulted(f, [], true))
  .map(({ f, path }) => {
    const d = f.def.kind === 'value' ? f.def.value(profiles.svc) : undefined;
    return {
      name: `default-changed/${path.join('.')}`,
      clauses: [f.clause, ...(f.also ?? [])],
      description: `prints ${path.join('.')} ${JSON.stringify(another(d))} when the file leaves it out, instead of the spec's ${JSON.stringify(d)}`,
      checks: ['nodeagent-valid-configs'],
      defaultChange: { path, value: another(d) },
    };
  });
