// The scorecard counts what the exchanges reached, `--require` holds a run to
// minimums, and a run that judged too little of its selection is notTested, never conformant.
import { describe, expect, it } from 'vitest';
import { countReach, emptyReach, sumReach } from '../../../harness/case/reach.ts';
import type { Exchange, TargetRequest, TargetResponse } from '../../../harness/transport/exchange.ts';
import { scorecardOf, scorecardLines, REST_4_5_CELLS } from '../../../reports/scorecard.ts';
import { checkRequirements, parseRequire, requirementLine } from '../../../reports/require.ts';
import { exercisedOf } from '../../../reports/vacuity.ts';
import { buildRunResult } from '../../../reports/aggregate.ts';
import { toSummary, toSummaryJson } from '../../../reports/summary-json.ts';
import { mergeSummaries } from '../../../reports/merge.ts';
import { toTerminalSummary } from '../../../reports/text.ts';
import { toMarkdownSummary } from '../../../reports/markdown.ts';
import { toHtml } from '../../../reports/html.ts';
import { sumFootprints, emptyFootprint, countExchange } from '../../../harness/case/footprint.ts';
import { catalog, familyOf, rec } from './fixtures.ts';
import { summaryValidator } from './summary-validator.ts';
import type { CheckRecord } from '../../../runner/results.ts';

