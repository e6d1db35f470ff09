// Clause ids are a type: `ClauseId` (reference/catalog/clause-ids.ts) is generated from the
// catalog, so a misspelt id in a judgement, a check or a fault does not compile. This test keeps the
// generated file equal to the catalog, and checks every id the model builds from its own tables (the
// casts of tableClauseId) against the catalog at run time.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalog, isClauseId } from '../../../reference/catalog/index.ts';
import { CLAUSE_IDS_FILE, renderClauseIds } from '../../../scripts/dev/clause-ids.ts';
import { pass, type ClauseId } from '../../../reference/judgement.ts';
import { configFields, type FieldSpec } from '../../../reference/nodeagent/config-fields.ts';
import { options } from '../../../reference/controller-daemon/options.ts';
import { gates, gateListClause } from '../../../reference/controller-daemon/gates.ts';
import { removals } from '../../../reference/versioning/removals.ts';
import { clauseOfEndpoint } from '../../../reference/health.ts';
import { OWNERSHIP_ROWS, ownershipClause } from '../../../reference/apply/ownership-rows.ts';

function fieldClauses(fs: readonly FieldSpec[]): ClauseId[] {
  return fs.flatMap((f) => {
    const t = f.type.kind === 'list' ? f.type.of : f.type;
    return [f.clause, ...(f.also ?? []), ...(t.kind === 'object' ? fieldClauses(t.fields) : [])];
  });
}

describe('ClauseId', () => {
  it('is generated from the catalog (run `npm run gen:clause-ids` after changing the catalog)', () => {
    expect(readFileSync(CLAUSE_IDS_FILE, 'utf8')).toBe(renderClauseIds(catalog.map((c) => c.id)));
  });

  it('a misspelt id does not compile; a catalogued one does', () => {
    // @ts-expect-error 'rest:4.4.33' is not a clause of the catalog: tsc --noEmit fails if this compiles.
    const misspelt = pass('rest:4.4.33', 'x');
    expect(pass('rest:4.4.3', 'x').clause).toBe('rest:4.4.3');
    expect(isClauseId(misspelt.clause)).toBe(false);
  });

  it('every id built from a model table is in the catalog', () => {
    const built: ClauseId[] = [
      ...fieldClauses(configFields),
      ...options.map((o) => o.clause),
      ...gates.map(gateListClause),
      ...removals.map((r) => r.clause),
      ...(['livez', 'readyz', 'healthz'] as const).flatMap((e) => [
        clauseOfEndpoint(e, false),
        ...(e === 'healthz' ? [] : [clauseOfEndpoint(e, true)]),
      ]),
      ...OWNERSHIP_ROWS.map((r) => ownershipClause(r.row)),
    ];
    expect(built.length).toBeGreaterThan(200);
    expect(built.filter((id) => !isClauseId(id))).toEqual([]);
  });
});
