import { describe, expect, it } from 'vitest';
import { toJUnitXml } from '../../../reports/junit.ts';
import { visibleControls } from '../../../reports/escape.ts';
import { familyOf } from './fixtures.ts';
import { HOSTILE, sampleRun } from './sample-run.ts';
import { descendants, parseXml } from './xml-check.ts';

describe('the well-formedness checker itself', () => {
  it.each([
    '<a><b></a></b>',
    '<a x=1/>',
    '<a>&foo;</a>',
    '<a>1 < 2</a>',
    '<a>x]]>y</a>',
    '<a>\u0001</a>',
    '<a/><b/>',
    '<a x="1" x="2"/>',
    '<a>',
  ])('rejects %j', (xml) => {
    expect(() => parseXml(xml)).toThrow(/not well-formed/);
  });

  it('accepts and decodes a good document', () => {
    const root = parseXml('<?xml version="1.0"?>\n<a k="&quot;&#10;"><b>&lt;&amp;</b></a>');
    expect(root.attrs.k).toBe('"\n');
    expect(root.children[0]?.text).toBe('<&');
  });
});

describe('toJUnitXml', () => {
  const run = sampleRun();
  const root = parseXml(toJUnitXml(run, familyOf));
  const cases = descendants(root, 'testcase');
  const byId = (id: string) => cases.find((c) => c.attrs.name?.startsWith(`${id} `));

  it('has one testsuite per area, in catalog order, with counts', () => {
    const suites = descendants(root, 'testsuite');
    expect(suites.map((s) => s.attrs.name)).toEqual([
      'rest:4.4 paging',
      'rest:4.5 resource versions',
      'node:2.2 defaults',
      'node:1 overview',
    ]);
    expect(suites[0]?.attrs).toMatchObject({ tests: '3', failures: '2', errors: '0', skipped: '0' });
    expect(root.attrs).toMatchObject({ tests: '6', failures: '2', errors: '1', skipped: '1', time: '61.500' });
  });

  it('has one testcase per clause named by id and summary, classname the area', () => {
    expect(cases).toHaveLength(run.clauses.length);
    expect(byId('rest:4.4.6')?.attrs).toMatchObject({ classname: 'rest:4.4 paging', name: 'rest:4.4.6 expired token answers 410' });
  });

  it('puts the counterexample in the failure body', () => {
    const failure = byId('rest:4.4.3')?.children.find((c) => c.name === 'failure');
    expect(failure?.attrs.message).toBe('expected status 200 with items [b, c]; observed status 200 with items [c]');
    for (const part of [
      'expected: status 200',
      'observed: status 200 with items [c]',
      '4. list continue=T',
      'replay:   npx svc-conformance run --seed 42',
      'curl -sS "$SERVER"\'/api/v1',
    ]) {
      expect(failure?.text).toContain(part);
    }
  });

  it('maps the other statuses', () => {
    expect(byId('rest:4.4.9')?.children.map((c) => c.name)).toEqual(['system-out']);
    expect(byId('rest:4.4.9')?.children[0]?.text).toBe('returned 3 items for limit=5');
    expect(byId('rest:4.5/list/unset/limit-continue/other')?.children).toEqual([]);
    expect(byId('node:1')?.children[0]).toMatchObject({
      name: 'skipped',
      attrs: { message: 'informative: an overview: nothing to judge' },
    });
    expect(byId('node:2.2/maxPods')?.children[0]).toMatchObject({ name: 'error', attrs: { message: 'loader timed out' } });
  });

  it('reports a known failure as skipped, not as a failure', () => {
    const known = sampleRun({ expectations: { knownFailures: [{ clause: 'rest:4.4.6', reason: 'tokens never expire' }] } });
    const tc = descendants(parseXml(toJUnitXml(known, familyOf)), 'testcase').find((c) => c.attrs.name?.startsWith('rest:4.4.6 '));
    expect(tc?.children.map((c) => c.name)).toEqual(['skipped', 'system-out']);
    expect(tc?.children[0]?.attrs.message).toMatch(/^known failure: /);
  });

  it('stays well-formed with hostile strings and round-trips them', () => {
    const hostile = sampleRun({ hostile: true, errors: [HOSTILE] });
    const xml = toJUnitXml(hostile, familyOf);
    expect(xml).not.toContain('<script>');
    expect(xml).not.toMatch(/\]\]>/);
    const parsed = parseXml(xml);
    const visible = visibleControls(HOSTILE);
    expect(visible).toContain('\\u0001');
    const props = descendants(parsed, 'property');
    expect(props.find((p) => p.attrs.name === 'profile')?.attrs.value).toBe(visible);
    const tc = descendants(parsed, 'testcase').find((c) => c.attrs.name?.startsWith('rest:4.4.3 '));
    const failure = tc?.children.find((c) => c.name === 'failure');
    expect(failure?.attrs.message).toContain(`observed ${visible}`);
    expect(failure?.text).toContain(`curl '${visible}'`);
    expect(descendants(parsed, 'error').some((e) => e.text === visible)).toBe(true);
  });

  it('is stable: the same run gives the same bytes', () => {
    expect(toJUnitXml(sampleRun(), familyOf)).toBe(toJUnitXml(sampleRun(), familyOf));
  });
});

describe('JUnit times', () => {
  it("each clause case carries its share of the checks' wall time; an area's suite sums its cases", async () => {
    const { clauseTimes } = await import('../../../reports/aggregate.ts');
    const rec = (check: string, clause: string) => ({ check, clause, verdict: 'pass', count: 1 }) as never;
    const fp = {
      namespaces: 0,
      clusterObjects: 0,
      requests: {},
      bytesSent: 0,
      bytesReceived: 0,
      checkWallMs: 5000,
      checks: [
        { check: 'a', wallMs: 4000, namespaces: 0, clusterObjects: 0, requests: {}, bytesSent: 0, bytesReceived: 0, namespaceWaitMs: 0 },
        { check: 'b', wallMs: 1000, namespaces: 0, clusterObjects: 0, requests: {}, bytesSent: 0, bytesReceived: 0, namespaceWaitMs: 0 },
      ],
    };
    const t = clauseTimes([rec('a', 'x'), rec('a', 'y'), rec('a', 'x'), rec('b', 'y')], fp);
    expect(Object.fromEntries(t)).toEqual({ x: 2000, y: 3000 });
    const run = sampleRun();
    const timed = { ...run, clauses: run.clauses.map((c) => (c.id === 'rest:4.4.3' ? { ...c, timeMs: 2500 } : c)) };
    const doc = parseXml(toJUnitXml(timed, familyOf));
    const cases = descendants(doc, 'testcase');
    expect(cases.find((c) => String(c.attrs['name']).startsWith('rest:4.4.3 '))?.attrs['time']).toBe('2.500');
    expect(cases.filter((c) => c.attrs['time'] !== '0.000')).toHaveLength(1);
  });
});
