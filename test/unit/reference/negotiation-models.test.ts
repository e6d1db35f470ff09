// Model tests for rest:4.6 (dry-run), rest:4.8 (media types), rest:2.5 (Table) and rest:2.7 (the
// protobuf envelope): each rule with a case that must hold and a near miss that must not.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dryRunPair, judgeDryRunAnswer, judgeInvalidDryRun, judgeNotPersisted, parseDryRun } from '../../../reference/dry-run.ts';
import { acceptableAnswers, judgeNegotiated, parseAccept, representationOf, tableMediaType } from '../../../reference/media-types.ts';
import { defaultTable, judgeTable } from '../../../reference/table.ts';
import { decodeEnvelope, encodeEnvelope, hasMagic, judgeEnvelope, MAGIC } from '../../../reference/protobuf-envelope.ts';
import { profiles } from '../../../reference/profile.ts';
import type { ObservedObject } from '../../../reference/objects.ts';
import { acceptListArb, mediaRangeArb } from '../../../generators/media-types.ts';

const svc = profiles.svc;
const k8s = profiles.k8s;
const verdicts = (js: readonly { verdict: string }[]) => js.map((j) => j.verdict);

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

describe('dry-run (rest:4.6)', () => {
  it('accepts the bare flag and All, nothing else', () => {
    expect(parseDryRun([])).toEqual({ kind: 'none' });
    expect(parseDryRun([['dryRun', null]])).toEqual({ kind: 'flag' });
    expect(
      parseDryRun([
        ['dryRun', null],
        ['pretty', 'true'],
      ]),
    ).toEqual({ kind: 'flag' });
    expect(parseDryRun([['dryRun', 'All']])).toEqual({ kind: 'all' });
    expect(parseDryRun([['dryRun', 'all']])).toEqual({ kind: 'invalid', values: ['all'] });
    expect(parseDryRun([['dryRun', 'true']]).kind).toBe('invalid');
    expect(dryRunPair('flag')).toEqual(['dryRun', null]);
  });

  it('answers like the real write: normal status and the would-be object modulo generated fields', () => {
    const exp = { outcome: 'success', verb: 'create', wouldStore: { labels: {}, annotations: {}, body: { k: 'v' } } } as const;
    const keys = new Set<string>();
    expect(
      verdicts(judgeDryRunAnswer(exp, 'All', 201, observed({ uid: 'other', rv: 'x', creationTimestamp: undefined }), keys)),
    ).not.toContain('fail');
    expect(verdicts(judgeDryRunAnswer(exp, 'All', 200, observed({}), keys))).not.toContain('fail');
    expect(verdicts(judgeDryRunAnswer(exp, 'All', 202, observed({}), keys))).toContain('fail');
    expect(verdicts(judgeDryRunAnswer(exp, 'All', 201, observed({ body: { k: 'w' } }), keys))).toContain('fail');
    expect(verdicts(judgeDryRunAnswer(exp, 'flag', 400, observed({}), keys))).toContain('fail');
    const refused = { outcome: 'refused', verb: 'create', why: 'the name exists' } as const;
    expect(verdicts(judgeDryRunAnswer(refused, 'All', 409, undefined, keys))).toEqual(['pass']);
    expect(verdicts(judgeDryRunAnswer(refused, 'All', 201, observed({}), keys))).toEqual(['fail']);
  });

  it('nothing persisted: same rv and content, or still absent', () => {
    const before = {
      key: 'ns/a',
      name: 'a',
      namespace: 'ns',
      uid: 'u',
      rv: '5',
      creationTimestamp: 't',
      content: { labels: {}, annotations: {}, body: { k: 'v' } },
    };
    const keys = new Set<string>();
    expect(judgeNotPersisted(before, { status: 200, object: observed({}) }, keys).verdict).toBe('pass');
    expect(judgeNotPersisted(before, { status: 200, object: observed({ rv: '6' }) }, keys).verdict).toBe('fail');
    expect(judgeNotPersisted(before, { status: 200, object: observed({ deletionTimestamp: 'now' }) }, keys).verdict).toBe('fail');
    expect(judgeNotPersisted(before, { status: 404, object: undefined }, keys).verdict).toBe('fail');
    expect(judgeNotPersisted(undefined, { status: 404, object: undefined }, keys).verdict).toBe('pass');
    expect(judgeNotPersisted(undefined, { status: 200, object: observed({}) }, keys).verdict).toBe('fail');
  });

  it('an unknown value: any 4xx', () => {
    expect(judgeInvalidDryRun('Some', 400).verdict).toBe('pass');
    expect(judgeInvalidDryRun('Some', 422).verdict).toBe('pass');
    expect(judgeInvalidDryRun('Some', 201).verdict).toBe('fail');
  });
});

