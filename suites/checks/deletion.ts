/**
 * rest:3.1 two-phase deletion with random finalizer sets, removed in random orders by random actors
 * (a PUT with the shortened list, sometimes reordered, under the actor's fieldManager), a repeated
 * delete now and then, and the name reused once the object is gone. Every step is followed by a read
 * judged by reference/deletion.ts; a watch opened before the first step must itemize every change
 * the reads saw (reference/watch-oracle.ts). Objects the case leaves with finalizers are released
 * at the end, so a real cluster can delete the namespace.
 */
import { judgeNamespaceWatch } from './namespace-watch.ts';
import { judgeWatchOpened, stepDeletion } from '../../harness/case/index.ts';
import fc from 'fast-check';
import { eventualWindowOf, type Check } from '../../harness/case/index.ts';
import type { CaseContext } from '../../harness/case/index.ts';
import { contentFor, namespaceOf, NO_RESOURCE_VERSION, resourceOf } from '../../harness/interpreters/index.ts';
import { CheckNotApplicable } from '../../harness/case/index.ts';
import { openWatch, waitCaughtUp } from '../../harness/interpreters/index.ts';
import { current, currentIndex, recordWrite, taint } from '../../reference/history.ts';
import { awaitingRemoval, heldFinalizers, initialDeletionState, type DeletionState, type DeletionStep } from '../../reference/deletion.ts';
import { keyOf, readObject, type ObjectVersion } from '../../reference/objects.ts';
import { apiVersionOf, collectionPath, objectPath, type ResourceType } from '../../reference/resources.ts';
import type { ObservedEvent } from '../../reference/watch-oracle.ts';

const NAMES = ['alpha', 'bravo'] as const;
const ACTORS = 3;
const FINALIZERS = 3;

/** One object's life: created with finalizers, deleted after some are gone, the rest removed, maybe recreated. */
interface ObjectPlan {
  /** Indices into the finalizer pool; the order is the removal order. */
  readonly finalizers: number[];
  readonly removedBeforeDelete: number;
  readonly actors: number[];
  readonly reorder: boolean[];
  readonly repeatDelete: boolean;
  readonly recreate: boolean;
}

type Step =
  | { readonly op: 'create'; readonly obj: number; readonly finalizers: number[] }
  | { readonly op: 'delete'; readonly obj: number }
  | { readonly op: 'remove'; readonly obj: number; readonly finalizer: number; readonly actor: number; readonly reorder: boolean };

interface DeletionInput {
  readonly plans: ObjectPlan[];
  /** Which object's next step goes next (cycled; an exhausted plan is skipped). */
  readonly interleave: boolean[];
}

const planArb: fc.Arbitrary<ObjectPlan> = fc.record({
  finalizers: fc.uniqueArray(fc.nat({ max: FINALIZERS - 1 }), { minLength: 0, maxLength: FINALIZERS }),
  removedBeforeDelete: fc.nat({ max: 2 }),
  actors: fc.array(fc.nat({ max: ACTORS - 1 }), { minLength: FINALIZERS, maxLength: FINALIZERS }),
  reorder: fc.array(fc.boolean(), { minLength: FINALIZERS, maxLength: FINALIZERS }),
  repeatDelete: fc.boolean(),
  recreate: fc.boolean(),
});

export function planSteps(obj: number, p: ObjectPlan): Step[] {
  const remove = (i: number): Step => ({ op: 'remove', obj, finalizer: p.finalizers[i]!, actor: p.actors[i]!, reorder: p.reorder[i]! });
  // At least one finalizer is left at the delete (when there are any): the Terminating phase is the point.
  const before = p.finalizers.length === 0 ? 0 : p.removedBeforeDelete % p.finalizers.length;
  // Listed in pool order, removed in the plan's order: removals need not follow the list.
  const steps: Step[] = [{ op: 'create', obj, finalizers: [...p.finalizers].sort((a, b) => a - b) }];
  for (let i = 0; i < before; i++) steps.push(remove(i));
  steps.push({ op: 'delete', obj });
  const rest = p.finalizers.map((_, i) => i).slice(before);
  if (p.repeatDelete && rest.length > 0) steps.push(remove(rest.shift()!), { op: 'delete', obj });
  for (const i of rest) steps.push(remove(i));
  if (p.recreate) steps.push({ op: 'create', obj, finalizers: [] });
  return steps;
}

