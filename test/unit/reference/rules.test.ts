// Section 7 and rest:2.3/2.4 judges: right answers accepted, near misses rejected.
import { describe, expect, it } from 'vitest';
import { futureResourceVersion, judgeFirstPageToken, judgeGone, judgeTooLarge, TOO_LARGE_TEXT } from '../../../reference/error-rules.ts';
import { judgeCollectionEnvelope, judgeCreated, judgeObjectEnvelope, judgeUpdated } from '../../../reference/envelope-rules.ts';
import { resourceTypes } from '../../../reference/resources.ts';
import { profiles } from '../../../reference/profile.ts';
import { a10, observed } from './model-fixtures.ts';

const failed = (js: { verdict: string; clause: string }[]) => js.filter((j) => j.verdict === 'fail').map((j) => j.clause);
const rts = resourceTypes(profiles.svc);

describe('judgeTooLarge (rest:7/504, 7.1, 7.2)', () => {
  it('accepts 504 with the text, with or without a numeric Retry-After', () => {
    expect(failed(judgeTooLarge({ status: 504, bodyText: `{"message":"${TOO_LARGE_TEXT}: 99"}`, retryAfter: '1' }))).toEqual([]);
    expect(failed(judgeTooLarge({ status: 504, bodyText: TOO_LARGE_TEXT, retryAfter: undefined }))).toEqual([]);
  });
  it.each([
    ['another status', { status: 500, bodyText: TOO_LARGE_TEXT, retryAfter: '1' }, 'rest:7/504'],
    ['the text missing', { status: 504, bodyText: 'timeout', retryAfter: '1' }, 'rest:7.2'],
    ['a Retry-After that is not seconds', { status: 504, bodyText: TOO_LARGE_TEXT, retryAfter: 'soon' }, 'rest:7.1'],
  ])('rejects %s', (_n, r, clause) => {
    expect(failed(judgeTooLarge(r))).toEqual([clause]);
  });
});

describe('judgeFirstPageToken (rest:4.4.1)', () => {
  it('passes a 200 page with a continue token, fails a near miss', () => {
    expect(failed(judgeFirstPageToken(200, 'tok'))).toEqual([]);
    expect(failed(judgeFirstPageToken(200, ''))).toEqual(['rest:4.4.1']);
    expect(failed(judgeFirstPageToken(200, undefined))).toEqual(['rest:4.4.1']);
    expect(failed(judgeFirstPageToken(500, 'tok'))).toEqual(['rest:4.4.1']);
  });
});

describe('judgeTooLarge for Exact lists (rest:7/504/exact)', () => {
  it('judges the repeatable 500 upstream gives an Exact list at a future revision under its own row', () => {
    const etcd500 = {
      status: 500,
      bodyText: '{"message":"etcdserver: mvcc: required revision is a future revision"}',
      retryAfter: undefined,
    };
    expect(failed(judgeTooLarge(etcd500, 'rest:7/504/exact'))).toEqual(['rest:7/504/exact']);
    expect(failed(judgeTooLarge({ status: 504, bodyText: TOO_LARGE_TEXT, retryAfter: '1' }, 'rest:7/504/exact'))).toEqual([]);
  });
});

describe('judgeGone and futureResourceVersion', () => {
  it('410 only', () => {
    expect(failed(judgeGone('rest:4.4.4', { status: 410 }, 'x'))).toEqual([]);
    expect(failed(judgeGone('rest:4.4.4', { status: 200 }, 'x'))).toEqual(['rest:7/410', 'rest:4.4.4']);
  });
  it('builds a future version only from decimal versions, far beyond the largest', () => {
    expect(futureResourceVersion(['5', '120', '7'])).toBe('1000000120');
    expect(futureResourceVersion(['5', 'abc'])).toBeUndefined();
    expect(futureResourceVersion([])).toBeUndefined();
  });
});

