// The run's record of judge calls (harness/case/judge-record.ts): inputs survive the codec as the judge
// saw them, a registry call's verdicts are journalled as the call, anything a check built or changed is
// carried as it was, and judging an entry again with another registry says what that registry says.
import { describe, expect, it } from 'vitest';
import { decode, encode, journalEntry, recorded, rejudgeEntry, recordedVerdicts, type Blobs } from '../../../harness/case/judge-record.ts';
import { judges } from '../../../reference/judges.ts';
import { emptyHistory, recordWrite } from '../../../reference/history.ts';
import { pass, tagged } from '../../../reference/judgement.ts';
import { FieldSet } from '../../../reference/apply/set.ts';

const judgeCreate = recorded('judgeCreate');
const judgeDeleteAccepted = recorded('judgeDeleteAccepted');

describe('the record codec', () => {
  it('keeps Map, Set, undefined, nested arrays and objects that look like encoded values', () => {
    const v = [{ a: new Map([['k', new Set(['x', 'y'])]]), b: undefined, c: [1, undefined, 'z'] }, { $map: 'mine', $u: 2 }, null];
    const back = decode(JSON.parse(JSON.stringify(encode(v)))) as typeof v;
    expect(back).toEqual(v);
    expect('b' in back[0]!).toBe(true);
    expect(back[0]!.a).toBeInstanceOf(Map);
    expect(back[0]!.a!.get('k')).toBeInstanceOf(Set);
  });

  it('stores snapshots and object versions once, and decodes each once per call: identity survives', () => {
    const version = (name: string, rv: string) => ({
      key: `ns/${name}`,
      name,
      namespace: 'ns',
      uid: `u-${name}`,
      rv,
      creationTimestamp: undefined,
      content: { labels: {}, annotations: {}, body: { k: 'v' } },
    });
    const h1 = recordWrite(emptyHistory(0), { op: 'put', atMs: 1, version: version('a', '7') });
    const h = recordWrite(h1, { op: 'put', atMs: 2, version: version('b', '8') });
    const blobs: Blobs = new Map();
    const one = JSON.stringify(encode([h, h], blobs));
    // Three snapshots and two object versions, each once however often the call names them.
    expect(blobs.size).toBe(5);
    expect(one.match(/\$blob/g)).toHaveLength(6);
    const back = decode(JSON.parse(one), Object.fromEntries(blobs)) as [typeof h, typeof h];
    expect(back[1].snapshots[2]!.objects.get('ns/a')).toEqual(h.snapshots[2]!.objects.get('ns/a'));
    // The watch oracle takes an unchanged object for the same object between two snapshots.
    expect(back[0].snapshots[1]!.objects.get('ns/a')).toBe(back[0].snapshots[2]!.objects.get('ns/a'));
    expect(back[0].snapshots[2]).toBe(back[1].snapshots[2]);
    expect(back[0].rvIndex.get('8')).toBe(2);
  });

  it('a snapshot met again in another table brings its object versions along', () => {
    const h = recordWrite(emptyHistory(0), {
      op: 'put',
      atMs: 1,
      version: {
        key: 'ns/a',
        name: 'a',
        namespace: 'ns',
        uid: 'u',
        rv: '7',
        creationTimestamp: undefined,
        content: { labels: {}, annotations: {}, body: {} },
      },
    });
    encode(h, new Map());
    const other: Blobs = new Map();
    const again = encode(h, other);
    expect((decode(again, Object.fromEntries(other)) as typeof h).snapshots[1]!.objects.get('ns/a')!.rv).toBe('7');
  });

  it('keeps the value classes judges take: field sets (apply ownership) and bytes (a protobuf answer)', () => {
    const fs = FieldSet.of([
      ['f:spec', 'f:a'],
      ['f:metadata', 'f:labels', 'f:x'],
    ]);
    const bytes = new Uint8Array([0x6b, 0x38, 0x73, 0x00, 0xff]);
    const v = { managed: [{ manager: 'm', fields: fs }], body: bytes, $fs: 'mine' };
    const back = decode(JSON.parse(JSON.stringify(encode(v)))) as typeof v;
    expect(back.managed[0]!.fields).toBeInstanceOf(FieldSet);
    expect(back.managed[0]!.fields.paths()).toEqual(fs.paths());
    expect(back.body).toBeInstanceOf(Uint8Array);
    expect([...back.body]).toEqual([...bytes]);
    expect(back.$fs).toBe('mine');
  });

  it('refuses a callback (the call is then carried, not re-derived)', () => {
    expect(() => encode({ f: () => true })).toThrow();
  });
});

describe('a journal entry', () => {
  it('names the registry call for its whole output and carries what a check built beside it', () => {
    const own = pass('rest:4.1/get-core', 'built by a check');
    const entry = journalEntry([...judgeCreate({ key: 'ns/a', reused: false, status: 201, body: '' }), own], new Map());
    expect(entry.s).toHaveLength(2);
    expect(entry.s[0]).toMatchObject({ j: 'judgeCreate', o: [['rest:4.1/post', 'p']] });
    expect(entry.s[1]).toEqual({ c: [own] });
    expect(recordedVerdicts(entry).map((v) => [v.clause, v.verdict, v.carried])).toEqual([
      ['rest:4.1/post', 'p', false],
      ['rest:4.1/get-core', 'p', true],
    ]);
  });

  it('carries a call whose verdicts a check changed (tagged makes new judgements)', () => {
    const changed = tagged(judgeDeleteAccepted('ns/a', 500), { input: 'limit-below-count' });
    const entry = journalEntry(changed, new Map());
    expect(entry.s).toEqual([{ c: changed }]);
  });

  it('judged again: the same verdicts with the model, other verdicts with a registry that differs', () => {
    const entry = JSON.parse(
      JSON.stringify(journalEntry(judgeCreate({ key: 'ns/a', reused: false, status: 201, body: '' }), new Map())),
    ) as ReturnType<typeof journalEntry>;
    expect(rejudgeEntry(entry, judges, {}).judgements.map((j) => j.verdict)).toEqual(['pass']);
    const strict = {
      ...judges,
      judgeCreate: (o: Parameters<typeof judges.judgeCreate>[0]) => judges.judgeCreate({ ...o, status: o.status === 201 ? 500 : o.status }),
    };
    const again = rejudgeEntry(entry, strict, {});
    expect(again.carried).toBe(false);
    expect(again.judgements.map((j) => [j.clause, j.verdict])).toEqual([['rest:4.1/post', 'fail']]);
  });
});
