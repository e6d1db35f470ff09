// The rest:4.8 judges of reference/negotiation.ts (moved out of suites/checks/negotiation.ts, table.ts
// and protobuf.ts): each with an answer that passes and a near miss that fails.
import { describe, expect, it } from 'vitest';
import { profiles } from '../../../reference/profile.ts';
import { acceptableAnswers, judgeNegotiated, tableMediaType, type NegotiationVerdict } from '../../../reference/media-types.ts';
import {
  judgeAnswer,
  judgeBodyAsStated,
  judgeProtobufServed,
  judgeProtobufWriteBack,
  judgeTableRequest,
} from '../../../reference/negotiation.ts';
import { defaultTable, judgeTableServed } from '../../../reference/table.ts';
import { encodeEnvelope } from '../../../reference/protobuf-envelope.ts';
import { resourceTypes } from '../../../reference/resources.ts';
import type { ObservedObject } from '../../../reference/objects.ts';

const p = profiles.svc;
const cm = resourceTypes(p).configmaps;
const verdicts = (js: readonly { verdict: string }[]) => js.map((j) => j.verdict);
const clauses = (js: readonly { clause: string; verdict: string }[]) => js.map((j) => `${j.clause} ${j.verdict}`);
const json = (body: unknown) => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  bodyText: JSON.stringify(body),
  json: body,
});
const table = defaultTable(p, [{ name: 'a', creationTimestamp: '2026-01-01T00:00:00Z', object: {} }], {});

describe('judgeAnswer (rest:4.8/response, fallback, unsupported, rest:7/406)', () => {
  it('passes a requested type and a due 406', () => {
    const answers = acceptableAnswers(p, 'application/json', { builtIn: true });
    expect(clauses(judgeAnswer(answers, 2, { ok: true, representation: 'json' }, 200))).toEqual([
      'rest:4.8/response pass',
      'rest:4.8/fallback pass',
    ]);
    const none = acceptableAnswers(p, 'application/yaml', { builtIn: true });
    expect(clauses(judgeAnswer(none, 1, judgeNegotiated(p, none, 406, undefined, undefined), 406))).toEqual([
      'rest:4.8/unsupported pass',
      'rest:7/406 pass',
    ]);
  });
  it('fails JSON where 406 was due, and a 406 where a later range is served', () => {
    const none = acceptableAnswers(p, 'application/yaml', { builtIn: true });
    const v = judgeNegotiated(p, none, 200, 'application/json', { kind: 'ConfigMap' });
    expect(clauses(judgeAnswer(none, 1, v, 200))).toEqual(['rest:4.8/unsupported fail', 'rest:7/406 fail']);
    const two = acceptableAnswers(p, 'application/yaml, application/json', { builtIn: true });
    expect(clauses(judgeAnswer(two, 2, judgeNegotiated(p, two, 406, undefined, undefined), 406))).toEqual(['rest:4.8/fallback fail']);
  });
});

describe('judgeBodyAsStated (rest:4.8/response: the body is what Content-Type says)', () => {
  const ok = (representation: 'json' | 'table' | 'protobuf'): NegotiationVerdict => ({ ok: true, representation });
  it('passes parsed JSON, a Table, a protobuf envelope of the kind read; nothing for no body', () => {
    expect(clauses(judgeBodyAsStated(p, cm, 'get', ok('json'), json({ kind: 'ConfigMap' })))).toEqual([
      'rest:4.8/response pass',
      'rest:4.8/default pass',
    ]);
    expect(verdicts(judgeBodyAsStated(p, cm, 'list', ok('table'), json(table)))).not.toContain('fail');
    const bytes = encodeEnvelope({
      typeMeta: { apiVersion: 'v1', kind: 'ConfigMapList' },
      raw: Uint8Array.of(1),
      contentEncoding: '',
      contentType: '',
    });
    expect(verdicts(judgeBodyAsStated(p, cm, 'list', ok('protobuf'), { bodyText: '', json: undefined, bodyBytes: bytes }))).not.toContain(
      'fail',
    );
    expect(judgeBodyAsStated(p, cm, 'get', { ok: true, representation: 'none' }, json({}))).toEqual([]);
    expect(judgeBodyAsStated(p, cm, 'get', { ok: false, why: 'x' }, json({}))).toEqual([]);
  });
  it('fails a JSON Content-Type over a body that is not JSON, and an object read whose envelope names the list kind', () => {
    expect(clauses(judgeBodyAsStated(p, cm, 'get', ok('json'), { bodyText: '<html>', json: undefined }))).toEqual([
      'rest:4.8/response fail',
      'rest:4.8/default pass',
    ]);
    const bytes = encodeEnvelope({
      typeMeta: { apiVersion: 'v1', kind: 'ConfigMapList' },
      raw: Uint8Array.of(1),
      contentEncoding: '',
      contentType: '',
    });
    expect(clauses(judgeBodyAsStated(p, cm, 'get', ok('protobuf'), { bodyText: '', json: undefined, bodyBytes: bytes }))).toContain(
      'rest:2.7.2 fail',
    );
  });
});

