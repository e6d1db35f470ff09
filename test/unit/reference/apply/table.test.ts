// The apply model against hand-written tables (rest:3.2, rest:4.7): each case is a readable sequence
// of operations with the object and ownership it must end with. Near misses are rejected too: the
// same predicates must refuse a wrong object and a wrong owner.
import { describe, expect, it } from 'vitest';
import {
  apply,
  update,
  startingManagedFields,
  decodeManagedFields,
  trackedPart,
  showManager,
  FieldSet,
  sameValue,
  type ManagedEntry,
  type Schema,
  type Path,
} from '../../../../reference/apply/index.ts';
import { cases, type Case } from './cases.ts';

/** `spec.mapList k:{"name":"p"} value` -> path elements. */
export function P(text: string): Path {
  const out: string[] = [];
  for (const part of text.split(' ')) {
    if (/^[kvi]:/.test(part)) out.push(part);
    else for (const f of part.split('.')) out.push(`f:${f}`);
  }
  return out;
}

function run(c: Case): { object: Record<string, unknown>; managed: readonly ManagedEntry[]; conflicts: string[][]; schema: Schema } {
  let live: Record<string, unknown> | undefined;
  let managed: readonly ManagedEntry[] = [];
  let schema = c.schema;
  const conflicts: string[][] = [];
  for (const [i, op] of c.ops.entries()) {
    const now = `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`;
    if ('schema' in op) {
      schema = op.schema;
      continue;
    }
    if ('apply' in op) {
      const r = apply({ live, managed, intent: op.object, manager: op.apply, force: op.force ?? false, schema, apiVersion: 'v1', now });
      if (r.kind === 'conflict') {
        conflicts.push(r.conflicts.map((k) => `${k.manager}/${k.operation} ${k.path.map((e) => e.replace(/^f:/, '')).join(' ')}`).sort());
        expect(op.conflicts, `step ${i} conflicted: ${JSON.stringify(r.conflicts)}`).toBeDefined();
        continue;
      }
      expect(op.conflicts, `step ${i} should conflict`).toBeUndefined();
      live = r.object;
      managed = r.managed;
    } else {
      const start = startingManagedFields(op.managedFields, managed, (v) => {
        const d = decodeManagedFields(v);
        return Array.isArray(d) ? d : { message: d.message };
      });
      const r = update({ live, managed: start, object: op.object, manager: op.update, schema, apiVersion: 'v1', now });
      live = r.object;
      managed = r.managed;
    }
  }
  return { object: live ?? {}, managed, conflicts, schema };
}

const ownership = (managed: readonly ManagedEntry[]) => Object.fromEntries(managed.map((e) => [`${e.manager}/${e.operation}`, e.fields]));
const expectedConflicts = (c: Case) =>
  c.ops.flatMap((op) =>
    'apply' in op && op.conflicts
      ? [
          op.conflicts
            .map((t) => {
              const [m, ...rest] = t.split(' ');
              return `${m} ${P(rest.join(' '))
                .map((e) => e.replace(/^f:/, ''))
                .join(' ')}`;
            })
            .sort(),
        ]
      : [],
  );

describe('apply model tables', () => {
  it.each(cases.map((c) => [`${c.clause}: ${c.name}`, c] as const))('%s', (_n, c) => {
    const got = run(c);
    expect(sameValue(trackedPart(got.object), c.object, got.schema), `object ${JSON.stringify(trackedPart(got.object))}`).toBe(true);
    const own = ownership(got.managed);
    expect(Object.keys(own).sort()).toEqual(Object.keys(c.managed).sort());
    for (const [m, paths] of Object.entries(c.managed)) {
      const want = FieldSet.of(paths.map(P));
      expect(own[m]!.paths(), `${m}`).toEqual(want.paths());
    }
    expect(got.conflicts).toEqual(expectedConflicts(c));
    for (const e of got.managed) expect(showManager(e)).toContain(e.manager);
  });

  it('near misses: a wrong value, a missing item or an extra owner is told apart', () => {
    const c = cases.find((x) => x.clause === 'rest:3.2/apply-force')!;
    const got = run(c);
    expect(sameValue(trackedPart(got.object), { data: { k: '1', j: '1' } }, c.schema)).toBe(false);
    expect(sameValue(trackedPart(got.object), { data: { k: '2' } }, c.schema)).toBe(false);
    expect(ownership(got.managed)['a/Apply']!.equals(FieldSet.of([P('data.j'), P('data.k')]))).toBe(false);
  });
});
