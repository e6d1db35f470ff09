/**
 * The fixture type for the apply sequences: used as is when the target already serves it, else
 * installed as a CustomResourceDefinition labelled for the run (the run's cleanup deletes it at the
 * end). A target without CRDs makes the fixture checks not applicable; the ConfigMap checks remain.
 * A new type is served "eventually" (asynchronously upstream, with no bound in the spec): a type not
 * served within the run's eventual window makes the case inconclusive, never a failure.
 */
import { judgeClusterObjectRead } from '../case/index.ts';
import { collectionPath, objectPath } from '../../reference/resources.ts';

import { readObject } from '../../reference/objects.ts';
import { crdResource, fixtureCrd, fixtureResource, fixtureSchema, type Schema } from '../../reference/apply/index.ts';
import type { ResourceType } from '../../reference/resources.ts';
import type { CaseContext } from '../case/index.ts';
import { eventualWindowOf } from '../case/index.ts';
import { notSeenWithin } from '../case/index.ts';
import { namespaceOf } from './rest-interpreter.ts';
import { CheckNotApplicable } from '../case/index.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

/** The fixture type, or undefined when it was not served in time (the case is then inconclusive). */
export async function ensureFixture(
  cx: CaseContext,
  clauses: readonly ClauseId[],
): Promise<{ rt: ResourceType; schema: Schema } | undefined> {
  const profile = cx.env.profile;
  const rt = fixtureResource(profile, cx.env.runId);
  const schema = fixtureSchema(profile, { fallbackList: false });
  const ns = await namespaceOf(cx, 0);
  const served = async () => (await cx.send({ method: 'GET', path: collectionPath(rt, ns) })).status === 200;
  const crd = crdResource(profile);
  const install = { method: 'POST' as const, path: collectionPath(crd), body: fixtureCrd(profile, { [profile.runLabel]: cx.env.runId }) };
  if (await served()) {
    // Installed by an earlier case of the run: the reproduction installs it itself.
    cx.setup.push({
      seq: 0,
      request: install,
      transportError: 'not sent by this case: an earlier case of the run installed the fixture type',
      startedAtMs: cx.env.now(),
      durationMs: 0,
    });
    return { rt, schema };
  }
  const r = await cx.send(install);
  if (r.status === 404 || r.status === 405)
    throw new CheckNotApplicable(
      clauses,
      `the target serves no ${crd.plural}.${crd.group}: the fixture type of rest:4.7.7 cannot be installed`,
      'skipped',
    );
  if (r.status >= 300 && r.status !== 409)
    throw new CheckNotApplicable(clauses, `installing the fixture CustomResourceDefinition was refused (status ${r.status})`);
  await readDefinition(cx, crd, String((install.body['metadata'] as { name: string }).name));
  const windowMs = eventualWindowOf(cx.env);
  const deadline = cx.env.now() + windowMs;
  for (let wait = 50; cx.env.now() < deadline; wait = Math.min(wait * 2, 1000)) {
    if (await served()) return { rt, schema };
    await cx.env.sleep(wait);
  }
  if (await served()) return { rt, schema };
  cx.judge(
    notSeenWithin(clauses, 'the fixture type served once its definition is in place', windowMs, `${rt.plural}.${rt.group} not served yet`),
  );
  return undefined;
}

/**
 * The definition read back by name: the one GET of a cluster-scoped object of a named group the run
 * makes (rest:4.1/get-object), once per run, where the definition was just installed.
 */
async function readDefinition(cx: CaseContext, crd: ResourceType, name: string): Promise<void> {
  const path = objectPath(crd, name);
  const got = await cx.send({ method: 'GET', path });
  const o = readObject(crd, got.json);
  cx.judge(
    judgeClusterObjectRead(path, { kind: crd.kind, name }, { status: got.status, kind: o.kind, name: o.name, namespace: o.namespace }),
  );
}