describe('judgeTableServed and judgeTableRequest (rest:4.8/table, rest:2.5, rest:2.5.2)', () => {
  it('passes the default Table, records a 406 and a served fallback', () => {
    expect(clauses(judgeTableServed(p, table)).slice(0, 3)).toEqual(['rest:4.8/table pass', 'rest:2.5/table pass', 'rest:2.5.1 pass']);
    const only = tableMediaType(p);
    const a406 = { status: 406, json: undefined };
    expect(
      clauses(
        judgeTableRequest(
          p,
          only,
          false,
          judgeNegotiated(p, acceptableAnswers(p, only, { builtIn: true }), 406, undefined, undefined),
          a406,
        ),
      ),
    ).toEqual(['rest:2.5.2 unspecified']);
    const withFallback = `${only}, application/json`;
    const v = judgeNegotiated(p, acceptableAnswers(p, withFallback, { builtIn: true }), 200, 'application/json', { kind: 'ConfigMapList' });
    expect(clauses(judgeTableRequest(p, withFallback, true, v, { status: 200, json: { kind: 'ConfigMapList' } }))).toEqual([
      'rest:2.5.2 unspecified',
    ]);
    expect(judgeTableRequest(p, withFallback, false, v, { status: 200, json: { kind: 'ConfigMapList' } })).toEqual([]);
  });
  it("fails a Table in the core group's apiVersion and a default Table with Created At typed string", () => {
    const v: NegotiationVerdict = { ok: true, representation: 'table' };
    expect(clauses(judgeTableRequest(p, tableMediaType(p), false, v, { status: 200, json: { ...table, apiVersion: 'v1' } }))).toContain(
      'rest:2.5/table fail',
    );
    const cols = (table['columnDefinitions'] as { name: string; type: string }[]).map((c) =>
      c.name === 'Created At' ? { ...c, type: 'string' } : c,
    );
    expect(clauses(judgeTableServed(p, { ...table, columnDefinitions: cols }))).toContain('rest:2.5.1 fail');
  });
});

describe('judgeProtobufServed and judgeProtobufWriteBack (rest:4.8/protobuf, rest:4.8/response, rest:2.7.2)', () => {
  const pb = { status: 200, headers: { 'content-type': p.protobufMediaType }, json: undefined };
  it('passes 200 in the protobuf media type, and fails 200 in JSON or a 404', () => {
    expect(judgeProtobufServed(p, pb).verdict).toBe('pass');
    expect(judgeProtobufServed(p, { ...pb, headers: { 'content-type': 'application/json' }, json: { kind: 'ConfigMap' } }).verdict).toBe(
      'fail',
    );
    expect(judgeProtobufServed(p, { ...pb, status: 404 }).verdict).toBe('fail');
  });

  const live = { content: { labels: { a: 'x' }, annotations: {}, body: { k: 'v' } }, uid: 'u1' };
  const written = (o: Partial<ObservedObject>): ObservedObject => ({
    key: 'ns/a',
    name: 'a',
    namespace: 'ns',
    uid: 'u1',
    rv: '6',
    creationTimestamp: 't',
    deletionTimestamp: undefined,
    kind: 'ConfigMap',
    apiVersion: 'v1',
    labels: { a: 'x' },
    annotations: {},
    body: { k: 'v' },
    ...o,
  });
  const put = (status: number, contentType = 'application/json') => ({
    status,
    headers: { 'content-type': contentType },
    json: { kind: 'ConfigMap' },
    bodyText: '{}',
  });
  it('passes an unchanged object answered in JSON; records a 415', () => {
    expect(clauses(judgeProtobufWriteBack(p, 'ns/a', live, written({}), put(200), new Set(['a'])))).toEqual([
      'rest:4.8/protobuf pass',
      'rest:4.8/response pass',
      'rest:2.7.2 pass',
    ]);
    expect(clauses(judgeProtobufWriteBack(p, 'ns/a', live, written({}), put(415), new Set(['a'])))).toEqual([
      'rest:4.8/protobuf unspecified',
    ]);
  });
  it('fails a changed body, a new uid, a refusal, and an answer in protobuf where JSON was asked', () => {
    expect(clauses(judgeProtobufWriteBack(p, 'ns/a', live, written({ body: { k: 'w' } }), put(200), new Set(['a'])))).toContain(
      'rest:4.8/protobuf fail',
    );
    expect(clauses(judgeProtobufWriteBack(p, 'ns/a', live, written({ uid: 'u2' }), put(200), new Set(['a'])))).toContain(
      'rest:4.8/protobuf fail',
    );
    expect(clauses(judgeProtobufWriteBack(p, 'ns/a', live, written({}), put(400), new Set(['a'])))).toContain('rest:4.8/protobuf fail');
    expect(clauses(judgeProtobufWriteBack(p, 'ns/a', live, written({}), put(200, p.protobufMediaType), new Set(['a'])))).toContain(
      'rest:4.8/response fail',
    );
  });
});
