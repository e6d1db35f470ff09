// Why: a watch reproducer decides only where it recreates the timing its failure needed. A watch from a
// version still in the history cannot show a fault that needs it dropped, nor a history that dropped
// it a fault that replays it: the script must wait where the case waited, wait for a version the case
// compacted away to leave the target's history, and say "undecided", never "the failure is gone", for a
// stream that looks right but did not meet those conditions (watch-exact-inclusive and
// watch-too-old-served-from-oldest exited 0 against their faults).
import { describe, expect, it } from 'vitest';
import type { Exchange, TargetRequest } from '../../../harness/transport/exchange.ts';
import { learnedValues } from '../../../harness/reproducers/learned-values.ts';
import { LATE_JS, LATE_SLACK_MS, lateWatches, pauses } from '../../../harness/reproducers/replay-timing.ts';
import { PREMISES_JS, premises } from '../../../harness/reproducers/replay-premises.ts';
import { isSetup, sendOrder, toCurlScript } from '../../../harness/reproducers/curl.ts';
import { needStatus, type AnswerNeed } from '../../../reference/answer-checks.ts';

let seq = 0;
const ex = (request: TargetRequest, status: number, startedAtMs: number, durationMs: number, body: unknown = {}): Exchange => ({
  seq: ++seq,
  request,
  response: {
    status,
    headers: { 'content-type': 'application/json' },
    bodyText: typeof body === 'string' ? body : JSON.stringify(body),
    json: typeof body === 'string' ? undefined : body,
  },
  startedAtMs,
  durationMs,
});
const ns = '/api/v1/namespaces/svc-conformance-t1-p1';
const watchFrom = (rv: string): TargetRequest => ({
  method: 'GET',
  path: `${ns}/configmaps`,
  query: [
    ['watch', '1'],
    ['resourceVersion', rv],
  ],
});
// A list at 7, a watch from it 80 ms later (recorded while open for 900 ms), a write 400 ms after the watch began.
const recorded = (): Exchange[] => [
  ex({ method: 'GET', path: `${ns}/configmaps` }, 200, 1000, 20, { metadata: { resourceVersion: '7' }, items: [] }),
  ex(watchFrom('7'), 200, 1100, 900, '{"type":"ADDED","object":{"metadata":{"name":"a","resourceVersion":"8"}}}\n'),
  ex({ method: 'POST', path: `${ns}/configmaps`, body: { metadata: { name: 'a' } } }, 201, 1500, 10, {
    metadata: { resourceVersion: '8' },
  }),
];
const eventsNeed: AnswerNeed = {
  says: 'exactly the later writes',
  test: { kind: 'events', at: { request: 1 }, start: [], then: [{ type: 'ADDED', name: 'a' }] },
} as unknown as AnswerNeed;

describe('replay timing', () => {
  it('keeps a pause of the case longer than a request takes, measured from the last answer (a watch counts from its start)', () => {
    const cases = recorded();
    expect([...pauses(cases, sendOrder(cases))]).toEqual([[2, 400]]);
  });

  it('finds the watches a need reads that start from a learned version, with how long after learning it the case started each', () => {
    const cases = recorded();
    const order = sendOrder(cases);
    const learned = learnedValues(cases, [], order);
    expect(lateWatches(cases, learned, [eventsNeed])).toEqual([{ stream: 1, from: 0, recordedMs: 80 }]);
    // A watch no need reads decides nothing, whenever it started.
    expect(lateWatches(cases, learned, [needStatus('created', [201], { request: 2 })])).toEqual([]);
  });

  it('a stream that started much later after its version was learned than the case did, or at an unknown time, is late', () => {
    const late = new Function(`${LATE_JS}; return late;`)() as (w: unknown, t: (i: number) => number | undefined) => string | undefined;
    const w = [{ stream: 1, from: 0, recordedMs: 80 }];
    expect(late(w, (i) => (i === 0 ? 0 : 80 + LATE_SLACK_MS))).toBeUndefined();
    expect(late(w, (i) => (i === 0 ? 0 : 81 + LATE_SLACK_MS))).toMatch(/started 1081 ms after request 0 .* decides nothing/);
    expect(late(w, (i) => (i === 0 ? 0 : undefined))).toMatch(/an unknown time/);
  });

  it('a watch the case was served must be served again: a 410 as its first event is another path, unless a need speaks of it', () => {
    const cases = recorded();
    expect(premises(cases, [eventsNeed], isSetup).find((p) => p.request === 1)).toEqual({ request: 1, recorded: 200, served: true });
    const errorNeed = {
      says: '410 or every change',
      test: { kind: 'anyOf', tests: [{ kind: 'events', at: { request: 1 }, start: [{ type: 'ERROR' }], then: [] }, eventsNeed.test] },
    } as unknown as AnswerNeed;
    expect(premises(cases, [errorNeed], isSetup).find((p) => p.request === 1)).toEqual({ request: 1, recorded: 200 });
    const refused = [...cases];
    refused[1] = ex(watchFrom('7'), 200, 1100, 5, '{"type":"ERROR","object":{"kind":"Status","code":410}}\n');
    expect(premises(refused, [eventsNeed], isSetup).find((p) => p.request === 1)).toEqual({ request: 1, recorded: 200 });
    const diverged = new Function(`${PREMISES_JS}; return diverged;`)() as (p: unknown, a: (i: number) => unknown) => string | undefined;
    const gone = { status: 200, events: [{ type: 'ERROR', object: { code: 410 } }] };
    expect(diverged([{ request: 1, recorded: 200, served: true }], () => gone)).toMatch(
      /ERROR event \(410\) where the failing case was served/,
    );
    expect(diverged([{ request: 1, recorded: 200, served: true }], () => ({ status: 200, events: [{ type: 'ADDED' }] }))).toBeUndefined();
  });

  it("waits for a version the case compacted away to leave the target's history before watching from it, only where the case compacted", () => {
    const cases = recorded();
    const compacted = toCurlScript(cases, { server: 'http://127.0.0.1:1', needs: [eventsNeed], compacted: true });
    expect(compacted).toMatch(/dropped 1 .*"\$L1_Q"\nstream 1 /);
    expect(compacted).toContain('resourceVersionMatch=Exact');
    expect(toCurlScript(cases, { server: 'http://127.0.0.1:1', needs: [eventsNeed] })).not.toMatch(/^dropped /m);
  });
});
