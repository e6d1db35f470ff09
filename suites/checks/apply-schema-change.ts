/**
 * rest:4.7.10 on a type of its own whose map `spec.m` the suite switches between granular and atomic:
 * after granular -> atomic every owner of an entry owns the whole map, so a change by one of them
 * conflicts with the others; after atomic -> granular no ownership of entries is inferred, so a
 * change of an entry does not conflict. A definition change takes effect asynchronously upstream, on
 * each API server by itself (the spec bounds it in no time): probes show the new schema in force,
 * several in a row, before anything is judged; not in force within the run's eventual window makes
 * the case inconclusive, never a failure.
 */
import fc from 'fast-check';
import { eventualWindowOf, type Check } from '../../harness/case/index.ts';
import { notSeenWithin } from '../../harness/case/index.ts';
import type { CaseContext } from '../../harness/case/index.ts';
import { CheckNotApplicable } from '../../harness/case/index.ts';
import { namespaceOf } from '../../harness/interpreters/index.ts';
import {
  crdResource,
  mapTypeOwnedIn,
  schemaChangeCrd,
  schemaChangeResource,
  schemaChangeVersions,
  schemaOfCrd,
} from '../../reference/apply/index.ts';
import { collectionPath, objectPath } from '../../reference/resources.ts';
import { runStep, startObject, APPLY_TYPE, type SeqState } from '../../harness/interpreters/index.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

type MapType = 'granular' | 'atomic';
const CLAUSES: ClauseId[] = ['rest:4.7.10'];

interface Input {
  readonly values: readonly string[];
}

let probes = 0;
/**
 * Probes in a row that must show the new schema before a case goes on: upstream each API server
 * rebuilds its handler from the changed definition on its own (when its watch of definitions delivers
 * the change), so behind a balancer one server may serve the new schema while another still serves
 * the old. Each probe leaves its connection closed, so the next travels on another one; six in a row
 * all reaching the one server of a pair that is already up to date is about one chance in 64.
 */
const AGREEING_PROBES = 6;

/**
 * Installs or changes the definition, then waits until an apply shows the new map type in force;
 * undefined (the case judged inconclusive) when it is not in force within the eventual window.
 */
async function useSchema(cx: CaseContext, mapType: MapType): Promise<SeqState['schema'] | undefined> {
  const profile = cx.env.profile;
  const crd = crdResource(profile);
  const body = schemaChangeCrd(profile, mapType, { [profile.runLabel]: cx.env.runId });
  const created = await cx.send({ method: 'POST', path: collectionPath(crd), body });
  if (created.status === 404 || created.status === 405)
    throw new CheckNotApplicable(CLAUSES, `the target serves no ${crd.plural}.${crd.group}`, 'skipped');
  if (created.status === 409) {
    const name = (body['metadata'] as { name: string }).name;
    const patched = await cx.send({
      method: 'PATCH',
      path: objectPath(crd, name),
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ spec: { versions: schemaChangeVersions(profile, mapType) } }),
    });
    if (patched.status >= 300)
      throw new CheckNotApplicable(CLAUSES, `changing the schema-change fixture definition was refused (status ${patched.status})`);
  } else if (created.status >= 300)
    throw new CheckNotApplicable(CLAUSES, `installing the schema-change fixture definition was refused (status ${created.status})`);
  const rt = schemaChangeResource(profile, cx.env.runId);
  const ns = await namespaceOf(cx, 0);
  const windowMs = eventualWindowOf(cx.env);
  const deadline = cx.env.now() + windowMs;
  let agreeing = 0;
  for (let wait = 50; cx.env.now() < deadline; ) {
    if (await inForce(cx, rt, ns, mapType)) {
      if (++agreeing >= AGREEING_PROBES) return schemaOfCrd(body, profile);
      continue;
    }
    agreeing = 0;
    await cx.env.sleep(wait);
    wait = Math.min(wait * 2, 1000);
  }
  cx.judge(notSeenWithin(CLAUSES, `the ${mapType} schema in force once the definition says so`, windowMs, 'the old schema still in force'));
  return undefined;
}

