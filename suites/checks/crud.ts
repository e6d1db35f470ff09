/**
 * rest:2.2, 2.3, 2.4, 4.1: random create/update/delete/get/list sequences over a core and a named-group
 * resource in two namespaces, every answer judged by the model after every step.
 */

import {
  judgeAllNamespaces,
  judgeDeletedWithNamespace,
  judgeDuplicateNamespace,
  judgeGeneratedCreate,
  judgeGeneratedReadBack,
  judgeNameFreeElsewhere,
  judgeNamespaceDeleteAccepted,
  judgeNamespaceList,
  judgeNamespaceRead,
  judgeScope,
  judgeSurvivesOtherNamespace,
} from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import { stretched } from '../../harness/transport/index.ts';
import { opsWithLifecycleArb, showOp, namePool, contentArb, type Op } from '../../generators/ops.ts';
import { runOp, namespaceOf, resourceOf } from '../../harness/interpreters/index.ts';
import { collectionPath, objectPath, resourceTypes } from '../../reference/resources.ts';
import { readObject, keyOf } from '../../reference/objects.ts';

import { CASE_LABEL } from '../../harness/case/index.ts';

export const crudSequences: Check<Op[]> = {
  id: 'crud-sequences',
  suite: 'rest-crud',
  title: 'create/update/delete/get/list sequences agree with the model',
  clauses: [
    'rest:2.2.1',
    'rest:2.2.2',
    'rest:2.3/metadata.uid',
    'rest:2.3/metadata.resourceVersion',
    'rest:2.3/metadata.creationTimestamp',
    'rest:2.3/kind',
    'rest:2.3/apiVersion',
    'rest:9.1.1',
    'rest:2.4.1',
    'rest:2.4.2',
    'rest:2.4.3',
    'rest:4.1/post',
    'rest:4.1/put',
    'rest:4.1/delete',
  ],
  arbitrary: () => opsWithLifecycleArb({ resources: ['configmaps', 'leases'], namespaces: 2 }, { maxLength: 14 }),
  describe: (ops) => ops.map(showOp),
  run: async (ops, cx) => {
    await cx.stepByStep(ops, (op) => runOp(cx, op));
  },
};

interface ScopeInput {
  readonly name: (typeof namePool)[number];
  readonly content: import('../../generators/ops.ts').ContentSpec;
}

/**
 * rest:2.2.2-2.2.5 as one scenario: a name is unique per namespace, not across namespaces; namespaces
 * are cluster-scoped and unique cluster-wide; deleting a namespace deletes what is in it.
 */
