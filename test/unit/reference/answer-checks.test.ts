// Why: a reproducer's exit status is this evaluator's verdict on the answers it got, so
// each kind of need must accept the answer the model needed and reject the near miss.
import { describe, expect, it } from 'vitest';
import { evaluateNeeds, mapAt, requestsOf, type AnswerData, type AnswerNeed, type AnswerTest } from '../../../reference/answer-checks.ts';

// The suite's run label: objects without it are a controller's, no part of the case (as for the model).
const RUN = { 'svc-conformance/run': 't1' };

const answers: AnswerData[] = [
  {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: { metadata: { resourceVersion: '7', continue: 'tok', remainingItemCount: 1 }, items: [{}, {}] },
  },
  {
    status: 200,
    headers: { 'content-type': 'application/json;charset=utf-8' },
    body: { metadata: { resourceVersion: '9', continue: '' }, items: [{}] },
  },
  { status: 400, headers: {}, body: 'bad' },
  {
    status: 200,
    headers: {},
    body: '',
    events: [
      { type: 'ADDED', object: { metadata: { name: 'b', labels: RUN } } },
      { type: 'ADDED', object: { metadata: { name: 'kube-root-ca.crt' } } },
      { type: 'ADDED', object: { metadata: { name: 'a', labels: RUN } } },
      { type: 'BOOKMARK', object: {} },
      { type: 'MODIFIED', object: { metadata: { name: 'a', labels: RUN } } },
      { type: 'DELETED', object: { metadata: { name: 'b', labels: RUN } } },
    ],
  },
];
const at = (request: number) => ({ request });
const ok = (test: AnswerTest): boolean => evaluateNeeds([{ says: 's', test }], (i) => answers[i])[0]!.ok;

