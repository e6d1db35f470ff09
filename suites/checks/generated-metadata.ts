/**
 * rest:2.3 and rest:2.8: what the server generates at persist time (uid, creationTimestamp,
 * resourceVersion, a name from generateName), judged once for the run by this check. Every other
 * check leaves an absent generated value to it (reference/envelope-rules.ts `AbsentGenerated`) and
 * goes on, so a server that generates none fails these clauses here and is judged on the rest.
 */
import {
  judgeCollectionEnvelope,
  judgeCreate,
  judgeGeneratedAtPersist,
  judgeNamespaceCreated,
  judgeObjectEnvelope,
} from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import { namespaceOf, resourceOf } from '../../harness/interpreters/index.ts';
import { collectionPath, resourceTypes } from '../../reference/resources.ts';
import { readObject } from '../../reference/objects.ts';

export const generatedMetadata: Check<{ prefix: string }> = {
  id: 'generated-metadata',
  suite: 'rest-crud',
  title: 'created objects carry the uid, creationTimestamp, resourceVersion and name the server generates',
  clauses: [
    'rest:2.8',
    'rest:2.3/metadata.uid',
    'rest:2.3/metadata.creationTimestamp',
    'rest:2.3/metadata.resourceVersion',
    'rest:2.3/metadata.name',
    'rest:2.3/metadata.namespace',
    'rest:2.3/kind',
    'rest:2.3/apiVersion',
    'rest:9.1.1',
    'rest:4.1/post',
  ],
  defaultRuns: 1,
  arbitrary: () => fc.record({ prefix: fc.constantFrom('gm-', 'meta.') }),
  describe: (i) => [
    'create configmaps ns0/generated-a',
    `create a configmap in ns0 with generateName ${JSON.stringify(i.prefix)}`,
    'list configmaps ns0',
    'create a namespace of its own (not with --namespace)',
  ],
  run: async (input, cx) => {
    const rt = resourceOf(cx, 'configmaps');
    const ns = await namespaceOf(cx, 0);
    const data = { apiVersion: 'v1', kind: 'ConfigMap', data: { k: 'v' } };
    const named = await cx.send({
      method: 'POST',
      path: collectionPath(rt, ns),
      body: { ...data, metadata: { name: 'generated-a', namespace: ns, labels: cx.ownLabels } },
    });
    cx.judge(judgeCreate({ key: `${ns}/generated-a`, reused: false, status: named.status, body: named.bodyText }));
    const a = readObject(rt, named.json);
    cx.judge([...judgeObjectEnvelope(rt, a, { name: 'generated-a', namespace: ns }), judgeGeneratedAtPersist(a)]);

    const gen = await cx.send({
      method: 'POST',
      path: collectionPath(rt, ns),
      body: { ...data, metadata: { generateName: input.prefix, namespace: ns, labels: cx.ownLabels } },
    });
    // A server that refuses generateName outright lacks the feature: the capability map names it once,
    // under rest:2.3/metadata.name, and the generated-names check judges it; here it would only fail
    // rest:4.1/post a second time and stop the uid and timestamp judgements below.
    if (gen.status < 400 || gen.status >= 500) {
      cx.judge(judgeCreate({ key: `${ns}/${input.prefix}* (generateName)`, reused: false, status: gen.status, body: gen.bodyText }));
      cx.judge([judgeGeneratedAtPersist(readObject(rt, gen.json), input.prefix)]);
    }

    const list = await cx.send({ method: 'GET', path: collectionPath(rt, ns) });
    if (list.status === 200) cx.judge(judgeCollectionEnvelope(rt, (list.json ?? {}) as Parameters<typeof judgeCollectionEnvelope>[1]));

    // A namespace is an object too (rest:2.2.5); with --namespace the run may not create one.
    if (cx.env.namespacePool?.given === true) return;
    const nsRt = resourceTypes(cx.env.profile).namespaces;
    const name = cx.env.nextNamespace();
    const made = await cx.send({
      method: 'POST',
      path: collectionPath(nsRt),
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: cx.ownLabels } },
    });
    if (made.status >= 200 && made.status < 300) cx.namespaces.push(name);
    cx.judge(judgeNamespaceCreated(made.status));
    const o = readObject(nsRt, made.json);
    cx.judge([...judgeObjectEnvelope(nsRt, o, { name, namespace: undefined }), judgeGeneratedAtPersist(o)]);
  },
};
