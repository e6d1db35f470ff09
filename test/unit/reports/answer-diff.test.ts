// Why: a remainingItemCount failure read "expected 2, observed 1" while a third,
// controller-made object sat in the namespace; the report must name every item of every page,
// foreign ones as such, beside the answer the model needed.
import { describe, expect, it } from 'vitest';
import { answerLines, needLines } from '../../../reports/answer-diff.ts';
import type { Counterexample } from '../../../runner/results.ts';

const cx = {
  check: 'paging-snapshot',
  clause: 'rest:4.4.6',
  expected: 'remainingItemCount 2',
  observed: 'page 1: remainingItemCount 1',
  steps: [],
  curl: '',
  requestCount: 4,
  seed: 1,
  replay: 'r',
  needs: [
    {
      says: 'page 1: remainingItemCount absent or 2',
      test: { kind: 'value', at: { request: 3 }, path: ['metadata', 'remainingItemCount'], equals: 2 },
      observed: 'metadata.remainingItemCount 1',
      met: false,
    },
  ],
  answers: [
    { request: 0, call: 'POST /api/v1/namespaces', setup: true },
    { request: 1, call: 'POST /api/v1/namespaces/n/configmaps', status: 201, kind: 'ConfigMap', name: 'alpha', resourceVersion: '5' },
    { request: 2, call: 'POST /api/v1/namespaces/n/configmaps', status: 201, kind: 'ConfigMap', name: 'echo', resourceVersion: '6' },
    {
      request: 3,
      call: 'GET /api/v1/namespaces/n/configmaps?limit=1',
      status: 200,
      resourceVersion: '6',
      continue: 't',
      remainingItemCount: 1,
      items: [{ namespace: 'n', name: 'alpha', resourceVersion: '5' }],
    },
    {
      request: 4,
      call: 'GET /api/v1/namespaces/n/configmaps?limit=1&continue=t',
      status: 200,
      resourceVersion: '6',
      items: [
        { namespace: 'n', name: 'echo', resourceVersion: '6' },
        { namespace: 'n', name: 'kube-root-ca.crt', resourceVersion: '2', notCreatedBySuite: true },
      ],
    },
  ],
} as unknown as Counterexample;

describe('the compact diff of a failure', () => {
  it('puts the answer needed beside the answer got, naming the request', () => {
    expect(needLines(cx)).toEqual(['needed: page 1: remainingItemCount absent or 2; got metadata.remainingItemCount 1 (request 3)']);
  });
  it('names every item of every page, and the ones the suite did not create', () => {
    const lines = answerLines(cx);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      'request 3: GET /api/v1/namespaces/n/configmaps?limit=1 -> 200, resourceVersion 6, continue set, remainingItemCount 1; 1 item(s): alpha@5',
    );
    expect(lines[1]).toContain('echo@6, kube-root-ca.crt@2 (not created by the suite)');
  });
  it('says nothing where nothing is known as data', () => {
    expect(needLines({ ...cx, needs: undefined, answers: undefined })).toEqual([]);
    expect(answerLines({ ...cx, needs: undefined, answers: undefined })).toEqual([]);
  });
});
