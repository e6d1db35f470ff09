/**
 * rest:4.7.8 on a built-in type: the target's OpenAPI marks ConfigMap's metadata.ownerReferences with
 * patchStrategy=merge and a patchMergeKey and no list type; two managers each apply an owner
 * reference of their own to one ConfigMap, and the second apply must not conflict with the first.
 */
import { judgeMergeKeyApply, judgeMergeKeySetup } from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import type { CaseContext } from '../../harness/case/index.ts';
import { namespaceOf, NO_UID } from '../../harness/interpreters/index.ts';
import { CheckNotApplicable } from '../../harness/case/index.ts';
import { APPLY_TYPE } from '../../harness/interpreters/index.ts';
import { ACCEPT_GZIP } from '../../harness/transport/index.ts';
import { markedOwnerReferences } from '../../reference/apply/merge-key-judge.ts';

interface MergeKeyCase {
  readonly suffix: string;
  /** The second manager also states the first owner reference (shared, same value). */
  readonly secondNamesFirst: boolean;
}

const parseOrUndefined = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * The markers, read once per run of the check: /openapi/v2 is megabytes on a real server and the same
 * for every case, so only the first case pays for it (a failed read is asked again by the next case).
 */
const markersRead = new WeakMap<object, Promise<{ status: number; marked: ReturnType<typeof markedOwnerReferences> }>>();

async function readMarkers(cx: CaseContext) {
  const cached = markersRead.get(cx.env);
  if (cached) return cached;
  const reading = (async () => {
    const doc = await cx.send({ method: 'GET', path: '/openapi/v2', headers: { accept: 'application/json', ...ACCEPT_GZIP } });
    // Upstream 1.24 labels this JSON document text/plain, so the client leaves it unparsed.
    return {
      status: doc.status,
      marked: doc.status === 200 ? markedOwnerReferences(doc.json ?? parseOrUndefined(doc.bodyText), cx.env.profile) : undefined,
    };
  })();
  markersRead.set(cx.env, reading);
  const read = await reading;
  if (read.status !== 200) markersRead.delete(cx.env);
  return read;
}

const FIRST = 'merge-key-first';
const SECOND = 'merge-key-second';

export const applyPatchMergeKey: Check<MergeKeyCase> = {
  id: 'apply-patch-merge-key',
  suite: 'rest-apply',
  title: 'a list with patchStrategy=merge and no list type (ConfigMap ownerReferences) is owned entry by entry',
  clauses: ['rest:4.7.8'],
  defaultRuns: 4,
  arbitrary: () => fc.record({ suffix: fc.stringMatching(/^[a-z0-9]{5}$/), secondNamesFirst: fc.boolean() }),
  describe: (c) => [
    'GET /openapi/v2 (once per run of the check): the markers of ConfigMap metadata.ownerReferences',
    'POST ConfigMaps o1 and o2 (the owners)',
    `apply ConfigMap mk-${c.suffix} as ${FIRST} with ownerReferences [o1]`,
    `apply it as ${SECOND} with ownerReferences ${c.secondNamesFirst ? '[o1, o2]' : '[o2]'}`,
  ],
  run: async (c, cx) => {
    const clauses = applyPatchMergeKey.clauses;
    const { status, marked } = await readMarkers(cx);
    if (!marked)
      throw new CheckNotApplicable(
        clauses,
        `the target's /openapi/v2 (status ${status}) shows no patchStrategy=merge marker without list type on ConfigMap metadata.ownerReferences`,
        'skipped',
      );
    const ns = await namespaceOf(cx, 0);
    const base = `/api/v1/namespaces/${encodeURIComponent(ns)}/configmaps`;
    const owners: { name: string; uid: string }[] = [];
    for (const n of ['o1', 'o2']) {
      const r = await cx.send({
        method: 'POST',
        path: base,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: `mk-${n}-`, labels: cx.ownLabels } },
      });
      const md = (r.json as { metadata?: { name?: unknown; uid?: unknown } } | undefined)?.metadata;
      // Owner references name their owner by uid: a target that generates none blocks the check, it does not fail rest:4.7.8.
      if (r.status >= 200 && r.status < 300 && (typeof md?.uid !== 'string' || md.uid === '')) throw new CheckNotApplicable([], NO_UID);
      cx.judge([judgeMergeKeySetup('owner', r.status, md?.uid, r.bodyText)]);
      owners.push({ name: String(md!.name), uid: String(md!.uid) });
    }
    const ref = (o: { name: string; uid: string }) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: o.name, uid: o.uid });
    const name = `mk-${c.suffix}`;
    const applyAs = (manager: string, refs: object[], labels?: Record<string, string>) =>
      cx.send({
        method: 'PATCH',
        path: `${base}/${name}`,
        query: [['fieldManager', manager]],
        headers: { 'content-type': APPLY_TYPE },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels, ownerReferences: refs } }),
      });
    const first = await applyAs(FIRST, [ref(owners[0]!)], cx.ownLabels);
    cx.judge([judgeMergeKeySetup('first apply', first.status, undefined, first.bodyText)]);
    const second = await applyAs(SECOND, c.secondNamesFirst ? [ref(owners[0]!), ref(owners[1]!)] : [ref(owners[1]!)]);
    cx.judge(
      judgeMergeKeyApply({
        status: second.status,
        json: second.json,
        bodyText: second.bodyText,
        firstUid: owners[0]!.uid,
        secondUid: owners[1]!.uid,
        secondManager: SECOND,
        key: marked.key,
      }),
    );
  },
};
