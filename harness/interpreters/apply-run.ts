/**
 * Runs apply sequences against the target (rest:3.2, rest:4.7): sends each step, asks the apply
 * model what is acceptable, judges the answer, and carries the model's state forward. No expected
 * value is computed here: reference/apply computes it; this file sends, reads and routes clauses.
 */
import { judgeState, judgeWrite } from '../case/index.ts';
import { stringify as toYaml } from 'yaml';
import {
  InvalidObject,
  alignedExpectation,
  hollowForNull,
  apply,
  emptiedListTags,
  decodeManagedFields,
  expectedOf,
  isManagedFieldsError,
  jsonPatch,
  mergePatch,
  startingManagedFields,
  trackedPart,
  update,
  withTrackedPart,
  type ConflictOutcome,
  type Expected,
  type WriteTags,
  type ManagedEntry,
  type Schema,
  type WriteOutcome,
  showConflict,
} from '../../reference/apply/index.ts';
import { isRecord } from '../../reference/objects.ts';
import { apiVersionOf, collectionPath, objectPath, type ResourceType } from '../../reference/resources.ts';
import type { ApplyStep, Content } from '../../generators/apply.ts';
import type { CaseContext } from '../case/index.ts';
import { CheckNotApplicable } from '../case/index.ts';
import { namespaceOf } from './rest-interpreter.ts';
import type { QueryPair, TargetRequest } from '../transport/index.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

export const APPLY_TYPE = 'application/apply-patch+yaml';

/**
 * An apply body as YAML that reads the same under YAML 1.1 (Go's reader) and 1.2: keys and strings
 * double-quoted, since a plain `y`, `on` or `1` is a boolean or a number to a YAML 1.1 reader (a map
 * key `y` arrives as "true").
 */
export const applyBody = (intent: unknown): string => toYaml(intent, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'QUOTE_DOUBLE' });

