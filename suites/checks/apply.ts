/**
 * Server-side apply and field ownership (rest:2.6, rest:3.2, rest:4.1 PATCH types, rest:4.3, rest:4.7):
 * the ownership table row by row, the numbered points, and random multi-manager sequences over the
 * fixture type, every answer judged by reference/apply after every step.
 */
import type { Check } from '../../harness/case/index.ts';
import { sequenceArb, showStep, type ApplySequence, type ApplyStep } from '../../generators/apply.ts';
import { rowScenariosArb, type RowScenario } from '../../generators/apply-table.ts';
import { configMapSchema, FIXTURE_FIELDS } from '../../reference/apply/index.ts';
import { ownershipClauses } from '../../reference/apply/ownership-rows.ts';
import { ensureFixture } from '../../harness/interpreters/index.ts';
import { resourceOf } from '../../harness/interpreters/index.ts';
import { runStep, startObject } from '../../harness/interpreters/index.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';
import { emptiedListCase, fixedCaseArb, jsonReplaceMissingCase } from '../../generators/rest-edges.ts';

const ROW_CLAUSES = ownershipClauses;

/** rest:3.2 row by row on ConfigMaps (every target has them): one object per row. */
export const applyOwnershipTable: Check<RowScenario[]> = {
  id: 'apply-ownership-table',
  suite: 'rest-apply',
  title: 'the field-ownership table of rest:3.2, one scenario per row, judged by the apply model',
  clauses: [
    ...ROW_CLAUSES,
    'rest:7/conflict',
    'rest:4.3/force',
    'rest:4.7.3',
    'rest:4.7.4',
    'rest:2.6/manager',
    'rest:2.6/operation',
    'rest:2.6/apiVersion',
    'rest:2.6/time',
    'rest:2.6/fieldsType',
    'rest:2.6/fieldsV1',
    'rest:2.3/metadata.managedFields',
    'rest:4.1/patch-type/apply',
  ],
  defaultRuns: 6,
  arbitrary: () => rowScenariosArb,
  describe: (rows) => rows.flatMap((r, i) => [`row ${r.row} on configmap row-${i}:`, ...r.steps.map((s) => `  ${showStep(s)}`)]),
  run: async (rows, cx) => {
    const rt = resourceOf(cx, 'configmaps');
    for (const [i, row] of rows.entries()) {
      let st = await startObject(cx, rt, configMapSchema, `row-${i}`, applyOwnershipTable.clauses);
      for (const step of row.steps) st = await runStep(cx, st, step);
    }
  },
};

/** Which rest:4.7.7-4.7.9 entries a step over the fixture exercises. */
function fixtureClauses(step: ApplyStep): ClauseId[] {
  const content = step.op === 'apply' || step.op === 'update' ? step.content : step.op === 'merge' ? step.patch : {};
  const spec = (content['spec'] ?? {}) as Record<string, unknown>;
  const out = new Set<ClauseId>();
  for (const f of Object.keys(spec)) {
    if (['atomicList', 'setList', 'mapList', 'multiKeyList', 'plainList'].includes(f)) out.add('rest:4.7.7/list-type');
    if (['mapList', 'multiKeyList'].includes(f)) out.add('rest:4.7.7/list-map-keys');
    if (['granularMap', 'atomicMap', 'granularStruct', 'atomicStruct'].includes(f)) out.add('rest:4.7.7/map-type');
    if (f === 'legacyList') out.add('rest:4.7.8');
    if (f === 'free') out.add('rest:4.7.9');
  }
  if (out.size > 0) out.add('rest:4.7.7');
  return [...out];
}

/** Fields of the fixture a CustomResourceDefinition can carry (rest:4.7.8 needs a built-in type). */
const CRD_FIELDS = FIXTURE_FIELDS.filter((f) => f !== 'legacyList');

