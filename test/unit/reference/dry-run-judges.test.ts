// The judges harness/interpreters/dry-run-interpreter.ts hands its observations to (every verdict in
// reference/): the whole answer to a dry-run write with its parameters, an invalid dryRun value, a
// dry-run namespace delete, and what a read afterwards shows. A pass and a near miss each.
import { describe, expect, it } from 'vitest';
import {
  judgeDryRunPersistence,
  judgeDryRunWrite,
  judgeInvalidDryRunWrite,
  judgeNamespaceDryRunDelete,
} from '../../../reference/dry-run.ts';
import type { ObjectVersion, ObservedObject } from '../../../reference/objects.ts';

const shown = (js: readonly { verdict: string; clause: string }[]) => js.map((j) => `${j.verdict} ${j.clause}`);
const failures = (js: readonly { verdict: string; clause: string }[]) => js.filter((j) => j.verdict === 'fail').map((j) => j.clause);
const observed = (o: Partial<ObservedObject>): ObservedObject => ({
  key: 'ns/a',
  name: 'a',
  namespace: 'ns',
  uid: 'u',
  rv: '5',
  creationTimestamp: 't',
  deletionTimestamp: undefined,
  kind: 'ConfigMap',
  apiVersion: 'v1',
  labels: {},
  annotations: {},
  body: { k: 'v' },
  ...o,
});
const before: ObjectVersion = {
  key: 'ns/a',
  name: 'a',
  namespace: 'ns',
  uid: 'u',
  rv: '5',
  creationTimestamp: 't',
  content: { labels: {}, annotations: {}, body: { k: 'v' } },
};
const keys = new Set<string>();
const create = { outcome: 'success', verb: 'create', wouldStore: { labels: {}, annotations: {}, body: { k: 'v' } } } as const;

describe('judgeDryRunWrite (rest:4.6, rest:4.3/dryRun, rest:4.3/pretty)', () => {
  it('passes the right answer under the parameter clauses too', () => {
    const js = judgeDryRunWrite(create, 'All', 201, observed({}), keys, 'create', true);
    expect(failures(js)).toEqual([]);
    expect(shown(js).slice(-2)).toEqual(['pass rest:4.3/dryRun', 'pass rest:4.3/pretty']);
    expect(js.find((j) => j.clause === 'rest:4.3/dryRun')!.expected).toBe('dryRun=All accepted on create');
    expect(judgeDryRunWrite(create, 'flag', 201, observed({}), keys, 'a merge patch', false).map((j) => j.clause)).not.toContain(
      'rest:4.3/pretty',
    );
  });
  it('fails a wrong answer under the dry-run clause and carries it to the parameters', () => {
    expect(failures(judgeDryRunWrite(create, 'All', 500, undefined, keys, 'create', true))).toEqual([
      'rest:4.6.2',
      'rest:4.3/dryRun',
      'rest:4.3/pretty',
    ]);
    expect(failures(judgeDryRunWrite(create, 'flag', 201, observed({ body: { k: 'w' } }), keys, 'create', false))).toEqual([
      'rest:4.6.1',
      'rest:4.3/dryRun',
    ]);
  });
});

describe('judgeInvalidDryRunWrite (rest:4.6.1, rest:4.3/dryRun)', () => {
  it('passes any 4xx and fails a success', () => {
    expect(shown(judgeInvalidDryRunWrite('Some', 400))).toEqual(['pass rest:4.6.1', 'pass rest:4.3/dryRun']);
    expect(shown(judgeInvalidDryRunWrite('Some', 201))).toEqual(['fail rest:4.6.1', 'fail rest:4.3/dryRun']);
  });
});

describe('judgeNamespaceDryRunDelete (rest:4.6.2)', () => {
  it('passes the normal status of a delete and fails another', () => {
    expect(judgeNamespaceDryRunDelete(200).verdict).toBe('pass');
    expect(judgeNamespaceDryRunDelete(202).verdict).toBe('pass');
    expect(judgeNamespaceDryRunDelete(201).verdict).toBe('fail');
  });
});

describe('judgeDryRunPersistence', () => {
  it('with All: nothing may be persisted, and the key stays predicted', () => {
    expect(judgeDryRunPersistence('All', before, { status: 200, object: observed({}) }, keys)).toMatchObject({
      judgements: [{ clause: 'rest:4.6.2', verdict: 'pass' }],
      unpredictable: false,
    });
    expect(judgeDryRunPersistence('All', before, { status: 200, object: observed({ rv: '6' }) }, keys)).toMatchObject({
      judgements: [{ clause: 'rest:4.6.2', verdict: 'fail' }],
      unpredictable: false,
    });
    expect(judgeDryRunPersistence('All', undefined, { status: 200, object: observed({}) }, keys).judgements[0]!.verdict).toBe('fail');
  });
  it('with the flag form: recorded, never failed; a changed key is no longer predicted', () => {
    expect(judgeDryRunPersistence('flag', before, { status: 200, object: observed({}) }, keys)).toMatchObject({
      judgements: [{ clause: 'rest:4.6.1', verdict: 'unspecified', observed: 'nothing was persisted' }],
      unpredictable: false,
    });
    expect(judgeDryRunPersistence('flag', before, { status: 200, object: observed({ rv: '6' }) }, keys)).toMatchObject({
      judgements: [{ clause: 'rest:4.6.1', verdict: 'unspecified', observed: 'the write was persisted' }],
      unpredictable: true,
    });
  });
});
