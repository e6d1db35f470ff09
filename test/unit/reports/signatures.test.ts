// Why: an expectations entry excuses one observed answer, not a whole clause, so
// a target built on upstream that fails a listed clause its own way is told so; and a listed departure is
// called gone only when the run sent the input that showed it and the answer conformed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRunResult } from '../../../reports/aggregate.ts';
import {
  ExpectationsError,
  expectationsForRun,
  parseExpectations,
  parseReleaseRange,
  releaseInRange,
  minorOf,
  type Expectations,
} from '../../../reports/expectations.ts';
import { toTerminalSummary } from '../../../reports/text.ts';
import { excusedFailure } from '../../../reports/known-failures.ts';
import { toMarkdownSummary } from '../../../reports/markdown.ts';
import { toHtml } from '../../../reports/html.ts';
import { toSummary } from '../../../reports/summary-json.ts';
import { mergeSummaries } from '../../../reports/merge.ts';
import { isObservationClass } from '../../../reference/observations.ts';
import type { CheckRecord } from '../../../runner/results.ts';
import type { ClauseId } from '../../../reference/catalog/clause-ids.ts';
import { catalog, cx, familyOf, rec } from './fixtures.ts';

const run = (records: CheckRecord[], expectations: Expectations) =>
  buildRunResult({
    records,
    catalog,
    expectations,
    profile: 'k8s',
    seed: 1,
    server: null,
    nodeagentLoader: null,
    startedAt: '2025-01-01T00:00:00Z',
    durationMs: 0,
    version: '0.1.0',
    errors: [],
  });