describe('evaluateNeeds', () => {
  it('status and status class', () => {
    expect(ok({ kind: 'status', at: at(2), oneOf: [400] })).toBe(true);
    expect(ok({ kind: 'status', at: at(0), oneOf: [400] })).toBe(false);
    expect(ok({ kind: 'statusClass', at: at(2), cls: 4 })).toBe(true);
    expect(ok({ kind: 'statusClass', at: at(1), cls: 4 })).toBe(false);
  });
  it('a process: exit non-zero (a refusal), exit 0 (an acceptance), or serving (status -1)', () => {
    const proc = (status: number, test: AnswerTest) =>
      evaluateNeeds([{ says: 's', test }], () => ({ status, headers: {}, body: '' }))[0]!.ok;
    expect(proc(1, { kind: 'exit', at: at(0), nonZero: true })).toBe(true);
    expect(proc(0, { kind: 'exit', at: at(0), nonZero: true })).toBe(false);
    // A daemon that keeps running has refused nothing, and has not exited 0 either.
    expect(proc(-1, { kind: 'exit', at: at(0), nonZero: true })).toBe(false);
    expect(proc(-1, { kind: 'exit', at: at(0), nonZero: false })).toBe(false);
    expect(proc(0, { kind: 'exit', at: at(0), nonZero: false })).toBe(true);
    expect(proc(2, { kind: 'exit', at: at(0), nonZero: false })).toBe(false);
    expect(proc(-1, { kind: 'serves', at: at(0) })).toBe(true);
    expect(proc(1, { kind: 'serves', at: at(0) })).toBe(false);
  });
  it('length of a page, at most and exactly', () => {
    expect(ok({ kind: 'length', at: at(1), path: ['items'], atMost: 1 })).toBe(true);
    expect(ok({ kind: 'length', at: at(0), path: ['items'], atMost: 1 })).toBe(false);
    expect(ok({ kind: 'length', at: at(0), path: ['items'], equals: 2 })).toBe(true);
    // No list at all is no page of the right size.
    expect(ok({ kind: 'length', at: at(2), path: ['items'], atMost: 5 })).toBe(false);
  });
  it('values, absence (an empty token is none), and sameness across answers', () => {
    expect(ok({ kind: 'value', at: at(0), path: ['metadata', 'remainingItemCount'], equals: 1 })).toBe(true);
    expect(ok({ kind: 'value', at: at(0), path: ['metadata', 'remainingItemCount'], equals: 2 })).toBe(false);
    expect(ok({ kind: 'value', at: at(1), path: ['metadata', 'continue'], absent: true })).toBe(true);
    expect(ok({ kind: 'value', at: at(0), path: ['metadata', 'continue'], absent: true })).toBe(false);
    const rv = ['metadata', 'resourceVersion'];
    expect(ok({ kind: 'same', at: at(1), path: rv, other: { at: at(1), path: rv } })).toBe(true);
    expect(ok({ kind: 'same', at: at(1), path: rv, other: { at: at(0), path: rv } })).toBe(false);
    // Two missing values are not "the same value".
    expect(ok({ kind: 'same', at: at(2), path: rv, other: { at: at(2), path: rv } })).toBe(false);
  });
  it('Content-Type against requested ranges, parameters and wildcards', () => {
    expect(ok({ kind: 'contentType', at: at(1), ranges: ['application/json'] })).toBe(true);
    expect(ok({ kind: 'contentType', at: at(1), ranges: ['application/*'] })).toBe(true);
    expect(ok({ kind: 'contentType', at: at(1), ranges: ['application/yaml'] })).toBe(false);
    // A refusal has no representation, whatever it says.
    expect(ok({ kind: 'contentType', at: at(2), ranges: ['*/*'] })).toBe(false);
  });
  it("watch events: the start in any order, then the changes in order, bookmarks and objects without the run label (a controller's) ignored, a deletion of any type", () => {
    const start = [
      { type: 'ADDED', name: 'a' },
      { type: 'ADDED', name: 'b' },
    ];
    expect(
      ok({
        kind: 'events',
        at: at(3),
        start,
        then: [
          { type: 'MODIFIED', name: 'a' },
          { type: '*', name: 'b' },
        ],
      }),
    ).toBe(true);
    expect(
      ok({
        kind: 'events',
        at: at(3),
        start,
        then: [
          { type: '*', name: 'b' },
          { type: 'MODIFIED', name: 'a' },
        ],
      }),
    ).toBe(false);
    expect(ok({ kind: 'events', at: at(3), start, then: [{ type: 'MODIFIED', name: 'a' }] })).toBe(false);
    expect(
      ok({
        kind: 'events',
        at: at(3),
        start: [],
        then: [
          { type: 'MODIFIED', name: 'a' },
          { type: '*', name: 'b' },
        ],
      }),
    ).toBe(false);
  });
  it('watch events: a Terminating MODIFIED just before the removal the case expected is undecided (legal if unseen, rest:3.1), never a pass nor a failure', () => {
    const meta = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name, labels: RUN, ...extra } });
    const stream = (events: unknown[]): AnswerData => ({ status: 200, headers: {}, body: '', events });
    const judge = (a: AnswerData, then: { type: string; name: string }[]) =>
      evaluateNeeds([{ says: 's', test: { kind: 'events', at: at(0), start: [], then } }], () => a)[0]!;
    const then = [
      { type: 'MODIFIED', name: 'a' },
      { type: '*', name: 'a' },
    ];
    const terminating = meta('a', { deletionTimestamp: '2026-01-01T00:00:00Z' });
    const extra = judge(
      stream([
        { type: 'MODIFIED', object: meta('a') },
        { type: 'MODIFIED', object: terminating },
        { type: 'DELETED', object: terminating },
      ]),
      then,
    );
    expect(extra).toMatchObject({ ok: false, undecided: true });
    // Exactly the expected stream passes; a non-Terminating extra, or a Terminating one of another object, fails.
    expect(
      judge(
        stream([
          { type: 'MODIFIED', object: meta('a') },
          { type: 'DELETED', object: terminating },
        ]),
        then,
      ),
    ).toMatchObject({ ok: true });
    const plain = judge(
      stream([
        { type: 'MODIFIED', object: meta('a') },
        { type: 'MODIFIED', object: meta('a') },
        { type: 'DELETED', object: terminating },
      ]),
      then,
    );
    expect(plain.ok).toBe(false);
    expect(plain.undecided).toBeUndefined();
    const otherObject = judge(
      stream([
        { type: 'MODIFIED', object: meta('a') },
        { type: 'MODIFIED', object: meta('c', { deletionTimestamp: '2026-01-01T00:00:00Z' }) },
        { type: 'DELETED', object: terminating },
      ]),
      then,
    );
    expect(otherObject.ok).toBe(false);
    expect(otherObject.undecided).toBeUndefined();
  });
  it('anyOf and allOf; an answer never sent fails', () => {
    const s400: AnswerTest = { kind: 'status', at: at(2), oneOf: [400] };
    const s404: AnswerTest = { kind: 'status', at: at(2), oneOf: [404] };
    expect(ok({ kind: 'anyOf', tests: [s404, s400] })).toBe(true);
    expect(ok({ kind: 'allOf', tests: [s404, s400] })).toBe(false);
    const r = evaluateNeeds([{ says: 's', test: { kind: 'status', at: at(9), oneOf: [200] } }], (i) => answers[i]);
    expect(r[0]).toMatchObject({ ok: false, observed: expect.stringContaining('not sent') });
  });
  it('mapAt resolves every reference, requestsOf lists them', () => {
    const need: AnswerNeed = {
      says: 's',
      test: {
        kind: 'anyOf',
        tests: [
          { kind: 'same', at: { page: 1 }, path: [], other: { at: { page: 0 }, path: [] } },
          { kind: 'status', at: 'judged', oneOf: [1] },
        ],
      },
    };
    const resolved = mapAt(need.test, (a) => ({ request: a === 'judged' ? 9 : 'page' in a ? a.page + 4 : -1 }));
    expect(requestsOf(resolved).sort()).toEqual([4, 5, 9]);
  });
});