/**
 * Whether the server that answers shows the new map type, in one request: a probe manager applies
 * `m: {x}` and the ownership recorded for it says granular or atomic. Sent with `connection: close`
 * so that the next probe travels on another connection (through a balancer, to another server). A
 * target that records no ownership is probed by two managers instead (a conflict means atomic).
 */
async function inForce(cx: CaseContext, rt: ReturnType<typeof schemaChangeResource>, ns: string, mapType: MapType): Promise<boolean> {
  const name = `probe-${++probes}`;
  const apply = (manager: string, m: Record<string, string>) =>
    cx.send({
      method: 'PATCH',
      path: objectPath(rt, name, ns),
      query: [['fieldManager', manager]],
      headers: { 'content-type': APPLY_TYPE, connection: 'close' },
      body: JSON.stringify({
        apiVersion: `${rt.group}/${rt.version}`,
        kind: rt.kind,
        metadata: { name, namespace: ns, labels: cx.ownLabels },
        spec: { m },
      }),
    });
  const first = await apply('probe-1', { x: '1' });
  if (first.status >= 300) return false;
  const shown = ownedMapType(first.json, 'probe-1');
  if (shown !== 'unrecorded') return shown === mapType;
  const second = await apply('probe-2', { y: '2' });
  return mapType === 'atomic' ? second.status >= 400 && second.status < 500 : second.status < 300;
}

/** The map type in the ownership recorded for `manager`'s apply; `unrecorded` without an entry for it. */
function ownedMapType(obj: unknown, manager: string): MapType | undefined | 'unrecorded' {
  const entries = (obj as { metadata?: { managedFields?: unknown } } | undefined)?.metadata?.managedFields;
  if (!Array.isArray(entries)) return 'unrecorded';
  const mine = entries.find(
    (e): e is { fieldsV1?: unknown } => e !== null && typeof e === 'object' && e.manager === manager && e.operation === 'Apply',
  );
  return mine === undefined ? 'unrecorded' : mapTypeOwnedIn(mine.fieldsV1);
}

export const applySchemaChange: Check<Input> = {
  id: 'apply-schema-change',
  suite: 'rest-apply',
  title:
    'changing a map between granular and atomic: owners of entries own the whole (conflicts), atomic owners gain no entries (no conflicts)',
  clauses: CLAUSES,
  defaultRuns: 2,
  arbitrary: () => fc.record({ values: fc.uniqueArray(fc.constantFrom('v1', 'v2', 'v3', 'x y'), { minLength: 3, maxLength: 3 }) }),
  describe: (i) => [
    'schema m granular; create obj; mgr-a applies m.x, mgr-b applies m.y',
    `schema m atomic; mgr-a applies m {x: ${i.values[2]}} (conflict with mgr-b expected); mgr-a forces it`,
    'create obj2; mgr-a applies m {x}; schema m granular; mgr-b applies m {x: other} (no conflict expected)',
  ],
  run: async (input, cx) => {
    const [v1, v2, v3] = input.values as [string, string, string];
    const rt = schemaChangeResource(cx.env.profile, cx.env.runId);
    const apply = (manager: 'mgr-a' | 'mgr-b', m: Record<string, string>, force = false) => ({
      op: 'apply' as const,
      manager,
      force,
      content: { spec: { m } },
    });
    const granular = await useSchema(cx, 'granular');
    if (!granular) return;
    let st = await startObject(cx, rt, granular, 'obj', CLAUSES);
    st = await runStep(cx, st, apply('mgr-a', { x: v1 }));
    st = await runStep(cx, st, apply('mgr-b', { y: v2 }));
    const atomic = await useSchema(cx, 'atomic');
    if (!atomic) return;
    st = { ...st, schema: atomic };
    st = await runStep(cx, st, apply('mgr-a', { x: v3 }), () => CLAUSES);
    st = await runStep(cx, st, apply('mgr-a', { x: v3 }, true), () => CLAUSES);

    let back = await startObject(cx, rt, st.schema, 'obj2', CLAUSES);
    back = await runStep(cx, back, apply('mgr-a', { x: v1 }));
    const granularAgain = await useSchema(cx, 'granular');
    if (!granularAgain) return;
    back = { ...back, schema: granularAgain };
    await runStep(cx, back, apply('mgr-b', { x: v2 }), () => CLAUSES);
  },
};