export interface SeqState {
  readonly rt: ResourceType;
  readonly schema: Schema;
  readonly ns: string;
  readonly name: string;
  /** The object as the target last returned it, with the model's tracked part. */
  readonly live: Record<string, unknown>;
  readonly managed: readonly ManagedEntry[];
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export const decodeForModel = (v: unknown) => {
  const d = decodeManagedFields(v);
  return isManagedFieldsError(d) ? { message: d.message } : d;
};

/** Creates the object the steps act on (POST by manager `creator`), judged like any write. */
export async function startObject(
  cx: CaseContext,
  rt: ResourceType,
  schema: Schema,
  name: string,
  clauses: readonly ClauseId[],
): Promise<SeqState> {
  const ns = await namespaceOf(cx, 0);
  const body = { apiVersion: apiVersionOf(rt), kind: rt.kind, metadata: { name, namespace: ns, labels: cx.ownLabels } };
  const r = await cx.send({ method: 'POST', path: collectionPath(rt, ns), query: [['fieldManager', 'creator']], body });
  if (r.status === 404) throw new CheckNotApplicable(clauses, `the target does not serve ${rt.plural}.${rt.group}`);
  const model = update({
    live: undefined,
    managed: [],
    object: body,
    manager: 'creator',
    schema,
    apiVersion: apiVersionOf(rt),
    now: iso(cx.env.now()),
  });
  cx.judge(judgeWrite(expectedOf(model), r.status, r.json, schema, apiVersionOf(rt), ['rest:2.3/metadata.managedFields']));
  return carryOn({ rt, schema, ns, name, live: model.object, managed: model.managed }, model, r.json);
}

/**
 * The state after a judged write: the target's object with the model's tracked part, in the target's
 * form where the two differ only by empty maps or lists (reference/apply/hollow.ts).
 */
function carryOn(st: SeqState, model: { object: Record<string, unknown>; managed: readonly ManagedEntry[] }, json: unknown): SeqState {
  const a = alignedExpectation(model, json, st.schema);
  const base = isRecord(json) ? json : a.object;
  const tracked = hollowForNull(trackedPart(a.object), trackedPart(model.object)) as Record<string, unknown>;
  return { ...st, live: withTrackedPart(base, tracked), managed: a.managed };
}

/** The request of a step and the model's outcome for it. */
export function planStep(
  st: SeqState,
  step: ApplyStep,
  nowIso: string,
): {
  req: TargetRequest;
  outcome: WriteOutcome | ConflictOutcome | { kind: 'refused'; detail: string; statusOpen?: boolean; tags?: WriteTags };
} {
  try {
    return planModelStep(st, step, nowIso);
  } catch (e) {
    // An object the schema cannot place (a duplicate set entry or map key, rest:4.7.7): the model
    // refuses the write; the request is the one the step sends regardless.
    if (!(e instanceof InvalidObject)) throw e;
    return {
      req: requestOf(st, step),
      outcome: { kind: 'refused', detail: `not a valid object for its schema: ${e.message}`, statusOpen: true },
    };
  }
}

/** What a server-side apply of `content` sends: the object's identity with the step's fields. */
function intentOf(st: SeqState, content: object): Record<string, unknown> {
  return { apiVersion: apiVersionOf(st.rt), kind: st.rt.kind, metadata: { name: st.name, namespace: st.ns }, ...content };
}

/** The request of a step (the model's outcome is planModelStep's; an update's managedFields variants are built there too). */
function requestOf(st: SeqState, step: ApplyStep): TargetRequest {
  const path = objectPath(st.rt, st.name, st.ns);
  const fm: QueryPair = ['fieldManager', step.manager];
  if (step.op === 'apply') {
    const intent = intentOf(st, step.content);
    return {
      method: 'PATCH',
      path,
      query: step.force ? [fm, ['force', 'true']] : [fm],
      headers: { 'content-type': APPLY_TYPE },
      body: applyBody(intent),
    };
  }
  if (step.op === 'update') {
    const md = { ...(st.live['metadata'] as Record<string, unknown>) };
    return {
      method: 'PUT',
      path,
      query: [fm],
      body: withTrackedPart({ ...st.live, metadata: md }, { ...content(st.live), ...step.content }),
    };
  }
  if (step.op === 'merge')
    return {
      method: 'PATCH',
      path,
      query: [fm],
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify(step.patch),
    };
  return { method: 'PATCH', path, query: [fm], headers: { 'content-type': 'application/json-patch+json' }, body: JSON.stringify(step.ops) };
}

function planModelStep(
  st: SeqState,
  step: ApplyStep,
  nowIso: string,
): { req: TargetRequest; outcome: WriteOutcome | ConflictOutcome | { kind: 'refused'; detail: string; tags?: WriteTags } } {
  const apiVersion = apiVersionOf(st.rt);
  if (step.op === 'apply') {
    const intent = intentOf(st, step.content);
    return {
      req: requestOf(st, step),
      outcome: apply({
        live: st.live,
        managed: st.managed,
        intent,
        manager: step.manager,
        force: step.force,
        schema: st.schema,
        apiVersion,
        now: nowIso,
      }),
    };
  }
  let object: Record<string, unknown>;
  let req: TargetRequest;
  if (step.op === 'update') {
    const md = { ...(st.live['metadata'] as Record<string, unknown>) };
    if (step.managedFields === 'omit') delete md['managedFields'];
    if (step.managedFields === 'empty') md['managedFields'] = [];
    if (step.managedFields === 'reset') md['managedFields'] = [{}];
    object = withTrackedPart({ ...st.live, metadata: md }, { ...content(st.live), ...step.content });
    req = { method: 'PUT', path: objectPath(st.rt, st.name, st.ns), query: [['fieldManager', step.manager]], body: object };
  } else if (step.op === 'merge') {
    object = mergePatch(st.live, step.patch) as Record<string, unknown>;
    req = requestOf(st, step);
  } else {
    req = requestOf(st, step);
    const r = jsonPatch(st.live, step.ops);
    if (!r.ok)
      return {
        req,
        outcome: {
          kind: 'refused',
          detail: `the JSON patch fails: ${r.error}`,
          tags: r.replaceOfMissingMember ? REPLACE_OF_MISSING_MEMBER : undefined,
        },
      };
    object = r.value as Record<string, unknown>;
  }
  const start = startingManagedFields((object['metadata'] as Record<string, unknown>)['managedFields'], st.managed, decodeForModel);
  return {
    req,
    outcome: update({ live: st.live, managed: start, object, manager: step.manager, schema: st.schema, apiVersion, now: nowIso }),
  };
}

const REPLACE_OF_MISSING_MEMBER: WriteTags = { input: 'json-patch-replace-missing-member', class: 'json-patch-replace-missing-accepted' };

/** The labels the object started with: a PUT keeps them and replaces only the body. */
function content(live: Record<string, unknown>): Content {
  const t = trackedPart(live);
  return t['metadata'] === undefined ? {} : { metadata: t['metadata'] };
}

/** Clauses a step exercises, from the model's facts about it (which rest:3.2 rows it hits). */
export function clausesOf(
  step: ApplyStep,
  outcome: WriteOutcome | ConflictOutcome | { kind: 'refused' },
  fieldClauses: (step: ApplyStep) => ClauseId[],
): ClauseId[] {
  const out: ClauseId[] = [];
  if (outcome.kind === 'conflict') out.push('rest:3.2/apply-conflict', 'rest:7/conflict');
  if (outcome.kind === 'written') {
    if (outcome.forced.length > 0) out.push('rest:3.2/apply-force', 'rest:4.3/force');
    if (!outcome.shared.isEmpty() && step.op === 'apply') out.push('rest:3.2/apply-same-value');
    if (!outcome.releasedRemoved.isEmpty()) out.push('rest:3.2/apply-omit-sole');
    if (!outcome.released.difference(outcome.releasedRemoved).isEmpty()) out.push('rest:3.2/apply-omit-shared');
    if (!outcome.taken.isEmpty() && step.op !== 'apply') out.push('rest:3.2/non-apply-write', 'rest:4.7.4');
  }
  if (step.op === 'apply') out.push('rest:4.7.3', 'rest:4.1/patch-type/apply', 'rest:4.1/patch');
  if (step.op === 'update') out.push('rest:4.1/put');
  if (step.op === 'merge') out.push('rest:4.1/patch-type/merge', 'rest:4.1/patch');
  if (step.op === 'json') out.push('rest:4.1/patch-type/json', 'rest:4.1/patch');
  return [...out, ...fieldClauses(step)];
}

/** Sends one step, judges it, and returns the state after it. */
export async function runStep(
  cx: CaseContext,
  st: SeqState,
  step: ApplyStep,
  fieldClauses: (step: ApplyStep) => ClauseId[] = () => [],
  extraClauses: readonly ClauseId[] = [],
): Promise<SeqState> {
  const { req, outcome } = planStep(st, step, iso(cx.env.now()));
  const clauses = [...clausesOf(step, outcome, fieldClauses), ...extraClauses];
  // A refusal whose status is open is judged even when it is a 5xx (upstream 1.24 answers 500 there).
  const r = await cx.send(req);
  const expected: Expected =
    outcome.kind === 'written'
      ? expectedOf(outcome, undefined, step.op === 'apply' ? emptiedListTags(trackedPart(st.live), trackedPart(outcome.object)) : undefined)
      : outcome.kind === 'conflict'
        ? { kind: 'conflict', detail: outcome.conflicts.map(showConflict).join('; ') }
        : outcome;
  cx.judge(judgeWrite(expected, r.status, r.json, st.schema, apiVersionOf(st.rt), clauses));
  if (outcome.kind === 'written') return carryOn(st, outcome, r.json);
  // A refused write changes neither the object nor its ownership (rest:3.2 row 1).
  const g = await cx.send({ method: 'GET', path: objectPath(st.rt, st.name, st.ns) });
  cx.judge(judgeState({ object: st.live, managed: st.managed }, g.json, st.schema, apiVersionOf(st.rt), clauses));
  return carryOn(st, { object: st.live, managed: st.managed }, g.json);
}
