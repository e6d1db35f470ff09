// The reference server's webhook configurations per version (the rest:9.4 admissionregistration row)
// and its mutating webhook calls: what the dry-run-admission check relies on, seen directly. The
// validating calls are covered by the check against the server (test/oracle faults and variations).
import { afterEach, describe, expect, it } from 'vitest';
import { type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { startAdmissionWebhook, type AdmissionWebhook } from '../../../harness/interpreters/admission-webhook.ts';

let server: ReferenceServer | undefined;
let hook: AdmissionWebhook | undefined;
afterEach(async () => {
  await server?.close();
  await hook?.close();
  server = undefined;
  hook = undefined;
});

const group = 'admissionregistration.svc.io';
const config = (version: string, webhook: Record<string, unknown>) => ({
  apiVersion: `${group}/${version}`,
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: `c-${version}` },
  webhooks: [
    {
      name: 'w.example.test',
      clientConfig: { url: 'https://127.0.0.1:1/x' },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      ...webhook,
    },
  ],
});
const post = async (version: string, body: unknown) => {
  const r = await fetch(`${server!.url}/apis/${group}/${version}/validatingwebhookconfigurations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

describe('webhook configurations', () => {
  it('v1 requires sideEffects and allows only None and NoneOnDryRun; defaults failurePolicy Fail, timeoutSeconds 10', async () => {
    server = await referenceServer();
    expect((await post('v1', config('v1', { admissionReviewVersions: ['v1'] }))).status).toBe(422);
    for (const sideEffects of ['Unknown', 'Some'])
      expect((await post('v1', config('v1', { admissionReviewVersions: ['v1'], sideEffects }))).status).toBe(422);
    expect((await post('v1', config('v1', { sideEffects: 'None' }))).status).toBe(422);
    const ok = await post('v1', config('v1', { sideEffects: 'None', admissionReviewVersions: ['v1'] }));
    expect(ok.status).toBe(201);
    expect((ok.body['webhooks'] as Record<string, unknown>[])[0]).toMatchObject({
      failurePolicy: 'Fail',
      timeoutSeconds: 10,
      matchPolicy: 'Equivalent',
    });
    // v1beta1 is not served at 1.24.
    expect((await post('v1beta1', config('v1beta1', {}))).status).toBe(404);
  });

  it('v1beta1 (release 1.21) allows Some and Unknown, defaulting sideEffects Unknown, failurePolicy Ignore, timeoutSeconds 30', async () => {
    server = await referenceServer({ release: '1.21' });
    const r = await post('v1beta1', config('v1beta1', {}));
    expect(r.status).toBe(201);
    expect((r.body['webhooks'] as Record<string, unknown>[])[0]).toMatchObject({
      sideEffects: 'Unknown',
      failurePolicy: 'Ignore',
      timeoutSeconds: 30,
      admissionReviewVersions: ['v1beta1'],
    });
    expect((await post('v1beta1', { ...config('v1beta1', { sideEffects: 'Some' }), metadata: { name: 'some' } })).status).toBe(201);
    expect((await post('v1beta1', { ...config('v1beta1', { sideEffects: 'Maybe' }), metadata: { name: 'maybe' } })).status).toBe(422);
  });

  it('a dry-run matching a webhook with sideEffects Unknown fails with 400 without calling it; a None webhook unreachable under Ignore lets it through', async () => {
    server = await referenceServer({ release: '1.21' });
    await fetch(`${server.url}/api/v1/namespaces`, {
      method: 'POST',
      body: JSON.stringify({ metadata: { name: 'n' } }),
      headers: { 'content-type': 'application/json' },
    });
    expect((await post('v1beta1', config('v1beta1', {}))).status).toBe(201);
    const cm = { metadata: { name: 'x' } };
    const dry = await fetch(`${server.url}/api/v1/namespaces/n/configmaps?dryRun=All`, {
      method: 'POST',
      body: JSON.stringify(cm),
      headers: { 'content-type': 'application/json' },
    });
    expect(dry.status).toBe(400);
    expect(((await dry.json()) as { message: string }).message).toContain('does not support dry run');
    // The real request calls it; it cannot be reached, and v1beta1's default failurePolicy is Ignore.
    const real = await fetch(`${server.url}/api/v1/namespaces/n/configmaps`, {
      method: 'POST',
      body: JSON.stringify(cm),
      headers: { 'content-type': 'application/json' },
    });
    expect(real.status).toBe(201);
  });

  it('a PATCH is validated on the object it would store: v1 refuses sideEffects Unknown patched in, and keeps the stored one', async () => {
    server = await referenceServer();
    expect((await post('v1', config('v1', { sideEffects: 'None', admissionReviewVersions: ['v1'] }))).status).toBe(201);
    const at = `${server.url}/apis/${group}/v1/validatingwebhookconfigurations/c-v1`;
    const patch = (webhook: Record<string, unknown>) =>
      fetch(at, {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ webhooks: [{ ...config('v1', {}).webhooks[0], admissionReviewVersions: ['v1'], ...webhook }] }),
      });
    const refused = await patch({ sideEffects: 'Unknown' });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { message: string }).message).toContain('sideEffects');
    const stored = (await (await fetch(at)).json()) as { webhooks: Record<string, unknown>[] };
    expect(stored.webhooks[0]).toMatchObject({ sideEffects: 'None' });
    expect((await patch({ sideEffects: 'NoneOnDryRun', timeoutSeconds: 5 })).status).toBe(200);
    expect(((await (await fetch(at)).json()) as { webhooks: Record<string, unknown>[] }).webhooks[0]).toMatchObject({
      sideEffects: 'NoneOnDryRun',
      timeoutSeconds: 5,
    });
  });
});

describe('mutating webhooks', () => {
  const json = { 'content-type': 'application/json' };
  const send = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${server!.url}${path}`, {
      method,
      headers: json,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: r.status, body: (await r.json()) as { metadata?: { labels?: Record<string, string> }; message?: string } };
  };
  const register = async (kind: 'Mutating' | 'Validating', name: string, id: string, extra: Record<string, unknown> = {}) => {
    const r = await send('POST', `/apis/${group}/v1/${kind.toLowerCase()}webhookconfigurations`, {
      apiVersion: `${group}/v1`,
      kind: `${kind}WebhookConfiguration`,
      metadata: { name },
      webhooks: [
        {
          name: `${name}.example.test`,
          clientConfig: { url: hook!.url(id), caBundle: hook!.caBundle },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          failurePolicy: 'Ignore',
          rules: [{ operations: ['CREATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
          ...extra,
        },
      ],
    });
    expect(r.status).toBe(201);
  };
  const cm = (name: string) => ({ metadata: { name, labels: { a: 'b' } }, data: { k: 'v' } });
  const start = async () => {
    server = await referenceServer();
    hook = await startAdmissionWebhook('deny');
    expect((await send('POST', '/api/v1/namespaces', { metadata: { name: 'n' } })).status).toBe(201);
  };

  it('a dry-run answers the mutated object (webhook called with dryRun true) and stores nothing; the real create stores the mutation', async () => {
    await start();
    hook!.mutate('m', { mutated: 'yes' });
    await register('Mutating', 'm', 'm');
    const dry = await send('POST', '/api/v1/namespaces/n/configmaps?dryRun=All', cm('x'));
    expect(dry.status).toBe(201);
    expect(dry.body.metadata?.labels).toEqual({ a: 'b', mutated: 'yes' });
    expect(hook!.reviews().map((r) => r.dryRun)).toEqual([true]);
    expect((await send('GET', '/api/v1/namespaces/n/configmaps/x')).status).toBe(404);
    const real = await send('POST', '/api/v1/namespaces/n/configmaps', cm('x'));
    expect(real.status).toBe(201);
    expect(real.body.metadata?.labels).toEqual({ a: 'b', mutated: 'yes' });
    expect((await send('GET', '/api/v1/namespaces/n/configmaps/x')).body.metadata?.labels).toEqual({ a: 'b', mutated: 'yes' });
    expect(hook!.reviews().map((r) => r.dryRun)).toEqual([true, false]);
  });

  it('runs before the validating webhooks, which see the mutated object', async () => {
    await start();
    hook!.mutate('m', { deny: 'yes' });
    await register('Mutating', 'm', 'm');
    await register('Validating', 'v', 'v');
    const r = await send('POST', '/api/v1/namespaces/n/configmaps', cm('x'));
    expect(r.status).toBe(403);
    expect(hook!.reviews().map((x) => [x.hook, x.labels['deny']])).toEqual([
      ['m', undefined],
      ['v', 'yes'],
    ]);
    expect((await send('GET', '/api/v1/namespaces/n/configmaps/x')).status).toBe(404);
  });

  it('a patch that does not apply is a 500 even under failurePolicy Ignore, dry-run or not, and nothing is stored; so is a patch on a DELETE', async () => {
    await start();
    hook!.patchWith('bad', [{ op: 'remove', path: '/spec/absent' }]);
    await register('Mutating', 'bad', 'bad', { objectSelector: { matchLabels: { bad: 'yes' } } });
    const bad = { ...cm('x'), metadata: { name: 'x', labels: { bad: 'yes' } } };
    for (const query of ['?dryRun=All', '']) {
      const r = await send('POST', `/api/v1/namespaces/n/configmaps${query}`, bad);
      expect(r.status).toBe(500);
      expect(r.body.message).toContain('does not apply');
    }
    expect((await send('GET', '/api/v1/namespaces/n/configmaps/x')).status).toBe(404);
    // A DELETE: a webhook answering any patch is refused (upstream: "attempted to modify the object").
    expect((await send('POST', '/api/v1/namespaces/n/configmaps', cm('y'))).status).toBe(201);
    hook!.patchWith('del', [{ op: 'add', path: '/metadata/labels/z', value: 'z' }]);
    await register('Mutating', 'del', 'del', {
      rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    });
    const del = await send('DELETE', '/api/v1/namespaces/n/configmaps/y');
    expect(del.status).toBe(500);
    expect(del.body.message).toContain('attempted to modify the object');
    expect((await send('GET', '/api/v1/namespaces/n/configmaps/y')).status).toBe(200);
  });

  it('a dry-run matching a mutating webhook with sideEffects Unknown (v1beta1, release 1.21) fails with 400 without calling it', async () => {
    server = await referenceServer({ release: '1.21' });
    hook = await startAdmissionWebhook('deny');
    hook.mutate('u', { mutated: 'yes' });
    await send('POST', '/api/v1/namespaces', { metadata: { name: 'n' } });
    const r = await send('POST', `/apis/${group}/v1beta1/mutatingwebhookconfigurations`, {
      metadata: { name: 'u' },
      webhooks: [
        {
          name: 'u.example.test',
          clientConfig: { url: hook.url('u'), caBundle: hook.caBundle },
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        },
      ],
    });
    expect(r.status).toBe(201);
    const dry = await send('POST', '/api/v1/namespaces/n/configmaps?dryRun=All', cm('x'));
    expect(dry.status).toBe(400);
    expect(dry.body.message).toContain('does not support dry run');
    expect(hook.reviews()).toEqual([]);
    const real = await send('POST', '/api/v1/namespaces/n/configmaps', cm('x'));
    expect(real.body.metadata?.labels).toEqual({ a: 'b', mutated: 'yes' });
  });
});
