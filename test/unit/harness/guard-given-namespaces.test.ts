// Why: with --namespace the run works in namespaces it did not create (a cluster where its identity
// may not create namespaces). There the guard lets it write only objects carrying its label, never
// the namespace itself or another's object, and cleanup removes only the run's objects, by label.
import { describe, expect, it } from 'vitest';
import type { Target, TargetRequest, TargetResponse } from '../../../harness/transport/exchange.ts';
import { createGuardedTarget, registerCleanup, runIdentity, SafetyError } from '../../../harness/transport/guard.ts';
import { profiles } from '../../../reference/profile.ts';

const run = runIdentity('r1', profiles.svc.runLabel, ['team-a']);
const label = { [run.labelKey]: run.runId };
const base = '/api/v1/namespaces/team-a/configmaps';

/** A target holding one foreign ConfigMap `theirs` in team-a; answers writes 201/200 echoing the body. */
function fakeTarget(): Target & { sent: TargetRequest[] } {
  const sent: TargetRequest[] = [];
  const json = (status: number, body: unknown): TargetResponse => ({ status, headers: {}, bodyText: JSON.stringify(body), json: body });
  return {
    server: 'http://fake',
    sent,
    async send(req) {
      sent.push(req);
      if (req.method === 'GET' && req.path === `${base}/theirs`)
        return json(200, { kind: 'ConfigMap', metadata: { name: 'theirs', labels: { app: 'x' } } });
      if (req.method === 'GET') return json(404, { kind: 'Status', code: 404 });
      return json(req.method === 'POST' ? 201 : 200, req.body ?? {});
    },
    async close() {},
  };
}

async function refused(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SafetyError);
  return (err as Error).message;
}

describe('the guard in namespaces named by --namespace', () => {
  it("writes the run's labelled objects there, and its own objects after", async () => {
    const inner = fakeTarget();
    const g = createGuardedTarget(inner, run);
    await g.send({ method: 'POST', path: base, body: { kind: 'ConfigMap', metadata: { name: 'mine', labels: label } } });
    await g.send({ method: 'PUT', path: `${base}/mine`, body: { kind: 'ConfigMap', metadata: { name: 'mine', labels: label } } });
    await g.send({ method: 'DELETE', path: `${base}/mine` });
    await g.send({ method: 'DELETE', path: base, query: [['labelSelector', `${run.labelKey}=${run.runId}`]] });
    expect(inner.sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST ${base}`,
      `PUT ${base}/mine`,
      `DELETE ${base}/mine`,
      `DELETE ${base}`,
    ]);
  });

  it("refuses the namespace itself, another's object, an unlabelled create and a collection delete not limited to the run", async () => {
    const inner = fakeTarget();
    const g = createGuardedTarget(inner, run);
    expect(await refused(g.send({ method: 'DELETE', path: '/api/v1/namespaces/team-a' }))).toMatch(
      /namespaces\/team-a was not created by this run/,
    );
    expect(await refused(g.send({ method: 'PATCH', path: '/api/v1/namespaces/team-a', body: '{}' }))).toMatch(
      /was not created by this run/,
    );
    expect(await refused(g.send({ method: 'POST', path: base, body: { kind: 'ConfigMap', metadata: { name: 'x' } } }))).toMatch(
      /does not carry label/,
    );
    expect(await refused(g.send({ method: 'DELETE', path: base }))).toMatch(/without the selector svc-conformance\/run=r1/);
    expect(await refused(g.send({ method: 'DELETE', path: `${base}/theirs` }))).toMatch(/not this run's/);
    expect(await refused(g.send({ method: 'PATCH', path: `${base}/theirs`, body: '{}' }))).toMatch(/not this run's/);
    // Only the reads that told whose object it is reached the target.
    expect(inner.sent.every((r) => r.method === 'GET')).toBe(true);
  });

  it("cleanup deletes the run's objects by label and leaves the namespace", async () => {
    const inner = fakeTarget();
    const g = createGuardedTarget(inner, run);
    await g.send({ method: 'POST', path: base, body: { kind: 'ConfigMap', metadata: { name: 'mine', labels: label } } });
    const handle = registerCleanup(g, run, { signals: false, log: () => undefined });
    await handle.cleanup();
    const deletes = inner.sent.filter((r) => r.method === 'DELETE');
    expect(deletes).toEqual([{ method: 'DELETE', path: base, query: [['labelSelector', `${run.labelKey}=${run.runId}`]] }]);
  });
});
