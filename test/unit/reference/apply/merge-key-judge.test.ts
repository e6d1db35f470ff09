// rest:4.7.8 on a built-in type: the markers are read from the target's OpenAPI (present only where a
// list has patchStrategy=merge, a merge key and no list type), and the judge accepts a second
// manager's entry kept beside the first and rejects a conflict, a dropped entry or an atomic ownership.
import { describe, expect, it } from 'vitest';
import { judgeMergeKeyApply, markedOwnerReferences } from '../../../../reference/apply/merge-key-judge.ts';
import { profiles } from '../../../../reference/profile.ts';

const k8s = profiles.k8s;
const doc = (refs: Record<string, unknown>) => ({
  definitions: {
    'io.k8s.api.core.v1.ConfigMap': {
      'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'ConfigMap' }],
      properties: { metadata: { $ref: '#/definitions/meta' } },
    },
    meta: { properties: { ownerReferences: { type: 'array', ...refs } } },
  },
});

describe('markedOwnerReferences', () => {
  it('finds the merge key only with the merge marker and without a list type', () => {
    expect(markedOwnerReferences(doc({ 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'uid' }), k8s)).toEqual({
      key: 'uid',
    });
    expect(
      markedOwnerReferences(doc({ 'x-kubernetes-patch-strategy': 'merge,retainKeys', 'x-kubernetes-patch-merge-key': 'uid' }), k8s),
    ).toEqual({ key: 'uid' });
    expect(
      markedOwnerReferences(
        doc({ 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'uid', 'x-kubernetes-list-type': 'atomic' }),
        k8s,
      ),
    ).toBeUndefined();
    expect(
      markedOwnerReferences(doc({ 'x-kubernetes-patch-strategy': 'replace', 'x-kubernetes-patch-merge-key': 'uid' }), k8s),
    ).toBeUndefined();
    expect(markedOwnerReferences(doc({}), k8s)).toBeUndefined();
    expect(markedOwnerReferences({}, k8s)).toBeUndefined();
  });
});

describe('judgeMergeKeyApply', () => {
  const answer = (uids: string[], owned: string[]) => ({
    metadata: {
      ownerReferences: uids.map((uid) => ({ uid })),
      managedFields: [
        {
          manager: 'b',
          operation: 'Apply',
          fieldsV1: { 'f:metadata': { 'f:ownerReferences': Object.fromEntries(owned.map((k) => [k, {}])) } },
        },
      ],
    },
  });
  const obs = (status: number, json: unknown) => ({
    status,
    json,
    bodyText: '',
    firstUid: 'u1',
    secondUid: 'u2',
    secondManager: 'b',
    key: 'uid',
  });
  const verdicts = (js: readonly { verdict: string }[]) => js.map((j) => j.verdict);
  it('accepts both entries kept and the second owned by its key', () => {
    expect(verdicts(judgeMergeKeyApply(obs(200, answer(['u1', 'u2'], ['k:{"uid":"u2"}']))))).toEqual(['pass', 'pass']);
  });
  it('rejects a conflict, a dropped first entry, and the list owned whole', () => {
    expect(verdicts(judgeMergeKeyApply(obs(409, {})))).toEqual(['fail']);
    expect(verdicts(judgeMergeKeyApply(obs(200, answer(['u2'], ['k:{"uid":"u2"}']))))).toEqual(['fail', 'pass']);
    expect(verdicts(judgeMergeKeyApply(obs(200, answer(['u1', 'u2'], ['.']))))).toEqual(['pass', 'fail']);
  });
});