const errorOf = (text: string): string => {
  try {
    parseExpectations(text, 'e.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(ExpectationsError);
    return (e as Error).message;
  }
  throw new Error('expected a parse error');
};

// rest:4.4.6 stands for a listed clause; its departure is a page ignoring the limit (a real class).
const SIGNED = `knownFailures:
  - clause: rest:4.4.6
    observed: { class: limit-ignored, status: 200 }
    reason: the cache ignores limit
    source: https://example.test/issue/1
`;
const limitIgnored = (observedStatus = 200) =>
  rec('rest:4.4.6', 'fail', {
    counterexample: cx({
      clause: 'rest:4.4.6',
      observed: 'page 1 has 3 items',
      class: 'limit-ignored',
      input: 'limit-below-count',
      observedStatus,
    }),
  });

describe('signatures in the expectations file', () => {
  it("reads a signature, its source and conditions, with the entry's line", () => {
    const e = parseExpectations(
      `${SIGNED}    when: { profile: k8s, capability: watch-cache, release: '>=1.24 <1.27', scale: false }\n`,
      'e.yaml',
    );
    expect(e.warnings).toBeUndefined();
    expect(e.knownFailures[0]).toEqual({
      clause: 'rest:4.4.6',
      reason: 'the cache ignores limit',
      source: 'https://example.test/issue/1',
      at: 'e.yaml:2',
      observed: { class: ['limit-ignored'], status: [200] },
      when: { scale: false, profile: 'k8s', capability: ['watch-cache'], release: parseReleaseRange('>=1.24 <1.27') },
    });
  });

  it.each([
    [
      '    observed: { class: limit-ignord }\n',
      'e.yaml:3: knownFailures[0].observed.class: unknown observation class "limit-ignord" (known: ',
    ],
    ['    observed: { status: "422" }\n', 'e.yaml:3: knownFailures[0].observed.status: expected an HTTP status code (100-599), got "422"'],
    [
      '    observed: { status: [422, 99] }\n',
      'e.yaml:3: knownFailures[0].observed.status[1]: expected an HTTP status code (100-599), got 99',
    ],
    ['    observed: { message: "a(b" }\n', 'e.yaml:3: knownFailures[0].observed.message: not a regular expression: '],
    ['    observed: {}\n', 'e.yaml:3: knownFailures[0].observed: empty: name at least one of class, status, reason, message'],
    ['    observed: { code: 422 }\n', 'e.yaml:3: knownFailures[0].observed.code: unknown key (expected class, status, reason, message)'],
    [
      '    observed: 422\n',
      'e.yaml:3: knownFailures[0].observed: expected a mapping with any of class, status, reason, message, got number',
    ],
    [
      '    when: { capability: cache }\n',
      'e.yaml:3: knownFailures[0].when.capability: unknown capability "cache" (known: watch-cache, no-watch-cache)',
    ],
    [
      '    when: { release: "1.24-ish" }\n',
      `e.yaml:3: knownFailures[0].when.release: not a release range like '>=1.24 <1.27' or '1.24': "1.24-ish"`,
    ],
    ['    when: { profile: kube }\n', 'e.yaml:3: knownFailures[0].when.profile: unknown profile "kube" (known: svc, k8s)'],
  ])('rejects a malformed signature or condition with file:line (%j)', (extra, message) => {
    const text = `knownFailures:\n  - clause: rest:4.4.6\n${extra}    reason: r\n`;
    const got = errorOf(text);
    expect(got.startsWith(message), got).toBe(true);
    expect(got).not.toContain('\n');
  });

  it('lists a clause twice only when every entry of it has a signature', () => {
    const two = `${SIGNED}  - clause: rest:4.4.6\n    observed: { class: selector-page-lost-items }\n    reason: another departure\n`;
    expect(parseExpectations(two, 'e.yaml').knownFailures).toHaveLength(2);
    expect(errorOf(`${SIGNED}  - clause: rest:4.4.6\n    reason: any\n`)).toBe(
      'e.yaml:6: knownFailures[1].clause: rest:4.4.6 is already listed at knownFailures[0] (a clause listed more than once needs a signature, `observed`, on every entry)',
    );
    expect(errorOf(`${SIGNED}${SIGNED.slice('knownFailures:\n'.length)}`)).toBe(
      'e.yaml:6: knownFailures[1].clause: rest:4.4.6 is already listed at knownFailures[0]',
    );
  });

  it('accepts an entry without a signature, warning once per file with its lines', () => {
    const e = parseExpectations(
      'knownFailures:\n  - clause: rest:4.4.6\n    reason: a\n  - clause: rest:4.4.3\n    reason: b\n',
      'old.yaml',
    );
    expect(e.knownFailures).toHaveLength(2);
    expect(e.warnings).toEqual([
      'old.yaml: 2 entries at lines 2, 4 have no `observed` signature and match any failure of the clause; add observed: {class, status, reason or message} so a different failure is a regression',
    ]);
  });
});

describe('a failure of a listed clause', () => {
  const e = parseExpectations(SIGNED, 'e.yaml');

  it('matching the signature is excused', () => {
    const r = run([limitIgnored()], e);
    expect(r.verdict).toBe('conformant');
    const c = r.clauses.find((x) => x.id === 'rest:4.4.6')!;
    expect(c).toMatchObject({ status: 'failed', expectedFailure: true, expectation: { regression: false, unexcused: [] } });
    expect(c.expectation!.entries[0]).toMatchObject({ outcome: 'excused', excuses: 'class limit-ignored, status 200', at: 'e.yaml:2' });
  });

  it('answered otherwise is a regression, shown with the excused and the observed answer everywhere', () => {
    const other = rec('rest:4.4.6', 'fail', {
      counterexample: cx({ clause: 'rest:4.4.6', observed: 'remainingItemCount 7, expected 2', observedStatus: 200 }),
    });
    const r = run([limitIgnored(), other], e);
    expect(r.verdict).toBe('nonconformant');
    const c = r.clauses.find((x) => x.id === 'rest:4.4.6')!;
    expect(c.expectedFailure).toBeUndefined();
    expect(c.expectation!.unexcused).toEqual([
      'status 200: remainingItemCount 7, expected 2 (excused: class limit-ignored, status 200: not class (none named by the check))',
    ]);
    // The unexcused counterexample is the one the reports show first.
    expect(c.counterexamples[0]!.observed).toBe('remainingItemCount 7, expected 2');
    const text = toTerminalSummary(r, familyOf, { color: false });
    expect(text).toContain('FAIL rest:4.4.6');
    expect(text).toContain('listed:   the expectations file excuses only class limit-ignored, status 200 (e.yaml:2)');
    expect(text).toContain('not excused: status 200: remainingItemCount 7, expected 2');
    expect(toMarkdownSummary(r)).toContain('(listed: the expectations file excuses only class limit-ignored, status 200)');
    expect(toHtml(r, familyOf)).toContain('this failure is not the one excused');
    expect(toSummary(r).clauses.find((x) => x.id === 'rest:4.4.6')).toMatchObject({
      expectedFailure: false,
      expectation: { regression: true },
    });
  });

  it('is known to confirmation only when its signature matches (a regression is replayed like any failure)', () => {
    const other = rec('rest:4.4.6', 'fail', {
      counterexample: cx({ clause: 'rest:4.4.6', observed: 'remainingItemCount 7, expected 2', observedStatus: 200 }),
    });
    expect(excusedFailure(e.knownFailures, limitIgnored())).toBe(true);
    expect(excusedFailure(e.knownFailures, other)).toBe(false);
    expect(
      excusedFailure(
        e.knownFailures,
        rec('rest:4.4.3', 'fail', {
          counterexample: cx({ clause: 'rest:4.4.3', observed: 'x', class: 'limit-ignored', observedStatus: 200 }),
        }),
      ),
    ).toBe(false);
  });

  it('of the same class with another status is a regression too (the status pins it down)', () => {
    expect(run([limitIgnored(500)], e).verdict).toBe('nonconformant');
  });

  it('is matched by message and reason where the signature names them', () => {
    const m = parseExpectations(
      'knownFailures:\n  - clause: rest:4.4.6\n    observed: { message: "future revision$", reason: [Invalid, Gone] }\n    reason: r\n',
      'm.yaml',
    );
    const answer = (observed: string, observedReason?: string) =>
      rec('rest:4.4.6', 'fail', { counterexample: cx({ clause: 'rest:4.4.6', observed, ...(observedReason ? { observedReason } : {}) }) });
    expect(run([answer('status 500 required revision is a future revision', 'Gone')], m).verdict).toBe('conformant');
    expect(run([answer('status 500 required revision is a future revision', 'InternalError')], m).verdict).toBe('nonconformant');
    expect(run([answer('status 500 etcdserver: too many requests', 'Gone')], m).verdict).toBe('nonconformant');
  });
});

describe('"no longer occurring" only when exercised', () => {
  const e = parseExpectations(SIGNED, 'e.yaml');
  const passWith = (inputs?: Record<string, number>) => rec('rest:4.4.6', 'pass', { count: 3, ...(inputs ? { inputs } : {}) });

  it('the run sent the input and the answer conformed: no longer occurring, with advice to remove the entry', () => {
    const r = run([passWith({ 'limit-below-count': 2 })], e);
    const entry = r.clauses.find((x) => x.id === 'rest:4.4.6')!.expectation!.entries[0]!;
    expect(entry).toMatchObject({
      outcome: 'noLongerOccurs',
      detail: 'the run sent a list with a limit below the number of items it returned (2 answers), and the answers conformed',
    });
    expect(toTerminalSummary(r, familyOf, { color: false })).toContain(
      'No longer occurring (the run sent the input and the answers conformed); remove from the expectations file:\n  rest:4.4.6 (class limit-ignored, status 200) at e.yaml:2',
    );
    expect(toMarkdownSummary(r)).toContain('### No longer occurring (1): remove from the expectations file');
  });

  it('the clause passed on other inputs, or was not checked: not exercised, and no advice anywhere', () => {
    for (const records of [[passWith()], [passWith({ 'bare-dryrun': 4 })], [rec('rest:4.4.6', 'notChecked')], []]) {
      const r = run(records, e);
      const entry = r.clauses.find((x) => x.id === 'rest:4.4.6')!.expectation!.entries[0]!;
      expect(entry).toMatchObject({
        outcome: 'notExercised',
        detail: expect.stringContaining('the run sent no list with a limit below the number of items it returned'),
      });
      const text = toTerminalSummary(r, familyOf, { color: false });
      expect(text).not.toMatch(/no longer occurring|remove from/i);
      expect(text).toContain('Listed but not exercised in this run (kept; see the notes in summary.json): rest:4.4.6');
      expect(toMarkdownSummary(r)).not.toMatch(/remove from/i);
      expect(toMarkdownSummary(r)).toContain('Not exercised in this run (1)');
      expect(toHtml(r, familyOf)).toContain('not exercised in this run');
    }
  });

  it('a capability the run was not told of is assumed: the failure is excused, a conforming answer proves nothing', () => {
    const cached = parseExpectations(`${SIGNED}    when: { capability: watch-cache }\n`, 'e.yaml');
    const unknown = expectationsForRun(cached, { scale: false });
    expect(run([limitIgnored()], unknown).verdict).toBe('conformant');
    const entry = run([passWith({ 'limit-below-count': 2 })], unknown).clauses.find((x) => x.id === 'rest:4.4.6')!.expectation!.entries[0]!;
    expect(entry).toMatchObject({
      outcome: 'notExercised',
      detail: expect.stringContaining('but the run assumed the target has a watch cache'),
    });
    // Told it has one: gone is gone. Told it has none: the entry does not hold, the failure is a regression.
    const told = expectationsForRun(cached, { scale: false, capabilities: { 'watch-cache': true } });
    expect(
      run([passWith({ 'limit-below-count': 2 })], told).clauses.find((x) => x.id === 'rest:4.4.6')!.expectation!.entries[0]!.outcome,
    ).toBe('noLongerOccurs');
    const without = expectationsForRun(cached, { scale: false, capabilities: { 'watch-cache': false } });
    expect(without.knownFailures).toEqual([]);
    expect(run([limitIgnored()], without).verdict).toBe('nonconformant');
  });

  it('an entry of a target without a capability (no-watch-cache) holds only where the run was not told it has one', () => {
    const uncached = parseExpectations(`${SIGNED}    when: { capability: no-watch-cache }\n`, 'e.yaml');
    expect(uncached.knownFailures[0]!.when).toEqual({ capability: ['no-watch-cache'] });
    const told = expectationsForRun(uncached, { scale: false, capabilities: { 'watch-cache': false } });
    expect(told.knownFailures[0]!.assumed).toBeUndefined();
    expect(run([limitIgnored()], told).verdict).toBe('conformant');
    // A target with a cache that fails the same way has a bug of its own: a regression.
    const cached = expectationsForRun(uncached, { scale: false, capabilities: { 'watch-cache': true } });
    expect(cached.knownFailures).toEqual([]);
    expect(run([limitIgnored()], cached).verdict).toBe('nonconformant');
    expect(expectationsForRun(uncached, { scale: false }).knownFailures[0]!.assumed).toEqual([
      'the target has no watch cache (--target-capability watch-cache or no-watch-cache)',
    ]);
  });

  it('a departure whose showing depends on what no answer reveals is never reported gone', () => {
    const lost = parseExpectations(
      'knownFailures:\n  - clause: rest:4.4.6\n    observed: { class: selector-page-lost-items }\n    reason: r\n',
      'e.yaml',
    );
    const entry = run([passWith({ 'paged-selector-list': 40 })], lost).clauses.find((x) => x.id === 'rest:4.4.6')!.expectation!.entries[0]!;
    expect(entry).toMatchObject({
      outcome: 'notExercised',
      detail: expect.stringContaining('never reported gone: whether a selector list loses items depends on how the store batches'),
    });
  });

  // Fresh seeds on all three topologies sent applies that empty a list, upstream answered them right (it
  // drops the whole field where nobody owns the list's key) and the entry was called gone, while other
  // seeds still show the null list refused: the input class is broader than structured-merge-diff's trigger.
  it('an emptied list answered right proves nothing: never gone; the refusal is still excused, another refusal is not', () => {
    const emptied = parseExpectations(
      `knownFailures:\n  - clause: rest:4.7.3\n    observed: { class: emptied-list-refused, status: 422, message: 'must be of type (array|object): "null"' }\n    reason: r\n`,
      'e.yaml',
    );
    const pass = rec('rest:4.7.3', 'pass', { inputs: { 'apply-empties-list': 9 } });
    const entry = run([pass], emptied).clauses.find((x) => x.id === 'rest:4.7.3')!.expectation!.entries[0]!;
    expect(entry).toMatchObject({
      outcome: 'notExercised',
      detail: expect.stringContaining('never reported gone: whether structured-merge-diff keeps the emptied list'),
    });
    expect(toTerminalSummary(run([pass], emptied), familyOf, { color: false })).not.toMatch(/no longer occurring|remove from/i);
    const refusal = (message: string, cls?: 'emptied-list-refused') =>
      rec('rest:4.7.3', 'fail', {
        counterexample: cx({
          clause: 'rest:4.7.3',
          observed: message,
          observedStatus: 422,
          input: 'apply-empties-list',
          ...(cls ? { class: cls } : {}),
        }),
      });
    expect(
      run([refusal('spec.l: Invalid value: "null": spec.l in body must be of type array: "null"', 'emptied-list-refused')], emptied)
        .verdict,
    ).toBe('conformant');
    // Near misses: a 422 of the same apply for another reason, and a refusal the model gave no class.
    expect(run([refusal('spec.l[0].name: Required value', 'emptied-list-refused')], emptied).verdict).toBe('nonconformant');
    expect(run([refusal('spec.l: Invalid value: "null": spec.l in body must be of type array: "null"')], emptied).verdict).toBe(
      'nonconformant',
    );
  });

  it('a release range holds for the releases in it', () => {
    const ranged = parseExpectations(`${SIGNED}    when: { release: '>=1.24 <1.27' }\n`, 'e.yaml');
    expect(expectationsForRun(ranged, { scale: false, release: 'v1.24.2' }).knownFailures).toHaveLength(1);
    expect(expectationsForRun(ranged, { scale: false, release: 'v1.27.0' }).knownFailures).toHaveLength(0);
    expect(expectationsForRun(ranged, { scale: false }).knownFailures[0]!.assumed).toEqual([
      "the target's release is >=1.24 <1.27 (--release)",
    ]);
    expect(releaseInRange(parseReleaseRange('1.24')!, minorOf('1.24.0-rc.1')!)).toBe(true);
    expect(releaseInRange(parseReleaseRange('>1.24')!, minorOf('v1.24.9')!)).toBe(false);
  });

  it('merged shards: excused anywhere wins, then gone anywhere, else not exercised; a regression anywhere stays', () => {
    const shard = (records: CheckRecord[]) => ({ file: 's.json', summary: toSummary(run(records, e)) });
    const merged = mergeSummaries([shard([passWith()]), shard([passWith({ 'limit-below-count': 1 })])]);
    expect(merged.clauses.find((x) => x.id === 'rest:4.4.6')!.expectation!.entries[0]!.outcome).toBe('noLongerOccurs');
    const withFailure = mergeSummaries([shard([limitIgnored()]), shard([passWith({ 'limit-below-count': 1 })])]);
    expect(withFailure.clauses.find((x) => x.id === 'rest:4.4.6')).toMatchObject({
      expectedFailure: true,
      expectation: { entries: [{ outcome: 'excused' }] },
    });
  });
});

describe('the shipped upstream expectations files', () => {
  const dir = path.resolve(import.meta.dirname, '../../../expectations');
  for (const file of ['upstream-kube-apiserver.yaml', 'upstream-kube-controller-manager.yaml', 'upstream-kubelet.yaml']) {
    it(`${file}: every entry has a signature with a class, so a different failure is a regression and "gone" can be decided`, () => {
      const e = parseExpectations(readFileSync(path.join(dir, file), 'utf8'), file);
      expect(e.warnings).toBeUndefined();
      for (const k of e.knownFailures) {
        expect(k.observed?.class?.length, `${k.at}`).toBeGreaterThan(0);
        expect(k.observed!.class!.every(isObservationClass)).toBe(true);
      }
    });
  }

  // Fresh seed 227505677 (ha, under load): one forced apply that emptied spec.granularMap was refused 422
  // and judged under every clause its facts brought in; nine of them had no entry and read as regressions.
  it('the emptied-list refusal is excused under every clause an apply-sequences write is judged under, and only that refusal', () => {
    const e = parseExpectations(readFileSync(path.join(dir, 'upstream-kube-apiserver.yaml'), 'utf8'), 'upstream-kube-apiserver.yaml');
    const applyClauses: ClauseId[] = [
      'rest:3.2/apply-force',
      'rest:4.3/force',
      'rest:3.2/apply-same-value',
      'rest:3.2/apply-omit-sole',
      'rest:3.2/apply-omit-shared',
      'rest:4.7.3',
      'rest:4.1/patch-type/apply',
      'rest:4.1/patch',
      'rest:4.7.7',
      'rest:4.7.7/list-type',
      'rest:4.7.7/list-map-keys',
      'rest:4.7.7/map-type',
      'rest:4.7.9',
    ];
    const nullMap =
      'status 422: ApplyFixture.x "obj" is invalid: spec.granularMap: Invalid value: "null": spec.granularMap in body must be of type object: "null"';
    const refused = (clause: ClauseId, observed: string, cls: 'emptied-list-refused' | undefined) =>
      rec(clause, 'fail', {
        counterexample: cx({ clause, observed, observedStatus: 422, input: 'apply-empties-list', ...(cls ? { class: cls } : {}) }),
      });
    for (const clause of applyClauses) {
      const entries = e.knownFailures.filter((k) => k.clause === clause);
      expect(entries.length, clause).toBeGreaterThan(0);
      expect(excusedFailure(entries, refused(clause, nullMap, 'emptied-list-refused')), clause).toBe(true);
      // Near misses: another 422 of the same apply, and the same text without the model's class.
      expect(
        excusedFailure(
          entries,
          refused(clause, 'status 422: spec.granularMap.a: Invalid value: "x": must be an integer', 'emptied-list-refused'),
        ),
        clause,
      ).toBe(false);
      expect(excusedFailure(entries, refused(clause, nullMap, undefined)), clause).toBe(false);
    }
  });

  it('a run that exercised none of the API entries (one suite of another area) gives no advice to remove any', () => {
    const e = parseExpectations(readFileSync(path.join(dir, 'upstream-kube-apiserver.yaml'), 'utf8'), 'upstream-kube-apiserver.yaml');
    const facts = expectationsForRun(e, { scale: false, profile: 'k8s', capabilities: { 'watch-cache': true }, release: 'v1.24.2' });
    // Every listed clause judged and passing, on inputs other than the ones behind the entries.
    const ids = [...new Set(facts.knownFailures.map((k) => k.clause))];
    const realCatalog = ids.map((id) => ({ id: id as never, doc: 'rest' as const, section: '4', summary: id, kind: 'normative' as const }));
    const r = buildRunResult({
      records: ids.map((id) => rec(id, 'pass', { count: 5 })),
      catalog: realCatalog,
      expectations: facts,
      profile: 'k8s',
      seed: 1,
      server: null,
      nodeagentLoader: null,
      startedAt: '2025-01-01T00:00:00Z',
      durationMs: 0,
      version: '0',
      errors: [],
    });
    const text = toTerminalSummary(r, () => 'rest', { color: false });
    expect(text).not.toMatch(/no longer occurring|remove from/i);
    expect(r.clauses.every((c) => c.expectation!.entries.every((x) => x.outcome === 'notExercised'))).toBe(true);
  });
});
