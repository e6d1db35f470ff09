// The scope rule: an item of another namespace, or one outside the selector, fails the scope
// clause; before this rule such an item was dropped as "foreign" and a key-prefix leak passed unseen.
import { describe, expect, it } from 'vitest';
import { judgeScope, scopedObjects } from '../../../reference/scope.ts';
import { judgeListSnapshot } from '../../../reference/read-oracle.ts';
import { judgeWatch } from '../../../reference/watch-oracle.ts';
import { b11, ctx, NS, observed } from './model-fixtures.ts';

const fails = (js: readonly { verdict: string; clause: string }[]) => js.filter((j) => j.verdict === 'fail').map((j) => j.clause);
const item = (ns: string, name: string, labels: Record<string, string> = {}) => ({ key: `${ns}/${name}`, namespace: ns, labels });

describe('judgeScope', () => {
  it('passes items of the requested namespace that match the selector', () => {
    const js = judgeScope({ namespace: 'ns-1', selector: 'app=web' }, [item('ns-1', 'a', { app: 'web' })], 'list');
    expect(js.map((j) => [j.clause, j.verdict])).toEqual([
      ['rest:4.1/get-namespaced-collection', 'pass'],
      ['rest:4.4/selector-scope', 'pass'],
    ]);
  });

  it('fails an item of a namespace the requested one is a prefix of (ns-1 reading ns-10)', () => {
    expect(fails(judgeScope({ namespace: 'ns-1' }, [item('ns-1', 'a'), item('ns-10', 'a')], 'list'))).toEqual([
      'rest:4.1/get-namespaced-collection',
    ]);
  });

  it('fails an item whose labels do not match the selector', () => {
    expect(fails(judgeScope({ selector: 'app in (web)' }, [item('ns-1', 'a', { app: 'db' })], 'watch'))).toEqual([
      'rest:4.4/selector-scope',
    ]);
  });

  it("leaves a watch's BOOKMARK and ERROR events out (no object of the collection)", () => {
    const o = (kind: string) => ({ ...item('', ''), kind });
    expect(
      scopedObjects([
        { type: 'BOOKMARK', object: o('ConfigMap') },
        { type: 'ERROR', object: o('Status') },
        { type: 'ADDED', object: o('ConfigMap') },
      ]),
    ).toHaveLength(1);
  });

  it('judges nothing for a cluster-wide read without a selector, or no items', () => {
    expect(judgeScope({}, [item('x', 'a')], 'list')).toEqual([]);
    expect(judgeScope({ namespace: 'ns-1' }, [], 'list')).toEqual([]);
  });
});

describe('the read and watch oracles apply it to every item, foreign ones too', () => {
  const leaked = { ...observed(b11), key: `${NS}0/other`, name: 'other', namespace: `${NS}0` };

  it('a list', () => {
    const withScope = { ...ctx(), scope: { namespace: NS } };
    expect(
      fails(
        judgeListSnapshot(
          withScope,
          { semantic: 'Any', clause: 'rest:4.5/list/unset/no-limit/0' },
          { collectionRv: 'x', items: [observed(b11), leaked] },
        ).judgements,
      ),
    ).toEqual(['rest:4.1/get-namespaced-collection']);
    // Without a scope (the old behaviour) the leaked item is foreign and ignored.
    expect(
      fails(
        judgeListSnapshot(
          ctx(),
          { semantic: 'Any', clause: 'rest:4.5/list/unset/no-limit/0' },
          { collectionRv: 'x', items: [observed(b11), leaked] },
        ).judgements,
      ),
    ).toEqual([]);
  });

  it('a watch', () => {
    const withScope = { ...ctx(), scope: { namespace: NS } };
    const exp = {
      semantic: 'GetStateAndStartAtAny' as const,
      clause: 'rest:4.5/watch/0' as const,
      requestIndex: 4,
      bookmarksRequested: false,
      kind: 'ConfigMap',
      apiVersion: 'v1',
    };
    const events = [
      { type: 'ADDED', object: observed(b11), raw: {} },
      { type: 'ADDED', object: leaked, raw: {} },
    ];
    expect(fails(judgeWatch(withScope, exp, events).judgements)).toEqual(['rest:4.1/get-namespaced-collection']);
  });
});
