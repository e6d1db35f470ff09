// Every clause id the model, the harness or a check can report must be in the catalog: a judgement
// under an unknown id would vanish from coverage. Literal ids are read from the sources; the ids
// built from the rest:4.5 tables are enumerated from the model.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clauseById } from '../../../reference/catalog/index.ts';
import { getClause, listCells, listClause, watchClause } from '../../../reference/rv-semantics.ts';
import { checks } from '../../../suites/checks/index.ts';
import { faults } from '../../../targets/api-server/faults.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('clause ids used in code exist in the catalog', () => {
  it('literal ids in reference/, harness/, suites/, targets/', () => {
    const files = ['reference', 'harness', 'suites', 'targets']
      .flatMap((d) => sources(path.join(root, d)))
      .filter((f) => !f.includes(`${path.sep}catalog${path.sep}`));
    const ids = new Set<string>();
    for (const f of files) for (const m of readFileSync(f, 'utf8').matchAll(/'((?:rest|node):[0-9][^'\s]*[^'\s/])'/g)) ids.add(m[1]!);
    expect(ids.size).toBeGreaterThan(20);
    expect([...ids].filter((id) => !clauseById(id))).toEqual([]);
  });

  it('ids built from the decision tables, the checks and the fault table', () => {
    const built = [
      ...listCells().map((c) => listClause(c.match, c.paging, c.rv)),
      ...(['unset', 'zero', 'other'] as const).flatMap((rv) => [getClause(rv), watchClause(rv)]),
      ...checks.flatMap((c) => c.clauses),
      ...faults.map((f) => f.clause),
    ];
    expect(built.filter((id) => !clauseById(id))).toEqual([]);
  });
});

describe('shipped expectations files', () => {
  it('parse and name only catalogued clauses', async () => {
    const { parseExpectations } = await import('../../../reports/expectations.ts');
    const dir = path.join(root, 'expectations');
    for (const f of readdirSync(dir)) {
      const e = parseExpectations(readFileSync(path.join(dir, f), 'utf8'), f);
      expect(e.knownFailures.length).toBeGreaterThan(0);
      expect(e.knownFailures.map((k) => k.clause).filter((id) => !clauseById(id))).toEqual([]);
    }
  });
});