export const namesAndScope: Check<ScopeInput> = {
  id: 'names-and-scope',
  suite: 'rest-crud',
  title: 'names are unique per namespace; namespaces are cluster-scoped; namespace deletion removes contents',
  clauses: [
    'rest:2.2.2',
    'rest:2.2.3',
    'rest:2.2.4',
    'rest:2.2.5',
    'rest:4.1/get-collection',
    'rest:4.1/get-namespace',
    'rest:4.1/get-namespaces',
  ],
  // Each case waits for a real namespace deletion (seconds on upstream, in its controller's time) and
  // the scenario's shape does not change with the input: two cases judge every clause twice, and the
  // wait no longer sets a real run's length.
  defaultRuns: 2,
  arbitrary: () => fc.record({ name: fc.constantFrom(...namePool), content: contentArb }),
  describe: (i) => [
    `create configmaps ns0/${i.name} and ns1/${i.name}`,
    `list /api/v1/configmaps narrowed to the case`,
    `create namespace ns0 again`,
    `delete namespace ns0, then read ns0/${i.name} until gone`,
  ],
  run: async (input, cx) => {
    const rt = resourceOf(cx, 'configmaps');
    const nsRt = resourceTypes(cx.env.profile).namespaces;
    // ns0 is deleted below: a namespace of the case's own, not one of the run's reused pool.
    const ns0 = await namespaceOf(cx, 0, { own: true });
    const ns1 = await namespaceOf(cx, 1);
    await runOp(cx, { op: 'create', res: 'configmaps', ns: 0, name: input.name, content: input.content });
    await runOp(cx, { op: 'create', res: 'configmaps', ns: 1, name: input.name, content: input.content });
    cx.judge(judgeNameFreeElsewhere(cx.history('configmaps').everKeys.has(keyOf(ns1, input.name))));

    const all = await cx.send({ method: 'GET', path: collectionPath(rt), query: [['labelSelector', `${CASE_LABEL}=${cx.caseId}`]] });
    const items = Array.isArray((all.json as { items?: unknown })?.items)
      ? (all.json as { items: unknown[] }).items.map((it) => readObject(rt, it))
      : [];
    const keys = new Set(items.map((o) => o.key));
    cx.judge(judgeScope({ selector: `${CASE_LABEL}=${cx.caseId}` }, items, 'list'));
    cx.judge(judgeAllNamespaces(all.status, keys, [keyOf(ns0, input.name), keyOf(ns1, input.name)]));

    const again = await cx.send({
      method: 'POST',
      path: collectionPath(nsRt),
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns0, labels: cx.ownLabels } },
    });
    cx.judge(judgeDuplicateNamespace(ns0, again.status));
    const nsGet = await cx.send({ method: 'GET', path: objectPath(nsRt, ns0) });
    const nsObj = readObject(nsRt, nsGet.json);
    cx.judge(judgeNamespaceRead(ns0, { status: nsGet.status, kind: nsObj.kind, name: nsObj.name, namespace: nsObj.namespace }));
    const nsList = await cx.send({ method: 'GET', path: collectionPath(nsRt), query: [['labelSelector', `${CASE_LABEL}=${cx.caseId}`]] });
    const nsItems = ((nsList.json as { items?: unknown[] } | undefined)?.items ?? []).map((it) => readObject(nsRt, it));
    cx.judge(judgeScope({ selector: `${CASE_LABEL}=${cx.caseId}` }, nsItems, 'list'));
    const nsNames = nsItems.map((o) => o.name);
    cx.judge(
      judgeNamespaceList({ status: nsList.status, kind: (nsList.json as { kind?: unknown } | undefined)?.kind, names: nsNames }, [
        ns0,
        ns1,
      ]),
    );

    const del = await cx.send({ method: 'DELETE', path: objectPath(nsRt, ns0) });
    cx.judge(judgeNamespaceDeleteAccepted(ns0, del.status));
    // Namespace deletion is asynchronous upstream and the spec bounds it in no time: watch for it
    // within the run's eventual window, and stop early once the namespace itself is gone.
    const windowMs = stretched(cx.env.pace, cx.env.settings.eventualWindowMs);
    const deadline = cx.env.now() + windowMs;
    const readObj = async () => (await cx.send({ method: 'GET', path: objectPath(rt, input.name, ns0) })).status;
    let status = 200;
    let nsStatus = 200;
    for (let wait = 25; ; wait = Math.min(wait * 2, 1000)) {
      status = await readObj();
      if (status >= 400 && status < 500) break;
      nsStatus = (await cx.send({ method: 'GET', path: objectPath(nsRt, ns0) })).status;
      // Read the object once more after the namespace was seen gone, so the two reads are ordered.
      if (nsStatus >= 400 && nsStatus < 500) {
        status = await readObj();
        break;
      }
      if (cx.env.now() > deadline) break;
      await cx.env.sleep(wait);
    }
    cx.judge(judgeDeletedWithNamespace(keyOf(ns0, input.name), { objectStatus: status, namespaceStatus: nsStatus }, windowMs));
    const other = await cx.send({ method: 'GET', path: objectPath(rt, input.name, ns1) });
    cx.judge(judgeSurvivesOtherNamespace(keyOf(ns1, input.name), other.status));
  },
};

/**
 * rest:2.3 metadata.name with generateName: the server makes a unique name from the prefix; every
 * generated name is distinct and reads back as that object.
 */
export const generatedNames: Check<{ prefix: string; count: number }> = {
  id: 'generated-names',
  suite: 'rest-crud',
  title: 'generateName yields distinct names with the prefix, each readable',
  clauses: ['rest:2.3/metadata.name'],
  defaultRuns: 5,
  arbitrary: () => fc.record({ prefix: fc.constantFrom('gen-', 'x', 'cm.'), count: fc.integer({ min: 2, max: 6 }) }),
  describe: (i) => [`create ${i.count} configmaps in ns0 with generateName ${JSON.stringify(i.prefix)}`, 'read each back by its name'],
  run: async (input, cx) => {
    const rt = resourceOf(cx, 'configmaps');
    const ns = await namespaceOf(cx, 0);
    const names: string[] = [];
    for (let n = 0; n < input.count; n++) {
      const r = await cx.send({
        method: 'POST',
        path: collectionPath(rt, ns),
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { generateName: input.prefix, namespace: ns, labels: cx.ownLabels },
          data: { n: String(n) },
        },
      });
      const o = readObject(rt, r.json);
      cx.judge(judgeGeneratedCreate(input.prefix, { status: r.status, name: o.name }, names));
      if (typeof o.name === 'string' && r.status < 300) names.push(o.name);
    }
    for (const name of names) {
      const g = await cx.send({ method: 'GET', path: objectPath(rt, name, ns) });
      cx.judge(judgeGeneratedReadBack(name, { status: g.status, name: readObject(rt, g.json).name }));
    }
  },
};