/** Random multi-manager sequences over the fixture type: every list and map type of rest:4.7.7. */
export const applySequences: Check<ApplySequence> = {
  id: 'apply-sequences',
  suite: 'rest-apply',
  title: 'apply, update, merge patch and JSON patch sequences by several managers over the fixture type agree with the apply model',
  clauses: [
    'rest:4.7.3',
    'rest:4.7.4',
    'rest:4.7.7',
    'rest:4.7.7/list-type',
    'rest:4.7.7/list-map-keys',
    'rest:4.7.7/map-type',
    'rest:4.7.9',
    'rest:3.2/apply-conflict',
    'rest:3.2/non-apply-write',
    'rest:4.1/patch',
    'rest:4.1/patch-type/apply',
    'rest:4.1/patch-type/merge',
    'rest:4.1/patch-type/json',
    'rest:4.1/put',
    'rest:4.1/get-object',
  ],
  defaultRuns: 12,
  arbitrary: () => sequenceArb('applyfixtures', { maxLength: 8, fields: CRD_FIELDS }),
  describe: (s) => [`create ${s.resource} obj as creator (installing the fixture definition if needed)`, ...s.steps.map(showStep)],
  run: async (seq, cx) => {
    const fixture = await ensureFixture(cx, applySequences.clauses);
    if (!fixture) return;
    let st = await startObject(cx, fixture.rt, fixture.schema, 'obj', applySequences.clauses);
    for (const step of seq.steps) st = await runStep(cx, st, step, fixtureClauses);
  },
};

/** The same sequences on ConfigMaps: runs on every target, CRDs or not. */
export const applySequencesConfigMaps: Check<ApplySequence> = {
  id: 'apply-sequences-configmaps',
  suite: 'rest-apply',
  title: 'apply, update, merge patch and JSON patch sequences by several managers over a ConfigMap agree with the apply model',
  clauses: [
    'rest:4.7.3',
    'rest:4.7.4',
    'rest:3.2/apply-conflict',
    'rest:3.2/apply-same-value',
    'rest:3.2/non-apply-write',
    'rest:4.1/patch-type/apply',
    'rest:4.1/patch-type/merge',
    'rest:4.1/patch-type/json',
    'rest:4.1/put',
  ],
  defaultRuns: 10,
  arbitrary: () => sequenceArb('configmaps', { maxLength: 8 }),
  describe: (s) => ['create configmap obj as creator', ...s.steps.map(showStep)],
  run: async (seq, cx) => {
    let st = await startObject(cx, resourceOf(cx, 'configmaps'), configMapSchema, 'obj', applySequencesConfigMaps.clauses);
    for (const step of seq.steps) st = await runStep(cx, st, step);
  },
};

/**
 * A JSON Patch `replace` of a member that does not exist, under a parent that does, on every run
 * (generators/rest-edges.ts): the random JSON patches meet an existing `/data` without the replaced
 * key on some seeds only.
 */
export const applyJsonReplaceMissing: Check<ApplySequence> = {
  id: 'apply-edges-json-replace-missing',
  suite: 'rest-apply',
  title: 'a JSON Patch replace of a missing member (its parent present) fails as a whole, on every run',
  clauses: [...new Set<ClauseId>([...jsonReplaceMissingCase.decides, 'rest:4.1/patch-type/apply', 'rest:4.7.3'])],
  defaultRuns: 1,
  arbitrary: () => fixedCaseArb(jsonReplaceMissingCase),
  describe: applySequencesConfigMaps.describe,
  run: (seq, cx) => applySequencesConfigMaps.run(seq, cx),
};

/**
 * An apply that empties a list while it forces, shares and drops other fields, on every run
 * (generators/rest-edges.ts): the random sequences draw that shape on a few seeds only.
 */
const UNREACHED_BY_EMPTIED_LIST = new Set<ClauseId>([
  'rest:3.2/apply-conflict',
  'rest:4.1/patch-type/merge',
  'rest:4.1/patch-type/json',
  'rest:4.1/get-object',
]);

export const applyEmptiesList: Check<ApplySequence> = {
  id: 'apply-edges-empties-list',
  suite: 'rest-apply',
  title: 'a forced apply that empties a map list (and shares, drops and forces other fields) is judged by the apply model, on every run',
  // The sequence's own clauses, less those its steps never reach (it sends no conflicting apply, merge or JSON patch, nor a read of one object).
  clauses: [...new Set<ClauseId>([...emptiedListCase.decides, ...applySequences.clauses])].filter((c) => !UNREACHED_BY_EMPTIED_LIST.has(c)),
  defaultRuns: 1,
  arbitrary: () => fixedCaseArb(emptiedListCase),
  describe: applySequences.describe,
  run: (seq, cx) => applySequences.run(seq, cx),
};

export { applyPoints } from './apply-points.ts';
export { applySchemaChange } from './apply-schema-change.ts';
