// The verdicts moved out of harness/interpreters/rest-interpreter.ts and suites/checks/crud.ts:
// each judge accepts what the spec allows (including upstream's answers) and rejects the near
// miss a broken server gives.
import { describe, expect, it } from 'vitest';
import {
  judgeAfterDelete,
  judgeCompleteList,
  judgeContinueGone,
  judgeCreate,
  judgeDeletedWithNamespace,
  judgeDuplicateCreate,
  judgeGeneratedCreate,
  judgeClusterObjectRead,
  judgeGoneForExact,
  judgeListDecision,
  judgeNamespaceRead,
} from '../../../reference/crud-rules.ts';
import { history } from './model-fixtures.ts';

const verdicts = (js: readonly { verdict: string; clause: string }[]) => js.map((j) => `${j.clause}:${j.verdict}`);

describe('crud rules', () => {
  it('rest:4.1/get-object: the one cluster-scoped object by name, not a 404, a list or a namespaced answer', () => {
    const want = { kind: 'CustomResourceDefinition', name: 'f.example' };
    const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/f.example';
    expect(
      verdicts(
        judgeClusterObjectRead(path, want, { status: 200, kind: 'CustomResourceDefinition', name: 'f.example', namespace: undefined }),
      ),
    ).toEqual(['rest:4.1/get-object:pass']);
    expect(verdicts(judgeClusterObjectRead(path, want, { status: 404, kind: 'Status', name: undefined, namespace: undefined }))).toEqual([
      'rest:4.1/get-object:fail',
    ]);
    expect(
      verdicts(
        judgeClusterObjectRead(path, want, { status: 200, kind: 'CustomResourceDefinitionList', name: undefined, namespace: undefined }),
      ),
    ).toEqual(['rest:4.1/get-object:fail']);
    expect(
      verdicts(
        judgeClusterObjectRead(path, want, { status: 200, kind: 'CustomResourceDefinition', name: 'f.example', namespace: 'default' }),
      ),
    ).toEqual(['rest:4.1/get-object:fail']);
    expect(verdicts(judgeClusterObjectRead(path, want, { status: 403, kind: 'Status', name: undefined, namespace: undefined }))).toEqual([
      'rest:4.1/get-object:inconclusive',
    ]);
  });

  it('creates: 2xx for a free name; a repeated create refused with any 4xx', () => {
    expect(verdicts(judgeCreate({ key: 'n/a', reused: false, status: 201, body: '' }))).toEqual(['rest:4.1/post:pass']);
    expect(verdicts(judgeCreate({ key: 'n/a', reused: true, status: 409, body: '' }))).toEqual(['rest:2.2.2:fail']);
    expect(verdicts(judgeDuplicateCreate('n/a', 409))).toEqual(['rest:2.2.2:pass', 'rest:2.2.1:pass']);
    expect(verdicts(judgeDuplicateCreate('n/a', 201))).toEqual(['rest:2.2.2:fail', 'rest:2.2.1:fail']);
  });

  it('delete without finalizers: removed or Terminating are both allowed; live without deletionTimestamp is not', () => {
    expect(judgeAfterDelete('n/a', { status: 404, deletionTimestamp: undefined }).removed).toBe(true);
    expect(verdicts(judgeAfterDelete('n/a', { status: 200, deletionTimestamp: 't' }).judgements)).toContain(
      'rest:3.1/live-to-terminating:pass',
    );
    expect(verdicts(judgeAfterDelete('n/a', { status: 200, deletionTimestamp: undefined }).judgements)).toContain(
      'rest:3.1/live-to-terminating:fail',
    );
  });

  it('rest:4.4.4: a 410 for a token past its lifetime passes, a young one fails', () => {
    expect(verdicts(judgeContinueGone(1600, 1500))).toEqual(['rest:4.4.4:pass']);
    expect(verdicts(judgeContinueGone(200, 1500))).toEqual(['rest:4.4.4:fail']);
    // rv="0" (Any) may have served a past state already compacted away: 410 proves nothing either way.
    expect(verdicts(judgeContinueGone(200, 1500, 'Any'))).toEqual(['rest:4.4.4:inconclusive']);
    expect(verdicts(judgeContinueGone(200, 1500, 'NotOlderThan'))).toEqual(['rest:4.4.4:fail']);
  });

  it('rest:4.4.6 on a complete list: no remainingItemCount, an empty continue', () => {
    expect(verdicts(judgeCompleteList({ remainingItemCount: undefined, continueToken: '' }, false))).toEqual([
      'rest:4.4.6:pass',
      'rest:2.3/metadata.continue:pass',
    ]);
    expect(verdicts(judgeCompleteList({ remainingItemCount: 3, continueToken: '' }, false))).toEqual([
      'rest:4.4.6:fail',
      'rest:2.3/metadata.continue:pass',
    ]);
    expect(verdicts(judgeCompleteList({ remainingItemCount: undefined, continueToken: 'x' }, true))).toEqual([
      'rest:4.4.6:pass',
      'rest:2.3/metadata.continue:fail',
    ]);
  });

  it('410 on an Exact read: only once the version may have left the history window', () => {
    const h = history(); // snapshot #1 written at 1 ms
    expect(verdicts(judgeGoneForExact(h, 1, 'rest:4.5/list/exact/no-limit/other', 10_000, 3000))).toEqual([
      'rest:7/410:pass',
      'rest:4.5/list/exact/no-limit/other:pass',
    ]);
    expect(verdicts(judgeGoneForExact(h, 4, 'rest:4.5/list/exact/no-limit/other', 10, 3000))).toEqual([
      'rest:6.1.4:fail',
      'rest:4.5/list/exact/no-limit/other:fail',
    ]);
  });

  it("refusal cells: the cell's statuses; unspecified stays unspecified; served is for the read judges", () => {
    expect(verdicts(judgeListDecision({ outcome: 'reject', statuses: [400], clause: 'rest:4.5/list/exact/limit/0' }, 400)!)).toEqual([
      'rest:4.5/list/exact/limit/0:pass',
      'rest:7/400:pass',
    ]);
    expect(verdicts(judgeListDecision({ outcome: 'reject', statuses: [400], clause: 'rest:4.5/list/exact/limit/0' }, 200)!)).toEqual([
      'rest:4.5/list/exact/limit/0:fail',
      'rest:7/400:fail',
    ]);
    expect(verdicts(judgeListDecision({ outcome: 'reject', statuses: '4xx', clause: 'rest:4.5/list/exact/limit/0' }, 422)!)).toEqual([
      'rest:4.5/list/exact/limit/0:pass',
      'rest:4.3/resourceVersionMatch:pass',
    ]);
    expect(verdicts(judgeListDecision({ outcome: 'unspecified', clause: 'rest:4.5/list/exact/limit/0', why: 'w' }, 200)!)).toEqual([
      'rest:4.5/list/exact/limit/0:unspecified',
    ]);
    expect(judgeListDecision({ outcome: 'serve', semantic: 'Any', clause: 'rest:4.5/list/exact/limit/0' }, 200)).toBeUndefined();
  });

  it('namespaces are cluster-scoped', () => {
    expect(verdicts(judgeNamespaceRead('ns0', { status: 200, kind: 'Namespace', name: 'ns0', namespace: undefined }))).toEqual([
      'rest:2.2.5:pass',
      'rest:4.1/get-namespace:pass',
    ]);
    expect(verdicts(judgeNamespaceRead('ns0', { status: 200, kind: 'Namespace', name: 'ns0', namespace: 'ns0' }))).toEqual([
      'rest:2.2.5:fail',
      'rest:4.1/get-namespace:pass',
    ]);
  });

  it('rest:2.2.4 is eventual: still there while the namespace exists is inconclusive; gone namespace with live contents fails', () => {
    expect(verdicts(judgeDeletedWithNamespace('ns0/a', { objectStatus: 404, namespaceStatus: 200 }, 5000))).toEqual(['rest:2.2.4:pass']);
    const waiting = judgeDeletedWithNamespace('ns0/a', { objectStatus: 200, namespaceStatus: 200 }, 5000);
    expect(verdicts(waiting)).toEqual(['rest:2.2.4:inconclusive']);
    expect(waiting[0]!.expected).toContain('5000 ms');
    expect(verdicts(judgeDeletedWithNamespace('ns0/a', { objectStatus: 200, namespaceStatus: 404 }, 5000))).toEqual(['rest:2.2.4:fail']);
  });

  it('generateName: a first refusal of a prefix is unspecified (no syntax in the spec); a refusal after it was accepted fails', () => {
    // Upstream refuses the prefix "cm." (a DNS subdomain prefix may not end in a dot) with 422.
    expect(verdicts(judgeGeneratedCreate('cm.', { status: 422, name: undefined }, []))).toEqual(['rest:2.3/metadata.name:unspecified']);
    expect(verdicts(judgeGeneratedCreate('gen-', { status: 409, name: undefined }, ['gen-abcde']))).toContain(
      'rest:2.3/metadata.name:fail',
    );
    expect(verdicts(judgeGeneratedCreate('gen-', { status: 201, name: 'gen-abcde' }, ['gen-abcde']))).toContain(
      'rest:2.3/metadata.name:fail',
    );
    expect(verdicts(judgeGeneratedCreate('gen-', { status: 201, name: 'gen-fghij' }, ['gen-abcde']))).toEqual([
      'rest:2.3/metadata.name:pass',
      'rest:2.3/metadata.name:pass',
    ]);
  });
});
