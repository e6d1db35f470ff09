import { judgeEviction } from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import { eventualWindowOf } from '../../harness/case/index.ts';
import type { TargetResponse } from '../../harness/transport/index.ts';
import { CheckNotApplicable } from '../../harness/case/index.ts';
import { namespaceOf } from '../../harness/interpreters/index.ts';
import { notSeenWithin } from '../../harness/case/index.ts';
import { collectionPath, objectPath, type ResourceType } from '../../reference/resources.ts';

const ok = (r: TargetResponse) => r.status >= 200 && r.status < 300;

/**
 * rest:4.1 eviction row (a virtual resource): a pod of the run's is evicted through its subresource
 * and goes. A pod the target will not create (no pods served, or no default service account yet in a
 * fresh namespace: upstream's admission needs one) is waited for within the eventual window.
 */
export const podEviction: Check<null> = {
  id: 'pod-eviction',
  suite: 'rest-authz',
  title: "POST of an Eviction to a pod's eviction subresource evicts it",
  clauses: ['rest:4.1/eviction'],
  defaultRuns: 2,
  arbitrary: () => fc.constant(null),
  describe: () => [
    'create pod p (never scheduled) in a namespace of the run',
    'POST an Eviction to its eviction subresource',
    'read the pod',
  ],
  run: async (_c, cx) => {
    const pods: ResourceType = { plural: 'pods', kind: 'Pod', group: '', version: 'v1', namespaced: true };
    const ns = await namespaceOf(cx, 0);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: ns, labels: cx.ownLabels },
      spec: { automountServiceAccountToken: false, containers: [{ name: 'c', image: 'registry.invalid/none:1' }] },
    };
    const windowMs = eventualWindowOf(cx.env);
    const deadline = cx.env.now() + windowMs;
    let created = await cx.send({ method: 'POST', path: collectionPath(pods, ns), body: pod });
    if (created.status === 404 || created.status === 405)
      throw new CheckNotApplicable(podEviction.clauses, `the target serves no pods (POST answered ${created.status})`, 'skipped');
    for (let wait = 100; !ok(created) && cx.env.now() < deadline; wait = Math.min(wait * 2, 1000)) {
      await cx.env.sleep(wait);
      created = await cx.send({ method: 'POST', path: collectionPath(pods, ns), body: pod });
    }
    if (!ok(created)) {
      cx.judge(
        notSeenWithin(
          ['rest:4.1/eviction'],
          'a pod to evict created in a namespace of the run',
          windowMs,
          `creating it answered ${created.status}`,
        ),
      );
      return;
    }
    // `policy` has no product suffix in either profile (reference/versioning/removals.ts).
    const policy = 'policy';
    const evicted = await cx.send({
      method: 'POST',
      path: `${objectPath(pods, 'p', ns)}/eviction`,
      body: { apiVersion: `${policy}/v1`, kind: 'Eviction', metadata: { name: 'p', namespace: ns, labels: cx.ownLabels } },
    });
    const after = await cx.send({ method: 'GET', path: objectPath(pods, 'p', ns) });
    const terminating =
      (after.json as { metadata?: { deletionTimestamp?: unknown } } | undefined)?.metadata?.deletionTimestamp !== undefined;
    cx.judge([judgeEviction(evicted.status, { status: after.status, terminating })]);
  },
};