const CM = { kind: 'ConfigMap', apiVersion: 'v1', metadata: {} };
const TABLE = { kind: 'Table', apiVersion: 'meta.svc.io/v1', columnDefinitions: [], rows: [] };

describe('media types (rest:4.8)', () => {
  it('parses ranges with parameters and q', () => {
    expect(parseAccept('application/json;as=Table;g=meta.svc.io;v=v1, application/json;q=0.5,*/*')).toEqual([
      { type: 'application/json', params: { as: 'Table', g: 'meta.svc.io', v: 'v1' }, q: 1 },
      { type: 'application/json', params: {}, q: 0.5 },
      { type: '*/*', params: {}, q: 1 },
    ]);
    expect(parseAccept('nonsense, text/html')).toEqual([{ type: 'text/html', params: {}, q: 1 }]);
  });

  it('classifies what was served: the format from Content-Type, the representation from the body', () => {
    const cm = { kind: 'ConfigMap', apiVersion: 'v1' };
    const table = { kind: 'Table', apiVersion: 'meta.svc.io/v1', columnDefinitions: [], rows: [] };
    expect(representationOf(svc, 'application/json', cm)).toBe('json');
    expect(representationOf(svc, 'application/json; charset=utf-8', cm)).toBe('json');
    expect(representationOf(svc, 'application/json;as=Table;v=v1;g=meta.svc.io', table)).toBe('table');
    // Upstream's answer to a Table Accept: a Table body under a plain application/json.
    expect(representationOf(k8s, 'application/json', { ...table, apiVersion: 'meta.k8s.io/v1' })).toBe('table');
    // Near miss: parameters claiming a Table over a body that is not one; the body wins.
    expect(representationOf(svc, 'application/json;as=Table;v=v1;g=meta.svc.io', cm)).toBe('json');
    expect(representationOf(svc, 'application/vnd.svc.protobuf', undefined)).toBe('protobuf');
    expect(representationOf(k8s, 'application/vnd.kubernetes.protobuf', undefined)).toBe('protobuf');
    expect(representationOf(svc, 'application/yaml', undefined)).toEqual({ other: 'application/yaml', params: {} });
    expect(representationOf(svc, 'application/json;as=PartialObjectMetadata', { kind: 'PartialObjectMetadata' })).toEqual({
      other: 'application/json',
      params: { as: 'PartialObjectMetadata' },
    });
  });

  it('fallback lists: Table then JSON may be answered either way; 406 is wrong', () => {
    const a = acceptableAnswers(svc, `${tableMediaType(svc)}, application/json`, { builtIn: true });
    expect(a.may406).toBe(false);
    expect(judgeNegotiated(svc, a, 200, 'application/json', CM).ok).toBe(true);
    expect(judgeNegotiated(svc, a, 200, 'application/json;as=Table;g=meta.svc.io;v=v1', TABLE).ok).toBe(true);
    expect(judgeNegotiated(svc, a, 200, 'application/json', TABLE).ok).toBe(true);
    expect(judgeNegotiated(svc, a, 406, 'application/json', CM).ok).toBe(false);
    expect(judgeNegotiated(svc, a, 200, 'application/vnd.svc.protobuf', undefined).ok).toBe(false);
  });

  it('none supported: 406, or a type the client asked for; never JSON instead', () => {
    const a = acceptableAnswers(svc, 'application/xml', { builtIn: true });
    expect(a.may406).toBe(true);
    expect(judgeNegotiated(svc, a, 406, 'application/json', CM).ok).toBe(true);
    expect(judgeNegotiated(svc, a, 200, 'application/xml', undefined).ok).toBe(true);
    expect(judgeNegotiated(svc, a, 200, 'application/json', CM).ok).toBe(false);
    const as = acceptableAnswers(svc, 'application/json;as=Unknown', { builtIn: true });
    expect(judgeNegotiated(svc, as, 200, 'application/json;as=Unknown', CM).ok).toBe(true);
    expect(judgeNegotiated(svc, as, 200, 'application/json;as=Other', CM).ok).toBe(false);
    expect(
      judgeNegotiated(svc, acceptableAnswers(svc, 'application/json', { builtIn: true }), 200, 'application/json;as=Unknown', CM).ok,
    ).toBe(false);
  });

  it('application/* allows JSON or protobuf but obliges nothing: upstream answers it 406', () => {
    const a = acceptableAnswers(svc, 'application/*', { builtIn: true });
    expect(a.may406).toBe(true);
    expect(judgeNegotiated(svc, a, 406, 'application/json', undefined).ok).toBe(true);
    expect(judgeNegotiated(svc, a, 200, 'application/json', CM).ok).toBe(true);
    // Near misses: */* still obliges (the default); application/* with a concrete JSON range too.
    expect(judgeNegotiated(svc, acceptableAnswers(svc, '*/*', { builtIn: true }), 406, 'application/json', undefined).ok).toBe(false);
    expect(
      judgeNegotiated(svc, acceptableAnswers(svc, 'application/*, application/json', { builtIn: true }), 406, 'application/json', undefined)
        .ok,
    ).toBe(false);
    // A Table is still no answer to application/*.
    expect(judgeNegotiated(svc, a, 200, 'application/json', TABLE).ok).toBe(false);
  });

  it('q=0 neither obliges nor forbids a type (the spec does not describe quality values)', () => {
    const a = acceptableAnswers(svc, 'application/json;q=0, application/xml', { builtIn: true });
    expect(a.may406).toBe(true);
    expect(judgeNegotiated(svc, a, 200, 'application/json', CM).ok).toBe(true);
  });

  it('Table-only: 406 is allowed (rest:2.5.2), plain JSON is not', () => {
    const a = acceptableAnswers(svc, tableMediaType(svc), { builtIn: true });
    expect(a.may406).toBe(true);
    expect(judgeNegotiated(svc, a, 200, 'application/json', CM).ok).toBe(false);
    // Upstream: the Table under a plain application/json is the Table that was asked for.
    expect(judgeNegotiated(svc, a, 200, 'application/json', TABLE).ok).toBe(true);
    // Near miss: the Table parameters echoed over a plain object do not make it a Table.
    expect(judgeNegotiated(svc, a, 200, tableMediaType(svc), CM).ok).toBe(false);
    const write = acceptableAnswers(svc, tableMediaType(svc), { builtIn: true });
    expect([write.may406, write.matched('table'), write.matched('json')]).toEqual([true, true, false]);
  });

  it('protobuf: required for built-in types, not for custom ones; wildcards allow JSON or protobuf', () => {
    expect(acceptableAnswers(svc, 'application/vnd.svc.protobuf', { builtIn: true }).may406).toBe(false);
    expect(acceptableAnswers(svc, 'application/vnd.svc.protobuf', { builtIn: false }).may406).toBe(true);
    const w = acceptableAnswers(svc, '*/*', { builtIn: true });
    expect(judgeNegotiated(svc, w, 200, 'application/json', CM).ok).toBe(true);
    expect(judgeNegotiated(svc, w, 200, 'application/vnd.svc.protobuf', undefined).ok).toBe(true);
    expect(judgeNegotiated(svc, w, 200, tableMediaType(svc), TABLE).ok).toBe(false);
    // A Table nobody asked for is still caught when its Content-Type is plain (body decides).
    expect(judgeNegotiated(svc, w, 200, 'application/json', TABLE).ok).toBe(false);
  });

  it('property: every generated Accept list parses into as many ranges as it has entries', () => {
    fc.assert(
      fc.property(acceptListArb(svc), (list) => {
        expect(parseAccept(list.map((r) => r.text).join(', ')).length).toBe(list.length);
      }),
      { numRuns: 200 },
    );
  });

  it('property: a served representation is acceptable iff some range of the list allows it', () => {
    fc.assert(
      fc.property(
        fc.array(mediaRangeArb(svc), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('json', 'protobuf', 'table'),
        (list, rep) => {
          const a = acceptableAnswers(svc, list.map((r) => r.text).join(','), { builtIn: true });
          expect(a.matched(rep)).toBe(list.some((r) => r.allows.includes(rep)));
          // A subtype wildcard allows but does not oblige (see the application/* case above).
          expect(a.may406).toBe(
            !list.some((r) => !r.text.startsWith('application/*') && (r.allows.includes('json') || r.allows.includes('protobuf'))),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('Table (rest:2.5)', () => {
  const t = defaultTable(svc, [{ name: 'a', creationTimestamp: '2026-01-01T00:00:00Z', object: {} }], { resourceVersion: '3' });
  it('the default Table passes; wrong column types and a missing kind fail; custom columns are unspecified', () => {
    expect(verdicts(judgeTable(svc, t))).not.toContain('fail');
    expect(
      verdicts(
        judgeTable(svc, {
          ...t,
          columnDefinitions: [
            { name: 'Name', type: 'string' },
            { name: 'Created At', type: 'string' },
          ],
        }),
      ),
    ).toContain('fail');
    expect(verdicts(judgeTable(svc, { ...t, kind: 'List' }))).toContain('fail');
    expect(verdicts(judgeTable(k8s, t))).toContain('fail');
    // Upstream's Table of an empty collection: rows null (a Go nil slice). Absent or a non-list still fails.
    expect(verdicts(judgeTable(svc, { ...t, rows: null }))).not.toContain('fail');
    const { rows: _rows, ...noRows } = t;
    expect(verdicts(judgeTable(svc, noRows))).toContain('fail');
    expect(verdicts(judgeTable(svc, { ...t, rows: 'none' }))).toContain('fail');
    expect(
      verdicts(
        judgeTable(svc, {
          ...t,
          columnDefinitions: [
            { name: 'Name', type: 'string' },
            { name: 'Data', type: 'integer' },
            { name: 'Age', type: 'string' },
          ],
        }),
      ),
    ).toEqual(['pass', 'unspecified', 'unspecified']);
    expect(verdicts(judgeTable(svc, { ...t, columnDefinitions: [{ name: 'Name' }] }))).toContain('fail');
  });

  it('a default Table is recognised by what its cells derive from, so renamed default columns fail rest:2.5.1', () => {
    const md = { name: 'a', creationTimestamp: '2026-01-01T00:00:00Z' };
    const derived = defaultTable(
      svc,
      [{ name: 'a', creationTimestamp: md.creationTimestamp, object: { kind: 'PartialObjectMetadata', metadata: md } }],
      { resourceVersion: '3' },
    );
    const age = {
      ...derived,
      columnDefinitions: [
        { name: 'Name', type: 'string' },
        { name: 'Age', type: 'date' },
      ],
    };
    expect(
      judgeTable(svc, age)
        .filter((j) => j.clause === 'rest:2.5.1')
        .map((j) => j.verdict),
    ).toEqual(['fail']);
    expect(
      judgeTable(svc, derived)
        .filter((j) => j.clause === 'rest:2.5.1')
        .map((j) => j.verdict),
    ).toEqual(['pass']);
    // Upstream's custom Tables beside the name show an age, not the timestamp: still a custom definition.
    const custom = { ...age, rows: [{ cells: ['a', '5m'], object: { metadata: md } }] };
    expect(judgeTable(svc, custom).filter((j) => j.clause === 'rest:2.5.1')).toEqual([]);
    // Without the row objects (includeObject=None) nothing shows the derivation: recognised by name only.
    expect(judgeTable(svc, { ...age, rows: [{ cells: ['a', md.creationTimestamp] }] }).filter((j) => j.clause === 'rest:2.5.1')).toEqual(
      [],
    );
  });
});

describe('protobuf envelope (rest:2.7)', () => {
  const want = { apiVersion: 'v1', kind: 'ConfigMap', protobufMediaType: svc.protobufMediaType };
  it('round trip, with and without explicitly written empty strings (Go writes them)', () => {
    fc.assert(
      fc.property(
        fc.record({ apiVersion: fc.string(), kind: fc.string() }),
        fc.uint8Array({ maxLength: 64 }),
        fc.constantFrom('', 'gzip'),
        fc.constantFrom('', 'application/json'),
        fc.boolean(),
        (typeMeta, raw, contentEncoding, contentType, writeEmptyStrings) => {
          const e = { typeMeta, raw, contentEncoding, contentType };
          const bytes = encodeEnvelope(e, { writeEmptyStrings });
          expect(hasMagic(bytes)).toBe(true);
          const d = decodeEnvelope(bytes);
          expect(d.ok && d.envelope).toEqual(e);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the exact bytes of a small envelope', () => {
    const bytes = encodeEnvelope({
      typeMeta: { apiVersion: 'v1', kind: 'A' },
      raw: Uint8Array.of(1),
      contentEncoding: '',
      contentType: '',
    });
    expect([...bytes]).toEqual([...MAGIC, 0x0a, 0x07, 0x0a, 0x02, 0x76, 0x31, 0x12, 0x01, 0x41, 0x12, 0x01, 0x01]);
  });

  it('judges: prefix, typeMeta, raw', () => {
    const good = encodeEnvelope({
      typeMeta: { apiVersion: 'v1', kind: 'ConfigMap' },
      raw: Uint8Array.of(1, 2),
      contentEncoding: '',
      contentType: '',
    });
    expect(verdicts(judgeEnvelope(good, want).judgements)).not.toContain('fail');
    const badMagic = Uint8Array.from(good);
    badMagic[3] = 0x01;
    expect(judgeEnvelope(badMagic, want).judgements.map((j) => [j.clause, j.verdict])).toEqual([
      ['rest:2.7.1', 'fail'],
      ['rest:8/protobuf-prefix', 'fail'],
    ]);
    expect(
      verdicts(
        judgeEnvelope(
          encodeEnvelope({ typeMeta: { apiVersion: 'v1', kind: 'Secret' }, raw: Uint8Array.of(1), contentEncoding: '', contentType: '' }),
          want,
        ).judgements,
      ),
    ).toContain('fail');
    expect(verdicts(judgeEnvelope(Uint8Array.of(...MAGIC, 0xff, 0xff), want).judgements)).toEqual(['fail']);
  });
});