describe('envelope rules (rest:2.3, 2.4)', () => {
  it('accepts a well-formed object; names each broken field', () => {
    expect(failed(judgeObjectEnvelope(rts.configmaps, observed(a10), { name: 'a', namespace: 'ns1' }))).toEqual([]);
    expect(
      failed(judgeObjectEnvelope(rts.configmaps, observed(a10, { kind: 'Secret', uid: '' }), { name: 'a', namespace: 'ns1' })),
    ).toEqual(['rest:2.3/kind', 'rest:2.3/metadata.uid']);
    // rest:9.1.1: a core-group object says apiVersion v1 (a group-qualified one is a near miss).
    expect(failed(judgeObjectEnvelope(rts.configmaps, observed(a10, { apiVersion: 'core/v1' }), { name: 'a', namespace: 'ns1' }))).toEqual([
      'rest:2.3/apiVersion',
      'rest:9.1.1',
    ]);
    expect(
      failed(
        judgeObjectEnvelope(rts.leases, observed(a10, { apiVersion: 'coordination.svc.io/v1', kind: 'Lease' }), {
          name: 'a',
          namespace: 'ns1',
        }),
      ),
    ).toEqual([]);
    expect(
      failed(judgeObjectEnvelope(rts.leases, observed(a10, { apiVersion: 'v1', kind: 'Lease' }), { name: 'a', namespace: 'ns1' })),
    ).toEqual(['rest:2.3/apiVersion']);
  });
  it('collection: <Kind>List, items of one kind (kind on items optional, as upstream omits it)', () => {
    const good = {
      kind: 'ConfigMapList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '9' },
      items: [{ metadata: {} }, { kind: 'ConfigMap', metadata: {} }],
    };
    expect(failed(judgeCollectionEnvelope(rts.configmaps, good))).toEqual([]);
    expect(failed(judgeCollectionEnvelope(rts.configmaps, { ...good, kind: 'List' }))).toEqual(['rest:2.4.1', 'rest:2.4.3']);
    expect(failed(judgeCollectionEnvelope(rts.configmaps, { ...good, kind: 'SecretList' }))).toEqual(['rest:2.4.1']);
    expect(failed(judgeCollectionEnvelope(rts.configmaps, { ...good, items: [{ kind: 'Secret' }] }))).toEqual(['rest:2.4.2']);
    expect(failed(judgeCollectionEnvelope(rts.configmaps, { ...good, metadata: {} }))).toEqual(['rest:2.3/metadata.resourceVersion']);
  });
  it('create: fresh uid and resourceVersion; update: same uid, new rv when content changed', () => {
    const learned = { uids: new Map([['uid-a', 'ns1/a']]), writeRvs: new Set(['10']) };
    const keys = new Set(['app']);
    expect(failed(judgeCreated(observed(a10, { uid: 'uid-new', rv: '11' }), a10.content, learned, keys))).toEqual([]);
    expect(failed(judgeCreated(observed(a10, { uid: 'uid-a', rv: '11' }), a10.content, learned, keys))).toEqual(['rest:2.3/metadata.uid']);
    expect(failed(judgeCreated(observed(a10, { uid: 'uid-new', rv: '10' }), a10.content, learned, keys))).toEqual([
      'rest:2.3/metadata.resourceVersion',
    ]);
    const changed = { ...a10.content, body: { k: 'new' } };
    expect(failed(judgeUpdated(observed(a10, { rv: '12', body: { k: 'new' } }), a10, changed, learned, keys))).toEqual([]);
    expect(failed(judgeUpdated(observed(a10, { rv: '10', body: { k: 'new' } }), a10, changed, learned, keys))).toEqual([
      'rest:2.3/metadata.resourceVersion',
    ]);
    expect(failed(judgeUpdated(observed(a10, { rv: '10' }), a10, a10.content, learned, keys))).toEqual([]);
    expect(failed(judgeUpdated(observed(a10, { rv: '12', uid: 'x', body: { k: 'new' } }), a10, changed, learned, keys))).toEqual([
      'rest:2.3/metadata.uid',
    ]);
  });
});