let seq = 0;
function ex(request: TargetRequest, status: number | undefined, body?: unknown, bodyText?: string): Exchange {
  const response: TargetResponse | undefined =
    status === undefined
      ? undefined
      : { status, headers: {}, json: body, bodyText: bodyText ?? (body === undefined ? '' : JSON.stringify(body)) };
  return { seq: ++seq, request, ...(response ? { response } : { transportError: 'ECONNRESET' }), startedAtMs: 0, durationMs: 1 };
}
const CM = '/api/v1/namespaces/svc-conformance-x-p1/configmaps';
const list = (query: [string, string][], items: number, cont?: string) => ({
  kind: 'ConfigMapList',
  metadata: { resourceVersion: '9', ...(cont ? { continue: cont } : {}) },
  items: Array.from({ length: items }, (_, i) => ({ metadata: { name: `c${i}` } })),
});
const events = (...lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n');

describe('reach: counted from recorded exchanges', () => {
  it('follows a continue chain, counts pages, cells and the largest list', () => {
    const r = emptyReach();
    countReach(r, ex({ method: 'GET', path: CM, query: [['limit', '2']] }, 200, list([], 2, 'T1')), 0);
    countReach(
      r,
      ex(
        {
          method: 'GET',
          path: CM,
          query: [
            ['limit', '2'],
            ['continue', 'T1'],
          ],
        },
        200,
        list([], 2, 'T2'),
      ),
      0,
    );
    countReach(
      r,
      ex(
        {
          method: 'GET',
          path: CM,
          query: [
            ['limit', '2'],
            ['continue', 'T2'],
          ],
        },
        200,
        list([], 1),
      ),
      0,
    );
    // A second, shorter chain does not shorten the longest.
    countReach(r, ex({ method: 'GET', path: CM, query: [['limit', '5']] }, 200, list([], 5)), 0);
    expect(r.pages).toBe(4);
    expect(r.longestChain).toBe(3);
    expect(r.largestList).toBe(5);
    expect(r.cells).toEqual({ 'rest:4.5/list/unset/limit/unset': 2, 'rest:4.5/list/unset/limit-continue/unset': 2 });
    expect(r.answers).toEqual({ '2xx': 4 });
  });

  it('tells a get from a list, and leaves refused, discovery and non-GET requests out of the cells', () => {
    const r = emptyReach();
    countReach(r, ex({ method: 'GET', path: `${CM}/a`, query: [['resourceVersion', '0']] }, 200, { kind: 'ConfigMap' }), 0);
    countReach(r, ex({ method: 'GET', path: '/api/v1/namespaces/n', query: [] }, 200, { kind: 'Namespace' }), 0);
    countReach(
      r,
      ex(
        {
          method: 'GET',
          path: '/api/v1/namespaces',
          query: [
            ['resourceVersion', '5'],
            ['resourceVersionMatch', 'Exact'],
          ],
        },
        403,
        { kind: 'Status', code: 403 },
      ),
      0,
    );
    countReach(r, ex({ method: 'GET', path: '/apis', query: [] }, 200, {}), 0);
    countReach(r, ex({ method: 'POST', path: CM }, 201, {}), 1234);
    expect(r.cells).toEqual({ 'rest:4.5/get/0': 1, 'rest:4.5/get/unset': 1 });
    expect(r.answers).toEqual({ '2xx': 4, '4xx': 1 });
    expect(r.largestObjectBytes).toBe(1234);
  });

  it('counts answers by class and 409, 410, 429, 504 by status; an apply 409 is a conflict met, a no-answer is `none`', () => {
    const r = emptyReach();
    countReach(
      r,
      ex({ method: 'PATCH', path: `${CM}/a`, headers: { 'Content-Type': 'application/apply-patch+yaml' } }, 409, {
        kind: 'Status',
        code: 409,
      }),
      10,
    );
    countReach(r, ex({ method: 'PUT', path: `${CM}/a` }, 409, { kind: 'Status', code: 409 }), 10);
    countReach(
      r,
      ex(
        {
          method: 'GET',
          path: CM,
          query: [
            ['limit', '1'],
            ['continue', 'old'],
          ],
        },
        410,
        { kind: 'Status', code: 410 },
      ),
      0,
    );
    countReach(r, ex({ method: 'GET', path: CM }, 429, {}), 0);
    countReach(r, ex({ method: 'GET', path: CM }, 504, {}), 0);
    countReach(r, ex({ method: 'GET', path: CM }, undefined), 0);
    expect(r.answers).toEqual({ '4xx': 4, '409': 2, '410': 1, '429': 1, '5xx': 1, '504': 1, none: 1 });
    expect(r.applyConflicts).toBe(1);
  });

  it('a watch is opened, resumed from a version an earlier watch delivered, and expired by 410 (status or ERROR event)', () => {
    const r = emptyReach();
    const w = (rv: string | undefined, status: number, text = '') =>
      ex(
        { method: 'GET', path: CM, query: [['watch', '1'], ...(rv !== undefined ? [['resourceVersion', rv] as [string, string]] : [])] },
        status,
        undefined,
        text,
      );
    countReach(
      r,
      w(
        undefined,
        200,
        events(
          { type: 'ADDED', object: { metadata: { resourceVersion: '11' } } },
          { type: 'BOOKMARK', object: { metadata: { resourceVersion: '12' } } },
        ),
      ),
      0,
    );
    countReach(r, w('12', 200, events({ type: 'ERROR', object: { kind: 'Status', code: 410 } })), 0);
    // From a version no watch of this check delivered or started from: a start, not a resume...
    countReach(r, w('99', 200), 0);
    // ...but a watch that delivered nothing is resumed from where it started.
    countReach(r, w('99', 200), 0);
    countReach(r, w('3', 410), 0);
    expect(r.watches).toEqual({ opened: 4, resumed: 2, expired: 2, delivering: 1 });
    expect(r.cells).toEqual({ 'rest:4.5/watch/unset': 1, 'rest:4.5/watch/other': 4 });
  });

  it('adds up across checks: sums, and maxima for the longest chain and the largest', () => {
    const a = { ...emptyReach(), pages: 2, longestChain: 2, largestList: 7, answers: { '2xx': 3 } };
    const b = { ...emptyReach(), pages: 5, longestChain: 5, largestList: 3, answers: { '2xx': 1, '4xx': 1 }, compactions: 1 };
    expect(sumReach([a, b])).toMatchObject({ pages: 7, longestChain: 5, largestList: 7, answers: { '2xx': 4, '4xx': 1 }, compactions: 1 });
  });

  it('the footprint counts reach per check and sums it for the run', () => {
    const fp = emptyFootprint('x');
    countExchange(fp, ex({ method: 'GET', path: CM, query: [['limit', '1']] }, 200, list([], 1, 'T')));
    expect(sumFootprints([fp]).reach?.pages).toBe(1);
  });
});

describe('scorecard and --require', () => {
  const reach = {
    ...emptyReach(),
    pages: 7,
    longestChain: 4,
    watches: { opened: 3, resumed: 1, expired: 0, delivering: 3 },
    cells: Object.fromEntries(REST_4_5_CELLS.slice(0, 12).map((c) => [c, 1])),
  };
  const card = scorecardOf({ ...sumFootprints([]), reach });

  it('names every rest:4.5 cell once: 3 get, 21 list, 3 watch', () => {
    expect(new Set(REST_4_5_CELLS).size).toBe(27);
    expect(card.cells['rest:4.5']!).toMatchObject({ hit: 12, of: 27, get: 3, list: 9, watch: 0 });
    expect(card.cells['rest:4.5']!.missed).toHaveLength(15);
  });

  it('parses KEY>=N lists and refuses anything else with a line that says what is wrong', () => {
    expect(parseRequire('pages>=5, watches.resumed>=1,cells.rest:4.5>=10')).toEqual([
      { key: 'pages', min: 5 },
      { key: 'watches.resumed', min: 1 },
      { key: 'cells.rest:4.5', min: 10 },
    ]);
    expect(parseRequire('pages>5')).toMatch(/"pages>5" is not KEY>=N/);
    expect(parseRequire('pagez>=5')).toMatch(/unknown key pagez; known: .*pages/);
    expect(parseRequire('pages>=-1')).toMatch(/not KEY>=N/);
    expect(parseRequire('')).toMatch(/not KEY>=N/);
  });

  it('a run below a minimum is named, one at or above passes', () => {
    const reqs = parseRequire('pages>=5,watches.resumed>=2,cells.rest:4.5>=12');
    if (typeof reqs === 'string') throw new Error(reqs);
    const results = checkRequirements(card, reqs);
    expect(results.map((r) => r.met)).toEqual([true, false, true]);
    expect(requirementLine(results)).toBe('not tested: the run fell below --require: watches.resumed 1 < 2');
    expect(requirementLine(checkRequirements(card, [{ key: 'pages', min: 7 }]))).toBeUndefined();
  });
});

describe('the vacuity guard, relative to the selection', () => {
  const selected = [
    { id: 'a', clauses: ['c1', 'c2', 'c3', 'c4', 'c5'] },
    { id: 'b', clauses: ['c6', 'c7', 'c8', 'c9', 'c10'] },
    { id: 'slow', clauses: ['c11'] },
  ];
  // The fake clauses of these cases are one feature area; the area rule has cases of its own below.
  const oneArea = { areaOf: () => 'rest:0' };
  const r = (clause: string, check: string, verdict: CheckRecord['verdict'], note?: string) =>
    rec(clause, verdict, { check, ...(note ? { note } : {}) });

  it('a target that stops every check at its first request (each fails one clause) is not tested', () => {
    const e = exercisedOf([r('c1', 'a', 'fail'), r('c1', 'b', 'fail'), r('c11', 'slow', 'notChecked', 'needs --slow')], selected, oneArea);
    expect(e).toMatchObject({ notTested: true, checksWithVerdict: 2, applicableChecks: 2, judgedClauses: 1 });
    // a: 1 of its 5; b: 1 of its 5 and the c1 it judged beyond them.
    expect(e.line).toMatch(/^not tested: the API checks that ran judged 18% of their own clauses on average \(at least 33% must\)/);
  });

  it('checks that mostly errored are not tested; nothing judged at all is not tested', () => {
    const erred = exercisedOf(
      [...['c1', 'c2', 'c3'].map((c) => r(c, 'a', 'pass')), ...selected[1]!.clauses.map((c) => r(c, 'b', 'error', 'infrastructure: 503'))],
      selected.slice(0, 2).concat([{ id: 'c', clauses: ['c12'] }]),
      oneArea,
    );
    expect(erred.line).toMatch(/only 1 of the 3 checks that ran reached a verdict/);
    const none = exercisedOf([r('c11', 'slow', 'notChecked', 'needs --slow')], [selected[2]!]);
    expect(none).toMatchObject({ notTested: true, applicableChecks: 0 });
    expect(none.line).toMatch(/no selected check reached a verdict \(slow: needs --slow\)/);
  });

  it('a legitimate narrow run is measured against its own selection and passes', () => {
    // Every case inconclusive (a daemon that never got ready): asked, but no verdict reached.
    const unknown = exercisedOf(
      ['c1', 'c2', 'c3'].map((c) => r(c, 'a', 'inconclusive', 'not ready within 2000 ms')),
      [selected[0]!],
      oneArea,
    );
    expect([unknown.notTested, unknown.line]).toEqual([true, expect.stringMatching(/no selected check reached a verdict/)]);
    const narrow = exercisedOf(
      ['c6', 'c7'].map((c) => r(c, 'b', 'pass')),
      [selected[1]!],
      oneArea,
    );
    expect(narrow).toMatchObject({ notTested: false, checksWithVerdict: 1, judgedClauses: 2, declaredClauses: 5 });
    // The same records against the whole selection would not be enough.
    expect(
      exercisedOf(
        ['c6', 'c7'].map((c) => r(c, 'b', 'pass')),
        selected,
        oneArea,
      ).notTested,
    ).toBe(true);
  });

  it("counts checks, not clauses of one table: one check's 45 removed-API passes do not make a run of stopped checks tested", () => {
    const removed = Array.from({ length: 45 }, (_, i) => `rest:9.4/removed-${i}`);
    const areas = ['rest:2.2', 'rest:4.4', 'rest:4.5', 'rest:6.1'];
    const others = Array.from({ length: 20 }, (_, i) => ({
      id: `s${i}`,
      clauses: Array.from({ length: 8 }, (_, k) => `${areas[i % 4]}/s${i}-${k}`),
    }));
    const sel = [{ id: 'removed', clauses: removed }, ...others];
    // 11 of the 20 judge the one clause of their first request, the rest stop before any answer.
    const stoppedEarly = [
      ...removed.map((c) => r(c, 'removed', 'pass')),
      ...others.slice(0, 11).map((s) => r(s.clauses[0]!, s.id, 'pass')),
    ];
    const e = exercisedOf(stoppedEarly, sel);
    // Pooled, 56 of 205 clauses (27%): the old measure said "tested". Per check, 11% on average.
    expect(e).toMatchObject({
      judgedClauses: 56,
      declaredClauses: 205,
      checksWithVerdict: 12,
      judgedAreas: 5,
      declaredAreas: 5,
      notTested: true,
    });
    expect(e.line).toMatch(/^not tested: the API checks that ran judged 11% of their own clauses on average/);
    // The same checks each judging five of their clauses: tested.
    const judging = [
      ...removed.map((c) => r(c, 'removed', 'pass')),
      ...others.slice(0, 11).flatMap((s) => s.clauses.slice(0, 5).map((c) => r(c, s.id, 'pass'))),
    ];
    expect(exercisedOf(judging, sel).notTested).toBe(false);
  });

  it('a run that reached few of the feature areas its checks declare is not tested', () => {
    const sel = [
      { id: 'a', clauses: ['rest:4.4.1', 'rest:4.4.3'] },
      { id: 'b', clauses: ['rest:4.5/get/unset', 'rest:6.1.1', 'rest:7/410', 'rest:2.2.2'] },
    ];
    const e = exercisedOf([r('rest:4.4.1', 'a', 'pass'), r('rest:4.4.3', 'a', 'pass'), r('rest:4.5/get/unset', 'b', 'pass')], sel);
    expect(e).toMatchObject({ notTested: true, declaredAreas: 5, judgedAreas: 2 });
    expect(e.line).toMatch(/^not tested: only 2 of the 5 feature areas the checks that ran declare were reached/);
  });

  it('a loader check declaring field clauses of many sections is held to the check rules only', () => {
    const loader = {
      id: 'n',
      suite: 'nodeagent-config',
      clauses: ['node:2.2/maxPods', 'node:2.3/x', 'node:2.4/y', 'node:5/z', 'node:8/w'],
    };
    const e = exercisedOf([r('node:2.2/maxPods', 'n', 'pass')], [loader]);
    expect(e).toMatchObject({ notTested: false, declaredAreas: 0 });
    // The same declaration as an API check reached one area of five.
    expect(exercisedOf([r('node:2.2/maxPods', 'n', 'pass')], [{ ...loader, suite: 'rest-x' }]).notTested).toBe(true);
  });

  it('an excused failure decides nothing: a replay that met only its known failure is not tested', () => {
    const known = r('c1', 'a', 'fail');
    const e = exercisedOf([known], [selected[0]!], { ...oneArea, excused: (x) => x === known });
    expect(e).toMatchObject({ notTested: true, checksWithVerdict: 0, judgedClauses: 0 });
    expect(exercisedOf([known], [selected[0]!], oneArea)).toMatchObject({ checksWithVerdict: 1, judgedClauses: 1 });
    // Another record of the same clause passing (a rule of the same answer) does not judge it either.
    expect(
      exercisedOf([known, r('c1', 'a', 'pass'), r('c2', 'a', 'pass')], [selected[0]!], { ...oneArea, excused: (x) => x === known }),
    ).toMatchObject({ judgedClauses: 1 });
  });

  it('a run that judged too little but failed a clause is nonconformant and says it is incomplete, in every report; the summary validates', () => {
    const run = buildRunResult({
      records: [rec('rest:4.4.3', 'fail', { check: 'a' })],
      catalog,
      profile: 'svc',
      seed: 1,
      server: 'http://x',
      nodeagentLoader: null,
      startedAt: '2025-01-02T03:04:05.000Z',
      durationMs: 1,
      version: '0.1.0',
      errors: [],
      selected: [
        {
          id: 'a',
          clauses: ['rest:4.4.3', 'rest:4.4.6', 'rest:4.4.9', 'rest:4.5/list/unset/limit-continue/other', 'node:2.2/maxPods', 'node:1'],
        },
      ],
      require: [{ key: 'pages', min: 1 }],
    });
    expect(run.verdict).toBe('nonconformant');
    expect(run.notTested).toBeUndefined();
    expect(run.incomplete?.because).toEqual(['judged too little']);
    expect(run.incomplete?.lines[0]).toMatch(/^not tested: only 1 of the 4 feature areas the checks that ran declare were reached/);
    expect(run.incomplete?.lines[1]).toBe('not tested: the run fell below --require: pages 0 < 1');
    const summary = JSON.parse(toSummaryJson(run, { catalog, familyOf })) as Record<string, unknown>;
    const validate = summaryValidator();
    expect(validate(summary), JSON.stringify(validate.errors)).toBe(true);
    expect(summary).toMatchObject({
      verdict: 'nonconformant',
      verdictLine: 'nonconformant: 1 failure, 1 clause judged; incomplete: judged too little',
      incomplete: { because: ['judged too little'] },
      scorecard: { pages: { walked: 0 }, require: [{ key: 'pages', min: 1, actual: 0, met: false }] },
    });
    expect(toTerminalSummary(run, familyOf, { color: false })).toMatch(
      /Incomplete \(judged too little\):\n {2}not tested: [\s\S]*Verdict: nonconformant: 1 failure, 1 clause judged; incomplete: judged too little, against .* \(/,
    );
    expect(toMarkdownSummary(run)).toMatch(
      /svc-conformance: nonconformant: 1 failure, 1 clause judged; incomplete: judged too little[\s\S]*### Incomplete[\s\S]*### Exercised[\s\S]*rest:4.5 cells hit: 0 of 27/,
    );
    expect(toHtml(run, familyOf)).toMatch(
      /Verdict: nonconformant: 1 failure[\s\S]*Incomplete \(judged too little\)[\s\S]*id="exercised"[\s\S]*--require pages&gt;=1/,
    );
  });

  it('the same run without its failure is not tested, with the line in every report', () => {
    const run = buildRunResult({
      records: [rec('rest:4.4.3', 'pass', { check: 'a' })],
      catalog,
      profile: 'svc',
      seed: 1,
      server: 'http://x',
      nodeagentLoader: null,
      startedAt: '2025-01-02T03:04:05.000Z',
      durationMs: 1,
      version: '0.1.0',
      errors: [],
      selected: [
        {
          id: 'a',
          clauses: ['rest:4.4.3', 'rest:4.4.6', 'rest:4.4.9', 'rest:4.5/list/unset/limit-continue/other', 'node:2.2/maxPods', 'node:1'],
        },
      ],
    });
    expect(run.verdict).toBe('notTested');
    expect(run.incomplete).toBeUndefined();
    expect(toTerminalSummary(run, familyOf, { color: false })).toMatch(
      /Not tested:\n {2}not tested: [\s\S]*Verdict: not tested: 1 clause judged, against .* \(/,
    );
  });

  it('a run below --require that failed a clause stays nonconformant (a regression is never hidden)', () => {
    const records = ['rest:4.4.3', 'rest:4.4.6', 'rest:4.5/list/unset/limit-continue/other'].map((c, i) =>
      rec(c, i === 0 ? 'fail' : 'pass', { check: 'a' }),
    );
    const run = buildRunResult({
      records,
      catalog,
      profile: 'svc',
      seed: 1,
      server: null,
      nodeagentLoader: null,
      startedAt: '2025-01-02T03:04:05.000Z',
      durationMs: 1,
      version: '0',
      errors: [],
      selected: [{ id: 'a', clauses: ['rest:4.4.3', 'rest:4.4.6', 'rest:4.5/list/unset/limit-continue/other'] }],
      require: [{ key: 'pages', min: 1 }],
    });
    expect(run.verdict).toBe('nonconformant');
    expect(run.incomplete?.lines).toEqual(['not tested: the run fell below --require: pages 0 < 1']);
    expect(run.scorecard?.require?.[0]?.met).toBe(false);
    expect(scorecardLines(run.scorecard!).at(-1)).toBe('--require pages>=1: the run reached 0');
  });
});

describe('merge-reports keeps what the shards reached', () => {
  const shard = (
    file: string,
    reach: Partial<ReturnType<typeof emptyReach>>,
    records: CheckRecord[],
    selected: { id: string; clauses: string[] }[],
  ) => ({
    file,
    summary: toSummary(
      buildRunResult({
        records,
        catalog,
        profile: 'svc',
        seed: 5,
        server: null,
        nodeagentLoader: null,
        startedAt: '2025-01-02T03:04:05.000Z',
        durationMs: 1,
        version: '0',
        errors: [],
        footprint: { ...sumFootprints([]), reach: { ...emptyReach(), ...reach } },
        selected,
        require: [{ key: 'pages', min: 5 }],
      }),
      { catalog, familyOf },
    ),
  });
  const ok = (check: string, clause: string) => rec(clause, 'pass', { check });

  it('sums the counts, unions the cells, and re-checks --require on the sum (each shard below, the sum above)', () => {
    const a = shard(
      'a/summary.json',
      { pages: 3, longestChain: 3, cells: { [REST_4_5_CELLS[0]!]: 1 } },
      [ok('x', 'rest:4.4.3')],
      [{ id: 'x', clauses: ['rest:4.4.3'] }],
    );
    const b = shard(
      'b/summary.json',
      { pages: 2, longestChain: 2, cells: { [REST_4_5_CELLS[1]!]: 4 } },
      [ok('y', 'rest:4.4.6')],
      [{ id: 'y', clauses: ['rest:4.4.6'] }],
    );
    expect(a.summary.verdict).toBe('notTested');
    const merged = mergeSummaries([a, b]);
    expect(merged.verdict).toBe('conformant');
    expect(merged.scorecard).toMatchObject({
      pages: { walked: 5, longestChain: 3 },
      cells: { 'rest:4.5': { hit: 2 } },
      require: [{ key: 'pages', actual: 5, met: true }],
      exercised: { selectedChecks: 2, checksWithVerdict: 2 },
    });
  });

  it('a shard that judged too little leaves the merged run notTested, naming the shard', () => {
    const a = shard('a/summary.json', { pages: 9 }, [ok('x', 'rest:4.4.3')], [{ id: 'x', clauses: ['rest:4.4.3'] }]);
    const b = shard(
      'b/summary.json',
      { pages: 1 },
      [rec('rest:4.4.6', 'error', { check: 'y', note: 'infrastructure: 503' })],
      [{ id: 'y', clauses: ['rest:4.4.6'] }],
    );
    const merged = mergeSummaries([a, b]);
    expect(merged.verdict).toBe('notTested');
    expect(merged.notTested).toEqual([expect.stringMatching(/^b\/summary\.json: not tested: no selected check reached a verdict/)]);
  });
});
