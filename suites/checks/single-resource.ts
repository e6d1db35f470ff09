/**
 * rest:4: the single-resource verbs act on one resource only; there is no multi-resource request. A
 * POST of a list of ConfigMaps to the collection, or a PUT of one to an item's path, must not write
 * several objects (reference/single-resource.ts). Every variant on every run, in one case that shrinks
 * to the failing variant (no draw decides whether a verb is judged). The items carry the run's and the
 * case's labels, so whatever a target makes of them is the run's own and goes with the case.
 */
import { judgeMultiResourceWrite } from '../../harness/case/index.ts';
import type { Check } from '../../harness/case/index.ts';
import { CASE_LABEL, expectOk } from '../../harness/case/index.ts';
import { namespaceOf } from '../../harness/interpreters/index.ts';
import { collectionPath, objectPath, resourceTypes } from '../../reference/resources.ts';
import { SINGLE_RESOURCE_VERBS } from '../../reference/single-resource.ts';
import { EveryOneArbitrary } from '../../generators/every-one.ts';

interface MultiResourceWrite {
  readonly verb: 'create' | 'update';
  /** `List` (the generic list a command-line client shows) or the type's own `ConfigMapList`. */
  readonly listKind: 'List' | 'ConfigMapList';
}

const VARIANTS: readonly MultiResourceWrite[] = [
  { verb: 'create', listKind: 'List' },
  { verb: 'create', listKind: 'ConfigMapList' },
  { verb: 'update', listKind: 'List' },
  { verb: 'update', listKind: 'ConfigMapList' },
];

/** A label of the variant's own, so each variant's list shows only its items. */
const VARIANT_LABEL = 'svc-conformance/multi-resource';
const variantId = (v: MultiResourceWrite) => `${v.verb}-${v.listKind.toLowerCase()}`;
const namesOf = (v: MultiResourceWrite) => [0, 1].map((k) => `multi-${variantId(v)}-${k}`);

export const singleResourceWrites: Check<readonly MultiResourceWrite[]> = {
  id: 'single-resource-writes',
  suite: 'rest-crud',
  title: 'a create or update whose body lists several objects writes at most one of them (no multi-resource request)',
  clauses: [SINGLE_RESOURCE_VERBS],
  // One case holds every variant and draws nothing: a second would only repeat it.
  defaultRuns: 1,
  arbitrary: () => new EveryOneArbitrary(VARIANTS),
  describe: (vs) =>
    vs.flatMap((v) => {
      const [first, second] = namesOf(v);
      return [
        ...(v.verb === 'update' ? [`create configmap ${first}`] : []),
        `${v.verb === 'create' ? 'POST to the configmaps collection' : `PUT to configmaps/${first}`} a ${v.listKind} of ConfigMaps ${first} and ${second}`,
        `list the configmaps labelled ${VARIANT_LABEL}=${variantId(v)}`,
      ];
    }),
  run: async (vs, cx) => {
    const rt = resourceTypes(cx.env.profile).configmaps;
    const ns = await namespaceOf(cx, 0);
    for (const v of vs) {
      const names = namesOf(v);
      const labels = { ...cx.ownLabels, [VARIANT_LABEL]: variantId(v) };
      const item = (name: string) => ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: ns, labels },
        data: { item: name },
      });
      const body = { apiVersion: 'v1', kind: v.listKind, metadata: { labels }, items: names.map(item) };
      if (v.verb === 'update') {
        await expectOk(cx, { method: 'POST', path: collectionPath(rt, ns), body: item(names[0]!) }, `creating configmap ${names[0]}`);
      }
      const r =
        v.verb === 'create'
          ? await cx.send({ method: 'POST', path: collectionPath(rt, ns), body })
          : await cx.send({ method: 'PUT', path: objectPath(rt, names[0]!, ns), body });
      const writeSeq = cx.env.transcript.lastSeq();
      const after = await cx.send({
        method: 'GET',
        path: collectionPath(rt, ns),
        query: [['labelSelector', `${CASE_LABEL}=${cx.caseId},${VARIANT_LABEL}=${variantId(v)}`]],
      });
      const items = (after.json as { items?: { metadata?: { name?: unknown } }[] } | undefined)?.items;
      const present = Array.isArray(items) ? items.map((o) => String(o?.metadata?.name ?? '')) : [];
      // The write's answer is the need's `{ page: 0 }` (reference/single-resource.ts).
      cx.judge(judgeMultiResourceWrite({ verb: v.verb, items: names }, r.status, present), undefined, { pages: [writeSeq] });
    }
  },
};
