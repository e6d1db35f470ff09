/** One step of an `authz-rules` case: the request as the restricted user, its access review and dry-run, judged against the model. */
import { judgeStep } from '../../harness/case/index.ts';
import { expectOk, type CaseContext } from '../../harness/case/index.ts';
import type { TargetRequest } from '../../harness/transport/index.ts';
import { type AuthzCase } from '../../generators/authz.ts';
import {
  attributesOfStep,
  authzFixture,
  expectedDecision,
  resourceTypeOf,
  type AuthzNames,
  type AuthzStep,
} from '../../reference/authz.ts';
import { apiVersionOf, collectionPath, objectPath, type ResourceType } from '../../reference/resources.ts';
import type { Acting } from './authz-acting.ts';

/** A configmap or custom object of the case, labelled as the run's. */
export function objectBody(cx: CaseContext, rt: ResourceType, name: string, ns: string): Record<string, unknown> {
  const metadata = { name, namespace: ns, labels: cx.ownLabels };
  return rt.kind === 'ConfigMap'
    ? { apiVersion: apiVersionOf(rt), kind: rt.kind, metadata, data: { k: 'v' } }
    : { apiVersion: apiVersionOf(rt), kind: rt.kind, metadata, spec: { k: 'v' } };
}

export async function runStep(cx: CaseContext, n: AuthzNames, acting: Acting, c: AuthzCase, s: AuthzStep, i: number): Promise<void> {
  const rt = resourceTypeOf(n, s.resource);
  const ns = n.namespaces[s.ns];
  const name = s.verb === 'create' ? `c${i}` : s.verb === 'delete' ? `d${i}` : s.verb === 'list' ? undefined : 'x';
  if (s.verb === 'delete')
    await expectOk(
      cx,
      { method: 'POST', path: collectionPath(rt, ns), body: objectBody(cx, rt, name!, ns) },
      `creating ${rt.plural} ${name}`,
    );
  const path =
    name === undefined || s.verb === 'create' ? collectionPath(rt, ns) : `${objectPath(rt, name, ns)}${s.status ? '/status' : ''}`;
  let req: TargetRequest;
  switch (s.verb) {
    case 'get':
    case 'list':
      req = { method: 'GET', path };
      break;
    case 'create':
      req = { method: 'POST', path, body: objectBody(cx, rt, name!, ns) };
      break;
    case 'delete':
      req = { method: 'DELETE', path };
      break;
    case 'patch':
      req = {
        method: 'PATCH',
        path,
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify(s.status ? { status: { step: String(i) } } : { metadata: { annotations: { 'authz-step': String(i) } } }),
      };
      break;
    case 'update': {
      // Custom resources need the current resourceVersion on update: read it as the run first.
      const current = (await expectOk(cx, { method: 'GET', path: objectPath(rt, name!, ns) }, `reading ${rt.plural} ${name}`))
        .json as Record<string, unknown>;
      const md = (current['metadata'] ?? {}) as Record<string, unknown>;
      const next = s.status
        ? { ...current, status: { step: String(i) } }
        : {
            ...current,
            metadata: { ...md, annotations: { ...((md['annotations'] as object | undefined) ?? {}), 'authz-step': String(i) } },
          };
      req = { method: 'PUT', path, body: next };
      break;
    }
  }
  const expected = expectedDecision(n, acting.user, acting.groups, c.rules, s);
  const review = await acting.review(attributesOfStep(n, acting.user, acting.groups, s, name));
  const restricted = { ...req, ...acting.as, headers: { ...(req.headers ?? {}), ...(acting.as.headers ?? {}) } };
  const dry = req.method === 'GET' ? undefined : await cx.send({ ...restricted, query: [['dryRun', 'All']] });
  const real = await cx.send(restricted);
  const kind = (real.json as { kind?: unknown } | undefined)?.kind;
  cx.judge(
    judgeStep(
      s,
      acting.exact ? expected : expected ? true : undefined,
      {
        real: real.status,
        dry: dry?.status,
        review,
        kind: typeof kind === 'string' ? kind : undefined,
      },
      authzFixture(n.profile, n.runId).kind,
    ),
  );
}
