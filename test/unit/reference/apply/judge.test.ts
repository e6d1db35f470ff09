// The judge of a write (rest:2.6, rest:3.2): accepts every answer the spec allows (set and map lists
// in any order, unknown extra fields, entries in any order, no time) and rejects near misses.
import { describe, expect, it } from 'vitest';
import {
  apply,
  encodeManagedFields,
  expectedOf,
  fixtureSchema,
  judgeWrite,
  withTrackedPart,
  type WriteOutcome,
} from '../../../../reference/apply/index.ts';
import { profiles } from '../../../../reference/profile.ts';

const schema = fixtureSchema(profiles.svc);
const base = { apiVersion: 'v1', kind: 'ApplyFixture', metadata: { name: 'o' } };
const first = apply({
  live: undefined,
  managed: [],
  intent: { ...base, spec: { setList: ['a', 'b'], granularMap: { k: '1' } } },
  manager: 'a',
  force: false,
  schema,
  apiVersion: 'v1',
  now: 'T',
}) as WriteOutcome;
const second = apply({
  live: first.object,
  managed: first.managed,
  intent: { ...base, spec: { setList: ['b', 'c'] } },
  manager: 'b',
  force: false,
  schema,
  apiVersion: 'v1',
  now: 'T',
}) as WriteOutcome;
const CLAUSES = ['rest:4.7.3'] as const;

function answer(
  spec: unknown,
  managed: Record<string, unknown>[] = encodeManagedFields(second.managed),
  extra: Record<string, unknown> = {},
) {
  return {
    ...withTrackedPart(second.object, { spec } as Record<string, unknown>),
    ...extra,
    metadata: { name: 'o', managedFields: managed },
  };
}
const verdicts = (json: unknown, status = 200) =>
  judgeWrite(expectedOf(second), status, json, schema, 'v1', CLAUSES)
    .filter((j) => j.verdict === 'fail')
    .map((j) => j.clause);

describe('judgeWrite', () => {
  it('accepts the allowed latitude', () => {
    const spec = second.object['spec'] as { setList: string[] };
    const wire = encodeManagedFields(second.managed)
      .reverse()
      .map(({ time: _t, ...e }) => e);
    expect(verdicts(answer({ ...spec, setList: [...spec.setList].reverse() }, wire, { futureField: 1 }))).toEqual([]);
  });

  it('rejects near misses, each under its clause', () => {
    const spec = second.object['spec'] as Record<string, unknown>;
    expect(verdicts(answer({ ...spec, setList: ['a', 'b'] }))).toContain('rest:4.7.3');
    expect(verdicts(answer(spec, encodeManagedFields(second.managed.filter((e) => e.manager !== 'a'))))).toContain('rest:4.7.3');
    expect(
      verdicts(
        answer(spec, [
          ...encodeManagedFields(second.managed),
          { manager: 'z', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:x': {} } } },
        ]),
      ),
    ).toContain('rest:4.7.3');
    expect(
      verdicts(
        answer(
          spec,
          encodeManagedFields(second.managed).map((e) => ({ ...e, operation: 'Update' })),
        ),
      ),
    ).toContain('rest:2.6/operation');
    expect(
      verdicts(
        answer(
          spec,
          encodeManagedFields(second.managed).map((e) => ({ ...e, fieldsType: 'FieldsV2' })),
        ),
      ),
    ).toContain('rest:2.6/fieldsType');
    expect(
      verdicts(
        answer(
          spec,
          encodeManagedFields(second.managed).map((e) => ({ ...e, fieldsV1: { 'x:y': {} } })),
        ),
      ),
    ).toContain('rest:2.6/fieldsV1');
    expect(
      verdicts(
        answer(
          spec,
          encodeManagedFields(second.managed).map((e) => ({ ...e, apiVersion: 'v2' })),
        ),
      ),
    ).toContain('rest:2.6/apiVersion');
    expect(verdicts(answer(spec), 409)).toContain('rest:4.7.3');
  });

  it('a conflict is any 4xx; its status and body are recorded as unspecified', () => {
    const js = judgeWrite({ kind: 'conflict', detail: 'x' }, 409, { kind: 'Status' }, schema, 'v1', ['rest:3.2/apply-conflict']);
    expect(js.map((j) => `${j.clause}:${j.verdict}`)).toEqual([
      'rest:3.2/apply-conflict:pass',
      'rest:7.5:unspecified',
      'rest:7.6:unspecified',
    ]);
    expect(judgeWrite({ kind: 'conflict', detail: 'x' }, 200, {}, schema, 'v1', ['rest:3.2/apply-conflict'])[0]!.verdict).toBe('fail');
  });
});
