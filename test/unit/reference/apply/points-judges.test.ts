// The judges suites/checks/apply-points.ts hands its observations to (every verdict in
// reference/): managedFields in an apply body (rest:4.7.2) and the default field manager (rest:4.3).
import { describe, expect, it } from 'vitest';
import {
  apply,
  configMapSchema,
  judgeDefaultManager,
  judgeManagedFieldsInBody,
  type WriteOutcome,
} from '../../../../reference/apply/index.ts';

const base = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'o', namespace: 'ns' } };
const first = apply({
  live: undefined,
  managed: [],
  intent: { ...base, data: { k1: 'v1' } },
  manager: 'mgr-a',
  force: false,
  schema: configMapSchema,
  apiVersion: 'v1',
  now: '2026-01-01T00:00:00Z',
}) as WriteOutcome;
const intent = {
  ...base,
  metadata: {
    ...base.metadata,
    managedFields: [{ manager: 'mgr-z', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }],
  },
  data: { k1: 'v1', o1: 'v1' },
};
const model = () =>
  apply({
    live: first.object,
    managed: first.managed,
    intent,
    manager: 'mgr-b',
    force: false,
    schema: configMapSchema,
    apiVersion: 'v1',
    now: '2026-01-01T00:00:00Z',
  });
const failures = (js: readonly { verdict: string; clause: string }[]) => js.filter((j) => j.verdict === 'fail').map((j) => j.clause);
const entry = (manager: string, operation: string, fields: Record<string, unknown>) => ({
  manager,
  operation,
  apiVersion: 'v1',
  fieldsType: 'FieldsV1',
  fieldsV1: fields,
});

describe('judgeManagedFieldsInBody (rest:4.7.2)', () => {
  it('passes a refusal without consulting the model', () => {
    const js = judgeManagedFieldsInBody(
      422,
      { kind: 'Status' },
      () => {
        throw new Error('not needed');
      },
      configMapSchema,
      'v1',
    );
    expect(js.map((j) => `${j.verdict} ${j.clause} ${j.observed}`)).toEqual(['pass rest:4.7.2 refused (422)']);
  });
  it('passes an accepted body whose managedFields were ignored, fails one that adopted them', () => {
    const m = model() as WriteOutcome;
    const managedFields = [
      entry('mgr-a', 'Apply', { 'f:data': { 'f:k1': {} } }),
      entry('mgr-b', 'Apply', { 'f:data': { 'f:k1': {}, 'f:o1': {} } }),
    ];
    const ignored = { ...m.object, metadata: { ...base.metadata, managedFields } };
    expect(failures(judgeManagedFieldsInBody(200, ignored, model, configMapSchema, 'v1'))).toEqual([]);
    // The body's record taken as the truth: mgr-z owns the data, the appliers nothing.
    const adopted = {
      ...m.object,
      metadata: { ...base.metadata, managedFields: [entry('mgr-z', 'Apply', { 'f:data': { 'f:k1': {}, 'f:o1': {} } })] },
    };
    expect(failures(judgeManagedFieldsInBody(200, adopted, model, configMapSchema, 'v1'))).toContain('rest:4.7.2');
  });
});

describe('judgeDefaultManager (rest:4.3/fieldManager)', () => {
  const ua = 'apply-points/1.0 (conformance)';
  it('finds the Update entry named after the user agent', () => {
    const got = judgeDefaultManager(ua, 200, {
      metadata: { managedFields: [entry('creator', 'Update', {}), entry('apply-points', 'Update', { 'f:data': {} })] },
    });
    expect(got.manager).toBe('apply-points');
    expect(got.judgements.map((j) => j.verdict)).toEqual(['pass']);
  });
  it('fails when no such entry is there, or the write was refused', () => {
    const other = judgeDefaultManager(ua, 200, {
      metadata: { managedFields: [entry('creator', 'Update', {}), entry('kubectl', 'Update', { 'f:data': {} })] },
    });
    expect(other.manager).toBeUndefined();
    expect(other.judgements.map((j) => `${j.verdict} ${j.clause}`)).toEqual(['fail rest:4.3/fieldManager']);
    expect(other.judgements[0]!.observed).toBe('status 200, managers creator/Update, kubectl/Update');
    expect(
      judgeDefaultManager(ua, 422, { metadata: { managedFields: [entry('apply-points', 'Update', {})] } }).judgements[0]!.verdict,
    ).toBe('fail');
    expect(judgeDefaultManager(ua, 200, { metadata: { managedFields: [entry('apply-points', 'Apply', {})] } }).judgements[0]!.verdict).toBe(
      'fail',
    );
  });
});