/**
 * Does the plan remove, while the object is Terminating, a finalizer that is not first in its list (what
 * rest:3.1/finalizer-order is judged on, reference/deletion.ts)? The list follows the PUTs, reversed
 * where a removal reorders the rest.
 */
export function removesOutOfOrder(p: ObjectPlan): boolean {
  let list: number[] = [];
  let terminating = false;
  for (const s of planSteps(0, p)) {
    if (s.op === 'create') [list, terminating] = [[...s.finalizers], false];
    else if (s.op === 'delete') terminating = true;
    else {
      const rest = list.filter((f) => f !== s.finalizer);
      if (terminating && rest.length > 0 && list[0] !== s.finalizer) return true;
      list = s.reorder ? rest.reverse() : rest;
    }
  }
  return false;
}

/**
 * Every case removes some finalizer out of list order while Terminating: drawn freely, eight cases (the
 * default budget) left rest:3.1/finalizer-order unshown on some seeds (seed 99), so a nightly report's
 * coverage moved with the seed. A case whose plans show none gets its first plan's finalizers removed
 * last-first, all after the delete.
 */
function withOutOfOrderRemoval(input: DeletionInput): DeletionInput {
  if (input.plans.some(removesOutOfOrder)) return input;
  const [first, ...others] = input.plans;
  const finalizers = first!.finalizers.length >= 2 ? [...first!.finalizers].sort((a, b) => b - a) : [1, 0];
  return { ...input, plans: [{ ...first!, finalizers, removedBeforeDelete: 0, reorder: first!.reorder.map(() => false) }, ...others] };
}

export function interleaveSteps(input: DeletionInput): Step[] {
  const queues = input.plans.map((p, i) => planSteps(i, p));
  const out: Step[] = [];
  for (let t = 0; queues.some((q) => q.length > 0); t++) {
    const pick = input.interleave.length === 0 ? 0 : Number(input.interleave[t % input.interleave.length]);
    const q = queues[pick]?.length ? queues[pick]! : queues.find((x) => x.length > 0)!;
    out.push(q.shift()!);
  }
  return out;
}

/** Finalizer names under the suite's own label domain: no product name, never one a controller acts on. */
const finalizerName = (cx: CaseContext, i: number) => `${cx.env.profile.runLabel.split('/')[0]}/f${i + 1}`;

const showStep = (s: Step): string => {
  const name = NAMES[s.obj];
  if (s.op === 'create') return `create configmap ns0/${name} finalizers=[${s.finalizers.map((f) => `f${f + 1}`).join(',')}]`;
  if (s.op === 'delete') return `delete configmap ns0/${name}`;
  return `actor-${s.actor}: PUT ns0/${name} without f${s.finalizer + 1}${s.reorder ? ' (rest reversed)' : ''}`;
};

function objectBody(
  cx: CaseContext,
  rt: ResourceType,
  name: string,
  ns: string,
  finalizers: readonly string[],
  rv?: string,
): Record<string, unknown> {
  const content = contentFor(cx, rt, { labels: {}, annotations: {}, data: {} });
  const metadata: Record<string, unknown> = { name, namespace: ns, labels: content.labels, finalizers };
  if (rv !== undefined) metadata['resourceVersion'] = rv;
  return { apiVersion: apiVersionOf(rt), kind: rt.kind, metadata, data: {} };
}

