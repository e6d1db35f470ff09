/**
 * `authz-anonymous` (rest:5.1, rest:5.6 where it applies): requests without credentials and with a
 * token nobody issued, on the run's own objects and on the health endpoints, are refused.
 */
import { judgeHealthAccess, judgeStranger } from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import { expectOk } from '../../harness/case/index.ts';
import { namespaceOf } from '../../harness/interpreters/index.ts';
import { isLoopbackHost, type Stranger } from '../../reference/authz.ts';
import { collectionPath, objectPath, resourceTypes } from '../../reference/resources.ts';
import { objectBody } from './authz-step.ts';

interface StrangerCase {
  readonly who: Stranger;
  readonly op: 'list' | 'get' | 'create' | 'delete';
  readonly health: 'livez' | 'readyz' | 'healthz';
}

export const authzStrangers: Check<StrangerCase> = {
  id: 'authz-anonymous',
  suite: 'rest-authz',
  title: 'requests without credentials, or with a token nobody issued, are refused; health endpoints per rest:5.6',
  // rest:5.6 and rest:5.1/client-auth-not-shown (how a refusal is answered) are recorded too, as unspecified where the spec is silent (reference/authz.ts).
  clauses: ['rest:5.1'],
  defaultRuns: 8,
  arbitrary: () =>
    fc.record({
      who: fc.constantFrom<Stranger>('anonymous', 'unknown'),
      op: fc.constantFrom('list' as const, 'get' as const, 'create' as const, 'delete' as const),
      health: fc.constantFrom('livez' as const, 'readyz' as const, 'healthz' as const),
    }),
  describe: (c) => [
    'create configmap x in a namespace of the run (as the run)',
    `${c.op} a configmap there as ${c.who === 'anonymous' ? 'nobody (no credentials)' : 'the holder of a token nobody issued'}`,
    ...(c.op === 'create' || c.op === 'delete' ? ['read it back as the run'] : []),
    `GET /${c.health} as the same`,
  ],
  run: async (c, cx) => {
    const rt = resourceTypes(cx.env.profile).configmaps;
    const ns = await namespaceOf(cx, 0);
    await expectOk(cx, { method: 'POST', path: collectionPath(rt, ns), body: objectBody(cx, rt, 'x', ns) }, 'creating configmap x');
    const as = { identity: c.who } as const;
    const what = `${c.op} configmaps in a namespace of the run`;
    switch (c.op) {
      case 'list': {
        const r = await cx.send({ method: 'GET', path: collectionPath(rt, ns), ...as });
        cx.judge(judgeStranger(c.who, what, r.status));
        break;
      }
      case 'get': {
        const r = await cx.send({ method: 'GET', path: objectPath(rt, 'x', ns), ...as });
        cx.judge(judgeStranger(c.who, what, r.status));
        break;
      }
      case 'create': {
        const r = await cx.send({ method: 'POST', path: collectionPath(rt, ns), body: objectBody(cx, rt, 'y', ns), ...as });
        const back = await cx.send({ method: 'GET', path: objectPath(rt, 'y', ns) });
        cx.judge(judgeStranger(c.who, what, r.status, back.status === 200));
        break;
      }
      case 'delete': {
        const r = await cx.send({ method: 'DELETE', path: objectPath(rt, 'x', ns), ...as });
        const back = await cx.send({ method: 'GET', path: objectPath(rt, 'x', ns) });
        cx.judge(judgeStranger(c.who, what, r.status, back.status === 404));
        break;
      }
    }
    const h = await cx.send({ method: 'GET', path: `/${c.health}`, ...as });
    cx.judge([judgeHealthAccess(c.who, `/${c.health}`, h.status, !isLoopbackHost(new URL(cx.env.target.server).hostname))]);
  },
};
