/**
 * rest:2.2, 2.3, 2.4, 4.1: random create/update/delete/get/list sequences over a core and a named-group
 * resource in two namespaces, every answer judged by the model after every step.
 */
import fc from 'fast-check';
import type { Check } from '../../harness/check.ts';
import { opsArb, showOp, namePool, contentArb, type Op } from '../../generators/ops.ts';
import { runOp, namespaceOf, resourceOf } from '../../harness/rest-interpreter.ts';
import { collectionPath, objectPath, resourceTypes } from '../../reference/resources.ts';
import { readObject, keyOf } from '../../reference/objects.ts';
import { fail, inconclusive, pass, rule } from '../../reference/judgement.ts';
import { CASE_LABEL } from '../../harness/case-context.ts';

export const crudSequences: Check<Op[]> = {
  id: 'crud-sequences',
  suite: 'rest-crud',
  title: 'create/update/delete/get/list sequences agree with the model',
  clauses: ['rest:2.2.1', 'rest:2.2.2', 'rest:2.3/metadata.uid', 'rest:2.3/metadata.resourceVersion', 'rest:2.3/metadata.creationTimestamp', 'rest:2.3/kind', 'rest:2.3/apiVersion', 'rest:9.1.1', 'rest:2.4.1', 'rest:2.4.2', 'rest:4.1/post', 'rest:4.1/put', 'rest:4.1/delete'],
  arbitrary: () => opsArb({ resources: ['configmaps', 'leases'], namespaces: 2 }, { maxLength: 14 }),
  describe: (ops) => ops.map(showOp),
  run: async (ops, cx) => {
    for (const op of ops) await runOp(cx, op);
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
  clauses: ['rest:2.2.2', 'rest:2.2.3', 'rest:2.2.4', 'rest:2.2.5', 'rest:4.1/get-collection', 'rest:4.1/get-namespace', 'rest:4.1/get-namespaces'],
  defaultRuns: 5,
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
    cx.judge([rule('rest:2.2.2', cx.history('configmaps').everKeys.has(keyOf(ns1, input.name)), 'the same name is free in another namespace', 'refused')]);

    const all = await cx.send({ method: 'GET', path: collectionPath(rt), query: [['labelSelector', `${CASE_LABEL}=${cx.caseId}`]] });
    const items = Array.isArray((all.json as { items?: unknown })?.items) ? ((all.json as { items: unknown[] }).items.map((it) => readObject(rt, it))) : [];
    const keys = new Set(items.map((o) => o.key));
    cx.judge([rule('rest:4.1/get-collection', all.status === 200 && keys.has(keyOf(ns0, input.name)) && keys.has(keyOf(ns1, input.name)), `the all-namespaces collection holds ${ns0}/${input.name} and ${ns1}/${input.name}`, `status ${all.status}, items ${[...keys].join(', ')}`)]);

    const again = await cx.send({ method: 'POST', path: collectionPath(nsRt), body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns0, labels: cx.ownLabels } } });
    cx.judge([rule('rest:2.2.3', again.status >= 400 && again.status < 500, `a second namespace named ${ns0} is refused (4xx)`, `status ${again.status}`)]);
    const nsGet = await cx.send({ method: 'GET', path: objectPath(nsRt, ns0) });
    const nsObj = readObject(nsRt, nsGet.json);
    cx.judge([
      rule('rest:2.2.5', nsGet.status === 200 && nsObj.namespace === undefined, 'a namespace is read at a cluster-scoped path and has no namespace', `status ${nsGet.status}, metadata.namespace ${JSON.stringify(nsObj.namespace)}`),
      rule('rest:4.1/get-namespace', nsGet.status === 200 && nsObj.kind === 'Namespace' && nsObj.name === ns0, `GET /api/v1/namespaces/${ns0} returns that Namespace`, `status ${nsGet.status}, kind ${JSON.stringify(nsObj.kind)}, name ${JSON.stringify(nsObj.name)}`),
    ]);
    const nsList = await cx.send({ method: 'GET', path: collectionPath(nsRt), query: [['labelSelector', `${CASE_LABEL}=${cx.caseId}`]] });
    const nsNames = ((nsList.json as { items?: unknown[] } | undefined)?.items ?? []).map((it) => readObject(nsRt, it).name);
    cx.judge([rule('rest:4.1/get-namespaces', nsList.status === 200 && (nsList.json as { kind?: unknown })?.kind === 'NamespaceList' && nsNames.includes(ns0) && nsNames.includes(ns1), `GET /api/v1/namespaces is a NamespaceList holding ${ns0} and ${ns1}`, `status ${nsList.status}, kind ${JSON.stringify((nsList.json as { kind?: unknown })?.kind)}, names ${nsNames.join(', ')}`)]);

    const del = await cx.send({ method: 'DELETE', path: objectPath(nsRt, ns0) });
    cx.judge([rule('rest:4.1/delete', del.status >= 200 && del.status < 300, `delete of namespace ${ns0} accepted`, `status ${del.status}`)]);
    // Namespace deletion is asynchronous upstream: poll within a bound instead of expecting it at once.
    const deadline = cx.env.now() + cx.env.settings.namespaceDeletionTimeoutMs;
    let status = 200;
    for (let wait = 25; ; wait = Math.min(wait * 2, 1000)) {
      status = (await cx.send({ method: 'GET', path: objectPath(rt, input.name, ns0) })).status;
      if (status >= 400 && status < 500) break;
      if (cx.env.now() > deadline) break;
      await cx.env.sleep(wait);
    }
    // The spec bounds namespace deletion in no time: not seen within the run's window proves nothing,
    // unless the namespace itself is gone already and its object still readable (rest:2.2.4 point 4).
    const gone = status >= 400 && status < 500;
    const nsGone = gone ? false : (await cx.send({ method: 'GET', path: objectPath(nsRt, ns0) })).status === 404;
    if (nsGone) cx.judge([fail('rest:2.2.4', `${ns0}/${input.name} is deleted when its namespace is`, `namespace ${ns0} is gone, its object still readable (status ${status})`)]);
    cx.judge([gone ? pass('rest:2.2.4', `${ns0}/${input.name} is deleted with its namespace`, `gone (status ${status})`) : inconclusive('rest:2.2.4', `${ns0}/${input.name} is deleted with its namespace (watched for ${cx.env.settings.namespaceDeletionTimeoutMs} ms, --namespace-deletion-window)`, `still readable (status ${status})`)]);
    const other = await cx.send({ method: 'GET', path: objectPath(rt, input.name, ns1) });
    cx.judge([rule('rest:2.2.4', other.status === 200, `${ns1}/${input.name} in another namespace survives`, `status ${other.status}`)]);
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
      const r = await cx.send({ method: 'POST', path: collectionPath(rt, ns), body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: input.prefix, namespace: ns, labels: cx.ownLabels }, data: { n: String(n) } } });
      const o = readObject(rt, r.json);
      cx.judge([rule('rest:2.3/metadata.name', r.status >= 200 && r.status < 300 && typeof o.name === 'string' && o.name.startsWith(input.prefix) && o.name.length > input.prefix.length, `a created object whose name extends ${JSON.stringify(input.prefix)}`, `status ${r.status}, name ${JSON.stringify(o.name)}`)]);
      cx.judge([rule('rest:2.3/metadata.name', !names.includes(o.name!), 'a generated name not given before', `${o.name} generated twice`)]);
      names.push(o.name!);
    }
    for (const name of names) {
      const g = await cx.send({ method: 'GET', path: objectPath(rt, name, ns) });
      cx.judge([rule('rest:2.3/metadata.name', g.status === 200 && readObject(rt, g.json).name === name, `${name} reads back`, `status ${g.status}`)]);
    }
  },
};