async function deletionCase(cx: CaseContext, input: DeletionInput): Promise<void> {
  const rt = resourceOf(cx, 'configmaps');
  const ns = await namespaceOf(cx, 0);
  const content = contentFor(cx, rt, { labels: {}, annotations: {}, data: {} });
  const states: DeletionState[] = NAMES.map(() => initialDeletionState);
  const rvs: (string | undefined)[] = NAMES.map(() => undefined);
  const requestIndex = currentIndex(cx.history('configmaps'));
  const session = await openWatch(cx, rt, collectionPath(rt, ns), []);
  let cutOff: string | undefined;
  try {
    cx.judge(judgeWatchOpened(session.status));
    for (const step of interleaveSteps(input)) {
      const name = NAMES[step.obj]!;
      const key = keyOf(ns, name);
      const s = states[step.obj]!;
      const sent = await sendStep(cx, rt, ns, step, s, rvs[step.obj]);
      if (sent === undefined) continue; // the object is gone or unknown: nothing to release.
      const { model, status } = sent;
      const readBack = async () => {
        const read = await cx.send({ method: 'GET', path: objectPath(rt, name, ns) });
        const o = read.status === 200 ? readObject(rt, read.json) : undefined;
        if (o !== undefined && (typeof o.rv !== 'string' || o.rv === '')) throw new CheckNotApplicable([], NO_RESOURCE_VERSION);
        const md = (read.json as { metadata?: { finalizers?: unknown } } | undefined)?.metadata;
        return { o, read: o ? { finalizers: md?.finalizers, deletionTimestamp: o.deletionTimestamp } : undefined };
      };
      // The watch must itemize what the reads saw: one change per new resourceVersion or removal.
      const record = (o: ReturnType<typeof readObject> | undefined, open: boolean) => {
        const h = cx.history('configmaps');
        if (open) cx.setHistory('configmaps', taint(h, key));
        else if (!o && current(h).objects.has(key))
          cx.setHistory('configmaps', recordWrite(h, { op: 'remove', key, atMs: cx.writeSentAtMs }));
        else if (o && String(o.rv) !== rvs[step.obj]) {
          const version: ObjectVersion = {
            key,
            name,
            namespace: ns,
            uid: String(o.uid),
            rv: String(o.rv),
            creationTimestamp: typeof o.creationTimestamp === 'string' ? o.creationTimestamp : undefined,
            content,
          };
          cx.setHistory('configmaps', recordWrite(h, { op: 'put', version, atMs: cx.writeSentAtMs }));
        }
        rvs[step.obj] = o ? String(o.rv) : undefined;
      };
      let seen = await readBack();
      let waitedMs: number | undefined;
      if (model.op === 'setFinalizers' && model.finalizers.length === 0 && seen.read !== undefined && awaitingRemoval(s, seen.read)) {
        // Removal has no time bound (rest:3.1): keep reading until it is gone or the window passes.
        record(seen.o, false);
        const started = cx.env.now();
        const windowMs = eventualWindowOf(cx.env);
        for (let wait = 20; seen.read !== undefined && cx.env.now() - started < windowMs; wait = Math.min(wait * 2, 1000)) {
          await cx.env.sleep(wait);
          seen = await readBack();
          if (seen.read !== undefined && !awaitingRemoval(s, seen.read)) break;
        }
        waitedMs = cx.env.now() - started;
      }
      const v = stepDeletion(s, model, { status, read: seen.read, waitedMs });
      cx.judge(v.judgements);
      states[step.obj] = v.next;
      record(seen.o, v.next.phase === 'open');
    }
    ({ cutOff } = await waitCaughtUp(cx, session, 'configmaps', 'current state'));
  } finally {
    await session.close();
    await releaseFinalizers(cx, rt, ns);
  }
  judgeCaseWatch(cx, rt, ns, { requestIndex, cutOff, events: session.events });
}

/**
 * Sends one step of the interleaving and says what the model is to step with; undefined for a
 * finalizer release of an object gone or unknown (nothing to send).
 */
