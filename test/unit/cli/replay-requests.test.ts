// The bench's bare replay: only the API server's answered exchanges, in the order sent; the
// run's identity carries the replay server's token, an unissued token stays unissued, wire headers go,
// and a recorded resourceVersion is swapped for the one the replay's answer carried in its place.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../harness/transport/index.ts';
import { learnVersions, mainServer, replayOrder, replayRequest, UNISSUED_TOKEN, versionsOf } from '../../../scripts/dev/replay-requests.ts';

const API = 'http://127.0.0.1:1';
const DAEMON = 'https://127.0.0.1:2';
const ex = (seq: number, startedAtMs: number, request: Partial<Exchange['request']>, answered = true): Exchange => ({
  seq,
  startedAtMs,
  durationMs: 1,
  request: { method: 'GET', path: '/api/v1/namespaces', ...request },
  ...(answered ? { response: { status: 200, headers: {}, bodyText: '', json: undefined } } : { transportError: 'reset' }),
});

describe('replay of a run', () => {
  it('keeps the API server answered exchanges in sending order', () => {
    const a = ex(2, 10, {});
    const b = ex(1, 20, {});
    const c = ex(3, 10, {});
    const tapped = [
      [API, b],
      [DAEMON, ex(4, 1, {})],
      [API, c],
      [API, a],
      [API, ex(5, 5, {}, false)],
    ] as const;
    expect(mainServer(tapped)).toBe(API);
    expect(replayOrder(tapped, API).map((e) => e.seq)).toEqual([2, 3, 1]);
    expect(mainServer([])).toBeUndefined();
  });

  it('sends the run identity with the replay token, an unknown one unissued, anonymous without', () => {
    const headers = {
      authorization: 'Bearer <redacted>',
      accept: 'application/json',
      host: 'x',
      'content-length': '3',
      'content-type': 'application/json',
    };
    const own = replayRequest(ex(1, 0, { method: 'POST', headers, body: { a: 1 } }), 'tok', new Map());
    expect(own).toEqual({
      method: 'POST',
      path: '/api/v1/namespaces',
      headers: { authorization: 'Bearer tok', accept: 'application/json', 'content-type': 'application/json' },
      body: '{"a":1}',
      stream: false,
    });
    expect(replayRequest(ex(1, 0, { headers, identity: 'unknown' }), 'tok', new Map()).headers['authorization']).toBe(
      `Bearer ${UNISSUED_TOKEN}`,
    );
    expect(replayRequest(ex(1, 0, { headers: { accept: 'application/json' }, identity: 'anonymous' }), 'tok', new Map()).headers).toEqual({
      accept: 'application/json',
    });
    expect(replayRequest(ex(1, 0, { stream: true }), 'tok', new Map()).stream).toBe(true);
    expect(replayRequest(ex(1, 0, { query: [['watch', '1']] }), 'tok', new Map()).stream).toBe(true);
    expect(replayRequest(ex(1, 0, { query: [['watch', 'false']] }), 'tok', new Map()).stream).toBe(false);
  });

  it('names the replay versions in place of the recorded ones', () => {
    const versions = new Map<string, string>();
    learnVersions(
      { metadata: { resourceVersion: '50' }, items: [{ metadata: { resourceVersion: '40' } }] },
      { metadata: { resourceVersion: '7' }, items: [{ metadata: { resourceVersion: '6' } }] },
      versions,
    );
    expect([...versions]).toEqual([
      ['50', '7'],
      ['40', '6'],
    ]);
    const r = replayRequest(
      ex(1, 0, {
        query: [
          ['resourceVersion', '40'],
          ['resourceVersion', '99'],
          ['limit', '2'],
          ['dryRun', null],
        ],
      }),
      undefined,
      versions,
    );
    expect(r.path).toBe('/api/v1/namespaces?resourceVersion=6&resourceVersion=99&limit=2&dryRun');
    expect(versionsOf('not an object')).toEqual([]);
  });
});
