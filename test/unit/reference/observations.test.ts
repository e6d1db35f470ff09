// The model names the departures an expectations entry can excuse (reference/observations.ts), and the
// inputs that could show them. Each class must be given to the observation it names and withheld from
// its near misses, or an entry would excuse a different bug; each input must be recorded only when sent.
import { describe, expect, it } from 'vitest';
import { judgePages } from '../../../reference/read-oracle.ts';
import { judgeTooLarge } from '../../../reference/error-rules.ts';
import { judgeDryRunWrite } from '../../../reference/dry-run.ts';
import { jsonPatch, judgeWrite, configMapSchema } from '../../../reference/apply/index.ts';
import { judgeRefusal } from '../../../reference/controller-daemon/judge.ts';
import { INPUT_CLASSES, OBSERVATION_CLASSES } from '../../../reference/observations.ts';
import type { Judgement } from '../../../reference/judgement.ts';
import { b11, ctx, observed, snapshotItems } from './model-fixtures.ts';

const failures = (js: readonly Judgement[]) => js.filter((j) => j.verdict === 'fail');
const page = (items: ReturnType<typeof observed>[], continueToken = '') => ({
  collectionRv: 'r',
  continueToken,
  remainingItemCount: undefined,
  items,
});

describe('observation classes', () => {
  it('each belongs to a known input class', () => {
    for (const c of Object.values(OBSERVATION_CLASSES)) expect(Object.keys(INPUT_CLASSES)).toContain(c.input);
  });

  it('limit-ignored: the whole list in one page over the limit; one item too many with a token after it is not that', () => {
    const items = snapshotItems[2]!;
    const whole = judgePages(ctx(), { semantic: 'Any', clause: 'rest:4.5/list/unset/limit/0' }, [page(items)], {
      limit: 1,
      selector: false,
      limitClause: 'rest:4.5/list/unset/limit/0',
    }).judgements;
    expect(failures(whole).map((j) => [j.clause, j.class, j.input])).toEqual([
      ['rest:4.5/list/unset/limit/0', 'limit-ignored', 'limit-below-count'],
    ]);
    const overflow = judgePages(ctx(), { semantic: 'Any', clause: 'rest:4.5/list/unset/limit/0' }, [page(items, 'tok'), page([])], {
      limit: 1,
      selector: false,
      limitClause: 'rest:4.5/list/unset/limit/0',
    }).judgements;
    expect(failures(overflow)[0]).toMatchObject({ clause: 'rest:4.5/list/unset/limit/0', input: 'limit-below-count' });
    expect(failures(overflow)[0]!.class).toBeUndefined();
    // Honoured: the input was sent and answered right (a pass carrying the input).
    const honoured = judgePages(
      ctx(),
      { semantic: 'Any', clause: 'rest:4.5/list/unset/limit/0' },
      [page([items[0]!], 'tok'), page([items[1]!])],
      {
        limit: 1,
        selector: false,
        limitClause: 'rest:4.5/list/unset/limit/0',
      },
    ).judgements;
    expect(failures(honoured)).toEqual([]);
    expect(honoured.some((j) => j.verdict === 'pass' && j.input === 'limit-below-count')).toBe(true);
    // Fewer items than the limit: nothing to show, so no input recorded.
    const small = judgePages(ctx(), { semantic: 'Any', clause: 'rest:4.5/list/unset/limit/0' }, [page(items)], {
      limit: 5,
      selector: false,
      limitClause: 'rest:4.5/list/unset/limit/0',
    }).judgements;
    expect(small.some((j) => j.input !== undefined)).toBe(false);
  });

  it('selector-page-lost-items: a selector list missing items and nothing else; an extra or changed item is not that', () => {
    const exp = { semantic: 'MostRecent' as const, clause: 'rest:4.5/list/unset/limit/unset' as const };
    const lost = judgePages(ctx(), exp, [page([])], { limit: 2, selector: true }).judgements;
    expect(failures(lost).map((j) => j.class)).toEqual(['selector-page-lost-items']);
    const tampered = judgePages(ctx(), exp, [page([observed(b11, { body: { k: 'x' } })])], { limit: 2, selector: true }).judgements;
    expect(failures(tampered).length).toBeGreaterThan(0);
    expect(failures(tampered).every((j) => j.class === undefined)).toBe(true);
    // Without a selector the same loss is some other bug: no class.
    expect(failures(judgePages(ctx(), exp, [page([])], { limit: 2, selector: false }).judgements).every((j) => j.class === undefined)).toBe(
      true,
    );
  });

  it('future-revision-500 on the Exact row only, with status and reason; a 504 passes with the input', () => {
    const body = '{"kind":"Status","status":"Failure","message":"etcdserver: mvcc: required revision is a future revision","code":500}';
    expect(judgeTooLarge({ status: 500, bodyText: body, retryAfter: undefined }, 'rest:7/504/exact')[0]).toMatchObject({
      verdict: 'fail',
      class: 'future-revision-500',
      input: 'exact-read-future-rv',
      observedStatus: 500,
    });
    expect(
      judgeTooLarge({ status: 503, bodyText: '{"reason":"ServiceUnavailable"}', retryAfter: undefined }, 'rest:7/504/exact')[0],
    ).toMatchObject({
      verdict: 'fail',
      observedStatus: 503,
      observedReason: 'ServiceUnavailable',
    });
    expect(judgeTooLarge({ status: 503, bodyText: '', retryAfter: undefined }, 'rest:7/504/exact')[0]!.class).toBeUndefined();
    expect(judgeTooLarge({ status: 500, bodyText: body, retryAfter: undefined }, 'rest:7/504')[0]!.class).toBeUndefined();
    expect(
      judgeTooLarge({ status: 504, bodyText: 'Too large resource version', retryAfter: undefined }, 'rest:7/504/exact')[0],
    ).toMatchObject({ verdict: 'pass', input: 'exact-read-future-rv' });
  });

  it('bare-dryrun-refused: the flag form refused where the write succeeds, under both clauses; dryRun=All is not that input', () => {
    const exp = { outcome: 'success' as const, verb: 'create' as const, wouldStore: undefined };
    const refused = failures(judgeDryRunWrite(exp, 'flag', 422, undefined, new Set(), 'create', false, 'Invalid'));
    expect(refused.map((j) => [j.clause, j.class, j.observedStatus, j.observedReason])).toEqual([
      ['rest:4.6.1', 'bare-dryrun-refused', 422, 'Invalid'],
      ['rest:4.3/dryRun', 'bare-dryrun-refused', 422, 'Invalid'],
    ]);
    const served = judgeDryRunWrite(exp, 'flag', 201, undefined, new Set(), 'create', false);
    expect(served.filter((j) => j.verdict === 'pass').every((j) => j.input === 'bare-dryrun')).toBe(true);
    expect(judgeDryRunWrite(exp, 'All', 201, undefined, new Set(), 'create', false).some((j) => j.input !== undefined)).toBe(false);
    // The real write refused too: a refused dry-run is right and not the departure's input.
    expect(
      judgeDryRunWrite({ outcome: 'refused', verb: 'create', why: 'exists' }, 'flag', 409, undefined, new Set(), 'create', false).some(
        (j) => j.input !== undefined,
      ),
    ).toBe(false);
  });

  it('json-patch-replace-missing-accepted: only a replace of a member its existing object lacks', () => {
    const doc = { data: { a: '1' }, list: ['x'] };
    expect(jsonPatch(doc, [{ op: 'replace', path: '/data/b', value: 'x' }])).toMatchObject({ ok: false, replaceOfMissingMember: true });
    expect(
      jsonPatch(doc, [
        { op: 'add', path: '/data/c', value: 'y' },
        { op: 'replace', path: '/data/b', value: 'x' },
      ]),
    ).toMatchObject({ ok: false, replaceOfMissingMember: true });
    for (const ops of [
      [{ op: 'replace', path: '/binaryData/b', value: 'x' }],
      [{ op: 'replace', path: '/list/3', value: 'x' }],
      [{ op: 'remove', path: '/data/b' }],
      [{ op: 'test', path: '/data/a', value: '2' }],
    ]) {
      const r = jsonPatch(doc, ops);
      expect(r.ok).toBe(false);
      expect((r as { replaceOfMissingMember?: true }).replaceOfMissingMember, JSON.stringify(ops)).toBeUndefined();
    }
    const tags = { input: 'json-patch-replace-missing-member', class: 'json-patch-replace-missing-accepted' } as const;
    const accepted = judgeWrite({ kind: 'refused', detail: 'replace of a missing member', tags }, 200, {}, configMapSchema, 'v1', [
      'rest:4.1/patch',
      'rest:4.1/patch-type/json',
    ]);
    expect(failures(accepted).map((j) => [j.clause, j.class, j.observedStatus])).toEqual([
      ['rest:4.1/patch', 'json-patch-replace-missing-accepted', 200],
      ['rest:4.1/patch-type/json', 'json-patch-replace-missing-accepted', 200],
    ]);
    const refused = judgeWrite({ kind: 'refused', detail: 'replace of a missing member', tags }, 422, {}, configMapSchema, 'v1', [
      'rest:4.1/patch',
    ]);
    expect(refused).toMatchObject([{ verdict: 'pass', input: 'json-patch-replace-missing-member' }]);
    // A 5xx is a failure of the same input, but not the departure upstream makes.
    expect(
      failures(judgeWrite({ kind: 'refused', detail: 'd', tags }, 500, {}, configMapSchema, 'v1', ['rest:4.1/patch']))[0]!.class,
    ).toBeUndefined();
  });

  it('invalid-accepted: a daemon serving with a command line the spec refuses', () => {
    const v = {
      clause: 'node:8/attach-detach-reconcile-sync-period' as const,
      rule: 'must exceed one second',
      flag: '--attach-detach-reconcile-sync-period',
      binding: 'refuse' as const,
    };
    expect(judgeRefusal(v, { kind: 'serving', healthz: 200 } as never)[0]).toMatchObject({
      verdict: 'fail',
      class: 'invalid-accepted',
      input: 'invalid-value',
    });
    expect(judgeRefusal(v, { kind: 'exited', code: 1, output: 'attach-detach-reconcile-sync-period' } as never)[0]).toMatchObject({
      verdict: 'pass',
      input: 'invalid-value',
    });
  });
});
