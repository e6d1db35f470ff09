/**
 * The numbered points of rest:4.7 that are about one request each, on ConfigMaps: fieldManager is
 * required for apply (4.7.1), an apply body must not carry managedFields (4.7.2), `[{}]` resets
 * ownership and `[]` does not (4.7.5), the default manager of a non-apply write comes from the
 * user agent (rest:4.3 fieldManager), and a managedFields record read from the target and written
 * back is understood (rest:2.6 round trip).
 */
import { judgeDefaultManager, judgeManagedFieldsInBodyOf, judgeState, judgeWrite } from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import { configMapSchema, expectedOf, managedFieldsWriteTags, trackedPart, update, withTrackedPart } from '../../reference/apply/index.ts';
import { apiVersionOf, objectPath } from '../../reference/resources.ts';
import { resourceOf } from '../../harness/interpreters/index.ts';
import type { CaseContext } from '../../harness/case/index.ts';
import { APPLY_TYPE, applyBody, decodeForModel, planStep, runStep, startObject, type SeqState } from '../../harness/interpreters/index.ts';
import { startingManagedFields } from '../../reference/apply/index.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

// The two points where upstream departs from rest:4.7.5 go last (`[]` resets there too, and a reset
// with other changes leaves no record at all): a failure ends the case, so every other point is still
// reached before them.
const POINTS = [
  'field-manager-required',
  'no-managed-fields-in-body',
  'reset-alone',
  'default-manager',
  'managed-fields-round-trip',
  'empty-list-keeps',
  'reset-with-changes',
] as const;
type Point = (typeof POINTS)[number];

interface PointsInput {
  readonly points: readonly Point[];
  readonly key: string;
  readonly other: string;
  readonly value: string;
}

const USER_AGENT = 'apply-points/1.0 (conformance)';
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

async function unchanged(cx: CaseContext, st: SeqState, clauses: readonly ClauseId[]): Promise<void> {
  const g = await cx.send({ method: 'GET', path: objectPath(st.rt, st.name, st.ns) });
  cx.judge(judgeState({ object: st.live, managed: st.managed }, g.json, st.schema, apiVersionOf(st.rt), clauses));
}

/**
 * rest:4.7.5: a PUT whose managedFields is `[{}]` (resets) or `[]` (does not). Who owns what afterwards
 * is rest:4.7.5's promise alone; the stored object is also rest:4.1/put's.
 */
async function resetStep(
  cx: CaseContext,
  st: SeqState,
  content: Record<string, unknown>,
  managedFields: 'reset' | 'empty' = 'reset',
): Promise<void> {
  const { req, outcome } = planStep(st, { op: 'update', manager: 'mgr-b', content, managedFields }, iso(cx.env.now()));
  if (outcome.kind !== 'written') throw new Error(`a non-apply write is always written by the model, not ${outcome.kind}`);
  const r = await cx.send(req);
  const sorted = (d: unknown) =>
    JSON.stringify(Object.entries((d ?? {}) as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)));
  const changesOther = sorted(trackedPart(st.live)['data']) !== sorted(content['data']);
  cx.judge(
    judgeWrite(
      expectedOf(outcome, managedFieldsWriteTags(managedFields, changesOther)),
      r.status,
      r.json,
      st.schema,
      apiVersionOf(st.rt),
      ['rest:4.1/put', 'rest:4.7.5'],
      ['rest:4.7.5'],
    ),
  );
}

/** rest:4.7.1: an apply without fieldManager is refused, and changes nothing. */
async function fieldManagerRequired(cx: CaseContext, st: SeqState, second: Record<string, string>): Promise<void> {
  const { req } = planStep(st, { op: 'apply', manager: 'mgr-b', force: false, content: { data: second } }, iso(cx.env.now()));
  const r = await cx.send({ ...req, query: [] });
  cx.judge(
    judgeWrite({ kind: 'refused', detail: 'apply without fieldManager' }, r.status, r.json, st.schema, apiVersionOf(st.rt), [
      'rest:4.7.1',
      'rest:4.1/patch-type/apply',
    ]),
  );
  return unchanged(cx, st, ['rest:4.7.1']);
}

