/** Small fake catalogs and records: the report layer takes the catalog as a parameter for this. */
import type { Clause } from '../../../reference/catalog/types.ts';
import type { CheckRecord, Counterexample, Verdict } from '../../../runner/results.ts';
import type { ClauseId } from '../../../reference/catalog/clause-ids.ts';

/** Report tests exercise ids the real catalog lacks (unknown ids stay visible in reports). */
export const fakeId = (id: string): ClauseId => id as ClauseId;

// A fake catalog: its ids (and those of `rec`) need not be real clauses, so they are cast (fakeId).
export const catalog: readonly Clause[] = [
  { id: fakeId('rest:4.4.3'), doc: 'rest', section: '4.4', summary: 'continue token resumes the list', kind: 'normative' },
  { id: fakeId('rest:4.4.6'), doc: 'rest', section: '4.4', summary: 'expired token answers 410', kind: 'normative' },
  { id: fakeId('rest:4.4.9'), doc: 'rest', section: '4.4', summary: 'page size below limit is not the end', kind: 'unspecified' },
  {
    id: fakeId('rest:4.5/list/unset/limit-continue/other'),
    doc: 'rest',
    section: '4.5',
    summary: 'list with continue and no rv',
    kind: 'normative',
  },
  { id: fakeId('node:2.2/maxPods'), doc: 'node', section: '2.2', summary: 'maxPods defaults to 110', kind: 'normative' },
  {
    id: fakeId('node:1'),
    doc: 'node',
    section: '1',
    summary: 'overview',
    kind: 'informative',
    informative: 'an overview: nothing to judge',
  },
];

const AREAS: Record<string, string> = {
  'rest:4.4': 'rest:4.4 paging',
  'rest:4.5': 'rest:4.5 resource versions',
  'node:2.2': 'node:2.2 defaults',
  'node:1': 'node:1 overview',
};

/** Like the real catalog's familyOf: throws on ids it does not know. */
export function familyOf(id: string): string {
  const clause = catalog.find((c) => c.id === id);
  if (clause === undefined) throw new Error(`unknown clause ${id}`);
  const area = AREAS[`${clause.doc}:${clause.section}`];
  if (area === undefined) throw new Error(`no area for ${id}`);
  return area;
}

export function cx(over: Partial<Counterexample> = {}): Counterexample {
  return {
    check: 'paging-continue',
    clause: 'rest:4.4.3',
    expected: 'status 200 with items [b, c]',
    observed: 'status 200 with items [c]',
    steps: ['create a', 'create b', 'list limit=1', 'list continue=T'],
    curl: '#!/usr/bin/env bash\ncurl -sS "$SERVER"\'/api/v1/namespaces/x/pods?limit=1\'\n',
    requestCount: 4,
    seed: 42,
    path: '3:1',
    replay: 'npx svc-conformance run --seed 42 --path 3:1 --check paging-continue',
    ...over,
  };
}

export function rec(clause: string, verdict: Verdict, over: Partial<CheckRecord> = {}): CheckRecord {
  return { clause: fakeId(clause), check: 'some-check', verdict, count: 1, ...over };
}
