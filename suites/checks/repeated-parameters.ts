/**
 * rest:4.3: a list whose `limit` is given twice, in both orders, against a namespace holding more
 * objects than either value. What the target makes of the repetition is recorded (unspecified: the
 * table gives each parameter once); a page larger than both values fails rest:4.3/limit
 * (reference/repeated-parameters.ts). Every order on every run, in one case: nothing is drawn.
 */
import { judgeRepeatedLimit } from '../../harness/case/index.ts';
import type { Check } from '../../harness/case/index.ts';
import { expectOk } from '../../harness/case/index.ts';
import { namespaceOf } from '../../harness/interpreters/index.ts';
import { collectionPath, resourceTypes } from '../../reference/resources.ts';
import { LIMIT_ROW, QUERY_TABLE } from '../../reference/repeated-parameters.ts';
import { EveryOneArbitrary } from '../../generators/every-one.ts';

/** The limits of one list, in the order they are sent. */
type Limits = readonly number[];

const ORDERS: readonly Limits[] = [
  [1, 2],
  [2, 1],
];
/** More objects than the largest limit, so a page that ignores both shows. */
const OBJECTS = 3;

export const repeatedLimit: Check<readonly Limits[]> = {
  id: 'query-repeated-limit',
  suite: 'rest-paging',
  title: 'a list with limit given twice: what the target does is recorded; its page holds at most the larger value',
  clauses: [QUERY_TABLE, LIMIT_ROW],
  defaultRuns: 1,
  arbitrary: () => new EveryOneArbitrary(ORDERS),
  describe: (orders) => [
    `create ${OBJECTS} configmaps`,
    ...orders.map((ls) => `list the configmaps with ${ls.map((l) => `limit=${l}`).join('&')}`),
  ],
  run: async (orders, cx) => {
    const rt = resourceTypes(cx.env.profile).configmaps;
    const ns = await namespaceOf(cx, 0);
    for (let k = 0; k < OBJECTS; k++) {
      const name = `repeated-limit-${k}`;
      await expectOk(
        cx,
        {
          method: 'POST',
          path: collectionPath(rt, ns),
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels: cx.ownLabels } },
        },
        `creating configmap ${name}`,
      );
    }
    for (const limits of orders) {
      const r = await cx.send({ method: 'GET', path: collectionPath(rt, ns), query: limits.map((l) => ['limit', String(l)] as const) });
      const items = (r.json as { items?: unknown } | undefined)?.items;
      cx.judge(judgeRepeatedLimit(limits, r.status, Array.isArray(items) ? items.length : undefined));
    }
  },
};