/** rest:4.7.2: an apply body carrying managedFields is refused, or accepted without adopting them. */
async function noManagedFieldsInBody(cx: CaseContext, st: SeqState, second: Record<string, string>): Promise<void> {
  const rt = st.rt;
  const intent = {
    apiVersion: apiVersionOf(rt),
    kind: rt.kind,
    metadata: {
      name: st.name,
      namespace: st.ns,
      managedFields: [{ manager: 'mgr-z', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }],
    },
    data: second,
  };
  const r = await cx.send({
    method: 'PATCH',
    path: objectPath(rt, st.name, st.ns),
    query: [['fieldManager', 'mgr-b']],
    headers: { 'content-type': APPLY_TYPE },
    body: applyBody(intent),
  });
  // Refusing the body is right; a server that accepts it must not adopt the body's managedFields.
  const sent = {
    live: st.live,
    managed: st.managed,
    intent,
    manager: 'mgr-b',
    force: false,
    schema: st.schema,
    apiVersion: apiVersionOf(rt),
    now: iso(cx.env.now()),
  };
  cx.judge(judgeManagedFieldsInBodyOf(r.status, r.json, sent));
  // A refused body: what is stored must not have changed either.
  if (r.status >= 400 && r.status < 500) return unchanged(cx, st, ['rest:4.7.2']);
}

/** rest:4.3 fieldManager: an update without one is recorded under a manager named from the user agent. */
async function defaultManager(cx: CaseContext, st: SeqState, second: Record<string, string>): Promise<void> {
  const rt = st.rt;
  const { req } = planStep(st, { op: 'update', manager: 'mgr-b', content: { data: second }, managedFields: 'keep' }, iso(cx.env.now()));
  const r = await cx.send({ ...req, query: [], headers: { 'user-agent': USER_AGENT } });
  const learned = judgeDefaultManager(USER_AGENT, r.status, r.json);
  cx.judge(learned.judgements);
  const body = req.body as Record<string, unknown>;
  const model = update({
    live: st.live,
    managed: startingManagedFields((body['metadata'] as Record<string, unknown>)['managedFields'], st.managed, decodeForModel),
    object: body,
    manager: learned.manager!,
    schema: st.schema,
    apiVersion: apiVersionOf(rt),
    now: iso(cx.env.now()),
  });
  cx.judge(
    judgeState({ object: withTrackedPart(body, trackedPart(model.object)), managed: model.managed }, r.json, st.schema, apiVersionOf(rt), [
      'rest:4.3/fieldManager',
      'rest:3.2/non-apply-write',
    ]),
  );
}

async function runPoint(cx: CaseContext, point: Point, i: number, input: PointsInput): Promise<void> {
  const rt = resourceOf(cx, 'configmaps');
  let st = await startObject(cx, rt, configMapSchema, `point-${i}`, applyPoints.clauses);
  st = await runStep(cx, st, { op: 'apply', manager: 'mgr-a', force: false, content: { data: { [input.key]: input.value } } });
  const second = { [input.key]: input.value, [input.other]: input.value };
  switch (point) {
    case 'field-manager-required':
      return fieldManagerRequired(cx, st, second);
    case 'no-managed-fields-in-body':
      return noManagedFieldsInBody(cx, st, second);
    case 'reset-alone':
      return resetStep(cx, st, { data: { [input.key]: input.value } });
    case 'reset-with-changes':
      return resetStep(cx, st, { data: second });
    case 'managed-fields-round-trip':
      // The record as the target wrote it, sent back with a change: the target reads its own encoding.
      await runStep(cx, st, { op: 'update', manager: 'mgr-b', content: { data: second }, managedFields: 'keep' }, () => [], [
        'rest:2.6/fieldsV1',
        'rest:2.3/metadata.managedFields',
      ]);
      return;
    case 'empty-list-keeps':
      return resetStep(cx, st, { data: second }, 'empty');
    case 'default-manager':
      return defaultManager(cx, st, second);
  }
}

export const applyPoints: Check<PointsInput> = {
  id: 'apply-points',
  suite: 'rest-apply',
  title:
    'apply needs fieldManager, refuses managedFields in its body; [{}] resets ownership, [] does not; default manager from the user agent',
  clauses: ['rest:4.7.1', 'rest:4.7.2', 'rest:4.7.5', 'rest:4.3/fieldManager', 'rest:2.6/fieldsV1'],
  defaultRuns: 4,
  arbitrary: () =>
    fc.record({
      // Every point in every case: a few runs cover all of them.
      points: fc.constant(POINTS),
      key: fc.constantFrom('k1', 'k2'),
      other: fc.constantFrom('o1', 'o2'),
      value: fc.constantFrom('v1', 'v2', 'x y'),
    }),
  describe: (i) =>
    i.points.map((p, n) => `point ${p} on configmap point-${n} (data key ${i.key}, then ${i.other}, value ${JSON.stringify(i.value)})`),
  run: async (input, cx) => {
    for (const [i, p] of input.points.entries()) await runPoint(cx, p, i, input);
  },
};