async function sendStep(
  cx: CaseContext,
  rt: ResourceType,
  ns: string,
  step: Step,
  s: DeletionState,
  rv: string | undefined,
): Promise<{ model: DeletionStep; status: number } | undefined> {
  const name = NAMES[step.obj]!;
  if (step.op === 'create') {
    const model: DeletionStep = { op: 'create', finalizers: step.finalizers.map((i) => finalizerName(cx, i)) };
    return {
      model,
      status: (await cx.send({ method: 'POST', path: collectionPath(rt, ns), body: objectBody(cx, rt, name, ns, model.finalizers) }))
        .status,
    };
  }
  if (step.op === 'delete')
    return { model: { op: 'delete' }, status: (await cx.send({ method: 'DELETE', path: objectPath(rt, name, ns) })).status };
  const held = heldFinalizers(s);
  if (held === undefined) return undefined;
  const left = held.filter((f) => f !== finalizerName(cx, step.finalizer));
  const finalizers = step.reorder ? [...left].reverse() : left;
  const r = await cx.send({
    method: 'PUT',
    path: objectPath(rt, name, ns),
    query: [['fieldManager', `actor-${step.actor}`]],
    body: objectBody(cx, rt, name, ns, finalizers, rv),
  });
  return { model: { op: 'setFinalizers', finalizers }, status: r.status };
}

/** The case's watch, from before its first step, judged against the history its reads recorded. */
function judgeCaseWatch(
  cx: CaseContext,
  rt: ResourceType,
  ns: string,
  watch: { requestIndex: number; cutOff: string | undefined; events: readonly ObservedEvent[] },
): void {
  const h = cx.history('configmaps');
  const exp = {
    semantic: 'GetStateAndStartAtMostRecent' as const,
    clause: 'rest:4.5/watch/unset' as const,
    requestIndex: watch.requestIndex,
    bookmarksRequested: false,
    kind: rt.kind,
    apiVersion: apiVersionOf(rt),
    cutOff: watch.cutOff,
  };
  judgeNamespaceWatch(cx, h, ns, exp, watch.events);
}

/** Best effort: empties the finalizers of whatever the case left, so the namespace can go. */
async function releaseFinalizers(cx: CaseContext, rt: ResourceType, ns: string): Promise<void> {
  for (const name of NAMES) {
    try {
      const r = await cx.env.target.send({ method: 'GET', path: objectPath(rt, name, ns) });
      const md = (r.json as { metadata?: { finalizers?: unknown; resourceVersion?: unknown } } | undefined)?.metadata;
      if (r.status !== 200 || !Array.isArray(md?.finalizers) || md.finalizers.length === 0) continue;
      await cx.env.target.send({
        method: 'PUT',
        path: objectPath(rt, name, ns),
        body: objectBody(cx, rt, name, ns, [], String(md.resourceVersion)),
      });
    } catch {
      // The run-level cleanup reports what is left.
    }
  }
}

export const deletionFinalizers: Check<DeletionInput> = {
  id: 'deletion-finalizers',
  suite: 'rest-deletion',
  title: 'rest:3.1 two-phase deletion: finalizers removed in any order by any actor, then the name is free',
  clauses: [
    'rest:3.1/live-to-terminating',
    'rest:3.1/terminating-to-removed',
    'rest:3.1/finalizer-order',
    'rest:2.3/metadata.deletionTimestamp',
    'rest:2.3/metadata.finalizers',
    'rest:2.2.2',
    'rest:6.1.1',
  ],
  defaultRuns: 8,
  arbitrary: () =>
    fc
      .record({ plans: fc.array(planArb, { minLength: 1, maxLength: 2 }), interleave: fc.array(fc.boolean(), { maxLength: 6 }) })
      .map(withOutOfOrderRemoval),
  describe: (i) => ['watch configmaps ns0 (from now on)', ...interleaveSteps(i).map(showStep)],
  run: (input, cx) => deletionCase(cx, input),
};
